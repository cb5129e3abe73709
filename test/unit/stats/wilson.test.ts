import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { meanInterval, wilsonInterval } from '../../../src/core/stats.js';

const round = (value: number, digits: number) => Number(value.toFixed(digits));

describe('wilsonInterval: the seed document examples (95%)', () => {
  it('5 hits out of 10 → [0.237, 0.763]', () => {
    // z = 1.959964, z²/n = 0.384146; centre = (0.5 + 0.192073) / 1.384146 = 0.5;
    // half-width = (1.959964 / 1.384146) · √(0.025 + 0.0096036) = 1.416010 · 0.186020 = 0.263407.
    const interval = wilsonInterval(5, 10);
    expect(round(interval.lower, 3)).toBe(0.237);
    expect(round(interval.upper, 3)).toBe(0.763);
    expect(interval.estimate).toBe(0.5);
    expect(interval).toMatchObject({ confidence: 0.95, method: 'wilson' });
  });

  it('10 out of 10 → [0.722, 1], the upper bound exactly 1', () => {
    // At n/n the lower bound reduces to n / (n + z²) = 10 / 13.841459 = 0.722467.
    const interval = wilsonInterval(10, 10);
    expect(round(interval.lower, 3)).toBe(0.722);
    expect(round(interval.lower, 6)).toBe(0.722467);
    expect(interval.upper).toBe(1);
    expect(interval.estimate).toBe(1);
  });

  it('0 out of 10 mirrors 10 out of 10: [0, 0.277533], the lower bound exactly 0', () => {
    const interval = wilsonInterval(0, 10);
    expect(interval.lower).toBe(0);
    expect(round(interval.upper, 6)).toBe(round(1 - 0.7224672, 6));
  });
});

describe('wilsonInterval: Newcombe (1998), Statistics in Medicine 17:857, method 3 (score, no correction)', () => {
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i → [%f, %f]', (successes, trials, lower, upper) => {
    const interval = wilsonInterval(successes, trials);
    expect(round(interval.lower, 4)).toBe(lower);
    expect(round(interval.upper, 4)).toBe(upper);
  });
});

describe('wilsonInterval: other confidence levels and no data', () => {
  it('99% for 5/10 → [0.1842, 0.8158]', () => {
    // z = 2.575829, z²/n = 0.663490; half-width = (2.575829 / 1.663490) · √(0.025 + 0.016587) = 0.315774.
    const interval = wilsonInterval(5, 10, 0.99);
    expect(round(interval.lower, 4)).toBe(0.1842);
    expect(round(interval.upper, 4)).toBe(0.8158);
    expect(interval.confidence).toBe(0.99);
  });

  it('0 trials → [0, 1] with estimate 0: no information', () => {
    expect(wilsonInterval(0, 0)).toEqual({ lower: 0, upper: 1, estimate: 0, confidence: 0.95, method: 'wilson' });
  });
});

describe('wilsonInterval: bad input names the argument, the value and the fix', () => {
  it.each([
    [() => wilsonInterval(1.5, 10), /successes must be a whole number ≥ 0 .*got 1\.5/],
    [() => wilsonInterval(-1, 10), /successes must be a whole number ≥ 0 .*got -1/],
    [() => wilsonInterval(1, Number.NaN), /trials must be a whole number ≥ 0 .*got NaN/],
    [() => wilsonInterval(11, 10), /successes \(11\) is greater than trials \(10\)/],
    [() => wilsonInterval(5, 10, 95), /confidence must be a number strictly between 0 and 1, got 95; write 0\.95/],
    [() => wilsonInterval(5, 10, 0), /confidence must be .* got 0;/],
    [() => wilsonInterval(5, 10, 1), /confidence must be .* got 1;/],
  ])('%#', (call, message) => {
    expect(call).toThrow(RangeError);
    expect(call).toThrow(message);
  });
});

describe('wilsonInterval properties', () => {
  const trialsAndSuccesses = fc
    .integer({ min: 1, max: 1_000_000 })
    .chain((trials) => fc.tuple(fc.integer({ min: 0, max: trials }), fc.constant(trials)));
  const confidence = fc.double({ min: 0.5, max: 0.9999, noNaN: true });

  it('lies in [0, 1] and contains the estimate', () => {
    fc.assert(
      fc.property(trialsAndSuccesses, confidence, ([successes, trials], level) => {
        const { lower, upper, estimate } = wilsonInterval(successes, trials, level);
        return lower >= 0 && upper <= 1 && lower <= estimate && estimate <= upper;
      }),
    );
  });

  it('is symmetric: the interval for s/n is 1 minus the interval for (n − s)/n', () => {
    fc.assert(
      fc.property(trialsAndSuccesses, ([successes, trials]) => {
        const interval = wilsonInterval(successes, trials);
        const mirrored = wilsonInterval(trials - successes, trials);
        return (
          Math.abs(interval.lower - (1 - mirrored.upper)) < 1e-12 &&
          Math.abs(interval.upper - (1 - mirrored.lower)) < 1e-12
        );
      }),
    );
  });

  it('a higher confidence gives a wider interval that contains the narrower one', () => {
    // Slack of 1e-12: confidences 1 ulp apart (0.5000000000000007 vs …08) can give bounds that
    // differ by 1 ulp either way.
    fc.assert(
      fc.property(trialsAndSuccesses, confidence, confidence, ([successes, trials], a, b) => {
        const [low, high] = a < b ? [a, b] : [b, a];
        const narrow = wilsonInterval(successes, trials, low);
        const wide = wilsonInterval(successes, trials, high);
        return wide.lower <= narrow.lower + 1e-12 && narrow.upper <= wide.upper + 1e-12;
      }),
    );
  });
});

describe('meanInterval chooses the method from the values', () => {
  it('0/1 values get the Wilson interval of their count: [1,0,1,0,1,0,1,0,1,0] is 5/10', () => {
    const interval = meanInterval([1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
    expect(interval.method).toBe('wilson');
    expect(interval).toMatchObject({ mean: 0.5, successes: 5, trials: 10 });
    expect(round(interval.lower, 3)).toBe(0.237);
    expect(round(interval.upper, 3)).toBe(0.763);
  });

  it('graded values get the bootstrap with its seed and resamples', () => {
    const interval = meanInterval([0.2, 0.5, 1, 0]);
    expect(interval).toMatchObject({ method: 'bootstrap-percentile', mean: 0.425, seed: 42, resamples: 10_000 });
  });

  it('binary: false forces the bootstrap for 0/1 values; options reach it', () => {
    const interval = meanInterval([1, 0, 1, 1], { binary: false, seed: 7, resamples: 500 });
    expect(interval).toMatchObject({ method: 'bootstrap-percentile', mean: 0.75, seed: 7, resamples: 500 });
  });

  it('confidence reaches the Wilson interval', () => {
    const interval = meanInterval([1, 0, 1, 0, 1, 0, 1, 0, 1, 0], { confidence: 0.99 });
    expect(round(interval.lower, 4)).toBe(0.1842);
  });

  it('binary: true with a graded value is an error naming the value', () => {
    expect(() => meanInterval([1, 0, 0.5], { binary: true })).toThrow(
      /values\[2\] is 0\.5, but options\.binary is true/,
    );
  });

  it('empty values is an error, not a silent 0', () => {
    expect(() => meanInterval([])).toThrow(/values is empty/);
  });
});
