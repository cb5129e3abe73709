// Arguments that look swapped, told by their shape, so the message says so instead of a puzzling
// check of each: the hits given as `relevant` (objects with a score) or judgments given to expect()
// (an id → grade map), and a cutoff below 1 beside a threshold of 1 or more (`k` and `min` swapped).
import type { MatcherCall } from './hint.js';
import { usageError } from './usage-error.js';

/** True for what looks like retrieved hits: a non-empty array of objects, one with a numeric `score`. */
function looksLikeHits(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => typeof item === 'object' && item !== null) &&
    value.some((item) => typeof (item as { score?: unknown }).score === 'number')
  );
}

/** True for what looks like judgments: a Set, a Map, or a plain object of id → number. */
function looksLikeJudgments(value: unknown): boolean {
  if (value instanceof Set || value instanceof Map) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.values(value as Record<string, unknown>);
  return entries.length > 0 && entries.every((entry) => typeof entry === 'number');
}

/** Throws when `received` and `relevant` look swapped: the hits passed as `relevant`, or judgments to expect(). */
export function checkHitsNotSwapped(call: MatcherCall, received: unknown, relevant: unknown): void {
  if (looksLikeJudgments(received))
    throw usageError(
      call,
      'the received value looks like relevance judgments (id → grade): are the two swapped?',
      swappedFix(call),
    );
  if (looksLikeHits(relevant))
    throw usageError(
      call,
      'relevant looks like retrieved hits (objects with a score): are the two swapped?',
      swappedFix(call),
    );
}

/** What to write instead, built only when the arguments look swapped (the check runs on every call). */
function swappedFix(call: MatcherCall): string {
  return `Write expect(hits).${call.matcherName}(${call.expectedArguments}): the retrieved hits go to expect(), the relevant ids to the matcher.`;
}

/** Throws when a cutoff below 1 sits beside a threshold of 1 or more: `(relevant, 0.8, 5)` for `(relevant, 5, 0.8)`. */
export function checkCutoffNotSwapped(call: MatcherCall, k: unknown, min: unknown): void {
  if (typeof k === 'number' && k > 0 && k < 1 && Number.isInteger(min) && (min as number) >= 1) {
    throw usageError(
      call,
      `k and min look swapped: k = ${k} is below 1 and min = ${String(min)} is 1 or more`,
      `k is a cutoff (a whole number of hits) and min a share from 0 to 1: write ${call.matcherName}(relevant, ${String(min)}, ${k}).`,
    );
  }
}
