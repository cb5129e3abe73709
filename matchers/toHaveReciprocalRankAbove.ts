import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import { runMetricMatcher, type MetricMatcherSpec } from './support/metric-matcher.js';
import { checkCutoff, checkOptions, type CutoffMatcherOptions } from './support/usage.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHaveReciprocalRankAbove',
  expectedArguments: 'relevant, min',
  measure: 'mrr',
  pick: (evaluation) => evaluation.mrr,
};

/** Passes when 1 / rank of the first relevant hit (within options.k) is at least min. */
export function toHaveReciprocalRankAbove(
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
