import type { MatcherContext, MatcherResult } from './support/context.js';
import { runMeanMatcherAtK, setCall, type MeanMatcherOptions } from './support/set-matcher.js';

const NAME = 'toHaveHitRateAtK';
const ARGS = 'k, min, options';

/** On the result of evaluateRun: the share of queries with a relevant hit in the top k is at least min (Wilson interval with confidence). */
export function toHaveHitRateAtK(
  this: MatcherContext,
  received: unknown,
  k: number,
  min: number,
  options?: MeanMatcherOptions,
): MatcherResult {
  return runMeanMatcherAtK(setCall(this, NAME, ARGS), 'hit', { received, k, min, options });
}
