import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import { checkOptionalCutoff } from './support/cutoff.js';
import type { CutoffMatcherOptions } from './support/hits.js';
import { metricCall, runMetricMatcher, type MetricMatcherSpec } from './support/metric-matcher.js';
import { checkOptions } from './support/options.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHaveAveragePrecisionAbove',
  expectedArguments: 'relevant, min',
  measure: 'map',
  pick: (evaluation) => evaluation.averagePrecision,
};

/** Passes when average precision (at options.k) is at least min. */
export function toHaveAveragePrecisionAbove(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  min: number,
  options?: CutoffMatcherOptions,
): MatcherResult {
  const call = metricCall(this, spec);
  const checked = checkOptions<CutoffMatcherOptions>(call, options);
  const k = checkOptionalCutoff(call, checked.k);
  return runMetricMatcher(this, spec, { received, relevant, k, min, options: checked });
}
