import type { Measure } from '../src/core/measures.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import { readMeanOptions, runMeanMatcher, setCall, type MeanMatcherOptions } from './support/set-matcher.js';

const NAME = 'toHaveMeanAbove';
const ARGS = 'measure, min, options';

/**
 * On the result of evaluateRun: the mean of `measure` over the evaluated queries is at least min.
 * With `{ confidence: 0.95 }` the interval's lower bound must clear min, so a small set cannot pass
 * by luck. Records every query's value (with its id) for the reporters.
 */
export function toHaveMeanAbove(
  this: MatcherContext,
  received: unknown,
  measure: string | Measure,
  min: number,
  options?: MeanMatcherOptions,
): MatcherResult {
  const call = setCall(this, NAME, ARGS);
  return runMeanMatcher(call, { received, measure, min, options: readMeanOptions(call, options) });
}
