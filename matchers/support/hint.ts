import { utilsOf, type MatcherContext } from './context.js';

/** What `expect(…)` holds in a message's first line: the retrieved hits, evaluateRun's result, or the answer text. */
export type MatcherSubject = 'hits' | 'result' | 'answer';

/** One matcher call as its messages name it: `this`, the matcher, its arguments and what it was given. */
export interface MatcherCall {
  context: MatcherContext;
  matcherName: string;
  /** As shown in the hint: `relevant, k, min`. */
  expectedArguments: string;
  subject: MatcherSubject;
}

export function matcherCall(
  context: MatcherContext,
  matcherName: string,
  expectedArguments: string,
  subject: MatcherSubject,
): MatcherCall {
  return { context, matcherName, expectedArguments, subject };
}

/** The first line of every message: `expect(hits).toHaveRecallAtK(relevant, k, min)`, with `.not` when negated. */
export function hintOf(call: MatcherCall): string {
  const { context } = call;
  const options = { isNot: context.isNot ?? false, promise: context.promise ?? '' };
  return utilsOf(context).matcherHint(call.matcherName, call.subject, call.expectedArguments, options);
}
