// The one regression rule, used by the Vitest and Jest reporters (through summarize), toNotRegressFrom
// and `rag-matchers compare`:
//
// - Δ = mean(after − before) over the questions both sides have; the questions on one side only are not
//   paired (callers name them).
// - A row (suite × measure, or a measure of a run) regressed when Δ < −tolerance, improved when Δ >
//   tolerance, with one rounding slack: 1e-12 × max(1, |mean before|, |mean after|), so a drop of exactly
//   the tolerance (0.80 − 0.81 at 0.01) is not a regression.
// - tolerance: a number, or per-measure overrides with an optional default (`{ default: 0.02,
//   'recall@5': 0 }`); default 0.01. Override keys are measures in any spelling (`R@5`), `faithfulness`,
//   `judge:<name>`, or `default`; anything else is an error.
// - significance (optional): the move must also be significant under the paired test, with p-values
//   Holm-corrected across the rows that have at least one changed question.
// - test: the exact sign test by default ('randomization' and 't' on request).

import { mean } from './mean.js';
import { formatMeasure, parseMeasure } from './measures.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED, holmCorrection, pairedComparison, type PairedTestName } from './stats.js';

export const DEFAULT_TOLERANCE = 0.01;
/** The paired test when none is named: exact, deterministic, and cheap (see docs/decisions.md). */
const DEFAULT_TEST: PairedTestName = 'sign';
export { DEFAULT_RESAMPLES, DEFAULT_SEED };
/** Relative rounding slack of every tolerance comparison and of "this question changed". */
const ROUNDING_SLACK = 1e-12;

/** A number for every measure, or per-measure overrides (`{ 'recall@5': 0 }`) with an optional `default`. */
export type ToleranceOption = number | Readonly<Record<string, number>>;

export interface ResolvedTolerance {
  default: number;
  /** Canonical measure name → tolerance. */
  byMeasure: Readonly<Record<string, number>>;
}

/**
 * Checks a tolerance option and puts override keys in canonical form (`R@5` → `recall@5`). Keys must be
 * measures (`faithfulness` and `judge:<name>` included) or `default`; a typo is an error, not a silent default.
 */
export function resolveTolerance(
  option: ToleranceOption | ResolvedTolerance | undefined,
  name = 'tolerance',
): ResolvedTolerance {
  if (option === undefined) return { default: DEFAULT_TOLERANCE, byMeasure: {} };
  if (typeof option === 'number') return { default: checkTolerance(option, name), byMeasure: {} };
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new TypeError(
      `${name} must be a number (e.g. 0.01) or an object of per-measure values (e.g. { default: 0.01, 'recall@5': 0 }), got ${option === null ? 'null' : Array.isArray(option) ? 'an array' : typeof option}.`,
    );
  }
  if (isResolved(option)) return resolveTolerance({ ...option.byMeasure, default: option.default }, name);
  let fallback = DEFAULT_TOLERANCE;
  const byMeasure: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const key of Object.keys(option)) {
    const value = checkTolerance((option as Record<string, unknown>)[key], `${name}[${JSON.stringify(key)}]`);
    if (key === 'default') {
      fallback = value;
      continue;
    }
    byMeasure[canonicalMeasure(key, `${name}[${JSON.stringify(key)}]`)] = value;
  }
  return { default: fallback, byMeasure };
}

function isResolved(option: object): option is ResolvedTolerance {
  const record = option as Record<string, unknown>;
  return (
    typeof record.byMeasure === 'object' &&
    record.byMeasure !== null &&
    typeof record.default === 'number' &&
    Object.keys(record).length === 2
  );
}

export function toleranceFor(tolerance: ResolvedTolerance, measure: string): number {
  return Object.prototype.hasOwnProperty.call(tolerance.byMeasure, measure)
    ? tolerance.byMeasure[measure]!
    : tolerance.default;
}

