import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bootstrapMeanInterval } from '../../../src/core/stats.js';

describe('bootstrapMeanInterval: intervals worked out from the exact bootstrap distribution', () => {
  // Values 2, 4, 6: a resample of three is 2·(a₁ + a₂ + a₃)/3 with aᵢ uniform on {1, 2, 3}. The sum
  // S = a₁ + a₂ + a₃ takes 3…9 with counts 1, 3, 6, 7, 6, 3, 1 out of 27, so its CDF is
  // 0.037, 0.148, 0.370, 0.630, 0.852, 0.963, 1. With 10,000 resamples the empirical quantiles land
  // deep inside these steps, where neighbouring order statistics are equal.
  it('50%: quartiles fall on S = 5 and S = 7 → [10/3, 14/3]', () => {
    const interval = bootstrapMeanInterval([2, 4, 6], { confidence: 0.5 });
    expect(interval.mean).toBe(4);
    expect(interval.lower).toBeCloseTo(10 / 3, 12);
    expect(interval.upper).toBeCloseTo(14 / 3, 12);
  });

  it('95%: the 2.5% and 97.5% points fall on S = 3 and S = 9 → [2, 6]', () => {
    const interval = bootstrapMeanInterval([2, 4, 6]);
    expect(interval.lower).toBeCloseTo(2, 12);
    expect(interval.upper).toBeCloseTo(6, 12);
  });

  it('values 0 and 1: means are 0, ½, 1 with probabilities ¼, ½, ¼ → 95% interval [0, 1]', () => {
    const interval = bootstrapMeanInterval([0, 1]);
    expect(interval).toMatchObject({ mean: 0.5, lower: 0, upper: 1 });
  });

  it('cuts between order statistics by linear interpolation (R type 7): values 0, 1 with 2 resamples at 50%', () => {
    // Each resample mean is 0, ½ or 1. With two sorted means m₁ ≤ m₂ the 25% and 75% points are
    // m₁ + ¼(m₂ − m₁) and m₁ + ¾(m₂ − m₁), so the interval is one of (0, 0), (⅛, ⅜), (¼, ¾), (½, ½),
    // (⅝, ⅞), (1, 1). Across 40 seeds every interval must be one of these, and the interpolated ones occur.
    const allowed = ['0,0', '0.125,0.375', '0.25,0.75', '0.5,0.5', '0.625,0.875', '1,1'];
    const seen = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const { lower, upper } = bootstrapMeanInterval([0, 1], { resamples: 2, confidence: 0.5, seed });
      seen.add(`${lower},${upper}`);
    }
    expect([...seen].filter((pair) => !allowed.includes(pair))).toEqual([]);
    expect(seen.has('0.25,0.75') || seen.has('0.125,0.375') || seen.has('0.625,0.875')).toBe(true);
  });

  it('one value → the degenerate interval [v, v]', () => {
    expect(bootstrapMeanInterval([0.7])).toMatchObject({ mean: 0.7, lower: 0.7, upper: 0.7 });
  });

  it('agrees with the normal approximation on a large even sample: 0, 0.01, …, 0.99', () => {
    // Mean 0.495; plug-in standard deviation √((100² − 1)/12) / 100 = 0.288661; standard error
    // 0.0288661; 95% normal interval 0.495 ± 1.959964 · 0.0288661 = [0.438424, 0.551576].
    const values = Array.from({ length: 100 }, (_, i) => i / 100);
    const interval = bootstrapMeanInterval(values);
    expect(interval.mean).toBeCloseTo(0.495, 12);
    expect(Math.abs(interval.lower - 0.438424)).toBeLessThan(0.003);
    expect(Math.abs(interval.upper - 0.551576)).toBeLessThan(0.003);
  });
});

describe('bootstrapMeanInterval: reproducibility', () => {
  it.each([
    // A resample of four values draws indices floor(u · 4 / 2^32) from the first four outputs u of the
    // seeded xoshiro128** stream (random.test.ts has them from an independent C implementation):
    // seed 42 gives indices 0, 3, 0, 0; seed 0 gives 1, 0, 2, 3; seed 2^32 − 1 gives 3, 1, 1, 2.
    [42, (1 + 1000 + 1 + 1) / 4],
    [0, (10 + 1 + 100 + 1000) / 4],
    [4294967295, (1000 + 10 + 10 + 100) / 4],
  ])('seed %i: one resample of [1, 10, 100, 1000] is the mean of the documented draws, %f', (seed, expected) => {
    const interval = bootstrapMeanInterval([1, 10, 100, 1000], { resamples: 1, seed });
    expect(interval.lower).toBe(expected);
    expect(interval.upper).toBe(expected);
  });

  const values = [0.1, 0.9, 0.35, 0.6, 0.2, 0.75, 0.5, 0.05];

  it('carries confidence, resamples, seed and method, with the documented defaults', () => {
    expect(bootstrapMeanInterval(values)).toMatchObject({
      confidence: 0.95,
      resamples: 10_000,
      seed: 42,
      method: 'bootstrap-percentile',
    });
  });

  it('the same seed gives the same interval; another seed a different one', () => {
    const first = bootstrapMeanInterval(values, { seed: 3, resamples: 2000 });
    expect(bootstrapMeanInterval(values, { seed: 3, resamples: 2000 })).toEqual(first);
    const other = bootstrapMeanInterval(values, { seed: 4, resamples: 2000 });
    expect([other.lower, other.upper]).not.toEqual([first.lower, first.upper]);
  });

  it('property: same seed → same result, and lower ≤ upper within [min, max] of the values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        (sample, seed, confidence) => {
          const options = { seed, confidence, resamples: 200 };
          const first = bootstrapMeanInterval(sample, options);
          const again = bootstrapMeanInterval(sample, options);
          const slack = 1e-9 * Math.max(1, ...sample.map(Math.abs));
          return (
            JSON.stringify(first) === JSON.stringify(again) &&
            first.lower <= first.upper &&
            first.lower >= Math.min(...sample) - slack &&
            first.upper <= Math.max(...sample) + slack
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('bootstrapMeanInterval: bad input', () => {
  it.each([
    [() => bootstrapMeanInterval([]), RangeError, /values is empty; a mean and its interval need at least one value/],
    [
      () => bootstrapMeanInterval([0.1, Number.NaN]),
      RangeError,
      /values\[1\] is NaN; every value must be a finite number/,
    ],
    [() => bootstrapMeanInterval([Infinity]), RangeError, /values\[0\] is Infinity/],
    [() => bootstrapMeanInterval('0.5' as unknown as number[]), TypeError, /values must be an array of numbers/],
    [
      () => bootstrapMeanInterval([1], { resamples: 0 }),
      RangeError,
      /options\.resamples must be an integer from 1 to 10000000, got 0/,
    ],
    [() => bootstrapMeanInterval([1], { resamples: 10.5 }), RangeError, /options\.resamples .* got 10\.5/],
    [
      () => bootstrapMeanInterval([1], { seed: -1 }),
      RangeError,
      /options\.seed must be an integer from 0 to 4294967295, got -1/,
    ],
    [
      () => bootstrapMeanInterval([1], { confidence: 1.5 }),
      RangeError,
      /options\.confidence must be a number strictly between 0 and 1, got 1\.5/,
    ],
  ])('%#', (call, errorType, message) => {
    expect(call).toThrow(errorType);
    expect(call).toThrow(message);
  });
});
