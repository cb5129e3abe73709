// The sensitivity of one row (suite × measure) under the gate's rule: the smallest change of its questions
// that would fail it, every other row unchanged. docs/statistics.md#sensitivity states the definition.
//
// "Worse" is the worst case per question: its value drops to 0 (a binary measure flips 1 → 0, a graded
// one loses all it has), the questions with the highest values first. No change with fewer worse questions
// can fail the row, since each question's drop is then the largest it can be and a paired test counts a
// question worse whatever its drop; so the count is the least number of worse questions that can fail the
// row, exact for binary measures (every failing change has at least that many flips).
//
// Every other row unchanged means no other row is in the Holm family (judgeMoves leaves out rows where
// nothing changed), so this row's p is compared with the significance as it is.

import { mean } from './mean.js';
import {
  comparePaired,
  judgeMoves,
  movementOfMeans,
  toleranceFor,
  valuesDiffer,
  type PairedMove,
  type RegressionRule,
} from './regression-rule.js';
import { signTest } from './stats.js';

export type RowSensitivity =
  | {
      canFail: true;
      /** The fewest questions whose drop can fail the row (each to 0, highest values first). */
      questions: number;
      /** How far that change takes the mean down: the sum of those values over the row's questions. */
      meanDrop: number;
      /** Which part of the rule sets the count: the tolerance on the mean, or the paired test's significance. */
      limitedBy: 'tolerance' | 'significance';
    }
  | {
      canFail: false;
      /** `significance`: the test cannot reach it even with every question worse; `tolerance`: the mean cannot fall that far. */
      limitedBy: 'tolerance' | 'significance';
    };

/**
 * The smallest change of `values` (one row's values, each question's mean over its repeats) that the
 * rule judges a regression of `measure`, every other row unchanged.
 */
export function sensitivityOf(values: readonly number[], measure: string, rule: RegressionRule): RowSensitivity {
  // The values that can drop, highest first (a numeric sort of the values alone: equal values are
  // interchangeable in the sums; which question drops matters only to the tests on arrays, below).
  const dropping = Float64Array.from(values.filter((value) => value > 0 && valuesDiffer(value, 0)))
    .sort()
    .reverse();
  const most = dropping.length;
  // How far the mean falls when the first `worse` questions of the order drop to 0.
  const droppedSum = new Float64Array(most + 1);
  for (let i = 0; i < most; i++) droppedSum[i + 1] = droppedSum[i]! + dropping[i]!;
  const fallOf = (worse: number): number => droppedSum[worse]! / values.length;
  const meanBefore = mean(values);
  const tolerance = toleranceFor(rule.tolerance, measure);
  const beyondTolerance = (worse: number): boolean =>
    movementOfMeans({ delta: -fallOf(worse), meanBefore, meanAfter: meanBefore - fallOf(worse) }, tolerance) ===
    'below';
  if (most === 0 || !beyondTolerance(most)) return { canFail: false, limitedBy: 'tolerance' };
  // The fall grows with each question dropped, so the tolerance's count is found by bisection.
  const byTolerance = smallestFrom(0, most, beyondTolerance);
  const found = (questions: number, limitedBy: 'tolerance' | 'significance'): RowSensitivity => ({
    canFail: true,
    questions,
    meanDrop: fallOf(questions),
    limitedBy,
  });
  if (rule.significance === undefined) return found(byTolerance, 'tolerance');
  // The test: the rule itself on the changed row. Its evidence grows with each question dropped (the
  // others as they were), so gallop up from the tolerance's count, then bisect.
  // The questions in that order, ties in row order: which ones drop, for the t and randomization tests.
  let order: number[] | undefined;
  const fails = (worse: number): boolean => {
    const arrays = (): [readonly number[], readonly number[]] => {
      order ??= values
        .map((value, index) => ({ value, index }))
        .filter(({ value }) => value > 0 && valuesDiffer(value, 0))
        .sort((a, b) => b.value - a.value)
        .map(({ index }) => index);
      const after = [...values];
      for (let i = 0; i < worse; i++) after[order[i]!] = 0;
      return [values, after];
    };
    const move = dropMove(values.length, meanBefore, meanBefore - fallOf(worse), worse, rule, arrays);
    return judgeMoves([{ measure, move }], rule)[0] === 'regressed';
  };
  if (fails(byTolerance)) return found(byTolerance, 'tolerance');
  // k worse questions and none better give the sign test p = 2 / 2^k, and the randomization test's exact
  // enumeration the same: try that count first, confirmed by the rule (two runs of the test, not five).
  if (rule.test !== 't') {
    const guess = Math.min(most, Math.max(byTolerance + 1, Math.ceil(Math.log2(2 / rule.significance))));
    if (fails(guess) && (guess - 1 === byTolerance || !fails(guess - 1))) return found(guess, 'significance');
  }
  let low = byTolerance;
  let high = byTolerance;
  do {
    if (high === most) return { canFail: false, limitedBy: 'significance' };
    low = high;
    high = Math.min(most, high * 2);
  } while (!fails(high));
  return found(smallestFrom(low, high, fails), 'significance');
}

/** The smallest k in (low, high] with holds(k), given holds(high) and not holds(low). */
function smallestFrom(low: number, high: number, holds: (worse: number) => boolean): number {
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (holds(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * The paired move of a row in which `worse` questions got worse and none better (what sensitivity and the
 * question plan judge): the sign test's p is then signTest(0, worse), as comparePaired finds it, and the
 * tolerance alone needs no p; the t and randomization tests run on the values (`arrays`: before, after).
 */
export function dropMove(
  shared: number,
  meanBefore: number,
  meanAfter: number,
  worse: number,
  rule: RegressionRule,
  arrays: () => [readonly number[], readonly number[]],
): PairedMove {
  if (rule.significance !== undefined && worse > 0 && !samePAsSignTest(rule, worse))
    return comparePaired(...arrays(), rule, worse);
  return {
    shared,
    wins: 0,
    losses: worse,
    ties: shared - worse,
    meanBefore,
    meanAfter,
    delta: meanAfter - meanBefore,
    test: rule.test,
    ...(rule.test === 'randomization' && worse > 0 ? { method: 'randomization-exact' } : {}),
    p: worse === 0 || rule.significance === undefined ? 1 : signTest(0, worse),
  };
}

/**
 * Whether the rule's test gives signTest(0, worse) when every changed question got worse: the sign test,
 * and the randomization test while it enumerates exactly (up to 16 changed questions), since only the two
 * assignments of one sign to every difference reach the observed |Σ| (2 of 2^worse; a drop under about
 * 1e-11 could tie within its rounding allowance, and no measure's value is that small).
 */
function samePAsSignTest(rule: RegressionRule, worse: number): boolean {
  return rule.test === 'sign' || (rule.test === 'randomization' && worse <= EXACT_RANDOMIZATION_PAIRS);
}

/** Changed questions up to which the randomization test enumerates every sign assignment (stats.ts, 'auto'). */
const EXACT_RANDOMIZATION_PAIRS = 16;