function checkTolerance(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(
      `${name} must be a finite number ≥ 0 (an absolute drop in the mean, e.g. 0.01), got ${String(value)}.`,
    );
  }
  // Means lie in [0, 1]: a tolerance above 1 lets no drop fail, and is most likely a percentage.
  if (value > 1) {
    const asShare = value / 100;
    throw new RangeError(
      `${name} must be at most 1 (an absolute drop in a mean between 0 and 1), got ${String(value)}` +
        (asShare <= 1 ? `; a drop of ${String(value)} percentage points is ${String(asShare)}.` : '.'),
    );
  }
  return value;
}

/** `recall@5` for `R@5`; `faithfulness` and `judge:<name>` as they are. */
function canonicalMeasure(key: string, name: string): string {
  if (key === 'faithfulness' || /^judge:.+/.test(key)) return key;
  try {
    return formatMeasure(parseMeasure(key));
  } catch (error) {
    throw new RangeError(`${name}: ${(error as Error).message} (also faithfulness, judge:<name>, and default)`);
  }
}

/** Whether a mean change is beyond the tolerance, with rounding absorbed (0.80 − 0.81 is exactly at 0.01). */
function movementOf(delta: number, tolerance: number, scale: number): 'below' | 'above' | 'within' {
  const slack = ROUNDING_SLACK * Math.max(1, Math.abs(scale));
  if (delta < -tolerance - slack) return 'below';
  if (delta > tolerance + slack) return 'above';
  return 'within';
}

/** movementOf for a move between two means, the rounding slack scaled by the larger of them. */
export function movementOfMeans(
  move: { readonly delta: number; readonly meanBefore: number; readonly meanAfter: number },
  tolerance: number,
): 'below' | 'above' | 'within' {
  return movementOf(move.delta, tolerance, Math.max(Math.abs(move.meanBefore), Math.abs(move.meanAfter)));
}

/** True when two values of one question differ beyond rounding. */
export function valuesDiffer(before: number, after: number): boolean {
  return Math.abs(after - before) > ROUNDING_SLACK * Math.max(1, Math.abs(after), Math.abs(before));
}

export interface RegressionRuleOptions {
  /** Largest move of a mean that is neither a regression nor an improvement. Default 0.01. */
  tolerance?: ToleranceOption | ResolvedTolerance;
  /** Also require p (Holm) ≤ significance, e.g. 0.05. Default: unset (tolerance alone). */
  significance?: number;
  /** Paired test. Default 'sign'. */
  test?: PairedTestName;
  /** Randomization test resamples. Default 10,000. */
  resamples?: number;
  /** Randomization test seed. Default 42. */
  seed?: number;
}

export interface RegressionRule {
  tolerance: ResolvedTolerance;
  significance?: number;
  test: PairedTestName;
  resamples: number;
  seed: number;
}

/** Checks the options of the regression rule; errors name `caller` and the option. */
export function resolveRegressionRule(options: RegressionRuleOptions = {}, caller = 'options'): RegressionRule {
  const tolerance = resolveTolerance(options.tolerance, `${caller}.tolerance`);
  const test = options.test ?? DEFAULT_TEST;
  if (test !== 'sign' && test !== 'randomization' && test !== 't')
    throw new RangeError(`${caller}.test must be 'sign', 'randomization' or 't', got ${JSON.stringify(test)}.`);
  const significance = options.significance;
  if (significance !== undefined && (typeof significance !== 'number' || !(significance > 0 && significance < 1))) {
    throw new RangeError(
      `${caller}.significance must be a number strictly between 0 and 1 (e.g. 0.05), got ${String(significance)}; leave it unset to judge by the tolerance alone.`,
    );
  }
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? DEFAULT_SEED;
  if (typeof resamples !== 'number' || !Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`${caller}.resamples must be a whole number ≥ 1, got ${String(resamples)}.`);
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new RangeError(`${caller}.seed must be a whole number from 0 to 4294967295, got ${String(seed)}.`);
  return { tolerance, ...(significance !== undefined ? { significance } : {}), test, resamples, seed };
}

