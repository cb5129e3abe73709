import type { MatcherContext, MatcherResult } from './support/context.js';
import { checkCutoff, readMeanOptions, runMeanMatcher, type MeanMatcherOptions } from './support/set-matcher.js';

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
  const cutoff = checkCutoff(this, NAME, ARGS, k);
  const checked = readMeanOptions(this, NAME, ARGS, options);
  return runMeanMatcher(this, {
    matcherName: NAME,
    expectedArguments: ARGS,
    received,
    measure: { name: 'hit', k: cutoff },
    min,
    options: checked,
  });
}
