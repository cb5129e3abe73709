import { matcherErrorMessage, printExpected, printWithType } from './jest-utils.js';
import { hintOf, type MatcherCall } from './hint.js';
import { withoutOwnFrames } from './own-frames.js';

/**
 * A misuse of a matcher (bad threshold, cutoff, options, annotations, received value). Thrown, so the
 * test fails whether or not `.not` is used: a usage error is never a silent pass.
 */
export function usageError(call: MatcherCall, problem: string, detail = ''): Error {
  return withoutOwnFrames(new Error(matcherErrorMessage(hintOf(call), problem, detail)));
}

/**
 * `"options.k" must be …`, followed by the value and its type. `label` names the value in that last
 * part (`queryId` for `options.queryId`); by default the argument itself.
 */
export function argumentError(
  call: MatcherCall,
  argument: string,
  requirement: string,
  value: unknown,
  label = argument,
): Error {
  return usageError(call, `${printExpected(argument)} ${requirement}`, printWithType(label, value, printExpected));
}

/**
 * Runs a core function on the matcher's arguments: the TypeError or RangeError it throws about one
 * of them becomes a usage error, its message worded by `reword` when the matcher adds context.
 */
export function withUsageErrors<T>(
  call: MatcherCall,
  run: () => T,
  reword: (message: string) => string = (message) => message,
): T {
  try {
    return run();
  } catch (error) {
    throw usageError(call, reword(error instanceof Error ? error.message : String(error)));
  }
}
