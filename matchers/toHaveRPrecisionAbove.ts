import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import type { MatcherOptions } from './support/hits.js';
import { metricCall, runMetricMatcher, type MetricMatcherSpec } from './support/metric-matcher.js';
import { usageError } from './support/usage-error.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHaveRPrecisionAbove',
  expectedArguments: 'relevant, min',
  measure: 'rprec',
};

/** Passes when R-precision (relevant in the top R ÷ R, R = relevant count) is at least min. */
export function toHaveRPrecisionAbove(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  min: number,
  options?: MatcherOptions,
): MatcherResult {
  if (options !== undefined && options !== null && typeof options === 'object' && 'k' in options) {
    throw usageError(
      metricCall(this, spec),
      'R-precision takes no cutoff: its cutoff is the number of relevant ids',
      'Remove options.k.',
    );
  }
  return runMetricMatcher(this, spec, { received, relevant, k: undefined, min, options });
}
