// The received answer of the answer-side matchers (faithfulness, citations, abstention, judge):
// checked, quoted in messages, and its score recorded as the retrieval matchers record theirs.
import { printWithType } from './jest-utils.js';
import { describeValue } from '../../src/core/describe.js';
import { recordSample } from '../../src/recording/sample.js';
import type { MatcherContext } from './context.js';
import { matcherCall, type MatcherCall } from './hint.js';
import { meetsThreshold } from './threshold.js';
import { usageError } from './usage-error.js';

/** Answers are quoted up to this many characters in messages. */
export const MAX_QUOTE_LENGTH = 160;

/** The call of an answer-side matcher: `expect(answer).toBeFaithfulTo(contexts, options)`. */
export function answerCall(context: MatcherContext, matcherName: string, expectedArguments: string): MatcherCall {
  return matcherCall(context, matcherName, expectedArguments, 'answer');
}

/** The received value must be the answer text; a blank answer is a test bug (wrong field, missing await), not an answer. */
export function checkAnswer(call: MatcherCall, received: unknown): string {
  if (typeof received !== 'string') {
    throw usageError(
      call,
      'received value must be the answer text (a string)',
      printWithType('Received', received, (value) => describeValue(value)),
    );
  }
  if (received.trim() === '') {
    throw usageError(
      call,
      'received answer is empty: pass the generated answer text',
      `Received: ${JSON.stringify(received)}`,
    );
  }
  return received;
}

/**
 * Records a scored answer check exactly as the retrieval matchers record theirs: `pass` is the
 * assertion's outcome after `.not`, `negated` marks a `.not` assertion; `tags` (checked) are the question's.
 */
export function recordScore(
  context: MatcherContext,
  measure: string,
  value: number,
  min: number,
  queryId: string | undefined,
  tags?: readonly string[],
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
      ...(tags === undefined ? {} : { tags: [...tags] }),
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
