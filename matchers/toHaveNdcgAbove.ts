import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import { runMetricMatcher, type MetricMatcherSpec } from './support/metric-matcher.js';
import { checkCutoff, checkOptions, type CutoffMatcherOptions } from './support/usage.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHaveNdcgAbove',
  expectedArguments: 'relevant, min',
  measure: 'ndcg',
  pick: (evaluation) => evaluation.ndcg,
};

/** Passes when nDCG (at options.k, else over the whole list with an uncut ideal) is at least min. */
export function toHaveNdcgAbove(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  min: number,
  options?: CutoffMatcherOptions,
): MatcherResult {
  const checked = checkOptions<CutoffMatcherOptions>(this, spec.matcherName, spec.expectedArguments, options);
  const k =
    checked.k === undefined
      ? undefined
      : checkCutoff(this, spec.matcherName, spec.expectedArguments, checked.k, 'options.k');
  return runMetricMatcher(this, spec, { received, relevant, k, min, options: checked });
}
