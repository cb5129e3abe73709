import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pairedComparison, pairedRandomizationTest, pairedTTest, signTest } from '../../../src/core/stats.js';

const relativeError = (actual: number, expected: number) => Math.abs(actual - expected) / Math.abs(expected);

describe('signTest', () => {
  it('seed example: 5 wins, 0 losses → 2 × 0.5⁵ = 0.0625', () => {
    expect(signTest(5, 0)).toBe(0.0625);
  });

  it.each([
    // 2 · P(X ≤ k) for X ~ Binomial(n, ½), summed by hand from Pascal's triangle.
    [8, 2, 0.109375], // 2 · (1 + 10 + 45) / 1024 = 112/1024
    [7, 3, 0.34375], // 2 · (1 + 10 + 45 + 120) / 1024 = 352/1024
    [1, 0, 1], // 2 · ½ = 1
    [10, 10, 1], // a balanced split can never be significant
    [0, 0, 1], // no disagreements, no evidence
  ])('%i wins, %i losses → %f', (wins, losses, expected) => {
    expect(signTest(wins, losses)).toBe(expected);
  });

  // Large samples: expected values are the exact tail 2·Σᵢ₌₀ᵏ C(n, i) / 2ⁿ computed with Python's
  // big integers and fractions (math is exact; only the final conversion to a float rounds).
  it('is exact up to 53 disagreements: 20 wins, 33 losses → 0.09837064844049181 to the last bit', () => {
    expect(signTest(20, 33)).toBe(0.09837064844049181);
  });

  it.each([
    [11, 9, 0.8238029479980469],
    [20, 34, 0.07590472948910143], // first size computed in log space
    [100, 60, 0.001953728034064342],
    [60, 40, 0.05688793364098079],
    [600, 400, 2.7284641560660184e-10],
    [49_000, 51_000, 2.588716038346898e-10],
    [49_800, 50_200, 0.20703897176422484],
    [49_900, 50_100, 0.5291572940801932],
    [48_500, 51_500, 2.4384264313434573e-21],
    [45_000, 55_000, 8.600341645714696e-220],
  ])('%i wins, %i losses: within 1e-10 relative of the exact tail %f', (wins, losses, expected) => {
    expect(relativeError(signTest(wins, losses), expected)).toBeLessThan(1e-10);
  });

  it('underflows to 0 only where the exact value is below the smallest double (0 vs 100,000)', () => {
    expect(signTest(0, 100_000)).toBe(0); // exact: 2 / 2^100000
  });

  it('property: symmetric in wins and losses, and in (0, 1]', () => {
    fc.assert(
      // Up to 1000 pairs the smallest p, 2 · 2^−1000, is still a normal double.
      fc.property(fc.nat(500), fc.nat(500), (wins, losses) => {
        const p = signTest(wins, losses);
        return p === signTest(losses, wins) && p > 0 && p <= 1;
      }),
    );
  });

  it('property: one more win on the winning side never raises p', () => {
    fc.assert(
      fc.property(fc.nat(3000), fc.nat(3000), (a, b) => {
        const [wins, losses] = a >= b ? [a, b] : [b, a];
        return signTest(wins + 1, losses) <= signTest(wins, losses);
      }),
    );
  });

  it.each([
    [() => signTest(-1, 3), /wins must be a whole number ≥ 0 .*got -1/],
    [() => signTest(2, 0.5), /losses must be a whole number ≥ 0 .*got 0\.5/],
    [() => signTest(Number.NaN, 1), /wins .* got NaN/],
  ])('bad input %#', (call, message) => {
    expect(call).toThrow(RangeError);
    expect(call).toThrow(message);
  });
});

