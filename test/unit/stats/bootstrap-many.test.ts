// bootstrapMeanIntervals: the intervals of several lists at once (the reporters' rows), drawing the
// resample indices once for the lists of one length. Each list must get exactly what it gets alone.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bootstrapMeanInterval, bootstrapMeanIntervals } from '../../../src/core/stats.js';

describe('bootstrapMeanIntervals', () => {
  it('gives [2, 4, 6] its exact 50% interval [10/3, 14/3] beside five other lists of its length', () => {
    // As in bootstrap.test.ts: S = a₁ + a₂ + a₃, aᵢ uniform on {1, 2, 3}, quartiles on S = 5 and 7.
    // Six lists of one length: a pass of four lists and two more, all on the same draws.
    const lists = [
      [2, 4, 6],
      [1, 1, 1],
      [20, 40, 60],
      [0, 0, 3],
      [2, 4, 6],
      [6, 4, 2],
    ];
    const intervals = bootstrapMeanIntervals(lists, { confidence: 0.5 });
    for (const index of [0, 4, 5]) {
      expect(intervals[index]!.mean).toBe(4);
      expect(intervals[index]!.lower).toBeCloseTo(10 / 3, 12);
      expect(intervals[index]!.upper).toBeCloseTo(14 / 3, 12);
    }
    // Ten times the values: ten times the interval, on the same draws exactly.
    expect(intervals[2]!.lower).toBeCloseTo(100 / 3, 10);
    expect(intervals[2]!.upper).toBeCloseTo(140 / 3, 10);
    expect(intervals[1]).toMatchObject({ mean: 1, lower: 1, upper: 1 });
  });

  it('gives each list, whatever the lengths beside it, bit for bit what bootstrapMeanInterval gives it alone', () => {
    const list = fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(list, { minLength: 1, maxLength: 11 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        (lists, seed) => {
          const options = { resamples: 50, seed, confidence: 0.9 };
          expect(bootstrapMeanIntervals(lists, options)).toEqual(
            lists.map((values) => bootstrapMeanInterval(values, options)),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('names the empty list and the bad option as bootstrapMeanInterval does', () => {
    expect(() => bootstrapMeanIntervals([[1, 2], []])).toThrow(/values is empty/);
    expect(() => bootstrapMeanIntervals([[1, 2]], { resamples: 0 })).toThrow(/options\.resamples/);
  });
});
