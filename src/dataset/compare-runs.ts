// Paired comparison of two evaluations on the same queries (two runs, or a run and its baseline):
// per measure, means, wins/losses/ties, a paired test with Holm correction across the measures, and
// whether the change is a regression. Shared by toNotRegressFrom and `rag-matchers compare`; the rule
// itself (tolerance grammar, rounding slack, default test, Holm) is the reporters' (src/core/regression-rule.ts).
import { describeValue } from '../core/describe.js';
import { formatMeasure, isBinaryMeasure, parseMeasure } from '../core/measures.js';
import { wordFor } from '../core/present.js';
import { meanInterval, type MeanInterval, type PairedTestName } from '../core/stats.js';
import {
  comparePaired,
  judgeMoves,
  resolveRegressionRule,
  toleranceFor,
  type PairedMove,
  type RegressionRule,
  type ToleranceOption,
} from '../core/regression-rule.js';
import { isRunEvaluation, type RunEvaluation } from './evaluate-run.js';

export { DEFAULT_TOLERANCE } from '../core/regression-rule.js';

export interface CompareEvaluationsOptions {
  /** Measures to compare (any spelling); default: every measure both evaluations have. */
  measures?: readonly string[];
  /** Largest drop of a mean that is not a regression: one number, or per measure with an optional default (`{ default: 0.02, 'recall@5': 0 }`). Default 0.01. */
  tolerance?: ToleranceOption;
  /** When set, a drop is a regression only if its Holm-adjusted p-value is ≤ significance too. */
  significance?: number;
  /** Paired test behind p: 'sign' (default, exact), 'randomization' (seeded) or 't'. */
  test?: PairedTestName;
  /** Randomization test and bootstrap intervals. Default 10,000. */
  resamples?: number;
  /** Randomization test and bootstrap intervals. Default 42. */
  seed?: number;
  /** Also compute an interval for each mean (Wilson for hit@k, bootstrap otherwise) at this confidence. */
  confidence?: number;
}

export interface QueryChange {
  queryId: string;
  before: number;
  after: number;
}

export interface MeasureComparison {
  measure: string;
  /** Paired queries. */
  count: number;
  meanBefore: number;
  meanAfter: number;
  /** meanAfter − meanBefore. */
  meanDifference: number;
  wins: number;
  losses: number;
  ties: number;
  /** Two-sided p-value of the paired test (NaN when the test cannot run, e.g. a t-test on one pair). */
  p: number;
  /** Holm-adjusted across the compared measures. */
  adjustedP: number;
  test: PairedTestName;
  method: string;
  tolerance: number;
  /** The mean fell by more than the tolerance (and, with significance, adjustedP ≤ significance). */
  regression: boolean;
  /** The mean rose by more than the tolerance (same significance rule). */
  improvement: boolean;
  /** Queries whose value fell, largest drop first. */
  worse: QueryChange[];
  /** Queries whose value rose, largest gain first. */
  better: QueryChange[];
  intervalBefore?: MeanInterval;
  intervalAfter?: MeanInterval;
}

export interface RunComparison {
  measures: MeasureComparison[];
  /** Queries evaluated in both (the pairs), in the baseline's order. */
  queryIds: string[];
  onlyBefore: string[];
  onlyAfter: string[];
  /** Names of the measures that regressed. */
  regressions: string[];
  significance?: number;
  test: PairedTestName;
}

function assertEvaluation(value: unknown, role: string): asserts value is RunEvaluation {
  if (!isRunEvaluation(value)) {
    throw new TypeError(
      `compareEvaluations: ${role} must be the result of evaluateRun(set, run, { measures }), received ${describeValue(value)}.`,
    );
  }
}

/**
 * Compares `after` with `before` on the queries both evaluated. A measure regresses when its mean
 * fell by more than the tolerance (default 0.01), and — with `significance` — when the paired test,
 * Holm-corrected across the compared measures, also says so.
 */
