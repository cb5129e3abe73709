import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import type { MatcherOptions } from './support/hits.js';
import { runMetricMatcherAtK, type MetricMatcherSpec } from './support/metric-matcher.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHaveHitAtK',
  expectedArguments: 'relevant, k',
  measure: 'hit',
};

/** Passes when at least one relevant hit is in the top k. */
export function toHaveHitAtK(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  k: number,
  options?: MatcherOptions,
): MatcherResult {
  return runMetricMatcherAtK(this, spec, { received, relevant, k, min: undefined, options });
}
