// capped_recall@k, trec_eval's relative_P (BEIR's R_cap@k): relevant ids in the top k ÷ min(k, R), the
// most the top k can hold. Added as one entry of the measure table: it reads only existing running counts.
import { describe, expect, it } from 'vitest';
import { evaluate, evaluateMeasures, evaluateRun, parseMeasure } from '../../../src/index.js';

const cappedRecallAt = (hits: string[], relevant: string[], k: number) =>
  evaluateMeasures(hits, relevant, [{ name: 'capped_recall', k }])[`capped_recall@${k}`];

describe('capped_recall@k', () => {
  // Hits a, x, b, y; relevant a, b, c (R = 3).
  const hits = ['a', 'x', 'b', 'y'];
  const relevant = ['a', 'b', 'c'];

  it('is precision while k ≤ R', () => {
    expect(cappedRecallAt(hits, relevant, 2)).toBe(0.5); // a of a, x: 1 ÷ min(2, 3)
  });

  it('is recall once k ≥ R', () => {
    expect(cappedRecallAt(hits, relevant, 4)).toBeCloseTo(2 / 3, 15); // a, b ÷ min(4, 3)
  });

  it('divides by the cutoff, not by the hits returned, when the list is shorter (trec_eval)', () => {
    // 2 relevant in 4 hits at k = 10: 2 ÷ min(10, 3); precision@10 would be 0.2.
    expect(cappedRecallAt(hits, relevant, 10)).toBeCloseTo(2 / 3, 15);
  });

  it('reaches 1 when the top k holds all it can: one relevant id at rank 3 of 5', () => {
    expect(cappedRecallAt(['x', 'y', 'a', 'z', 'w'], ['a'], 5)).toBe(1); // precision@5 = 0.2
  });

  it('is 0 with no relevant id and with no hits', () => {
    expect(cappedRecallAt(['a'], [], 5)).toBe(0);
    expect(cappedRecallAt([], ['a'], 5)).toBe(0);
    expect(evaluate([], ['a']).values.capped_recall).toBe(0); // k = the 0 hits
  });

  it("is in evaluate().values with no other edit, at evaluate()'s k", () => {
    expect(evaluate(hits, relevant, 2).values.capped_recall).toBe(0.5);
    expect(evaluate(hits, relevant, 4).values.capped_recall).toBeCloseTo(2 / 3, 15);
  });

  it('averages over a run like every measure', () => {
    const set = [
      { id: 'q1', query: 'one', relevant: ['a', 'b', 'c'] },
      { id: 'q2', query: 'two', relevant: ['a'] },
    ];
    const run = { q1: hits, q2: ['x', 'y', 'a'] };
    // q1: 1 ÷ min(2, 3) = 0.5; q2: 0 ÷ min(2, 1) = 0.
    expect(evaluateRun(set, run, { measures: ['capped_recall@2'] }).mean['capped_recall@2']).toBe(0.25);
  });

  it('is read in its trec_eval and BEIR spellings, and needs a cutoff', () => {
    for (const spelling of ['capped_recall@5', 'relative_P_5', 'relative_P.5', 'R_cap@5']) {
      expect(parseMeasure(spelling), spelling).toEqual({ name: 'capped_recall', k: 5 });
    }
    expect(() => parseMeasure('relative_P')).toThrow('capped_recall needs a cutoff, e.g. capped_recall@5');
  });
});
