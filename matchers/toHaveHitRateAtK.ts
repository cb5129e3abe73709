import type { MatcherContext, MatcherResult } from './support/context.js';
import { checkCutoff } from './support/cutoff.js';
import {
  readMeanOptions,
  runMeanMatcher,
  setCall,
  SET_CUTOFF_EXAMPLE,
  type MeanMatcherOptions,
} from './support/set-matcher.js';

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
  const call = setCall(this, NAME, ARGS);
  const cutoff = checkCutoff(call, k, { example: SET_CUTOFF_EXAMPLE });
  const checked = readMeanOptions(call, options);
  return runMeanMatcher(call, { received, measure: { name: 'hit', k: cutoff }, min, options: checked });
}
