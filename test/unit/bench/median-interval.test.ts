// The interval the benchmarks (bench/same-run.ts) report for the median of its rounds' ratios: order statistics
// whose ranks a Binomial(n, ½) leaves outside with at most 2.5% on each side (worked out by hand below).
import { describe, expect, it } from 'vitest';

import { medianInterval, targetVerdict } from '../../../bench/same-run.js';

describe('medianInterval', () => {
  it('takes the 2nd and 8th of nine values: P(B(9, ½) ≤ 1) = 10/512 on each side', () => {
    const interval = medianInterval([1.09, 1.2, 1.01, 1.15, 1.07, 1.3, 1.05, 1.11, 1.03]);
    expect(interval.low).toBe(1.03);
    expect(interval.high).toBe(1.2);
    expect(interval.coverage).toBeCloseTo(1 - 20 / 512, 12);
  });

  it('takes the 6th and 15th of twenty values: P(B(20, ½) ≤ 5) = 21,700/2^20 on each side', () => {
    const values = Array.from({ length: 20 }, (_, index) => 20 - index);
    const interval = medianInterval(values);
    expect(interval.low).toBe(6);
    expect(interval.high).toBe(15);
    expect(interval.coverage).toBeCloseTo(1 - (2 * 21_700) / 2 ** 20, 12);
  });

  it('falls back to the whole range, with its smaller coverage, when no pair reaches 95%', () => {
    const interval = medianInterval([3, 1, 2, 5, 4]);
    expect(interval).toEqual({ low: 1, high: 5, coverage: 1 - 2 / 32 });
  });

  it('gives six values the range at 1 − 2/64 (the first n where 95% is reachable)', () => {
    expect(medianInterval([6, 5, 4, 3, 2, 1])).toEqual({ low: 1, high: 6, coverage: 1 - 2 / 64 });
  });
});

describe('targetVerdict', () => {
  // Nine values: the interval is the 2nd and the 8th (1.03 and 1.20 here).
  const ratios = [1.09, 1.2, 1.01, 1.15, 1.07, 1.3, 1.05, 1.11, 1.03];

  it('is met or not only when the whole interval is on one side of the target', () => {
    expect(targetVerdict(ratios, 1.2, 'at most')).toBe('met');
    expect(targetVerdict(ratios, 1.02, 'at most')).toBe('NOT met');
    expect(targetVerdict(ratios, 1.1, 'at most')).toMatch(/^undetermined/);
  });

  it('reads a lower bound the other way round', () => {
    expect(targetVerdict(ratios, 1.03, 'at least')).toBe('met');
    expect(targetVerdict(ratios, 1.25, 'at least')).toBe('NOT met');
    expect(targetVerdict(ratios, 1.1, 'at least')).toMatch(/^undetermined/);
  });
});
