import type { MatcherContext, MatcherResult } from './support/context.js';
import { checkCutoff, readMeanOptions, runMeanMatcher, type CutoffMeanMatcherOptions } from './support/set-matcher.js';

const NAME = 'toHaveMrrAbove';
const ARGS = 'min, options';

/** On the result of evaluateRun: MRR (mean reciprocal rank; `mrr@k` with options.k) is at least min. */
export function toHaveMrrAbove(
  this: MatcherContext,
  received: unknown,
  min: number,
  options?: CutoffMeanMatcherOptions,
): MatcherResult {
  const { k, ...checked } = readMeanOptions<CutoffMeanMatcherOptions>(this, NAME, ARGS, options, ['k']);
  const measure =
    k === undefined
      ? { name: 'mrr' as const }
      : { name: 'mrr' as const, k: checkCutoff(this, NAME, ARGS, k, 'options.k') };
  return runMeanMatcher(this, { matcherName: NAME, expectedArguments: ARGS, received, measure, min, options: checked });
}