/** The paired comparison of one row on its shared questions. */
export interface PairedMove {
  shared: number;
  wins: number;
  losses: number;
  ties: number;
  meanBefore: number;
  meanAfter: number;
  /** meanAfter − meanBefore = mean(after − before). */
  delta: number;
  test: PairedTestName;
  /** Two-sided p; absent when the test cannot run (a t-test on one pair). */
  p?: number;
  /** Holm-adjusted across the family; set by judgeMoves. */
  adjustedP?: number;
  method?: string;
  seed?: number | null;
  resamples?: number;
}

/** Compares paired values (same questions, same order) under the rule's test. `changed`: how many pairs differ beyond rounding, when the caller counted them. */
export function comparePaired(
  before: readonly number[],
  after: readonly number[],
  rule: RegressionRule,
  changed?: number,
): PairedMove {
  const pairs = before.length;
  if (changed === undefined) {
    changed = 0;
    for (let i = 0; i < pairs; i++) if (valuesDiffer(before[i]!, after[i]!)) changed++;
  }
  const meanBefore = mean(before);
  const meanAfter = mean(after);
  if (changed === 0) {
    // Nothing changed: every test gives p = 1; skip the work.
    return {
      shared: pairs,
      wins: 0,
      losses: 0,
      ties: pairs,
      meanBefore,
      meanAfter,
      delta: meanAfter - meanBefore,
      test: rule.test,
      p: 1,
    };
  }
  let wins = 0;
  let losses = 0;
  for (let i = 0; i < pairs; i++) {
    if (!valuesDiffer(before[i]!, after[i]!)) continue;
    if (after[i]! > before[i]!) wins++;
    else losses++;
  }
  const base = {
    shared: pairs,
    wins,
    losses,
    ties: pairs - wins - losses,
    meanBefore,
    meanAfter,
    delta: meanAfter - meanBefore,
    test: rule.test,
  };
  if (rule.test === 't' && pairs < 2) return base;
  const paired = pairedComparison(before, after, {
    test: rule.test,
    tolerance: 0,
    resamples: rule.resamples,
    seed: rule.seed,
  });
  return {
    ...base,
    p: paired.p,
    method: paired.method,
    ...(paired.seed !== undefined ? { seed: paired.seed } : {}),
    ...(paired.resamples !== undefined ? { resamples: paired.resamples } : {}),
  };
}

export type MoveVerdict = 'regressed' | 'improved' | 'unchanged';

/**
 * Judges a family of compared rows: Holm across the rows with at least one changed question (a row where
 * nothing changed has p = 1 under every test and is left out rather than diluting the others), then each
 * row's verdict. Sets `adjustedP` on every move with a p; returns the verdicts in order.
 */
export function judgeMoves(
  rows: readonly { measure: string; move: PairedMove }[],
  rule: RegressionRule,
): MoveVerdict[] {
  const family = rows.filter((row) => inHolmFamily(row.move));
  const adjusted = holmCorrection(family.map((row) => row.move.p!));
  family.forEach((row, index) => {
    row.move.adjustedP = adjusted[index]!;
  });
  return rows.map(({ measure, move }) => {
    if (move.p !== undefined && move.adjustedP === undefined) move.adjustedP = move.p;
    const direction = movementOfMeans(move, toleranceFor(rule.tolerance, measure));
    if (direction === 'within') return 'unchanged';
    if (rule.significance !== undefined && !(move.adjustedP !== undefined && move.adjustedP <= rule.significance))
      return 'unchanged';
    return direction === 'below' ? 'regressed' : 'improved';
  });
}

/** Rows in the Holm family of judgeMoves. */
export function holmFamilySize(moves: readonly (PairedMove | undefined)[]): number {
  return moves.filter(inHolmFamily).length;
}

/** A row with a p-value and at least one changed question: the rows Holm corrects across. */
function inHolmFamily(move: PairedMove | undefined): boolean {
  return move?.p !== undefined && move.wins + move.losses > 0;
}
