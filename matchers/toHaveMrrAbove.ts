import type { MatcherContext, MatcherResult } from './support/context.js';
import { checkOptionalCutoff } from './support/cutoff.js';
import {
  readMeanOptions,
  runMeanMatcher,
  setCall,
  SET_CUTOFF_EXAMPLE,
  type CutoffMeanMatcherOptions,
} from './support/set-matcher.js';

const NAME = 'toHaveMrrAbove';
const ARGS = 'min, options';

/** On the result of evaluateRun: MRR (mean reciprocal rank; `mrr@k` with options.k) is at least min. */
export function toHaveMrrAbove(
  this: MatcherContext,
  received: unknown,
  min: number,
  options?: CutoffMeanMatcherOptions,
): MatcherResult {
  const call = setCall(this, NAME, ARGS);
  const { k, ...checked } = readMeanOptions<CutoffMeanMatcherOptions>(call, options, ['k']);
  const cutoff = checkOptionalCutoff(call, k, { example: SET_CUTOFF_EXAMPLE });
  const measure = cutoff === undefined ? { name: 'mrr' as const } : { name: 'mrr' as const, k: cutoff };
  return runMeanMatcher(call, { received, measure, min, options: checked });
}
