// How many questions a suite needs for the gate's rule to catch a true drop of its mean, at a given power,
// estimated by resampling the suite's own per-question values (docs/statistics.md#question-count-plan).
//
// The model of a drop of Δ: a suite of n questions is drawn with replacement from the baseline's values,
// and each question independently loses its whole value (a binary measure flips 1 → 0) with probability
// Δ / mean, so the mean falls by Δ on average. A drop concentrated on few questions is the hard case for
// a paired test (fewer questions worse), so the count is on the safe side for drops spread more thinly.
// Each simulated suite is judged by the rule itself (judgeMoves on one row: no other row changes, so
// Holm's family is the row alone); with the tolerance alone that is "the drop seen exceeds the tolerance".

import { mean } from './mean.js';
import { createRandom, randomInt } from './random.js';
import { dropMove } from './sensitivity.js';
import { judgeMoves, movementOfMeans, toleranceFor, valuesDiffer, type RegressionRule } from './regression-rule.js';

export interface QuestionPlanOptions {
  /** The true drop of the mean to detect, e.g. 0.05. */
  delta: number;
  /** The probability of detecting it, e.g. 0.8. */
  power: number;
  /** Simulated suites per question count. */
  simulations: number;
  /** The largest count searched. */
  maxQuestions: number;
}

export type QuestionPlan =
  | {
      kind: 'needed';
      /** The fewest questions at which the rule catches the drop with at least the power asked for. */
      questions: number;
      /** The estimated power at that count. */
      power: number;
    }
  /** Even `maxQuestions` questions do not reach the power. */
  | { kind: 'beyond'; maxQuestions: number }
  /** No count can: the drop is within the tolerance, or larger than the mean itself. */
  | { kind: 'never'; reason: 'within-tolerance' | 'mean-below-delta' };

/** The plan of one row (`values`: its per-question baseline values) under `rule`. */
export function planQuestions(
  values: readonly number[],
  measure: string,
  rule: RegressionRule,
  options: QuestionPlanOptions,
): QuestionPlan {
  const baselineMean = mean(values);
  const drop = { delta: -options.delta, meanBefore: baselineMean, meanAfter: baselineMean - options.delta };
  if (movementOfMeans(drop, toleranceFor(rule.tolerance, measure)) === 'within')
    return { kind: 'never', reason: 'within-tolerance' };
  if (options.delta > baselineMean) return { kind: 'never', reason: 'mean-below-delta' };
  const powerAt = (questions: number) => detectionPower(values, measure, rule, options, questions);
  // Doubling, then bisection between the last count short of the power and the first that reaches it.
  let low = 0;
  let high = 1;
  let highPower = powerAt(high);
  while (highPower < options.power) {
    if (high >= options.maxQuestions) return { kind: 'beyond', maxQuestions: options.maxQuestions };
    low = high;
    high = Math.min(high * 2, options.maxQuestions);
    highPower = powerAt(high);
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const middlePower = powerAt(middle);
    if (middlePower >= options.power) {
      high = middle;
      highPower = middlePower;
    } else {
      low = middle;
    }
  }
  return { kind: 'needed', questions: high, power: highPower };
}

/**
 * The share of simulated suites of `questions` questions, each drawn from `values` and dropped as the
 * model says, that the rule judges regressed. The same seed for every count (common random numbers), so
 * the power grows smoothly with the count.
 */
export function detectionPower(
  values: readonly number[],
  measure: string,
  rule: RegressionRule,
  options: Pick<QuestionPlanOptions, 'delta' | 'simulations'>,
  questions: number,
): number {
  const random = createRandom(rule.seed);
  const dropChance = options.delta / mean(values);
  const before = new Array<number>(questions);
  const after = new Array<number>(questions);
  let caught = 0;
  for (let simulation = 0; simulation < options.simulations; simulation++) {
    let worse = 0;
    let sumBefore = 0;
    let sumAfter = 0;
    for (let index = 0; index < questions; index++) {
      const value = values[randomInt(random, values.length)]!;
      const dropped = random() < dropChance;
      before[index] = value;
      after[index] = dropped ? 0 : value;
      sumBefore += value;
      if (!dropped) sumAfter += value;
      else if (valuesDiffer(value, 0)) worse++;
    }
    const move = dropMove(questions, sumBefore / questions, sumAfter / questions, worse, rule, () => [before, after]);
    if (judgeMoves([{ measure, move }], rule)[0] === 'regressed') caught++;
  }
  return caught / options.simulations;
}
