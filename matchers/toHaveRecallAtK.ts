import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import type { MatcherOptions } from './support/hits.js';
import { runMetricMatcherAtK, type MetricMatcherSpec } from './support/metric-matcher.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHaveRecallAtK',
  expectedArguments: 'relevant, k, min',
  measure: 'recall',
};

/** Passes when recall@k (relevant in the top k ÷ relevant count) is at least min. */
export function toHaveRecallAtK(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  k: number,
  min: number,
  options?: MatcherOptions,
): MatcherResult {
  return runMetricMatcherAtK(this, spec, { received, relevant, k, min, options });
}
