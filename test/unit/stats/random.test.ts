import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRandom, randomInt, Xoshiro128StarStar } from '../../../src/core/random.js';

describe('Xoshiro128StarStar matches the reference C implementation', () => {
  // Expected outputs from Vigna's xoshiro128starstar.c (prng.di.unimi.it) compiled with gcc and run
  // from the same explicit states.
  it('state [1, 2, 3, 4]: first eight outputs', () => {
    const generator = new Xoshiro128StarStar([1, 2, 3, 4]);
    const outputs = Array.from({ length: 8 }, () => generator.nextUint32());
    expect(outputs).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849]);
  });

  it('state [0x9e3779b9, 0x7f4a7c15, 0xdeadbeef, 0xffffffff]: outputs 1001 to 1004', () => {
    const generator = new Xoshiro128StarStar([0x9e3779b9, 0x7f4a7c15, 0xdeadbeef, 0xffffffff]);
    generator.fillUint32(new Uint32Array(1000));
    const outputs = Array.from({ length: 4 }, () => generator.nextUint32());
    expect(outputs).toEqual([3906483208, 2879385681, 2437229524, 3562334591]);
  });

  it('fillUint32 gives the same stream as repeated nextUint32', () => {
    const filled = new Uint32Array(37);
    Xoshiro128StarStar.fromSeed(7).fillUint32(filled);
    const stepped = Xoshiro128StarStar.fromSeed(7);
    expect(Array.from(filled)).toEqual(Array.from({ length: 37 }, () => stepped.nextUint32()));
  });

  it('rejects the all-zero state, which it could never leave', () => {
    expect(() => new Xoshiro128StarStar([0, 0, 0, 0])).toThrow(/state is all zero/);
  });
});

describe('createRandom', () => {
  it.each([
    // Independent C implementation of the documented seeding (hash of seed + c · 0x9e3779b9 for
    // c = 1…4, then xoshiro128**), compiled with gcc: expected state and first four outputs.
    [42, [551831576, 144025891, 322543647, 3034809370], [660444221, 3652823732, 77672526, 910233633]],
    [0, [1684164658, 3653269916, 2939563536, 2141751570], [1789933344, 44971166, 2521387044, 3848737593]],
    [4294967295, [3950124170, 4293442868, 1302505678, 2762329221], [4104197751, 1825856343, 1152209388, 2427537429]],
  ] as const)('seed %i expands to the documented state and stream', (seed, state, outputs) => {
    const fromState = new Xoshiro128StarStar(state);
    expect(outputs.map(() => fromState.nextUint32())).toEqual(outputs);
    const random = createRandom(seed);
    expect(outputs.map(() => random() * 2 ** 32)).toEqual(outputs);
  });

  it('gives the same stream for the same seed and a different one for another seed', () => {
    const first = createRandom(42);
    const second = createRandom(42);
    const other = createRandom(43);
    const a = Array.from({ length: 20 }, () => first());
    expect(Array.from({ length: 20 }, () => second())).toEqual(a);
    expect(Array.from({ length: 20 }, () => other())).not.toEqual(a);
  });

  it('is the generator output divided by 2^32', () => {
    const random = createRandom(5);
    const generator = Xoshiro128StarStar.fromSeed(5);
    for (let i = 0; i < 10; i++) expect(random() * 2 ** 32).toBe(generator.nextUint32());
  });

  it('accepts the extreme seeds 0 and 2^32 − 1', () => {
    expect(createRandom(0)()).not.toBe(createRandom(2 ** 32 - 1)());
  });

  it('stays in [0, 1) and looks uniform: mean ≈ 0.5, chi-square over 10 bins below the 0.1% critical value', () => {
    const random = createRandom(2024);
    const draws = 100_000;
    const bins = new Array<number>(10).fill(0);
    let total = 0;
    for (let i = 0; i < draws; i++) {
      const value = random();
      expect(value >= 0 && value < 1).toBe(true);
      total += value;
      bins[Math.floor(value * 10)]! += 1;
    }
    // Standard error of the mean of U(0,1) draws: sqrt(1/12) / sqrt(100000) ≈ 0.00091; allow 4 of them.
    expect(Math.abs(total / draws - 0.5)).toBeLessThan(0.0037);
    const expected = draws / 10;
    const chiSquare = bins.reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(27.88); // chi-square, 9 degrees of freedom, upper 0.1% point
  });

  it.each([-1, 1.5, 2 ** 32, Number.NaN])('rejects seed %s and names it', (seed) => {
    expect(() => createRandom(seed)).toThrow(RangeError);
    expect(() => createRandom(seed)).toThrow(/seed must be an integer from 0 to 4294967295, got/);
  });
});

describe('randomInt', () => {
  it('stays in [0, maxExclusive) and reaches both ends', () => {
    const random = createRandom(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const value = randomInt(random, 5);
      expect(Number.isInteger(value) && value >= 0 && value < 5).toBe(true);
      seen.add(value);
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('property: always an integer in range for any size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 1, max: 2 ** 32 }), (seed, size) => {
        const value = randomInt(createRandom(seed), size);
        return Number.isInteger(value) && value >= 0 && value < size;
      }),
    );
  });

  it.each([0, -3, 2.5, 2 ** 32 + 1])('rejects maxExclusive %s', (size) => {
    expect(() => randomInt(createRandom(1), size)).toThrow(/maxExclusive must be an integer from 1 to 2\^32, got/);
  });
});
