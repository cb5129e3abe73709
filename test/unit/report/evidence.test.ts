// The evidence of a move, worked out by hand on small rankings: which relevant keys left, entered, moved.
import { describe, expect, it } from 'vitest';

import type { RankedHit } from '../../../src/baseline/file/types.js';
import { formatKeyMove, rankingEvidence } from '../../../src/report/evidence.js';

const hits = (...spec: (string | [string, number])[]): RankedHit[] =>
  spec.map((hit) => (typeof hit === 'string' ? { key: hit } : { key: hit[0], grade: hit[1] }));

describe('rankingEvidence', () => {
  // before: refunds#2 (rel 2) at 1, billing#1 (rel 1) at 2, faq#4 (judged 0) at 3, misc at 4
  // after:  rate-limits#1 (rel 1) at 1, faq#4 at 2, misc at 3, x at 4, y at 5, z at 6, refunds#2 at 7
  const before = hits(['refunds#2', 2], ['billing#1', 1], ['faq#4', 0], 'misc');
  const after = hits(['rate-limits#1', 1], ['faq#4', 0], 'misc', 'x', 'y', 'z', ['refunds#2', 2]);

  it('names the relevant key that left, the one that entered, the one that moved 1 → 7, and what ranks above it now', () => {
    expect(rankingEvidence(before, after)).toEqual({
      left: [{ key: 'billing#1', grade: 1, before: 2, after: undefined }],
      entered: [{ key: 'rate-limits#1', grade: 1, before: undefined, after: 1 }],
      moved: [{ key: 'refunds#2', grade: 2, before: 1, after: 7 }],
      nowAbove: ['faq#4', 'misc', 'x', 'y', 'z'],
    });
  });

  it('prints each move as the reports do', () => {
    const evidence = rankingEvidence(before, after);
    expect(evidence.moved.map(formatKeyMove)).toEqual(['refunds#2 1 → 7']);
    expect(evidence.entered.map(formatKeyMove)).toEqual(['rate-limits#1 new at 1']);
    expect(evidence.left.map(formatKeyMove)).toEqual(['billing#1 left (was 2)']);
  });

  it('finds nothing when the relevant keys kept their places, whatever the others did', () => {
    expect(rankingEvidence(hits(['a', 1], 'b', 'c'), hits(['a', 1], 'c', 'b'))).toEqual({
      left: [],
      entered: [],
      moved: [],
      nowAbove: [],
    });
  });

  it('a relevant key that moved up is a move with nothing above it named', () => {
    expect(rankingEvidence(hits('b', ['a', 1]), hits(['a', 1], 'b'))).toEqual({
      left: [],
      entered: [],
      moved: [{ key: 'a', grade: 1, before: 2, after: 1 }],
      nowAbove: [],
    });
  });
});
