// bootstrapMeanIntervals: the intervals of several lists at once (the reporters' rows), drawing the
// resample indices once for the lists of one length. Each list must get exactly what it gets alone.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bootstrapMeanInterval, bootstrapMeanIntervals, ResampleDraws } from '../../../src/core/stats.js';

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

  it('gives each list bit for bit what it gets alone when the draws are kept from call to call', () => {
    // Resamples not a multiple of four (the kept draws are summed four resamples a pass), seeds and
    // lengths that repeat across calls (drawn once) and that do not.
    const list = fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 9 });
    const call = fc.record({
      lists: fc.array(list, { minLength: 1, maxLength: 5 }),
      seed: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(call, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 11 }),
        (calls, resamples) => {
          const draws = new ResampleDraws();
          for (const { lists, seed } of calls) {
            const options = { resamples, seed, confidence: 0.8 };
            expect(bootstrapMeanIntervals(lists, options, draws)).toEqual(
              lists.map((values) => bootstrapMeanInterval(values, options)),
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives [2, 4, 6] its exact 50% interval [10/3, 14/3] from draws kept by an earlier call', () => {
    const draws = new ResampleDraws();
    bootstrapMeanIntervals([[9, 9, 1]], { confidence: 0.5 }, draws);
    const [interval] = bootstrapMeanIntervals([[2, 4, 6]], { confidence: 0.5 }, draws);
    expect(interval!.lower).toBeCloseTo(10 / 3, 12);
    expect(interval!.upper).toBeCloseTo(14 / 3, 12);
  });

  it("keeps the last length's indices, up to 2,097,152 of them", () => {
    const draws = new ResampleDraws();
    const first = draws.indicesOf(3, 5, 42);
    // Resample r's three indices at [3r, 3r + 3), each in [0, 3).
    expect(first).toHaveLength(15);
    expect([...first!].every((index) => index >= 0 && index < 3)).toBe(true);
    expect(draws.indicesOf(3, 5, 42)).toBe(first);
    // 2,100 × 1,000 = 2,100,000 is past the bound: not kept, and the last length's stay.
    expect(draws.indicesOf(2_100, 1_000, 42)).toBeUndefined();
    expect(draws.indicesOf(3, 5, 42)).toBe(first);
    const other = draws.indicesOf(3, 5, 43);
    expect(other).not.toBe(first);
    expect(draws.indicesOf(2_000, 1_048, 42)).toHaveLength(2_096_000);
    draws.clear();
    expect(draws.indicesOf(3, 5, 42)).not.toBe(first);
  });

  it('names the empty list and the bad option as bootstrapMeanInterval does', () => {
    expect(() => bootstrapMeanIntervals([[1, 2], []])).toThrow(/values is empty/);
    expect(() => bootstrapMeanIntervals([[1, 2]], { resamples: 0 })).toThrow(/options\.resamples/);
  });
});
