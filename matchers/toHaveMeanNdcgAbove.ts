import type { MatcherContext, MatcherResult } from './support/context.js';
import { checkCutoff, readMeanOptions, runMeanMatcher, type CutoffMeanMatcherOptions } from './support/set-matcher.js';

const NAME = 'toHaveMeanNdcgAbove';
const ARGS = 'min, options';

/** On the result of evaluateRun: mean nDCG (`ndcg@k` with options.k, else uncut) is at least min. */
export function toHaveMeanNdcgAbove(
  this: MatcherContext,
  received: unknown,
  min: number,
  options?: CutoffMeanMatcherOptions,
): MatcherResult {
  const { k, ...checked } = readMeanOptions<CutoffMeanMatcherOptions>(this, NAME, ARGS, options, ['k']);
  const measure =
    k === undefined
      ? { name: 'ndcg' as const }
      : { name: 'ndcg' as const, k: checkCutoff(this, NAME, ARGS, k, 'options.k') };
  return runMeanMatcher(this, { matcherName: NAME, expectedArguments: ARGS, received, measure, min, options: checked });
}
