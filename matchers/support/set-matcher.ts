// Shared body of the set-level matchers: they take the result of evaluateRun(set, run, { measures })
// and assert on a measure's mean (optionally the lower bound of its confidence interval), or compare
// two results. Messages follow the per-query matchers' style; every per-query value is recorded.
import { printWithType } from './jest-utils.js';
import { describeValue } from '../../src/core/describe.js';
import {
  formatMeasure,
  isBinaryMeasure,
  parseMeasure,
  type Measure,
  type MeasureName,
} from '../../src/core/measures.js';
import { formatNumber, percent, plural, wordFor } from '../../src/core/present.js';
import { meanInterval, type MeanInterval } from '../../src/core/stats.js';
import { isRunEvaluation, measureValues, type RunEvaluation } from '../../src/dataset/evaluate-run.js';
import { declaredMeasuresFor, recordQuestion } from '../../src/recording/question.js';
import type { MetricSample } from '../../src/recording/sample.js';
import { utilsOf, type MatcherContext, type MatcherResult } from './context.js';
import { checkCutoff, checkOptionalCutoff } from './cutoff.js';
import { listIds, shortKey } from './format.js';
import { hintOf, matcherCall, type MatcherCall } from './hint.js';
import { checkKnownOptions, checkOptions } from './options.js';
import { checkThreshold, meetsThreshold } from './threshold.js';
import { argumentError, usageError, withUsageErrors } from './usage-error.js';

/** Options of the mean matchers. */
export interface MeanMatcherOptions {
  /**
   * Require the lower bound of this two-sided interval (e.g. 0.95) to clear `min`, not just the
   * mean: Wilson for hit@k, percentile bootstrap otherwise. A small set then cannot pass by luck.
   */
  confidence?: number;
  /** Bootstrap resamples. Default 10,000. */
  resamples?: number;
  /** Bootstrap seed. Default 42. */
  seed?: number;
}

/** Options of the mean matchers whose measure takes an optional cutoff (MRR, nDCG). */
export interface CutoffMeanMatcherOptions extends MeanMatcherOptions {
  /** Cutoff: `mrr@k` / `ndcg@k`; omitted: the whole list (`mrr`, `ndcg`). */
  k?: number;
}

const MEAN_OPTIONS = ['confidence', 'resamples', 'seed'];
/** Lowest-scoring queries listed in a failure message. */
const SHOWN_QUERIES = 10;
/** The cutoff a set matcher's usage error suggests: means are usually taken at 10. */
const SET_CUTOFF_EXAMPLE = 10;

/** The call of a set-level matcher: `expect(result).toHaveMeanAbove(measure, min, options)`. */
export function setCall(context: MatcherContext, matcherName: string, expectedArguments: string): MatcherCall {
  return matcherCall(context, matcherName, expectedArguments, 'result');
}

export function checkEvaluation(call: MatcherCall, received: unknown, label = 'received value'): RunEvaluation {
  if (!isRunEvaluation(received)) {
    throw usageError(
      call,
      `${label} must be the result of evaluateRun(set, run, { measures })`,
      printWithType(label === 'received value' ? 'Received' : label, received, (value) => describeValue(value)),
    );
  }
  return received;
}

export function readMeanOptions<T extends MeanMatcherOptions>(
  call: MatcherCall,
  options: unknown,
  extra: readonly string[] = [],
): T {
  const checked = checkOptions<T>(call, options, '{ confidence: 0.95 }');
  checkKnownOptions(call, checked, [...MEAN_OPTIONS, ...extra]);
  const { confidence } = checked;
  if (confidence !== undefined && (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1))) {
    throw argumentError(
      call,
      'options.confidence',
      'must be a number between 0 and 1, e.g. 0.95',
      confidence,
      'confidence',
    );
  }
  return checked;
}

