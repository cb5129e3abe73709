import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import type { MatcherOptions } from './support/hits.js';
import { runMetricMatcherAtK, type MetricMatcherSpec } from './support/metric-matcher.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHaveF1AtK',
  expectedArguments: 'relevant, k, min',
  measure: 'f1',
};

/** Passes when F1@k, the harmonic mean of precision@k and recall@k, is at least min. */
export function toHaveF1AtK(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  k: number,
  min: number,
  options?: MatcherOptions,
): MatcherResult {
  return runMetricMatcherAtK(this, spec, { received, relevant, k, min, options });
}