describe('pairedRandomizationTest: exact enumeration against hand enumeration', () => {
  it('differences 1, 2, 3: of the 8 sums ±1±2±3 = 6,4,2,0,0,−2,−4,−6 two reach |6| → p = 2/8', () => {
    const result = pairedRandomizationTest([0, 0, 0], [1, 2, 3]);
    expect(result).toEqual({ p: 0.25, observedDifference: 2, resamples: 8, seed: null, method: 'randomization-exact' });
  });

  it('differences 1, −2, 4: sums ±1±2±4 = ±1, ±3, ±5, ±7; six reach |3| → p = 6/8', () => {
    const result = pairedRandomizationTest([5, 5, 5], [6, 3, 9]);
    expect(result.p).toBe(0.75);
    expect(result.observedDifference).toBe(1);
  });

  it('differences 1, 1, 1, 1: only ++++ and −−−− reach |4| → p = 2/16, the sign test for 4–0', () => {
    expect(pairedRandomizationTest([0, 0, 0, 0], [1, 1, 1, 1]).p).toBe(0.125);
  });

  it('zero differences change nothing: 0, 1, 2, 3 still gives 2/8, enumerating the 3 non-zero ones', () => {
    const result = pairedRandomizationTest([4, 0, 0, 0], [4, 1, 2, 3]);
    expect(result).toMatchObject({ p: 0.25, resamples: 8, observedDifference: 1.5 });
  });

  it('all differences zero → p = 1', () => {
    expect(pairedRandomizationTest([0.3, 0.4], [0.3, 0.4]).p).toBe(1);
  });

  it('rounding does not make an exactly-zero difference look extreme: 0.1 + 0.2 − 0.3 ≠ 0 in floats', () => {
    // Exactly, the sums ±0.1±0.2±0.3 are 0.6, 0.4, 0.2, 0, 0, −0.2, −0.4, −0.6 and the observed sum is
    // 0, so every assignment is at least as extreme: p = 1.
    const result = pairedRandomizationTest([0, 0, 0.3], [0.1, 0.2, 0]);
    expect(result.p).toBe(1);
  });
});

