import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { holmCorrection } from '../../../src/core/stats.js';

describe('holmCorrection', () => {
  it('hand-worked example: 0.01, 0.04, 0.03, 0.005 → 0.03, 0.06, 0.06, 0.02', () => {
    // Sorted: 0.005 (4th), 0.01 (1st), 0.03 (3rd), 0.04 (2nd). Multiply by 4, 3, 2, 1:
    // 0.02, 0.03, 0.06, 0.04; running maximum: 0.02, 0.03, 0.06, 0.06; back in input order.
    const adjusted = holmCorrection([0.01, 0.04, 0.03, 0.005]);
    expect(adjusted.map((p) => Number(p.toFixed(12)))).toEqual([0.03, 0.06, 0.06, 0.02]);
  });

  it('caps at 1: 0.3, 0.6 → min(1, 2 · 0.3) = 0.6, max(0.6, 0.6) = 0.6; 0.5, 0.9 → 1, 1', () => {
    expect(holmCorrection([0.3, 0.6])).toEqual([0.6, 0.6]);
    expect(holmCorrection([0.9, 0.5])).toEqual([1, 1]);
  });

  it('one p-value is left alone; none gives none', () => {
    expect(holmCorrection([0.042])).toEqual([0.042]);
    expect(holmCorrection([])).toEqual([]);
  });

  it('ties get the same adjusted value whatever their order', () => {
    // Sorted 0.01, 0.01, 0.02 times 3, 2, 1: 0.03, 0.02, 0.02; running maximum 0.03, 0.03, 0.03.
    expect(holmCorrection([0.01, 0.02, 0.01])).toEqual([0.03, 0.03, 0.03]);
    expect(holmCorrection([0.01, 0.01, 0.04])).toEqual([0.03, 0.03, 0.04]);
  });

  it('does not modify its input', () => {
    const input = [0.04, 0.01];
    holmCorrection(input);
    expect(input).toEqual([0.04, 0.01]);
  });

  it('property: raw ≤ adjusted ≤ 1, the order of the raw p-values is kept, and adjusted ≤ m · raw', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), (raw) => {
        const adjusted = holmCorrection(raw);
        return (
          adjusted.length === raw.length &&
          raw.every((p, i) => p <= adjusted[i]! && adjusted[i]! <= 1 && adjusted[i]! <= Math.min(1, raw.length * p)) &&
          raw.every((p, i) => raw.every((q, j) => !(p < q) || adjusted[i]! <= adjusted[j]!))
        );
      }),
    );
  });

  it.each([
    [[0.1, 1.2], /pValues\[1\] is 1\.2; every p-value must be a number from 0 to 1/],
    [[Number.NaN], /pValues\[0\] is NaN/],
    [[-0.01], /pValues\[0\] is -0\.01/],
  ])('rejects %j', (pValues, message) => {
    expect(() => holmCorrection(pValues)).toThrow(RangeError);
    expect(() => holmCorrection(pValues)).toThrow(message);
  });
});
