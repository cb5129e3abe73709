// Edge cases of the metric contract (docs/metrics.md, Edge cases), each worked out by hand.
import { describe, expect, it } from 'vitest';
import {
  evaluate,
  hitAtK,
  precisionAtK,
  recallAtK,
  averagePrecision,
  rPrecision,
  ndcgAtK,
  reciprocalRank,
} from '../../../src/index.js';

describe('k', () => {
  it('omitted or ≤ 0 means the whole list (AI4J)', () => {
    for (const k of [undefined, 0, -3]) {
      const result = evaluate(['a', 'b', 'c'], ['a'], k);
      expect(result.k).toBe(3);
      expect(result.evaluatedAtK).toBe(3);
      expect(result.precisionAtK).toBeCloseTo(1 / 3, 15);
    }
  });

  it('larger than the list: precision still divides by k (trec_eval), evaluatedAtK is the list length', () => {
    const result = evaluate(['a', 'b'], ['a', 'b'], 10);
    expect(result.evaluatedAtK).toBe(2);
    expect(result.precisionAtK).toBe(0.2);
    expect(result.recallAtK).toBe(1);
  });

  it("precisionDenominator 'retrieved' divides by the hits evaluated (AI4J, LlamaIndex)", () => {
    expect(evaluate(['a', 'b'], ['a'], { k: 10, precisionDenominator: 'retrieved' }).precisionAtK).toBe(0.5);
  });
});

describe('degenerate input never throws and gives 0', () => {
  it('empty hits', () => {
    const result = evaluate([], ['a', 'b'], 5);
    expect(result).toMatchObject({
      precisionAtK: 0,
      recallAtK: 0,
      f1AtK: 0,
      hitAtK: 0,
      reciprocalRankAtK: 0,
      ndcgAtK: 0,
      averagePrecisionAtK: 0,
      rPrecision: 0,
      evaluatedAtK: 0,
      retrievedCount: 0,
      relevantCount: 2,
    });
    expect(result.unmatchedRelevantIds).toEqual(['a', 'b']);
  });

  it('empty hits and no k', () => {
    expect(evaluate([], ['a'])).toMatchObject({ k: 0, precisionAtK: 0, recallAtK: 0, ndcgAtK: 0 });
  });

  it('no relevant ids: recall, AP, R-precision and nDCG are 0, not NaN', () => {
    expect(evaluate(['a', 'b'], [], 2)).toMatchObject({
      recallAtK: 0,
      precisionAtK: 0,
      averagePrecisionAtK: 0,
      rPrecision: 0,
      ndcgAtK: 0,
      f1AtK: 0,
      relevantCount: 0,
    });
  });

  it('null and blank annotation ids are dropped (AI4J)', () => {
    expect(evaluate(['a'], ['a', null, '  ', undefined, ''], 1).relevantCount).toBe(1);
  });
});

describe('graded relevance and minGrade', () => {
  const graded = { a: 3, b: 1, c: 0, d: 2 };

  it('minGrade decides relevance for the binary measures (trec_eval -l)', () => {
    // ranking a b c d: with minGrade 2 the relevant ids are a and d.
    const result = evaluate(['b', 'a', 'c', 'd'], graded, { k: 2, minGrade: 2 });
    expect(result.relevantCount).toBe(2);
    expect(result.truePositiveCount).toBe(1);
    expect(result.reciprocalRankAtK).toBe(0.5);
  });

  it('nDCG ignores minGrade by default and applies it with applyMinGradeToNdcg (ranx)', () => {
    // ranking b, a: DCG@2 = 1/1 + 3/log2(3); ideal 3, 2 → 3 + 2/log2(3).
    const expectedDefault = (1 + 3 / Math.log2(3)) / (3 + 2 / Math.log2(3));
    expect(evaluate(['b', 'a'], graded, { k: 2, minGrade: 2 }).ndcgAtK).toBeCloseTo(expectedDefault, 14);
    // with minGrade applied b gains 0: DCG = 3/log2(3); ideal unchanged (a 3, d 2).
    const expectedApplied = 3 / Math.log2(3) / (3 + 2 / Math.log2(3));
    expect(evaluate(['b', 'a'], graded, { k: 2, minGrade: 2, applyMinGradeToNdcg: true }).ndcgAtK).toBeCloseTo(
      expectedApplied,
      14,
    );
  });

  it('exponential gain is 2^grade − 1', () => {
    // ranking b, a at k=2: DCG = 1 + 7/log2(3); ideal a(7), d(3) → 7 + 3/log2(3).
    const expected = (1 + 7 / Math.log2(3)) / (7 + 3 / Math.log2(3));
    expect(ndcgAtK(['b', 'a'], graded, 2, { gain: 'exponential' })).toBeCloseTo(expected, 14);
  });

  it('a grade ≤ 0 is judged non-relevant and gains nothing', () => {
    expect(evaluate(['c'], { c: 0, x: -1 }, 1)).toMatchObject({ relevantCount: 0, ndcgAtK: 0, hitAtK: 0 });
  });

  it('Map and Set annotations equal their object and array forms', () => {
    const ranking = ['b', 'x', 'a'];
    expect(evaluate(ranking, new Map(Object.entries(graded)), 3)).toEqual(evaluate(ranking, graded, 3));
    expect(evaluate(ranking, new Set(['a', 'b']), 3)).toEqual(evaluate(ranking, ['a', 'b'], 3));
  });

  it('nDCG without k is trec_eval ndcg (ideal uncut); with k it is ndcg_cut', () => {
    // one hit a(1) ranked first, three relevant ids of grade 1.
    const uncut = evaluate(['a'], ['a', 'b', 'c']).ndcgAtK; // 1 / (1 + 1/log2 3 + 1/2)
    expect(uncut).toBeCloseTo(1 / (1 + 1 / Math.log2(3) + 0.5), 14);
    expect(evaluate(['a'], ['a', 'b', 'c'], 1).ndcgAtK).toBe(1);
  });
});

