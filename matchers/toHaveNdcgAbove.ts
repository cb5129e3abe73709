import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import { checkOptionalCutoff } from './support/cutoff.js';
import type { CutoffMatcherOptions } from './support/hits.js';
import { metricCall, runMetricMatcher, type MetricMatcherSpec } from './support/metric-matcher.js';
import { checkOptions } from './support/options.js';

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
  const call = metricCall(this, spec);
  const checked = checkOptions<CutoffMatcherOptions>(call, options);
  const k = checkOptionalCutoff(call, checked.k);
  return runMetricMatcher(this, spec, { received, relevant, k, min, options: checked });
}
