import { matcherErrorMessage, printExpected, printWithType } from 'jest-matcher-utils';
import { describeValue } from '../../src/core/describe.js';
import { recordSample } from '../../src/recording/sample.js';
import { utilsOf, type MatcherContext } from './context.js';
import { meetsThreshold } from './metric-matcher.js';

/** Answers are quoted up to this many characters in messages. */
export const MAX_QUOTE_LENGTH = 160;

/** The first line of every answer-side message: `expect(answer).toBeFaithfulTo(contexts, options)`. */
export function answerHint(
  context: MatcherContext | undefined,
  matcherName: string,
  expectedArguments: string,
): string {
  const options = { isNot: context?.isNot ?? false, promise: context?.promise ?? '' };
  return utilsOf(context).matcherHint(matcherName, 'answer', expectedArguments, options);
}

/** A misuse of an answer-side matcher; thrown, so it fails with and without `.not`. */
export function answerUsageError(
  context: MatcherContext,
  matcherName: string,
  expectedArguments: string,
  problem: string,
  detail = '',
): Error {
  return new Error(matcherErrorMessage(answerHint(context, matcherName, expectedArguments), problem, detail));
}

/** The received value must be the answer text; a blank answer is a test bug (wrong field, missing await), not an answer. */
export function checkAnswer(context: MatcherContext, matcherName: string, args: string, received: unknown): string {
  if (typeof received !== 'string') {
    throw answerUsageError(
      context,
      matcherName,
      args,
      'received value must be the answer text (a string)',
      printWithType('Received', received, (value) => describeValue(value)),
    );
  }
  if (received.trim() === '') {
    throw answerUsageError(
      context,
      matcherName,
      args,
      'received answer is empty: pass the generated answer text',
      `Received: ${JSON.stringify(received)}`,
    );
  }
  return received;
}

export function checkAnswerOptions<T extends object>(
  context: MatcherContext,
  matcherName: string,
  args: string,
  options: unknown,
): T {
  if (options === undefined) return {} as T;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw answerUsageError(
      context,
      matcherName,
      args,
      `${printExpected('options')} must be an object`,
      printWithType('options', options, printExpected),
    );
  }
  return options as T;
}

/** `options.min` as a number in [0, 1]; `fallback` when left out (undefined: required). */
export function checkMin(
  context: MatcherContext,
  matcherName: string,
  args: string,
  min: unknown,
  fallback: number | undefined,
): number {
  if (min === undefined && fallback !== undefined) return fallback;
  if (typeof min !== 'number' || !Number.isFinite(min) || min < 0 || min > 1) {
    throw answerUsageError(
      context,
      matcherName,
      args,
      `${printExpected('options.min')} must be a number from 0 to 1 (e.g. 0.8)`,
      printWithType('min', min, printExpected),
    );
  }
  return min;
}

export function checkQueryId(
  context: MatcherContext,
  matcherName: string,
  args: string,
  queryId: unknown,
): string | undefined {
  if (queryId !== undefined && typeof queryId !== 'string') {
    throw answerUsageError(
      context,
      matcherName,
      args,
      `${printExpected('options.queryId')} must be a string`,
      printWithType('queryId', queryId, printExpected),
    );
  }
  return queryId;
}

/** Runs a generation-side function; its TypeError/RangeError about an argument becomes a usage error. */
export function callCore<T>(context: MatcherContext, matcherName: string, args: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw answerUsageError(context, matcherName, args, error instanceof Error ? error.message : String(error));
  }
}

/**
 * Records a scored answer check exactly as the retrieval matchers record theirs: `pass` is the
 * assertion's outcome after `.not`, `negated` marks a `.not` assertion.
 */
export function recordScore(
  context: MatcherContext,
  measure: string,
  value: number,
  min: number,
  queryId: string | undefined,
): boolean {
  const pass = meetsThreshold(value, min);
  const negated = context.isNot === true;
  recordSample(
    {
      measure,
      value,
      threshold: min,
      pass: pass !== negated,
      ...(negated ? { negated } : {}),
      ...(queryId === undefined ? {} : { queryId }),
    },
    context,
  );
  return pass;
}

/** A text quoted for a message, cut at `max` characters with the length left out. */
export function quote(text: string, max = MAX_QUOTE_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return JSON.stringify(flat);
  return `${JSON.stringify(`${flat.slice(0, max - 1)}…`)} (${flat.length} characters)`;
}

/** `a, b, c, … and 4 more`. */
export function listTerms(terms: readonly string[], max = 15): string {
  const shown = terms.slice(0, max).join(', ');
  return terms.length > max ? `${shown}, … and ${terms.length - max} more` : shown;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
