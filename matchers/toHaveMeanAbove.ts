import type { Measure } from '../src/core/measures.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import { readMeanOptions, runMeanMatcher, type MeanMatcherOptions } from './support/set-matcher.js';

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
  const checked = readMeanOptions(this, NAME, ARGS, options);
  return runMeanMatcher(this, { matcherName: NAME, expectedArguments: ARGS, received, measure, min, options: checked });
}
