import { describe, expect, it } from 'vitest';
import { compareEvaluations } from '../../../src/dataset/compare-runs.js';
import { evaluateRun } from '../../../src/dataset/evaluate-run.js';
import type { EvalSet } from '../../../src/dataset/jsonl.js';

const set: EvalSet = Array.from({ length: 10 }, (_, index) => ({ id: `q${index + 1}`, query: '', relevant: ['gold'] }));
const allFirst = Object.fromEntries(set.map((query) => [query.id, ['gold', 'x']]));
/** Five answers fall from rank 1 to rank 2 (hit@1 5/10) — the seed's "5 wins, 0 losses" the other way round. */
const halfSecond = Object.fromEntries(set.map((query, index) => [query.id, index < 5 ? ['x', 'gold'] : ['gold', 'x']]));
const before = evaluateRun(set, allFirst, { measures: ['hit@1', 'mrr', 'hit@2'] });
const after = evaluateRun(set, halfSecond, { measures: ['hit@1', 'mrr', 'hit@2'] });

describe('compareEvaluations', () => {
  it('counts wins, losses and ties per query and tests the pairs (5 losses, 0 wins: sign test p = 0.0625)', () => {
    const comparison = compareEvaluations(before, after, { test: 'sign', measures: ['hit@1'] });
    const [hit] = comparison.measures;
    expect(hit).toMatchObject({
      measure: 'hit@1',
      count: 10,
      meanBefore: 1,
      meanAfter: 0.5,
      meanDifference: -0.5,
      wins: 0,
      losses: 5,
      ties: 5,
      p: 0.0625,
      adjustedP: 0.0625,
    });
    expect(hit?.worse.map((change) => change.queryId)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    expect(hit?.better).toEqual([]);
    expect(comparison.regressions).toEqual(['hit@1']);
    expect(comparison.queryIds).toHaveLength(10);
  });

  it('Holm-corrects across the measures and applies significance to the verdict', () => {
    const comparison = compareEvaluations(before, after, { test: 'sign', significance: 0.1 });
    const byName = Object.fromEntries(comparison.measures.map((entry) => [entry.measure, entry]));
    // p-values 0.0625, 0.0625, 1; hit@2 has no changed query (p = 1 under any test) and is left out of
    // the family, as in the reporters: Holm over two → 2 × 0.0625 each.
    expect(byName['hit@1']?.adjustedP).toBeCloseTo(0.125, 12);
    expect(byName['mrr']?.adjustedP).toBeCloseTo(0.125, 12);
    expect(byName['hit@2']?.adjustedP).toBe(1);
    expect(comparison.regressions).toEqual([]);
    expect(compareEvaluations(before, after, { test: 'sign', significance: 0.2 }).regressions).toEqual([
      'hit@1',
      'mrr',
    ]);
  });

  it('reads tolerance as one number or per measure, and flags improvements', () => {
    expect(compareEvaluations(before, after, { tolerance: 0.6 }).regressions).toEqual([]);
    expect(compareEvaluations(before, after, { tolerance: { 'Success@1': 0.6, RR: 0.2 } }).regressions).toEqual([
      'mrr',
    ]);
    const reversed = compareEvaluations(after, before, { test: 'sign' });
    expect(reversed.measures.find((entry) => entry.measure === 'hit@1')).toMatchObject({
      improvement: true,
      regression: false,
      wins: 5,
    });
    expect(() => compareEvaluations(before, after, { tolerance: -1 })).toThrow(/tolerance must be a finite number ≥ 0/);
    // The reporters' grammar: a default and per-measure overrides.
    expect(compareEvaluations(before, after, { tolerance: { default: 0.6, RR: 0.2 } }).regressions).toEqual(['mrr']);
    expect(() => compareEvaluations(before, after, { tolerance: { recal: 0 } })).toThrow(
      /options\.tolerance\["recal"\]/,
    );
  });

  it('computes intervals on request: Wilson for hit@k (5/10 → [0.237, 0.763]), bootstrap otherwise', () => {
    const comparison = compareEvaluations(before, after, { confidence: 0.95, resamples: 1000 });
    const hit = comparison.measures.find((entry) => entry.measure === 'hit@1');
    expect(hit?.intervalAfter).toMatchObject({ method: 'wilson', successes: 5, trials: 10 });
    expect(hit?.intervalAfter?.lower).toBeCloseTo(0.237, 3);
    expect(hit?.intervalAfter?.upper).toBeCloseTo(0.763, 3);
    expect(comparison.measures.find((entry) => entry.measure === 'mrr')?.intervalAfter?.method).toBe(
      'bootstrap-percentile',
    );
  });

  it('gives no p-value for a t-test on one pair rather than failing', () => {
    const one = evaluateRun(set.slice(0, 1), allFirst, { measures: ['mrr'] });
    const oneAfter = evaluateRun(set.slice(0, 1), halfSecond, { measures: ['mrr'] });
    const [entry] = compareEvaluations(one, oneAfter, { test: 't', significance: 0.05 }).measures;
    expect(entry?.p).toBeNaN();
    expect(entry?.regression).toBe(false);
    expect(compareEvaluations(one, oneAfter, { test: 't' }).regressions).toEqual(['mrr']);
  });

  it('rejects evaluations with nothing in common', () => {
    const other = evaluateRun([{ id: 'z', query: '', relevant: ['a'] }], { z: ['a'] }, { measures: ['mrr'] });
    expect(() => compareEvaluations(before, other)).toThrow(/no query in common/);
    expect(() => compareEvaluations(before, evaluateRun(set, allFirst, { measures: ['ndcg'] }))).toThrow(
      /share no measure/,
    );
    expect(() => compareEvaluations(before, [] as never)).toThrow(/must be the result of evaluateRun/);
  });
});
