import type { MatcherCall } from './hint.js';
import { argumentError } from './usage-error.js';

export interface CutoffSpelling {
  /** How the call spells the cutoff: `k` (default), `options.k`, `options.within`. */
  argument?: string;
  /** The cutoff the message suggests: 5 (default) for one question's hits, 10 for a set's mean. */
  example?: number;
}

/** A cutoff: a positive whole number. */
export function checkCutoff(
  call: MatcherCall,
  k: unknown,
  { argument = 'k', example = 5 }: CutoffSpelling = {},
): number {
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1) {
    throw argumentError(call, argument, `must be a positive whole number (e.g. ${example})`, k);
  }
  return k;
}

/** An optional cutoff (`options.k`): undefined when left out, else checked as `checkCutoff` does. */
export function checkOptionalCutoff(call: MatcherCall, k: unknown, spelling: CutoffSpelling = {}): number | undefined {
  return k === undefined ? undefined : checkCutoff(call, k, { argument: 'options.k', ...spelling });
}
