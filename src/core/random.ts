// Seeded pseudo-random numbers for the statistics module. Deterministic by design: the same seed gives
// the same stream on every platform, so every bootstrap interval and randomization p-value can be
// reproduced from the seed printed next to it. Never use this for anything security-related.

/** A source of uniform numbers in [0, 1) with 32 bits of resolution. */
export type Random = () => number;

const TWO_POW_32 = 4294967296;
const MAX_SEED = TWO_POW_32 - 1;

/**
 * xoshiro128** 1.1 (Blackman & Vigna, https://prng.di.unimi.it/xoshiro128starstar.c): 32-bit outputs,
 * period 2^128 − 1. The state is kept as signed 32-bit integers, which engines store unboxed.
 */
export class Xoshiro128StarStar {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private readonly single = new Uint32Array(1);

  /** Starts from an explicit state of four 32-bit words, not all zero. */
  constructor(state: readonly [number, number, number, number]) {
    [this.s0, this.s1, this.s2, this.s3] = state.map((word) => word | 0) as [number, number, number, number];
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) {
      throw new RangeError(
        'Xoshiro128StarStar: state is all zero, which the generator never leaves; give at least one non-zero word.',
      );
    }
  }

  /** Starts from a seed in [0, 2^32 − 1] expanded into a full state. */
  static fromSeed(seed: number): Xoshiro128StarStar {
    assertSeed(seed, 'seed');
    return new Xoshiro128StarStar(seedState(seed));
  }

  /** The next output, an unsigned 32-bit integer. */
  nextUint32(): number {
    this.fillUint32(this.single);
    return this.single[0]!;
  }

  /** Fills `target` with the next `target.length` outputs, the same values nextUint32 would give in turn. */
  fillUint32(target: Uint32Array): void {
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    for (let i = 0; i < target.length; i++) {
      target[i] = Math.imul(rotateLeft(Math.imul(s1, 5), 7), 9);
      const shifted = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= shifted;
      s3 = rotateLeft(s3, 11);
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }
}

function rotateLeft(x: number, bits: number): number {
  return (x << bits) | (x >>> (32 - bits));
}

/**
 * Expands a 32-bit seed into four state words: word c (c = 1…4) is hash(seed + c · 0x9e3779b9 mod 2^32),
 * where hash is a two-round multiply–xorshift (shifts 16, 15, 15; multipliers 0x21f0aaad, 0x735a2d97,
 * from Wellons' hash-prospector). The hash is a bijection, so the four distinct inputs give distinct
 * words, at most one of them zero: the state is never all zero.
 */
function seedState(seed: number): [number, number, number, number] {
  const hash = (counter: number): number => {
    let x = (seed + Math.imul(counter, 0x9e3779b9)) | 0;
    x ^= x >>> 16;
    x = Math.imul(x, 0x21f0aaad);
    x ^= x >>> 15;
    x = Math.imul(x, 0x735a2d97);
    return x ^ (x >>> 15);
  };
  return [hash(1), hash(2), hash(3), hash(4)];
}

/**
 * A seeded generator of uniform numbers in [0, 1): each value is the next xoshiro128** output divided
 * by 2^32, so `Math.floor(random() * 2 ** 32)` recovers its 32 bits exactly.
 *
 * @param seed an integer in [0, 2^32 − 1]
 */
export function createRandom(seed: number): Random {
  const generator = Xoshiro128StarStar.fromSeed(seed);
  return () => generator.nextUint32() / TWO_POW_32;
}

/**
 * A uniform integer in [0, maxExclusive): `floor(random() * maxExclusive)`. With 32-bit draws the bias
 * is below maxExclusive / 2^32 (about 1e-7 for 500 items), far under any sampling error.
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
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new RangeError(
      `${name} must be an integer from 0 to ${MAX_SEED}, got ${String(seed)}; use a fixed integer such as 42 so the figures can be reproduced.`,
    );
  }
}