/** The canonical name of `measure`, which the result must have been evaluated with. */
function checkMeasure(call: MatcherCall, result: RunEvaluation, measure: string | Measure): string {
  const name = withUsageErrors(call, () =>
    formatMeasure(typeof measure === 'string' ? parseMeasure(measure) : parseMeasure(formatMeasure(measure))),
  );
  if (!result.measures.includes(name)) {
    throw usageError(
      call,
      `${name} was not evaluated: the result has ${result.measures.join(', ')}`,
      `Add '${name}' to the measures: evaluateRun(set, run, { measures: [${[...result.measures, name].map((entry) => `'${entry}'`).join(', ')}] })`,
    );
  }
  return name;
}

function describeInterval(interval: MeanInterval): string {
  const range = `[${formatNumber(interval.lower)}, ${formatNumber(interval.upper)}]`;
  const level = percent(interval.confidence);
  if (interval.method === 'wilson')
    return `${level} interval ${range} (Wilson, ${interval.successes} of ${interval.trials})`;
  return `${level} interval ${range} (bootstrap percentile, ${interval.resamples} resamples, seed ${interval.seed})`;
}

/** "Not evaluated" notes: unjudged, missing (scored 0 or left out) and run-only queries. */
export function coverageNotes(result: RunEvaluation): string {
  const notes: string[] = [];
  const { unjudged, missing, runOnly } = result.queries;
  if (unjudged.length > 0)
    notes.push(`${plural(unjudged.length, 'unjudged query', 'unjudged queries')} not evaluated (${listIds(unjudged)})`);
  const scoredZero = missing.filter((id) => Object.prototype.hasOwnProperty.call(result.perQuery, id));
  const leftOut = missing.filter((id) => !Object.prototype.hasOwnProperty.call(result.perQuery, id));
  if (scoredZero.length > 0) notes.push(`${scoredZero.length} missing from the run, scored 0 (${listIds(scoredZero)})`);
  if (leftOut.length > 0) notes.push(`${leftOut.length} missing from the run, left out (${listIds(leftOut)})`);
  if (runOnly.length > 0)
    notes.push(`${plural(runOnly.length, 'run-only query', 'run-only queries')} ignored (${listIds(runOnly)})`);
  return notes.length === 0 ? '' : `Queries: ${notes.join('; ')}.`;
}

/** Lines `  q17  0.00` for the given (query, value) pairs, ids padded to one width. */
export function queryLines(rows: readonly { queryId: string; text: string }[]): string[] {
  const width = Math.max(...rows.map((row) => shortKey(row.queryId).length));
  return rows.map((row) => `  ${shortKey(row.queryId).padEnd(width)}  ${row.text}`);
}

export interface MeanMatcherArguments {
  received: unknown;
  measure: string | Measure;
  min: unknown;
  options: MeanMatcherOptions;
}