describe('pairedRandomizationTest: Monte Carlo', () => {
  const before = [0.1, 0.5, 0.3, 0.8, 0.2, 0.6, 0.4, 0.7, 0.9, 0.05, 0.35, 0.55];
  const after = [0.3, 0.45, 0.6, 0.85, 0.5, 0.6, 0.35, 0.95, 0.88, 0.25, 0.6, 0.5];

  it('is within 4 standard errors of the exact p with 200,000 resamples', () => {
    const exact = pairedRandomizationTest(before, after, { exact: true });
    const monteCarlo = pairedRandomizationTest(before, after, { exact: false, resamples: 200_000, seed: 11 });
    expect(exact.method).toBe('randomization-exact');
    expect(monteCarlo.method).toBe('randomization-monte-carlo');
    const standardError = Math.sqrt((exact.p * (1 - exact.p)) / 200_000);
    expect(Math.abs(monteCarlo.p - exact.p)).toBeLessThan(4 * standardError + 1 / 200_000);
  });

  it('p = (extreme + 1)/(resamples + 1): never 0, and 1/(resamples + 1) when nothing else is as extreme', () => {
    // 40 differences of +1: only the all-plus and all-minus of 2^40 assignments reach |40|.
    const result = pairedRandomizationTest(new Array(40).fill(0), new Array(40).fill(1), { resamples: 999 });
    expect(result).toEqual({
      p: 1 / 1000,
      observedDifference: 1,
      resamples: 999,
      seed: 42,
      method: 'randomization-monte-carlo',
    });
  });

  it("'auto' switches to Monte Carlo above 16 non-zero differences", () => {
    const sixteen = pairedRandomizationTest(new Array(16).fill(0), new Array(16).fill(1));
    const seventeen = pairedRandomizationTest(new Array(17).fill(0), new Array(17).fill(1));
    expect(sixteen).toMatchObject({ method: 'randomization-exact', resamples: 65_536, p: 2 / 65_536 });
    expect(seventeen.method).toBe('randomization-monte-carlo');
  });

  it('the same seed gives the same p; the result carries seed and resamples', () => {
    const longBefore = Array.from({ length: 60 }, (_, i) => (i % 7) / 7);
    const longAfter = longBefore.map((value, i) => value + ((i % 5) - 1.8) / 20);
    const first = pairedRandomizationTest(longBefore, longAfter, { seed: 9, resamples: 3000 });
    expect(pairedRandomizationTest(longBefore, longAfter, { seed: 9, resamples: 3000 })).toEqual(first);
    expect(first).toMatchObject({ seed: 9, resamples: 3000 });
  });

  it('property: exact p on ±1 differences equals the sign test (two independent computations)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), (outcomes) => {
        const after = outcomes.map((win) => (win ? 1 : 0));
        const before = outcomes.map((win) => (win ? 0 : 1));
        const wins = outcomes.filter(Boolean).length;
        const p = pairedRandomizationTest(before, after).p;
        return Math.abs(p - signTest(wins, outcomes.length - wins)) < 1e-15;
      }),
    );
  });

  it('property: swapping before and after keeps p and negates the observed difference', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), {
          minLength: 1,
          maxLength: 30,
        }),
        (pairs) => {
          const before = pairs.map(([value]) => value);
          const after = pairs.map(([, value]) => value);
          const forward = pairedRandomizationTest(before, after, { resamples: 300 });
          const backward = pairedRandomizationTest(after, before, { resamples: 300 });
          return forward.p === backward.p && Math.abs(forward.observedDifference + backward.observedDifference) < 1e-12;
        },
      ),
      { numRuns: 50 },
    );
  });

  it.each([
    [() => pairedRandomizationTest([1, 2], [1]), RangeError, /before has 2 values but after has 1/],
    [() => pairedRandomizationTest([], []), RangeError, /before and after are empty/],
    [() => pairedRandomizationTest([1], [Number.NaN]), RangeError, /after\[0\] is NaN/],
    [() => pairedRandomizationTest([1], [2], { resamples: -5 }), RangeError, /options\.resamples .* got -5/],
    [() => pairedRandomizationTest([1], [2], { seed: 0.5 }), RangeError, /options\.seed .* got 0\.5/],
    [
      () => pairedRandomizationTest([1], [2], { exact: 'yes' as unknown as boolean }),
      TypeError,
      /options\.exact must be true, false or 'auto', got yes/,
    ],
    [
      () => pairedRandomizationTest(new Array(21).fill(0), new Array(21).fill(1), { exact: true }),
      RangeError,
      /options\.exact is true but there are 21 non-zero differences; exact enumeration is limited to 20/,
    ],
  ])('bad input %#', (call, errorType, message) => {
    expect(call).toThrow(errorType);
    expect(call).toThrow(message);
  });
});

