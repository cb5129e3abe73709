// nDCG never becomes NaN: a grade whose gain could overflow the DCG sum (exponential gain with grade
// 1100, linear grades near 1e308) is an error that names the judgment and its grade.
import { describe, expect, it } from 'vitest';
import { evaluate, evaluateMeasures, ndcgAtK, parseMeasure } from '../../../src/index.js';

describe('grades too large for nDCG', () => {
  it('exponential gain with grade 1100: a RangeError naming the id, the grade and the limit', () => {
    expect(() => evaluate(['a', 'b'], { a: 1100, b: 1 }, { gain: 'exponential' })).toThrow(RangeError);
    expect(() => evaluate(['a', 'b'], { a: 1100, b: 1 }, { gain: 'exponential' })).toThrow(
      /relevant\["a"\] has the grade 1100, too large for nDCG with gain 'exponential' \(at most 996/,
    );
    expect(() => ndcgAtK(['a'], new Map([['a', 1100]]), 1, { gain: 'exponential' })).toThrow(
      /relevant\.get\("a"\) has the grade 1100/,
    );
  });

  it('linear grades near 1e308: the same error, from evaluate and evaluateMeasures', () => {
    const relevant = { a: 1.5e308, b: 1.5e308 };
    expect(() => evaluate(['a', 'b'], relevant)).toThrow(
      /relevant\["a"\] has the grade 1\.5e\+308, too large for nDCG with gain 'linear' \(at most 1e\+300/,
    );
    expect(() => evaluateMeasures(['a', 'b'], relevant, [parseMeasure('ndcg@2')])).toThrow(
      /relevant\["a"\] has the grade 1\.5e\+308/,
    );
  });

  it('a grade a little under the limit still gives a finite nDCG', () => {
    const result = evaluate(['b', 'a'], { a: 996, b: 995 }, { gain: 'exponential' });
    // gains 2^995 − 1 at rank 1 and 2^996 − 1 at rank 2; ideal puts 2^996 − 1 first. ≈ (0.5 + 1/log2 3) / (1 + 0.5/log2 3)
    expect(result.ndcgAtK).toBeCloseTo((0.5 + 1 / Math.log2(3)) / (1 + 0.5 / Math.log2(3)), 12);
    expect(Number.isNaN(evaluate(['a'], { a: 1e300 }).ndcgAtK)).toBe(false);
  });
});
