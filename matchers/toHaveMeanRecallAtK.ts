import type { MatcherContext, MatcherResult } from './support/context.js';
import { checkCutoff, readMeanOptions, runMeanMatcher, type MeanMatcherOptions } from './support/set-matcher.js';

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
  const cutoff = checkCutoff(this, NAME, ARGS, k);
  const checked = readMeanOptions(this, NAME, ARGS, options);
  return runMeanMatcher(this, {
    matcherName: NAME,
    expectedArguments: ARGS,
    received,
    measure: { name: 'recall', k: cutoff },
    min,
    options: checked,
  });
}