describe('pairedTTest', () => {
  it('differences 1, 2, 3, 4, 5 → t = 4.2426, df 4, p = 0.013236', () => {
    // mean 3; squared deviations 4+1+0+1+4 = 10, variance 10/4 = 2.5, sd √2.5; standard error
    // √2.5/√5 = √0.5; t = 3/√0.5 = 3√2 = 4.242641. For 4 degrees of freedom the t CDF has the closed
    // form F(t) = ½ + (3/8)·(t/√(1 + t²/4))·(1 − t²/(12·(1 + t²/4))). Here t² = 18, 1 + t²/4 = 5.5,
    // t/√5.5 = 6/√11 and 1 − 18/66 = 8/11, so the two-sided p = 2·(1 − F) = 1 − (3/4)·(6/√11)·(8/11)
    // = 1 − 36/(11√11) = 0.0132356. (t tables, df 4: the two-sided 0.02 point is 3.747, the 0.01 point 4.604.)
    const result = pairedTTest([10, 20, 30, 40, 50], [11, 22, 33, 44, 55]);
    expect(result.t).toBeCloseTo(3 * Math.SQRT2, 12);
    expect(result.degreesOfFreedom).toBe(4);
    expect(result.meanDifference).toBe(3);
    expect(result.p).toBeCloseTo(1 - 36 / (11 * Math.sqrt(11)), 10);
    expect(result.method).toBe('paired-t');
  });

  it('df 1 is the Cauchy distribution: differences 1, 3 → t = 2, p = 1 − (2/π)·atan 2 = 0.29517', () => {
    // mean 2, sd √2, standard error √2/√2 = 1, t = 2.
    const result = pairedTTest([0, 0], [1, 3]);
    expect(result.t).toBeCloseTo(2, 12);
    expect(result.p).toBeCloseTo(1 - (2 / Math.PI) * Math.atan(2), 12);
  });

  it('df 2 has F(t) = ½ + t/(2√(2 + t²)): differences 1, 2, 6 → t² = 27/7, p = 1 − √(27/41) = 0.18850', () => {
    // mean 3, squared deviations 4 + 1 + 9 = 14, variance 7, t² = 9/(7/3) = 27/7, 2 + t² = 41/7.
    const result = pairedTTest([0, 0, 0], [1, 2, 6]);
    expect(result.t).toBeCloseTo(Math.sqrt(27 / 7), 12);
    expect(result.p).toBeCloseTo(1 - Math.sqrt(27 / 41), 12);
  });

  it("Student's sleep data (Cushny & Peebles; R: t.test(paired = TRUE)) → t = 4.0621, df 9, p = 0.002833", () => {
    const drug1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    const drug2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
    const result = pairedTTest(drug1, drug2);
    expect(Number(result.t.toFixed(4))).toBe(4.0621);
    expect(result.degreesOfFreedom).toBe(9);
    expect(Number(result.p.toFixed(6))).toBe(0.002833);
    expect(result.meanDifference).toBeCloseTo(1.58, 12);
  });

  it('keeps small p accurate (no 1 − F cancellation): df 1, t = 2^31 + 1 → p = (2/π)·atan(1/t)', () => {
    // Differences 1 and 1 + 2^−30: mean 1 + 2^−31, deviations ±2^−31, standard error 2^−31, all exact.
    const result = pairedTTest([0, 0], [1, 1 + 2 ** -30]);
    expect(result.t).toBe(2 ** 31 + 1);
    expect(relativeError(result.p, (2 / Math.PI) * Math.atan(1 / (2 ** 31 + 1)))).toBeLessThan(1e-12);
  });

  it('all differences zero → t = 0, p = 1', () => {
    expect(pairedTTest([0.2, 0.5, 0.9], [0.2, 0.5, 0.9])).toEqual({
      t: 0,
      degreesOfFreedom: 2,
      p: 1,
      meanDifference: 0,
      method: 'paired-t',
    });
  });

  it('identical non-zero differences → t = ±Infinity, p = 0', () => {
    expect(pairedTTest([1, 2, 3], [2, 3, 4])).toMatchObject({ t: Infinity, p: 0 });
    expect(pairedTTest([2, 3, 4], [1, 2, 3])).toMatchObject({ t: -Infinity, p: 0 });
  });

  it('fewer than 2 pairs is an error', () => {
    expect(() => pairedTTest([1], [2])).toThrow(RangeError);
    expect(() => pairedTTest([1], [2])).toThrow(/before and after hold 1 pair\(s\); a t-test needs at least 2 pairs/);
  });
});

