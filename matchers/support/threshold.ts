import { formatNumber } from '../../src/core/present.js';
import type { MatcherCall } from './hint.js';
import { argumentError } from './usage-error.js';

/** "≥ min" tolerates float noise, so 4/5 meets 0.8. */
const THRESHOLD_EPSILON = 1e-9;

export function meetsThreshold(value: number, min: number): boolean {
  return value >= min - THRESHOLD_EPSILON;
}

/**
 * A threshold in [0, 1]. `argument` is how the call spells it (`min`, `options.min`), `label` how the
 * value is named below the message.
 */
export function checkThreshold(call: MatcherCall, min: unknown, argument = 'min', label = 'min'): number {
  if (typeof min !== 'number' || !Number.isFinite(min) || min < 0 || min > 1) {
    throw argumentError(call, argument, 'must be a number from 0 to 1 (e.g. 0.8)', min, label);
  }
  return min;
}

/** What the value was held to: `needs ≥ 0.80`, or `expected < 0.80` under `.not`. */
export function describeRequirement(min: number, negated: boolean): string {
  return negated ? `expected < ${formatNumber(min)}` : `needs ≥ ${formatNumber(min)}`;
}
