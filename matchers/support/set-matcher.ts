// Shared body of the set-level matchers: they take the result of evaluateRun(set, run, { measures })
// and assert on a measure's mean (optionally the lower bound of its confidence interval), or compare
// two results. Messages follow the per-query matchers' style; every per-query value is recorded.
import { matcherErrorMessage, printExpected, printWithType } from 'jest-matcher-utils';
import { describeValue } from '../../src/core/describe.js';
import { formatMeasure, isBinaryMeasure, parseMeasure, type Measure } from '../../src/core/measures.js';
import { meanInterval, type MeanInterval } from '../../src/core/stats.js';
import { isRunEvaluation, measureValues, type RunEvaluation } from '../../src/dataset/evaluate-run.js';
import { declaredMeasuresFor, recordQuestion } from '../../src/recording/question.js';
import type { MetricSample } from '../../src/recording/sample.js';
import { utilsOf, type MatcherContext, type MatcherResult } from './context.js';
import { formatNumber, listIds, shortKey } from './format.js';
import { meetsThreshold } from './metric-matcher.js';

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

const MEAN_OPTIONS = new Set(['confidence', 'resamples', 'seed']);
/** Lowest-scoring queries listed in a failure message. */
const SHOWN_QUERIES = 10;

export function setHint(context: MatcherContext, matcherName: string, expectedArguments: string): string {
  const options = { isNot: context.isNot ?? false, promise: context.promise ?? '' };
  return utilsOf(context).matcherHint(matcherName, 'result', expectedArguments, options);
}

/** A misuse: thrown, so the test fails with or without `.not`. */
export function setUsageError(
  context: MatcherContext,
  matcherName: string,
  expectedArguments: string,
  problem: string,
  detail = '',
): Error {
  return new Error(matcherErrorMessage(setHint(context, matcherName, expectedArguments), problem, detail));
}

export function checkEvaluation(
  context: MatcherContext,
  matcherName: string,
  args: string,
  received: unknown,
  label = 'received value',
): RunEvaluation {
  if (!isRunEvaluation(received)) {
    throw setUsageError(
      context,
      matcherName,
      args,
      `${label} must be the result of evaluateRun(set, run, { measures })`,
      printWithType(label === 'received value' ? 'Received' : label, received, (value) => describeValue(value)),
    );
  }
  return received;
}

export function checkMin(context: MatcherContext, matcherName: string, args: string, min: unknown): number {
  if (typeof min !== 'number' || !Number.isFinite(min) || min < 0 || min > 1) {
    throw setUsageError(
      context,
      matcherName,
      args,
      `${printExpected('min')} must be a number from 0 to 1 (e.g. 0.8)`,
      printWithType('min', min, printExpected),
    );
  }
  return min;
}

export function checkCutoff(
  context: MatcherContext,
  matcherName: string,
  args: string,
  k: unknown,
  name = 'k',
): number {
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1) {
    throw setUsageError(
      context,
      matcherName,
      args,
      `${printExpected(name)} must be a positive whole number (e.g. 10)`,
      printWithType(name, k, printExpected),
    );
  }
  return k;
}

export function readMeanOptions<T extends MeanMatcherOptions>(
  context: MatcherContext,
  matcherName: string,
  args: string,
  options: unknown,
  extra: readonly string[] = [],
): T {
  if (options === undefined) return {} as T;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw setUsageError(
      context,
      matcherName,
      args,
      `${printExpected('options')} must be an object such as { confidence: 0.95 }`,
      printWithType('options', options, printExpected),
    );
  }
  for (const name of Object.keys(options)) {
    if (!MEAN_OPTIONS.has(name) && !extra.includes(name)) {
      throw setUsageError(
        context,
        matcherName,
        args,
        `unknown option ${JSON.stringify(name)}; known: ${[...MEAN_OPTIONS, ...extra].join(', ')}`,
      );
    }
  }
  const { confidence } = options as MeanMatcherOptions;
  if (confidence !== undefined && (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1))) {
    throw setUsageError(
      context,
      matcherName,
      args,
      `${printExpected('options.confidence')} must be a number between 0 and 1, e.g. 0.95`,
      printWithType('confidence', confidence, printExpected),
    );
  }
  return options as T;
}

/** The canonical name of `measure`, which the result must have been evaluated with. */
export function checkMeasure(
  context: MatcherContext,
  matcherName: string,
  args: string,
  result: RunEvaluation,
  measure: string | Measure,
): string {
  let name: string;
  try {
    name = formatMeasure(typeof measure === 'string' ? parseMeasure(measure) : parseMeasure(formatMeasure(measure)));
  } catch (error) {
    throw setUsageError(context, matcherName, args, (error as Error).message);
  }
  if (!result.measures.includes(name)) {
    throw setUsageError(
      context,
      matcherName,
      args,
      `${name} was not evaluated: the result has ${result.measures.join(', ')}`,
      `Add '${name}' to the measures: evaluateRun(set, run, { measures: [${[...result.measures, name].map((entry) => `'${entry}'`).join(', ')}] })`,
    );
  }
  return name;
}

