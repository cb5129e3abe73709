// Questions run several times in one run (Vitest's `repeats`, `test.each` over a repeat index): each is
// one question whose value is the mean of its runs (src/baseline/group.ts folds them). Here: its spread,
// the unstable mark, and the two CI rules, `minRepeats` and `maxSpread`, as findings.
import { valuesDiffer } from '../core/regression-rule.js';
import { compareIds } from '../baseline/compare.js';

/** What the findings read of a summary row (summary.ts's SummaryRow has these fields). */
export interface RepeatedRow {
  suite: string;
  suiteKey: string;
  measure: string;
  sampleIds: readonly string[];
  /** Each question's values over its runs (undefined for one run); absent when none ran twice. */
  repeats?: readonly (readonly number[] | undefined)[];
}

/** A finding about repeated runs (summary.ts's GateFinding of these kinds). */
export interface RepeatFinding {
  kind: 'unstable' | 'too-few-repeats';
  suite: string;
  suiteKey: string;
  measure: string;
  questions: string[];
  /** unstable: each question's spread, parallel to `questions`, largest first. */
  spreads?: number[];
  /** too-few-repeats: how many times each question ran. */
  runs?: number[];
  /** maxSpread (unstable, when set) or minRepeats (too-few-repeats). */
  limit?: number;
  accept: 'run';
  fails: boolean;
}

/** The options of repeated runs, checked (undefined: not set). */
export interface RepeatRules {
  /** Every question must run at least this many times (its first run included), in CI. */
  minRepeats?: number;
  /** No question's spread (max − min over its runs) may exceed this, in CI. */
  maxSpread?: number;
}

/** The smallest and largest of a question's values over its runs. */
function rangeOf(runs: readonly number[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const value of runs) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { min, max };
}

/** The spread of a question's values over its runs: max − min (0 for one run). */
export function spreadOf(runs: readonly number[]): number {
  if (runs.length === 0) return 0;
  const { min, max } = rangeOf(runs);
  return max - min;
}

/** Whether a question's runs gave different values (beyond floating-point rounding). */
export function isUnstable(runs: readonly number[] | undefined): boolean {
  if (runs === undefined || runs.length < 2) return false;
  const { min, max } = rangeOf(runs);
  return valuesDiffer(min, max);
}

/** Checks the two options; throws a RangeError naming the option. */
export function checkRepeatRules(rules: RepeatRules, source: string): RepeatRules {
  const { minRepeats, maxSpread } = rules;
  if (minRepeats !== undefined && !(Number.isInteger(minRepeats) && minRepeats >= 1))
    throw new RangeError(
      `${source}: minRepeats must be a whole number ≥ 1 (runs of each question, the first included), got ${String(minRepeats)}.`,
    );
  if (maxSpread !== undefined && !(typeof maxSpread === 'number' && Number.isFinite(maxSpread) && maxSpread >= 0))
    throw new RangeError(
      `${source}: maxSpread must be a number ≥ 0 (largest max − min of a question's values over its runs), got ${String(maxSpread)}.`,
    );
  return {
    ...(minRepeats !== undefined ? { minRepeats } : {}),
    ...(maxSpread !== undefined ? { maxSpread } : {}),
  };
}

/**
 * Per row: the questions whose runs differ (`unstable`: a mark that fails only beyond `maxSpread`, under
 * `strict`), and under `strict` the questions that ran fewer than `minRepeats` times (`too-few-repeats`).
 */
export function repeatFindings(rows: readonly RepeatedRow[], rules: RepeatRules, strict: boolean): RepeatFinding[] {
  const findings: RepeatFinding[] = [];
  for (const row of rows) {
    const repeats = row.repeats;
    if (repeats !== undefined) {
      const unstable: { id: string; spread: number }[] = [];
      repeats.forEach((runs, index) => {
        if (isUnstable(runs)) unstable.push({ id: row.sampleIds[index]!, spread: spreadOf(runs!) });
      });
      unstable.sort((a, b) => b.spread - a.spread || compareIds(a.id, b.id));
      const limit = rules.maxSpread;
      const over =
        limit === undefined ? [] : unstable.filter(({ spread }) => spread > limit && valuesDiffer(limit, spread));
      const within = unstable.filter((question) => !over.includes(question));
      for (const [questions, fails] of [
        [over, strict],
        [within, false],
      ] as const) {
        if (questions.length === 0) continue;
        findings.push({
          kind: 'unstable',
          suite: row.suite,
          suiteKey: row.suiteKey,
          measure: row.measure,
          questions: questions.map(({ id }) => id),
          spreads: questions.map(({ spread }) => spread),
          ...(limit !== undefined ? { limit } : {}),
          accept: 'run',
          fails,
        });
      }
    }
    const minimum = rules.minRepeats;
    if (strict && minimum !== undefined) {
      const few: { id: string; runs: number }[] = [];
      row.sampleIds.forEach((id, index) => {
        const runs = repeats?.[index]?.length ?? 1;
        if (runs < minimum) few.push({ id, runs });
      });
      if (few.length > 0)
        findings.push({
          kind: 'too-few-repeats',
          suite: row.suite,
          suiteKey: row.suiteKey,
          measure: row.measure,
          questions: few.map(({ id }) => id),
          runs: few.map(({ runs }) => runs),
          limit: minimum,
          accept: 'run',
          fails: true,
        });
    }
  }
  return findings;
}
