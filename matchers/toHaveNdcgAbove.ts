import type { Relevance } from '../src/core/index.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import type { CutoffMatcherOptions } from './support/hits.js';
import { runMetricMatcherWithOptionalCutoff, type MetricMatcherSpec } from './support/metric-matcher.js';

const spec: MetricMatcherSpec = {
  matcherName: 'toHaveNdcgAbove',
  expectedArguments: 'relevant, min',
  measure: 'ndcg',
};

/** Passes when nDCG (at options.k, else over the whole list with an uncut ideal) is at least min. */
export function toHaveNdcgAbove(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  min: number,
  options?: CutoffMatcherOptions,
): MatcherResult {
  return runMetricMatcherWithOptionalCutoff(this, spec, { received, relevant, min, options });
}
