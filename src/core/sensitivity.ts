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

import { comparePaired, judgeMoves, valuesDiffer, type RegressionRule } from './regression-rule.js';

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
  const order = values
    .map((value, index) => ({ value, index }))
    .filter(({ value }) => valuesDiffer(value, 0) && value > 0)
    .sort((a, b) => b.value - a.value);
  const fails = (worse: number, judged: RegressionRule): boolean => {
    const after = [...values];
    for (let i = 0; i < worse; i++) after[order[i]!.index] = 0;
    const move = comparePaired(values, after, judged, worse);
    return judgeMoves([{ measure, move }], judged)[0] === 'regressed';
  };
  // The tolerance alone ignores p, so the cheapest test stands in for the rule's.
  const toleranceOnly: RegressionRule = { tolerance: rule.tolerance, test: 'sign', resamples: 1, seed: rule.seed };
  const most = order.length;
  if (most === 0 || !fails(most, toleranceOnly)) return { canFail: false, limitedBy: 'tolerance' };
  if (!fails(most, rule)) return { canFail: false, limitedBy: 'significance' };
  const byTolerance = smallestFailing(1, most, (worse) => fails(worse, toleranceOnly));
  // The tolerance alone sets a floor; the test may need more questions beyond it.
  const count =
    rule.significance === undefined ? byTolerance : smallestFailing(byTolerance, most, (worse) => fails(worse, rule));
  let drop = 0;
  for (let i = 0; i < count; i++) drop += order[i]!.value;
  return {
    canFail: true,
    questions: count,
    meanDrop: drop / values.length,
    limitedBy: count > byTolerance ? 'significance' : 'tolerance',
  };
}

/**
 * The smallest k in [low, high] with fails(k), given fails(high). The mean's fall grows with k, and so does
 * the evidence of every paired test (one more question dropped, the others as they were), so bisection.
 */
function smallestFailing(low: number, high: number, fails: (worse: number) => boolean): number {
  if (fails(low)) return low;
  // Invariant: fails(high), not fails(low).
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fails(middle)) high = middle;
    else low = middle;
  }
  return high;
}
