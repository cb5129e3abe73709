// What a recorded question keeps about its judgments: a fingerprint that changes exactly when the
// judgments as evaluated change, and the unjudged hits in a measure's top k.
import { describe, expect, it } from 'vitest';

import { auditJudgments } from '../../../src/core/evaluate.js';
import { unjudgedAtCutoff } from '../../../src/core/judgment-audit.js';

const fingerprint = (relevant: Parameters<typeof auditJudgments>[1], options = {}): string =>
  auditJudgments([], relevant, options).fingerprint;

describe('judgments fingerprint', () => {
  it('is 8 hex characters, the same for the same judgments in any shape or order', () => {
    const asIds = fingerprint(['b', 'a']);
    expect(asIds).toMatch(/^[0-9a-f]{8}$/);
    expect(fingerprint(['a', 'b'])).toBe(asIds);
    expect(fingerprint(new Set(['a', 'b']))).toBe(asIds);
    expect(fingerprint({ b: 1, a: 1 })).toBe(asIds);
    expect(
      fingerprint(
        new Map([
          ['a', 1],
          ['b', 1],
        ]),
      ),
    ).toBe(asIds);
  });

  it('changes with an id, a grade or the minimum grade', () => {
    const base = fingerprint({ a: 2, b: 1 });
    expect(fingerprint({ a: 2, b: 1, c: 1 })).not.toBe(base);
    expect(fingerprint({ a: 2 })).not.toBe(base);
    expect(fingerprint({ a: 1, b: 1 })).not.toBe(base);
    expect(fingerprint({ a: 2, b: 0 })).not.toBe(base);
    expect(fingerprint({ a: 2, b: 1 }, { minGrade: 2 })).not.toBe(base);
    // Options that do not change the judgments leave it as it is.
    expect(fingerprint({ a: 2, b: 1 }, { gain: 'exponential', k: 3 })).toBe(base);
  });

  it('reads the judgments as evaluated: after document granularity', () => {
    const chunks = fingerprint(['doc-1#chunk-0', 'doc-1#chunk-3'], { granularity: 'document' });
    expect(chunks).toBe(fingerprint(['doc-1'], { granularity: 'document' }));
    expect(chunks).not.toBe(fingerprint(['doc-1#chunk-0', 'doc-1#chunk-3']));
  });
});

describe('unjudged hits', () => {
  // Ranks: a judged relevant, x unjudged, b judged 0 (a judgment), y unjudged, x again, z unjudged.
  const audit = auditJudgments(['a', 'x', 'b', 'y', 'x', 'z'], { a: 1, b: 0 });

  it('lists each unjudged key once, best rank first, with its rank', () => {
    expect(audit.unjudgedIds).toEqual(['x', 'y', 'z']);
    expect(audit.unjudgedRanks).toEqual([2, 4, 6]);
  });

  it('counts those within a cutoff; no cutoff is the whole ranking', () => {
    expect(unjudgedAtCutoff(audit, 1)).toEqual({ ids: [], count: 0 });
    expect(unjudgedAtCutoff(audit, 3)).toEqual({ ids: ['x'], count: 1 });
    expect(unjudgedAtCutoff(audit, 5)).toEqual({ ids: ['x', 'y'], count: 2 });
    expect(unjudgedAtCutoff(audit, undefined)).toEqual({ ids: ['x', 'y', 'z'], count: 3 });
  });

  it('keeps at most 5 ids and the full count', () => {
    const many = auditJudgments(['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'r'], ['r']);
    expect(unjudgedAtCutoff(many, 10)).toEqual({ ids: ['u1', 'u2', 'u3', 'u4', 'u5'], count: 7 });
  });

  it('collapses chunks to documents under document granularity', () => {
    const documents = auditJudgments(['d1#chunk-0', 'd2#chunk-1', 'd1#chunk-2', 'd3#chunk-0'], ['d1'], {
      granularity: 'document',
    });
    expect(documents.unjudgedIds).toEqual(['d2', 'd3']);
    expect(documents.unjudgedRanks).toEqual([2, 3]);
  });
});

describe('positive-only judgments', () => {
  it('holds for ids alone or grades that all reach the minimum, not once a judgment is below it', () => {
    expect(auditJudgments(['a', 'x'], ['a']).positiveOnly).toBe(true);
    expect(auditJudgments(['a', 'x'], { a: 2, b: 1 }).positiveOnly).toBe(true);
    expect(auditJudgments(['a', 'x'], { a: 1, b: 0 }).positiveOnly).toBe(false);
    // With minGrade 2 a grade 1 is a judgment that the key is not relevant.
    expect(auditJudgments(['a', 'x'], { a: 2, b: 1 }, { minGrade: 2 }).positiveOnly).toBe(false);
  });
});

describe('top ranked keys', () => {
  it('the first ten keys with the grade of each judged one, repeats of a key included', () => {
    // By hand: a (grade 2), x (unjudged), a again (a repeat keeps its grade), b (0: judged non-relevant), x again.
    const audit = auditJudgments(['a', 'x', 'a', 'b', 'x'], { a: 2, b: 0, c: 1 });
    expect(audit.topRanked).toEqual([
      { key: 'a', grade: 2 },
      { key: 'x' },
      { key: 'a', grade: 2 },
      { key: 'b', grade: 0 },
      { key: 'x' },
    ]);
    expect(audit.unjudgedIds).toEqual(['x']);
    expect(audit.unjudgedRanks).toEqual([2]);
  });

  it('stop at ten, and read keys as evaluated (objects, document granularity)', () => {
    const hits = Array.from({ length: 12 }, (_, index) => ({ id: `d${index}#chunk-${index % 2}` }));
    const top = auditJudgments(hits, ['d3'], { granularity: 'document' }).topRanked;
    expect(top).toHaveLength(10);
    expect(top.slice(2, 5)).toEqual([{ key: 'd2' }, { key: 'd3', grade: 1 }, { key: 'd4' }]);
  });
});