function describeInterval(interval: MeanInterval): string {
  const range = `[${formatNumber(interval.lower)}, ${formatNumber(interval.upper)}]`;
  const percent = `${+(interval.confidence * 100).toFixed(2)}%`;
  if (interval.method === 'wilson')
    return `${percent} interval ${range} (Wilson, ${interval.successes} of ${interval.trials})`;
  return `${percent} interval ${range} (bootstrap percentile, ${interval.resamples} resamples, seed ${interval.seed})`;
}

/** "Not evaluated" notes: unjudged, missing (scored 0 or left out) and run-only queries. */
export function coverageNotes(result: RunEvaluation): string {
  const notes: string[] = [];
  const { unjudged, missing, runOnly } = result.queries;
  if (unjudged.length > 0)
    notes.push(
      `${unjudged.length} unjudged ${unjudged.length === 1 ? 'query' : 'queries'} not evaluated (${listIds(unjudged)})`,
    );
  const scoredZero = missing.filter((id) => Object.prototype.hasOwnProperty.call(result.perQuery, id));
  const leftOut = missing.filter((id) => !Object.prototype.hasOwnProperty.call(result.perQuery, id));
  if (scoredZero.length > 0) notes.push(`${scoredZero.length} missing from the run, scored 0 (${listIds(scoredZero)})`);
  if (leftOut.length > 0) notes.push(`${leftOut.length} missing from the run, left out (${listIds(leftOut)})`);
  if (runOnly.length > 0)
    notes.push(
      `${runOnly.length} run-only ${runOnly.length === 1 ? 'query' : 'queries'} ignored (${listIds(runOnly)})`,
    );
  return notes.length === 0 ? '' : `Queries: ${notes.join('; ')}.`;
}

/** Lines `  q17  0.00` for the given (query, value) pairs, ids padded to one width. */
export function queryLines(rows: readonly { queryId: string; text: string }[]): string[] {
  const width = Math.max(...rows.map((row) => shortKey(row.queryId).length));
  return rows.map((row) => `  ${shortKey(row.queryId).padEnd(width)}  ${row.text}`);
}

export interface MeanMatcherCall {
  matcherName: string;
  expectedArguments: string;
  received: unknown;
  measure: string | Measure;
  min: unknown;
  options: MeanMatcherOptions;
}

/** The mean of a measure (or its interval's lower bound) must clear min. */
export function runMeanMatcher(context: MatcherContext, call: MeanMatcherCall): MatcherResult {
  const { matcherName, expectedArguments: args, options } = call;
  const result = checkEvaluation(context, matcherName, args, call.received);
  const min = checkMin(context, matcherName, args, call.min);
  const name = checkMeasure(context, matcherName, args, result, call.measure);
  if (result.queryIds.length === 0) {
    throw setUsageError(
      context,
      matcherName,
      args,
      'no query was evaluated, so there is no mean to check',
      coverageNotes(result) || 'The set holds no judged query.',
    );
  }
  const values = measureValues(result, name);
  const mean = result.mean[name] as number;
  let interval: MeanInterval | undefined;
  if (options.confidence !== undefined) {
    try {
      const binary = isBinaryMeasure(parseMeasure(name)) ? true : undefined;
      interval = meanInterval(values, {
        confidence: options.confidence,
        resamples: options.resamples,
        seed: options.seed,
        binary,
      });
    } catch (error) {
      throw setUsageError(context, matcherName, args, (error as Error).message);
    }
  }
  const bound = interval === undefined ? mean : interval.lower;
  const pass = meetsThreshold(bound, min);
  const negated = context.isNot === true;
  recordSetQuestions(context, matcherName, args, result, (queryId, index) => [
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
    const count = `${result.queryIds.length} ${result.queryIds.length === 1 ? 'query' : 'queries'}`;
    const target = interval === undefined ? 'the mean' : `the ${+(interval.confidence * 100).toFixed(2)}% lower bound`;
    const requirement = negated
      ? `expected ${target} < ${formatNumber(min)}`
      : `needs ${target} ≥ ${formatNumber(min)}`;
    const sections = [
      setHint(context, matcherName, args),
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

/**
 * Records each evaluated question as the per-question matchers do: its declared measures (read from
 * the result, which must hold them all), then the matcher's own samples.
 */
export function recordSetQuestions(
  context: MatcherContext,
  matcherName: string,
  args: string,
  result: RunEvaluation,
  own: (queryId: string, index: number) => MetricSample[],
): void {
  const declared = declaredMeasuresFor(context);
  const missing = declared.filter((measure) => !result.measures.includes(measure));
  if (missing.length > 0) {
    throw setUsageError(
      context,
      matcherName,
      args,
      `the declared measure${missing.length === 1 ? '' : 's'} ${missing.join(', ')} ${missing.length === 1 ? 'was' : 'were'} not evaluated: every question records the declared measures`,
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
