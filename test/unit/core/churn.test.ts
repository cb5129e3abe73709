import { describe, expect, it } from 'vitest';
import { rankBiasedOverlap, topKOverlap } from '../../../src/core/churn.js';

const TEN = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];

describe('rankBiasedOverlap (RBO_EXT, p = 0.9, depth 10)', () => {
  it('is 1 for identical rankings', () => {
    // A_d = 1 at every depth: (1 − p)/p · Σ_{d=1..10} p^d + p^10 = (1 − p^10) + p^10 = 1.
    expect(rankBiasedOverlap(TEN, [...TEN])).toBe(1);
  });

  it('is exactly 1 for identical rankings whatever the persistence, and so is top-k overlap', () => {
    // The sum's rounding left 0.9999999999999999 at p = 0.98 for 5 to 10 keys.
    for (const p of [0.5, 0.8, 0.95, 0.98])
      for (let length = 1; length <= 10; length++)
        expect(rankBiasedOverlap(TEN.slice(0, length), TEN.slice(0, length), p)).toBe(1);
    expect(topKOverlap(TEN, [...TEN], 5)).toBe(1);
    expect(topKOverlap(['a', 'a', 'b'], ['a', 'a', 'b'], 2)).toBe(1);
  });

  it('is 0 for rankings that share no key', () => {
    expect(
      rankBiasedOverlap(
        TEN,
        TEN.map((key) => `${key}2`),
      ),
    ).toBe(0);
  });

  it('is p for a swap of ranks 1 and 2', () => {
    // A_1 = 0, A_d = 1 for d ≥ 2: (1 − p)/p · (Σ_{d=1..10} p^d − p) + p^10 = (1 − p^10) − (1 − p) + p^10 = p = 0.9.
    const swapped = ['b', 'a', ...TEN.slice(2)];
    expect(rankBiasedOverlap(TEN, swapped)).toBeCloseTo(0.9, 12);
  });

  it('weighs a change at rank 10 less than one at rank 1', () => {
    // Ranks 1–9 equal, rank 10 replaced: A_d = 1 for d ≤ 9, A_10 = 9/10.
    // Σ_{d=1..9} 0.9^d = 9 · (1 − 0.9^9) = 5.5132156; 0.9 · 0.9^10 = 0.3138106;
    // (1/9) · (5.5132156 + 0.3138106) + 0.3138106 = 0.6474474 + 0.3138106 = 0.9612580 (to 7 places).
    const last = [...TEN.slice(0, 9), 'z'];
    expect(rankBiasedOverlap(TEN, last)).toBeCloseTo(0.961258, 6);
  });

  it('extrapolates a shorter list as agreeing: a ranking and its own prefix give 1', () => {
    // s = 1, l = 2, X_1 = X_2 = 1: (1/9) · (0.9 + 0.81/2 + 1 · 1/2 · 0.81) + (0 + 1/1) · 0.81 = 0.19 + 0.81 = 1.
    expect(rankBiasedOverlap(['a'], ['a', 'b'])).toBeCloseTo(1, 12);
  });

  it('reads ties in list order and a repeated key at its first rank only', () => {
    expect(rankBiasedOverlap(['a', 'a', 'b'], ['a', 'b'])).toBe(1);
  });

  it('reads only the first `depth` keys', () => {
    expect(rankBiasedOverlap(['a', 'b', 'x'], ['a', 'b', 'y'], 0.9, 2)).toBe(1);
  });

  it('is 1 for two empty rankings and 0 when only one is empty', () => {
    expect(rankBiasedOverlap([], [])).toBe(1);
    expect(rankBiasedOverlap(['a'], [])).toBe(0);
  });

  it('names a bad persistence or depth', () => {
    expect(() => rankBiasedOverlap(TEN, TEN, 1)).toThrow(
      /p \(persistence\) must be a number strictly between 0 and 1.*got 1/,
    );
    expect(() => rankBiasedOverlap(TEN, TEN, 0.9, 0)).toThrow(/depth must be a whole number ≥ 1, got 0/);
  });
});

describe('topKOverlap', () => {
  it('is 1 for identical top 5, 0 for disjoint ones, 1 for a swap of ranks 1 and 2', () => {
    expect(topKOverlap(TEN, TEN)).toBe(1);
    expect(
      topKOverlap(
        TEN,
        TEN.map((key) => `${key}2`),
      ),
    ).toBe(0);
    expect(topKOverlap(TEN, ['b', 'a', ...TEN.slice(2)])).toBe(1);
  });

  it('counts the shared keys of the top k: 3 of 5 kept → 0.6', () => {
    // Top 5 before: a b c d e; after: a x c y e → a, c, e shared.
    expect(topKOverlap(TEN, ['a', 'x', 'c', 'y', 'e', 'b'])).toBe(0.6);
  });

  it('divides by the longer top k when a ranking holds fewer than k keys', () => {
    expect(topKOverlap(['a', 'b'], ['a', 'b', 'c', 'd'], 5)).toBe(0.5);
    expect(topKOverlap([], [])).toBe(1);
  });

  it('names a bad k', () => {
    expect(() => topKOverlap(TEN, TEN, 1.5)).toThrow(/k must be a whole number ≥ 1, got 1.5/);
  });
});
