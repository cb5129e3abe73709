import type { MatcherContext, MatcherResult } from './support/context.js';
import { runMeanMatcherWithOptionalCutoff, setCall, type CutoffMeanMatcherOptions } from './support/set-matcher.js';

const NAME = 'toHaveMrrAbove';
const ARGS = 'min, options';

/** On the result of evaluateRun: MRR (mean reciprocal rank; `mrr@k` with options.k) is at least min. */
export function toHaveMrrAbove(
  this: MatcherContext,
  received: unknown,
  min: number,
  options?: CutoffMeanMatcherOptions,
): MatcherResult {
  return runMeanMatcherWithOptionalCutoff(setCall(this, NAME, ARGS), 'mrr', { received, min, options });
}
