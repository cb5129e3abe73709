import type { MatcherContext, MatcherResult } from './support/context.js';
import { checkOptionalCutoff } from './support/cutoff.js';
import {
  readMeanOptions,
  runMeanMatcher,
  setCall,
  SET_CUTOFF_EXAMPLE,
  type CutoffMeanMatcherOptions,
} from './support/set-matcher.js';

const NAME = 'toHaveMeanNdcgAbove';
const ARGS = 'min, options';

/** On the result of evaluateRun: mean nDCG (`ndcg@k` with options.k, else uncut) is at least min. */
export function toHaveMeanNdcgAbove(
  this: MatcherContext,
  received: unknown,
  min: number,
  options?: CutoffMeanMatcherOptions,
): MatcherResult {
  const call = setCall(this, NAME, ARGS);
  const { k, ...checked } = readMeanOptions<CutoffMeanMatcherOptions>(call, options, ['k']);
  const cutoff = checkOptionalCutoff(call, k, { example: SET_CUTOFF_EXAMPLE });
  const measure = cutoff === undefined ? { name: 'ndcg' as const } : { name: 'ndcg' as const, k: cutoff };
  return runMeanMatcher(call, { received, measure, min, options: checked });
}