export function compareEvaluations(
  before: RunEvaluation,
  after: RunEvaluation,
  options: CompareEvaluationsOptions = {},
): RunComparison {
  assertEvaluation(before, 'the baseline (before)');
  assertEvaluation(after, 'the candidate (after)');
  let rule: RegressionRule;
  try {
    rule = resolveRegressionRule(options, 'options');
  } catch (error) {
    throw new RangeError(`compareEvaluations: ${(error as Error).message}`);
  }
  const { test, significance } = rule;
  const shared = before.measures.filter((name) => after.measures.includes(name));
  let measures: string[];
  if (options.measures === undefined) {
    measures = shared;
  } else {
    measures = [...new Set(options.measures.map((name) => formatMeasure(parseMeasure(name))))];
    const absent = measures.filter((name) => !shared.includes(name));
    if (absent.length > 0) {
      throw new RangeError(
        `compareEvaluations: ${absent.join(', ')} ${wordFor(absent.length, 'is', 'are')} not in both evaluations (baseline: ${before.measures.join(', ')}; now: ${after.measures.join(', ')}). Evaluate both with the same measures.`,
      );
    }
  }
  if (measures.length === 0)
    throw new RangeError(
      'compareEvaluations: the two evaluations share no measure; evaluate both with the same measures.',
    );

  const afterIds = new Set(after.queryIds);
  const beforeIds = new Set(before.queryIds);
  const queryIds = before.queryIds.filter((id) => afterIds.has(id));
  const onlyBefore = before.queryIds.filter((id) => !afterIds.has(id));
  const onlyAfter = after.queryIds.filter((id) => !beforeIds.has(id));
  if (queryIds.length === 0) {
    throw new RangeError(
      'compareEvaluations: the two evaluations have no query in common; compare runs of the same set.',
    );
  }

  const moves: { measure: string; move: PairedMove }[] = [];
  const comparisons = measures.map((measure) => {
    const valuesBefore = queryIds.map((id) => (before.perQuery[id] as Record<string, number>)[measure] as number);
    const valuesAfter = queryIds.map((id) => (after.perQuery[id] as Record<string, number>)[measure] as number);
    const move = comparePaired(valuesBefore, valuesAfter, rule);
    moves.push({ measure, move });
    const changes = queryIds.map((queryId, index) => ({
      queryId,
      before: valuesBefore[index] as number,
      after: valuesAfter[index] as number,
    }));
    const comparison: MeasureComparison = {
      measure,
      count: queryIds.length,
      meanBefore: move.meanBefore,
      meanAfter: move.meanAfter,
      meanDifference: move.delta,
      wins: move.wins,
      losses: move.losses,
      ties: move.ties,
      p: move.p ?? Number.NaN,
      adjustedP: Number.NaN,
      test,
      method:
        move.method ??
        (move.p === undefined
          ? 'paired-t (needs 2 pairs)'
          : test === 'sign'
            ? 'sign-exact'
            : test === 'randomization'
              ? 'randomization-exact'
              : 'paired-t'),
      tolerance: toleranceFor(rule.tolerance, measure),
      regression: false,
      improvement: false,
      worse: changes
        .filter((change) => change.after < change.before)
        .sort((a, b) => b.before - b.after - (a.before - a.after)),
      better: changes
        .filter((change) => change.after > change.before)
        .sort((a, b) => b.after - b.before - (a.after - a.before)),
    };
    if (options.confidence !== undefined) {
      const binary = isBinaryMeasure(parseMeasure(measure)) ? true : undefined;
      const intervalOptions = {
        confidence: options.confidence,
        resamples: options.resamples,
        seed: options.seed,
        binary,
      };
      comparison.intervalBefore = meanInterval(valuesBefore, intervalOptions);
      comparison.intervalAfter = meanInterval(valuesAfter, intervalOptions);
    }
    return comparison;
  });

  const verdicts = judgeMoves(moves, rule);
  comparisons.forEach((comparison, index) => {
    const move = moves[index]!.move;
    comparison.adjustedP = move.adjustedP ?? Number.NaN;
    comparison.regression = verdicts[index] === 'regressed';
    comparison.improvement = verdicts[index] === 'improved';
  });
  return {
    measures: comparisons,
    queryIds,
    onlyBefore,
    onlyAfter,
    regressions: comparisons.filter((comparison) => comparison.regression).map((comparison) => comparison.measure),
    ...(significance === undefined ? {} : { significance }),
    test,
  };
}