/** The mean of a measure (or its interval's lower bound) must clear min. */
export function runMeanMatcher(call: MatcherCall, args: MeanMatcherArguments): MatcherResult {
  const { context } = call;
  const { options } = args;
  const result = checkEvaluation(call, args.received);
  const min = checkThreshold(call, args.min);
  const name = checkMeasure(call, result, args.measure);
  if (result.queryIds.length === 0) {
    throw usageError(
      call,
      'no query was evaluated, so there is no mean to check',
      coverageNotes(result) || 'The set holds no judged query.',
    );
  }
  const values = measureValues(result, name);
  const mean = result.mean[name] as number;
  let interval: MeanInterval | undefined;
  if (options.confidence !== undefined) {
    const binary = isBinaryMeasure(parseMeasure(name)) ? true : undefined;
    const { confidence, resamples, seed } = options;
    interval = withUsageErrors(call, () => meanInterval(values, { confidence, resamples, seed, binary }));
  }
  const bound = interval === undefined ? mean : interval.lower;
  const pass = meetsThreshold(bound, min);
  const negated = context.isNot === true;
  recordSetQuestions(call, result, (queryId, index) => [
    {
      measure: name,
      value: values[index] as number,
      threshold: min,
      pass: pass !== negated,
      ...(negated ? { negated } : {}),
      queryId,
    },
  ]);

  const message = () => {
    const utils = utilsOf(context);
    const count = plural(result.queryIds.length, 'query', 'queries');
    const target = interval === undefined ? 'the mean' : `the ${percent(interval.confidence)} lower bound`;
    const requirement = negated
      ? `expected ${target} < ${formatNumber(min)}`
      : `needs ${target} ≥ ${formatNumber(min)}`;
    const sections = [
      hintOf(call),
      `mean ${name} = ${utils.RECEIVED_COLOR(formatNumber(mean))} over ${count}, ${utils.EXPECTED_COLOR(requirement)}`,
    ];
    if (interval !== undefined) {
      let line = `${describeInterval(interval)}: lower bound ${formatNumber(interval.lower)}`;
      if (!negated && meetsThreshold(mean, min) && !pass) {
        line += `\nThe mean clears ${formatNumber(min)} but the lower bound does not: ${count} are too few to tell. Add queries, or lower the bar.`;
      }
      sections.push(line);
    }
    if (!negated) {
      const lowest = result.queryIds
        .map((queryId, index) => ({ queryId, value: values[index] as number }))
        .sort((a, b) => a.value - b.value)
        .slice(0, SHOWN_QUERIES);
      const title =
        result.queryIds.length > SHOWN_QUERIES
          ? `Lowest ${SHOWN_QUERIES} of ${result.queryIds.length} queries:`
          : 'Queries, lowest first:';
      sections.push(
        [title, ...queryLines(lowest.map(({ queryId, value }) => ({ queryId, text: formatNumber(value) })))].join('\n'),
      );
    }
    const notes = coverageNotes(result);
    if (notes !== '') sections.push(utils.DIM_COLOR(notes));
    return sections.join('\n\n');
  };
  return { pass, message };
}

/** A mean matcher whose cutoff is an argument: `toHaveHitRateAtK(k, min)` checks hit@k. */
export function runMeanMatcherAtK(
  call: MatcherCall,
  name: MeasureName,
  args: { received: unknown; k: unknown; min: unknown; options: unknown },
): MatcherResult {
  const k = checkCutoff(call, args.k, { example: SET_CUTOFF_EXAMPLE });
  const options = readMeanOptions(call, args.options);
  return runMeanMatcher(call, { received: args.received, measure: { name, k }, min: args.min, options });
}

/** A mean matcher whose cutoff is `options.k`, uncut when left out: `toHaveMrrAbove(min)` checks mrr or mrr@k. */
export function runMeanMatcherWithOptionalCutoff(
  call: MatcherCall,
  name: MeasureName,
  args: { received: unknown; min: unknown; options: unknown },
): MatcherResult {
  const { k, ...options } = readMeanOptions<CutoffMeanMatcherOptions>(call, args.options, ['k']);
  const cutoff = checkOptionalCutoff(call, k, { example: SET_CUTOFF_EXAMPLE });
  const measure = cutoff === undefined ? { name } : { name, k: cutoff };
  return runMeanMatcher(call, { received: args.received, measure, min: args.min, options });
}

/**
 * Records each evaluated question as the per-question matchers do: its declared measures (read from
 * the result, which must hold them all), then the matcher's own samples.
 */
export function recordSetQuestions(
  call: MatcherCall,
  result: RunEvaluation,
  own: (queryId: string, index: number) => MetricSample[],
): void {
  const { context } = call;
  const declared = declaredMeasuresFor(context);
  const missing = declared.filter((measure) => !result.measures.includes(measure));
  if (missing.length > 0) {
    throw usageError(
      call,
      `the declared ${wordFor(missing.length, 'measure')} ${missing.join(', ')} ${wordFor(missing.length, 'was', 'were')} not evaluated: every question records the declared measures`,
      `Evaluate them too: evaluateRun(set, run, { measures: [${[...new Set([...result.measures, ...declared])].map((entry) => `'${entry}'`).join(', ')}] })`,
    );
  }
  result.queryIds.forEach((queryId, index) => {
    recordQuestion(context, {
      queryId,
      declared: () => result.perQuery[queryId] as Record<string, number>,
      own: own(queryId, index),
    });
  });
}