describe('duplicates', () => {
  it('a repeat gains nothing, takes its slot and is counted', () => {
    const result = evaluate(['a', 'a', 'b'], ['a', 'b'], 2);
    expect(result).toMatchObject({ duplicateCount: 1, truePositiveCount: 1, precisionAtK: 0.5, recallAtK: 0.5 });
  });

  it('an id repeated among the relevant ids is one relevant id (first-seen order for the unmatched)', () => {
    // Relevant c, a, x (3); hits a at rank 1 and c at rank 3, a again at rank 4: AP@5 = (1/1 + 2/3) / 3.
    const result = evaluate(['a', 'b', 'c', 'a', 'd'], ['c', 'a', 'x', 'c', 'a'], 5);
    expect(result).toMatchObject({
      relevantCount: 3,
      truePositiveCount: 2,
      duplicateCount: 1,
      precisionAtK: 0.4,
      reciprocalRankAtK: 1,
      unmatchedRelevantIds: ['x'],
    });
    expect(result.recallAtK).toBeCloseTo(2 / 3, 14);
    expect(result.averagePrecisionAtK).toBeCloseTo((1 + 2 / 3) / 3, 14);
    expect(evaluate(['x', 'z', 'y'], ['y', 'x', 'y', 'w', 'x', 'v'], 3).unmatchedRelevantIds).toEqual(['w', 'v']);
  });

  it("duplicates: 'error' throws, naming the index and the key", () => {
    expect(() => evaluate(['a', 'b', 'a'], ['a'], { duplicates: 'error' })).toThrow(/hits\[2\] repeats the key "a"/);
  });
});

describe('sortBy score', () => {
  it('ranks by score descending and breaks ties by key descending in byte order (trec_eval)', () => {
    const hits = [
      { id: 'a', score: 1 },
      { id: 'c', score: 2 },
      { id: 'b', score: 2 },
      { id: 'z', score: -5 },
    ];
    // order: c, b (tie: c > b), a, z
    expect(reciprocalRank(hits, ['b'], { sortBy: 'score' })).toBe(0.5);
    expect(reciprocalRank(hits, ['a'], { sortBy: 'score' })).toBeCloseTo(1 / 3, 15);
  });

  it('orders astral characters above U+E000–U+FFFF as UTF-8 bytes do', () => {
    // '\u{1F600}' (F0 9F 98 80) > '\uFF21' (EF BC A1) in UTF-8, though not in UTF-16 code units.
    const hits = [
      { id: '\uFF21', score: 1 },
      { id: '\u{1F600}', score: 1 },
    ];
    expect(reciprocalRank(hits, ['\u{1F600}'], { sortBy: 'score' })).toBe(1);
  });
});

describe('single-measure functions', () => {
  const ranking = ['x', 'a', 'y', 'b', 'z'];
  const relevant = ['a', 'b', 'c'];

  it('agree with hand-computed values', () => {
    expect(hitAtK(ranking, relevant, 1)).toBe(0);
    expect(hitAtK(ranking, relevant, 2)).toBe(1);
    expect(precisionAtK(ranking, relevant, 4)).toBe(0.5);
    expect(recallAtK(ranking, relevant, 4)).toBeCloseTo(2 / 3, 15);
    // AP = (1/2 + 2/4) / 3
    expect(averagePrecision(ranking, relevant)).toBeCloseTo(1 / 3, 15);
    // AP@2 = (1/2) / 3 (divided by R, not min(R, k))
    expect(averagePrecision(ranking, relevant, { k: 2 })).toBeCloseTo(1 / 6, 15);
    // top R = 3: x a y → 1 relevant
    expect(rPrecision(ranking, relevant)).toBeCloseTo(1 / 3, 15);
    expect(reciprocalRank(ranking, relevant, { k: 1 })).toBe(0);
  });
});
