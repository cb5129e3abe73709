// infap and rbp@p, the measure table's two measures that walk the ranking (trec_eval's infAP and rbp),
// on hand-worked rankings: no relevant id, no hits, ties, p at its bounds, graded gains. Expected
// values are worked out from the definitions (docs/metrics.md), never by the code.
import { describe, expect, it } from 'vitest';
import { evaluate, evaluateMeasures, parseMeasure } from '../../../src/index.js';

const measure = (
  hits: Parameters<typeof evaluateMeasures>[0],
  relevant: Parameters<typeof evaluateMeasures>[1],
  name: string,
) => evaluateMeasures(hits, relevant, [parseMeasure(name)])[name] as number;

/** trec_eval's INFAP_EPSILON. */
const EPSILON = 0.00001;

describe('infap', () => {
  it('no relevant judgment, or no hits: 0', () => {
    expect(measure(['a', 'b'], { a: 0 }, 'infap')).toBe(0);
    expect(measure([], { a: 1 }, 'infap')).toBe(0);
  });

  it('every relevant hit first: 1', () => {
    expect(measure(['a', 'b', 'x'], ['a', 'b'], 'infap')).toBeCloseTo(1, 4);
  });

  it('skips hits without a judgment, counts negative grades as sampled-out pool ids', () => {
    // Ranks: a rel, x (no judgment), c rel, u (grade −1), n (grade 0), d rel; e relevant, not retrieved: R = 4.
    const relevant = { a: 1, c: 1, u: -1, n: 0, d: 1, e: 1 };
    const atRank1 = 1;
    const atRank3 = 1 / 3 + (2 / 3) * (1 / 2) * ((1 + EPSILON) / (1 + 2 * EPSILON));
    const atRank6 = 1 / 6 + (5 / 6) * (4 / 5) * ((2 + EPSILON) / (3 + 2 * EPSILON));
    expect(measure(['a', 'x', 'c', 'u', 'n', 'd'], relevant, 'infap')).toBeCloseTo(
      (atRank1 + atRank3 + atRank6) / 4,
      12,
    );
  });

  it('evaluate() returns it under values.infap, over the whole list whatever k', () => {
    expect(evaluate(['x', 'a'], ['a'], 1).values.infap).toBeCloseTo(
      1 / 2 + (1 / 2) * (0 / 1) * (EPSILON / (2 * EPSILON)),
      12,
    );
  });
});

describe('rbp@p', () => {
  it('(1 − p) Σ gain · p^(rank − 1), p at its bounds and by default 0.9', () => {
    const hits = ['a', 'b', 'c'];
    expect(measure(hits, ['a', 'c'], 'rbp@0.5')).toBe(0.5 * (1 + 0.25));
    expect(measure(hits, ['a', 'c'], 'rbp@0.99')).toBeCloseTo(0.01 * (1 + 0.9801), 12);
    expect(measure(hits, ['a', 'c'], 'rbp@0.01')).toBeCloseTo(0.99 * (1 + 0.0001), 12);
    expect(measure(hits, ['a', 'c'], 'rbp')).toBeCloseTo(0.1 * (1 + 0.81), 12);
  });

  it('no relevant id, or no hits: 0', () => {
    expect(measure(['a'], { a: 0 }, 'rbp@0.5')).toBe(0);
    expect(measure([], ['a'], 'rbp@0.5')).toBe(0);
  });

  it('graded: gains divided by the highest grade when it is above 1; negative grades gain nothing', () => {
    expect(measure(['a', 'x', 'c'], { a: 2, b: 0, c: 1 }, 'rbp@0.5')).toBe(0.5 * (1 + 0.25 * 0.5));
    expect(measure(['n', 'a'], { n: -1, a: 1 }, 'rbp@0.5')).toBe(0.5 * 0.5);
  });

  it('a repeated hit takes its slot and gains nothing', () => {
    expect(measure(['a', 'a', 'c'], ['a', 'c'], 'rbp@0.5')).toBe(0.5 * (1 + 0.25));
  });

  it('ties of score: docno descending first, as trec_eval ranks them', () => {
    const hits = [
      { id: 'a', score: 1 },
      { id: 'b', score: 1 },
    ];
    expect(evaluateMeasures(hits, ['b'], [parseMeasure('rbp@0.5')], { sortBy: 'score' })['rbp@0.5']).toBe(0.5);
  });
});
