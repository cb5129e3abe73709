import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import { runMetricMatcher, type MetricMatcherSpec } from './support/metric-matcher.js';
import { checkCutoff, type MatcherOptions } from './support/usage.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHavePrecisionAtK',
  expectedArguments: 'relevant, k, min',
  measure: 'precision',
  pick: (evaluation) => evaluation.precisionAtK,
};

/** Passes when precision@k (relevant in the top k ÷ k) is at least min. */
export function toHavePrecisionAtK(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  k: number,
  min: number,
  options?: MatcherOptions,
): MatcherResult {
  const cutoff = checkCutoff(this, spec.matcherName, spec.expectedArguments, k);
  return runMetricMatcher(this, spec, { received, relevant, k: cutoff, min, options });
}
