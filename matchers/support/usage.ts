import { matcherErrorMessage, printWithType, printExpected } from 'jest-matcher-utils';
import { describeValue } from '../../src/core/describe.js';
import type { MeasurePlan } from '../../src/core/evaluate.js';
import { evaluate, evaluateMeasures, type EvaluateOptions, type Hit, type Relevance } from '../../src/core/index.js';
import { isPromiseLike } from '../../src/core/keys.js';
import { hintOf, type MatcherContext } from './context.js';

/** Options every matcher takes as its last argument: the core's options plus the question's id. */
export interface MatcherOptions extends Omit<EvaluateOptions, 'k'> {
  /** Groups the recorded sample under this question in reports and baselines. */
  queryId?: string;
}

export interface CutoffMatcherOptions extends MatcherOptions {
  k?: number;
}

/**
 * A misuse of a matcher (bad threshold, cutoff, annotations, received value). Thrown, so the test
 * fails whether or not `.not` is used: a usage error is never a silent pass.
 */
export function usageError(
  context: MatcherContext,
  matcherName: string,
  expectedArguments: string,
  problem: string,
  detail = '',
): Error {
  return new Error(matcherErrorMessage(hintOf(context, matcherName, expectedArguments), problem, detail));
}

export function checkThreshold(context: MatcherContext, matcherName: string, args: string, min: unknown): number {
  if (typeof min !== 'number' || !Number.isFinite(min) || min < 0 || min > 1) {
    throw usageError(
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
  argumentName = 'k',
): number {
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1) {
    throw usageError(
      context,
      matcherName,
      args,
      `${printExpected(argumentName)} must be a positive whole number (e.g. 5)`,
      printWithType(argumentName, k, printExpected),
    );
  }
  return k;
}

export function checkOptions<T extends object>(
  context: MatcherContext,
  matcherName: string,
  args: string,
  options: unknown,
): T {
  if (options === undefined) return {} as T;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw usageError(
      context,
      matcherName,
      args,
      `${printExpected('options')} must be an object`,
      printWithType('options', options, printExpected),
    );
  }
  return options as T;
}

export function checkHits(
  context: MatcherContext,
  matcherName: string,
  args: string,
  received: unknown,
): readonly Hit[] {
  if (isPromiseLike(received)) {
    throw usageError(
      context,
      matcherName,
      args,
      'received value is a Promise, not an array of hits: did you forget await?',
      'Await the retriever before asserting: expect(await retriever.retrieve(query)).…',
    );
  }
  if (!Array.isArray(received)) {
    throw usageError(
      context,
      matcherName,
      args,
      `received value must be an array of hits in rank order`,
      printWithType('Received', received, (value) => describeValue(value)),
    );
  }
  return received;
}

/** Splits the matcher's own options from the core's, then evaluates; core errors become usage errors. */
export function evaluateForMatcher(
  context: MatcherContext,
  matcherName: string,
  args: string,
  hits: readonly Hit[],
  relevant: Relevance,
  k: number | undefined,
  options: MatcherOptions & { k?: number },
) {
  const { queryId, ...coreOptions } = options;
  if (queryId !== undefined && typeof queryId !== 'string') {
    throw usageError(
      context,
      matcherName,
      args,
      `${printExpected('options.queryId')} must be a string`,
      printWithType('queryId', queryId, printExpected),
    );
  }
  let evaluation;
  try {
    evaluation = evaluate(hits, relevant, { ...coreOptions, k });
  } catch (error) {
    throw usageError(context, matcherName, args, (error as Error).message);
  }
  if (evaluation.relevantCount === 0) {
    throw usageError(
      context,
      matcherName,
      args,
      `the annotation is empty: ${printExpected('relevant')} holds no relevant id` +
        (options.minGrade !== undefined ? ` with grade ≥ ${options.minGrade}` : ''),
      `relevant: ${describeValue(relevant)}\nA question with no relevant passage cannot be scored; annotate it, or test it with toAbstain() on the answer.`,
    );
  }
  return { evaluation, queryId };
}

/**
 * The declared measures of a question, from the hits, judgments and options a matcher was given (its
 * own cutoff `k` left out: each declared measure has its own). One pass over the ranking.
 */
export function evaluateDeclared(
  context: MatcherContext,
  matcherName: string,
  args: string,
  hits: readonly Hit[],
  relevant: Relevance,
  options: MatcherOptions & { k?: number },
  plan: MeasurePlan,
): Readonly<Record<string, number>> {
  const { queryId: _queryId, k: _k, ...coreOptions } = options;
  try {
    return evaluateMeasures(hits, relevant, plan, coreOptions);
  } catch (error) {
    throw usageError(
      context,
      matcherName,
      args,
      `the declared measures (${plan.names.join(', ')}) cannot be measured: ${(error as Error).message}`,
    );
  }
}