describe('pairedComparison', () => {
  const before = [0.5, 0.6, 0.2, 0.9, 0.4, 0.7];
  const after = [0.8, 0.6, 0.5, 0.95, 0.1, 0.9];

  it('counts wins, losses and ties and gives the means', () => {
    // differences 0.3, 0, 0.3, 0.05, −0.3, 0.2: four wins, one loss, one tie at tolerance 0.
    const result = pairedComparison(before, after, { test: 'sign' });
    expect(result).toMatchObject({ count: 6, wins: 4, losses: 1, ties: 1, test: 'sign', method: 'sign-exact' });
    expect(result.meanBefore).toBeCloseTo(3.3 / 6, 12);
    expect(result.meanAfter).toBeCloseTo(3.85 / 6, 12);
    expect(result.meanDifference).toBeCloseTo(0.55 / 6, 12);
    expect(result.p).toBe(0.375); // sign test 4–1: 2 · (1 + 5)/32
    expect(result).not.toHaveProperty('seed');
  });

  it('tolerance 0.1 turns the 0.05 difference into a tie: 3 wins, 1 loss, 2 ties', () => {
    const result = pairedComparison(before, after, { test: 'sign', tolerance: 0.1 });
    expect(result).toMatchObject({ wins: 3, losses: 1, ties: 2, p: 0.625 }); // 2 · (1 + 4)/16
  });

  it('a difference equal to the tolerance is a tie even when floats round 0.8 − 0.7 up', () => {
    expect(0.8 - 0.7 > 0.1).toBe(true); // the float trap this guards against
    const result = pairedComparison([0.7, 0.2], [0.8, 0.1], { tolerance: 0.1, test: 'sign' });
    expect(result).toMatchObject({ wins: 0, losses: 0, ties: 2 });
  });

  it('defaults to the randomization test and reports its seed and resamples', () => {
    const result = pairedComparison(before, after);
    const direct = pairedRandomizationTest(before, after);
    // One difference is zero, so 2^5 sign assignments are enumerated.
    expect(result).toMatchObject({
      test: 'randomization',
      method: 'randomization-exact',
      p: direct.p,
      seed: null,
      resamples: 32,
    });
  });

  it('passes seed and resamples to a Monte Carlo randomization test', () => {
    const many = Array.from({ length: 30 }, (_, i) => i / 30);
    const shifted = many.map((value, i) => value + (i % 3) / 10);
    const result = pairedComparison(many, shifted, { seed: 5, resamples: 777 });
    expect(result).toMatchObject({ method: 'randomization-monte-carlo', seed: 5, resamples: 777 });
    expect(result.p).toBe(pairedRandomizationTest(many, shifted, { seed: 5, resamples: 777 }).p);
  });

  it("test 't' uses the paired t-test", () => {
    const result = pairedComparison([10, 20, 30, 40, 50], [11, 22, 33, 44, 55], { test: 't' });
    expect(result).toMatchObject({ test: 't', method: 'paired-t' });
    expect(result.p).toBeCloseTo(1 - 36 / (11 * Math.sqrt(11)), 10);
  });

  it('property: wins + losses + ties = count, and swapping the runs swaps wins and losses', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (pairs, tolerance) => {
          const first = pairs.map(([value]) => value);
          const second = pairs.map(([, value]) => value);
          const forward = pairedComparison(first, second, { tolerance, test: 'sign' });
          const backward = pairedComparison(second, first, { tolerance, test: 'sign' });
          return (
            forward.wins + forward.losses + forward.ties === pairs.length &&
            forward.wins === backward.losses &&
            forward.losses === backward.wins &&
            forward.p === backward.p
          );
        },
      ),
    );
  });

  it.each([
    [() => pairedComparison([1, 2, 3], [1, 2]), RangeError, /before has 3 values but after has 2/],
    [() => pairedComparison([], []), RangeError, /before and after are empty/],
    [
      () => pairedComparison([1], [2], { tolerance: -0.1 }),
      RangeError,
      /options\.tolerance must be a finite number ≥ 0, got -0\.1/,
    ],
    [
      () => pairedComparison([1], [2], { test: 'wilcoxon' as 'sign' }),
      TypeError,
      /options\.test must be 'sign', 'randomization' or 't', got wilcoxon/,
    ],
    [() => pairedComparison([1], [2], { test: 't' }), RangeError, /a t-test needs at least 2 pairs/],
  ])('bad input %#', (call, errorType, message) => {
    expect(call).toThrow(errorType);
    expect(call).toThrow(message);
  });
});
