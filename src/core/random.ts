// Seeded pseudo-random numbers for the statistics module. Deterministic by design: the same seed gives
// the same stream on every platform, so every bootstrap interval and randomization p-value can be
// reproduced from the seed printed next to it. Never use this for anything security-related.

/** A source of uniform numbers in [0, 1) with 32 bits of resolution. */
export type Random = () => number;

const TWO_POW_32 = 4294967296;

/**
 * xoshiro128** 1.1 (Blackman & Vigna, https://prng.di.unimi.it/xoshiro128starstar.c) on an explicit
 * state. Returns unsigned 32-bit integers. The state must not be all zero.
 */
export function xoshiro128StarStar(state: readonly [number, number, number, number]): () => number {
  let s0 = state[0] >>> 0;
  let s1 = state[1] >>> 0;
  let s2 = state[2] >>> 0;
  let s3 = state[3] >>> 0;
  if ((s0 | s1 | s2 | s3) === 0) {
    throw new RangeError('xoshiro128StarStar: state is all zero, which the generator never leaves; give at least one non-zero word.');
  }
  return () => {
    const result = Math.imul(rotateLeft(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotateLeft(s3, 11);
    return result;
  };
}

function rotateLeft(x: number, bits: number): number {
  return (x << bits) | (x >>> (32 - bits));
}

/**
 * Expands a 32-bit seed into four state words with a bijective integer hash of consecutive counters
 * (the "lowbias32" finaliser). Distinct inputs hash to distinct outputs, so at most one word can be
 * zero and the state is never all zero.
 */
function seedState(seed: number): [number, number, number, number] {
  const words: number[] = [];
  for (let counter = 1; counter <= 4; counter++) {
    let x = (seed + Math.imul(counter, 0x9e3779b9)) >>> 0;
    x ^= x >>> 16;
    x = Math.imul(x, 0x21f0aaad);
    x ^= x >>> 15;
    x = Math.imul(x, 0x735a2d97);
    x ^= x >>> 15;
    words.push(x >>> 0);
  }
  return words as [number, number, number, number];
}

/**
 * A seeded generator of uniform numbers in [0, 1). Each value is a 32-bit integer divided by 2^32, so
 * `Math.floor(random() * 2 ** 32)` recovers 32 random bits exactly.
 *
 * @param seed an integer in [0, 2^32 − 1]
 */
export function createRandom(seed: number): Random {
  assertSeed(seed, 'seed');
  const next = xoshiro128StarStar(seedState(seed));
  return () => next() / TWO_POW_32;
}

/**
 * A uniform integer in [0, maxExclusive). Uses `floor(random() * maxExclusive)`; with 32-bit draws the
 * bias is below maxExclusive / 2^32 (about 1e-7 for a million items), far under any sampling error.
 */
export function randomInt(random: Random, maxExclusive: number): number {
  if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > TWO_POW_32) {
    throw new RangeError(
      `randomInt: maxExclusive must be an integer from 1 to 2^32, got ${String(maxExclusive)}; pass the number of items to choose from.`,
    );
  }
  return Math.floor(random() * maxExclusive);
}

/** Throws unless `seed` is an integer in [0, 2^32 − 1]; `name` is the argument named in the message. */
export function assertSeed(seed: unknown, name: string): asserts seed is number {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed >= TWO_POW_32) {
    throw new RangeError(
      `${name} must be an integer from 0 to 4294967295, got ${String(seed)}; use a fixed integer such as 42 so the figures can be reproduced.`,
    );
  }
}
