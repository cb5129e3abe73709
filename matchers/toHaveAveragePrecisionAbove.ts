import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import type { CutoffMatcherOptions } from './support/hits.js';
import { runMetricMatcherWithOptionalCutoff, type MetricMatcherSpec } from './support/metric-matcher.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHaveAveragePrecisionAbove',
  expectedArguments: 'relevant, min',
  measure: 'map',
};

/** Passes when average precision (at options.k) is at least min. */
export function toHaveAveragePrecisionAbove(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  min: number,
  options?: CutoffMatcherOptions,
): MatcherResult {
  return runMetricMatcherWithOptionalCutoff(this, spec, { received, relevant, min, options });
}
