import type { MatcherContext, MatcherResult } from './support/context.js';
import { runMeanMatcherWithOptionalCutoff, setCall, type CutoffMeanMatcherOptions } from './support/set-matcher.js';

const NAME = 'toHaveMeanNdcgAbove';
const ARGS = 'min, options';

/** On the result of evaluateRun: mean nDCG (`ndcg@k` with options.k, else uncut) is at least min. */
export function toHaveMeanNdcgAbove(
  this: MatcherContext,
  received: unknown,
  min: number,
  options?: CutoffMeanMatcherOptions,
): MatcherResult {
  return runMeanMatcherWithOptionalCutoff(setCall(this, NAME, ARGS), 'ndcg', { received, min, options });
}
