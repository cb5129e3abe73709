import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import type { CutoffMatcherOptions } from './support/hits.js';
import { runMetricMatcherWithOptionalCutoff, type MetricMatcherSpec } from './support/metric-matcher.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHaveReciprocalRankAbove',
  expectedArguments: 'relevant, min',
  measure: 'mrr',
};

/** Passes when 1 / rank of the first relevant hit (within options.k) is at least min. */
export function toHaveReciprocalRankAbove(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  min: number,
  options?: CutoffMatcherOptions,
): MatcherResult {
  return runMetricMatcherWithOptionalCutoff(this, spec, { received, relevant, min, options });
}
