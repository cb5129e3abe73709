import { describe, expect, it } from 'vitest';
import { mean } from '../../../src/core/mean.js';
import { plural } from '../../../src/core/present.js';

describe('mean', () => {
  it('averages arrays and typed arrays', () => {
    expect(mean([0.5, 1, 0])).toBe(0.5);
    expect(mean(Float64Array.of(0.25, 0.75))).toBe(0.5);
    expect(mean([0.7])).toBe(0.7);
  });

  it('sums left to right, so reports print the same digits as before', () => {
    // (0.1 + 0.2) + 0.3 = 0.6000000000000001; right to left it would be 0.6.
    expect(mean([0.1, 0.2, 0.3])).toBe(0.20000000000000004);
  });

  it('is NaN for no values', () => {
    expect(mean([])).toBeNaN();
  });
});

describe('plural', () => {
  it('puts the count before the form it needs', () => {
    expect(plural(1, 'query', 'queries')).toBe('1 query');
    expect(plural(0, 'query', 'queries')).toBe('0 queries');
    expect(plural(2, 'hit')).toBe('2 hits');
    expect(plural(1, 'duplicate hit')).toBe('1 duplicate hit');
  });
});
