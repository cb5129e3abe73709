import type { MatcherContext, MatcherResult } from './support/context.js';
import { checkCutoff } from './support/cutoff.js';
import {
  readMeanOptions,
  runMeanMatcher,
  setCall,
  SET_CUTOFF_EXAMPLE,
  type MeanMatcherOptions,
} from './support/set-matcher.js';

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
  const call = setCall(this, NAME, ARGS);
  const cutoff = checkCutoff(call, k, { example: SET_CUTOFF_EXAMPLE });
  const checked = readMeanOptions(call, options);
  return runMeanMatcher(call, { received, measure: { name: 'recall', k: cutoff }, min, options: checked });
}
