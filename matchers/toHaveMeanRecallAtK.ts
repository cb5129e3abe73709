import type { MatcherContext, MatcherResult } from './support/context.js';
import { runMeanMatcherAtK, setCall, type MeanMatcherOptions } from './support/set-matcher.js';

const NAME = 'toHaveMeanRecallAtK';
const ARGS = 'k, min, options';

/** On the result of evaluateRun: mean recall@k over the evaluated queries is at least min. */
export function toHaveMeanRecallAtK(
  this: MatcherContext,
  received: unknown,
  k: number,
  min: number,
  options?: MeanMatcherOptions,
): MatcherResult {
  return runMeanMatcherAtK(setCall(this, NAME, ARGS), 'recall', { received, k, min, options });
}
