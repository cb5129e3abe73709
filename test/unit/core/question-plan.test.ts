// The question-count plan against a simulation written here, with its own generator and its own reading
// of the rule (no code under test): each question is drawn from the suite's values and loses its value
// with probability Δ / mean; the count is where the share of simulated suites the rule fails reaches 80%.
import { describe, expect, it } from 'vitest';
import { resolveRegressionRule } from '../../../src/core/regression-rule.js';
import { planQuestions } from '../../../src/core/question-plan.js';

/** mulberry32: a small seeded generator, independent of src/core/random.ts. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The smallest n with power(n) ≥ 0.8, by doubling then bisection (power estimated on `runs` suites). */
function simulatedCount(
  values: number[],
  delta: number,
  fails: (dropSum: number, worse: number, n: number) => boolean,
): number {
  const runs = 4000;
  const average = values.reduce((a, b) => a + b, 0) / values.length;
  const power = (n: number): number => {
    const random = generator(7);
    let caught = 0;
    for (let run = 0; run < runs; run++) {
      let dropSum = 0;
      let worse = 0;
      for (let i = 0; i < n; i++) {
        const value = values[Math.floor(random() * values.length)]!;
        if (random() < delta / average && value > 0) {
          dropSum += value;
          worse++;
        }
      }
      if (fails(dropSum, worse, n)) caught++;
    }
    return caught / runs;
  };
  let low = 0;
  let high = 1;
  while (power(high) < 0.8) {
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (power(middle) >= 0.8) high = middle;
    else low = middle;
  }
  return high;
}

const OPTIONS = { delta: 0.05, power: 0.8, simulations: 1000, maxQuestions: 100_000 };

describe('planQuestions', () => {
  it('a binary measure under the sign test at 0.05: within 15% of the simulation', () => {
    const values = [...new Array<number>(80).fill(1), ...new Array<number>(20).fill(0)];
    const rule = resolveRegressionRule({ significance: 0.05 });
    const plan = planQuestions(values, 'hit@3', rule, OPTIONS);
    // The rule by hand: the mean falls by worse/n > 0.01, and the sign test's p = 2 · 2^−worse ≤ 0.05.
    const expected = simulatedCount(
      values,
      0.05,
      (dropSum, worse, n) => dropSum / n > 0.01 && 2 * 0.5 ** worse <= 0.05,
    );
    expect(plan.kind).toBe('needed');
    const questions = (plan as { questions: number }).questions;
    expect(Math.abs(questions - expected) / expected).toBeLessThan(0.15);
  });

  it('a graded measure under the tolerance alone: the drop seen exceeds 0.04 at 80%, within 15% of the simulation', () => {
    const values = Array.from({ length: 100 }, (_, i) => ((i * 37) % 100) / 100);
    const rule = resolveRegressionRule({ tolerance: 0.04 });
    const plan = planQuestions(values, 'ndcg@10', rule, OPTIONS);
    const expected = simulatedCount(values, 0.05, (dropSum, _worse, n) => dropSum / n > 0.04);
    expect(plan.kind).toBe('needed');
    const questions = (plan as { questions: number }).questions;
    expect(Math.abs(questions - expected) / expected).toBeLessThan(0.15);
  });

  it('is the same for the same seed', () => {
    const values = [1, 1, 1, 0, 1, 0.5, 0.25, 1];
    const rule = resolveRegressionRule({ significance: 0.05, seed: 9 });
    expect(planQuestions(values, 'ndcg@5', rule, OPTIONS)).toEqual(planQuestions(values, 'ndcg@5', rule, OPTIONS));
  });

  it('never, for a drop within the tolerance or larger than the mean; beyond, past maxQuestions', () => {
    const rule = resolveRegressionRule({ tolerance: 0.05 });
    expect(planQuestions([1, 0], 'hit@3', rule, OPTIONS)).toEqual({ kind: 'never', reason: 'within-tolerance' });
    const strict = resolveRegressionRule({ tolerance: 0 });
    expect(planQuestions([0.02, 0.04], 'hit@3', strict, OPTIONS)).toEqual({
      kind: 'never',
      reason: 'mean-below-delta',
    });
    const significance = resolveRegressionRule({ significance: 0.05 });
    expect(planQuestions([1, 1], 'hit@3', significance, { ...OPTIONS, maxQuestions: 20 })).toEqual({
      kind: 'beyond',
      maxQuestions: 20,
    });
  });
});
