// What a recorded question keeps about its judgments, so that a report can tell a retrieval change from a
// labelling one: a short fingerprint of the judgments as evaluated (ids after granularity and Unicode
// normalisation, their grades, the minimum grade), and the ranked hits that have no judgment at all.
import type { MeasureScratch } from './measure-scratch.js';

/** How many unjudged ids a sample keeps (their count is kept in full). */
const MAX_UNJUDGED_IDS = 5;

export interface JudgmentAudit {
  /** 8 hex characters; equal for the same judgments as evaluated, whatever their shape (array, Set, object, Map). */
  fingerprint: string;
  /** The ranking's keys without a judgment, each once, best rank first, with their 1-based ranks. */
  unjudgedIds: string[];
  unjudgedRanks: number[];
  /**
   * True when the judgments hold no non-relevant one (every grade reaches the minimum: an array of ids, or
   * grades ≥ 1 only): they cannot tell an unjudged hit from a non-relevant one.
   */
  positiveOnly: boolean;
  /** The first TOP_RANKED_DEPTH keys of the ranking (after granularity), each with its grade when it has a judgment. */
  topRanked: RankedKey[];
}

/** One ranked key and its grade when it was judged. */
export interface RankedKey {
  key: string;
  grade?: number;
}

/** How many top ranked keys an audit keeps. */
export const TOP_RANKED_DEPTH = 10;

/** The unjudged hits within the top `k` (undefined: the whole ranking): the first few ids and how many there are. */
export interface UnjudgedAtCutoff {
  ids: string[];
  count: number;
}

/**
 * The audit of the query judged last into `scratch` (loadGrades, then judgeKeys tracking every key over
 * every rank of `keys`): read from the judging evaluate() did, nothing read or hashed again.
 */
export function auditJudgedQuery(scratch: MeasureScratch, keys: readonly string[], minGrade: number): JudgmentAudit {
  const { judgedIds, count } = scratch.keys;
  const { judgedGrades, unjudgedRanks, unjudgedCount } = scratch;
  const unjudgedIds = new Array<string>(unjudgedCount);
  const ranks = new Array<number>(unjudgedCount);
  for (let index = 0; index < unjudgedCount; index++) {
    const rank = unjudgedRanks[index] as number;
    unjudgedIds[index] = keys[rank] as string;
    ranks[index] = rank + 1;
  }
  let positiveOnly = true;
  for (let entry = 0; entry < count; entry++) if ((judgedGrades[entry] as number) < minGrade) positiveOnly = false;
  return {
    fingerprint: judgmentsFingerprint(judgedIds, judgedGrades, count, minGrade),
    unjudgedIds,
    unjudgedRanks: ranks,
    positiveOnly,
    topRanked: topRankedOf(scratch, keys),
  };
}

/**
 * The first TOP_RANKED_DEPTH keys with their grades: a judged key's first sighting is in the found
 * list, an unjudged one's in unjudgedRanks; any other rank repeats a key ranked higher.
 */
function topRankedOf(scratch: MeasureScratch, keys: readonly string[]): RankedKey[] {
  const { foundRanks, foundGrades, foundCount, unjudgedRanks, unjudgedCount } = scratch;
  const depth = Math.min(keys.length, TOP_RANKED_DEPTH);
  const top = new Array<RankedKey>(depth);
  let found = 0;
  let unjudged = 0;
  for (let rank = 0; rank < depth; rank++) {
    const key = keys[rank] as string;
    if (found < foundCount && foundRanks[found] === rank) {
      top[rank] = { key, grade: foundGrades[found++] as number };
    } else if (unjudged < unjudgedCount && unjudgedRanks[unjudged] === rank) {
      unjudged++;
      top[rank] = { key };
    } else {
      const first = keys.indexOf(key);
      top[rank] =
        (top[first] as RankedKey).grade === undefined ? { key } : { key, grade: (top[first] as RankedKey).grade };
    }
  }
  return top;
}

/** The unjudged hits of `audit` ranked at `k` or better. */
export function unjudgedAtCutoff(audit: JudgmentAudit, k: number | undefined): UnjudgedAtCutoff {
  let count = 0;
  while (count < audit.unjudgedRanks.length && (k === undefined || audit.unjudgedRanks[count]! <= k)) count++;
  return { ids: audit.unjudgedIds.slice(0, Math.min(count, MAX_UNJUDGED_IDS)), count };
}

/**
 * A short, stable fingerprint of judgments: ids sorted in code-unit order with their grades, and the
 * minimum grade, hashed. Grades below the minimum count (a 0 is a judgment).
 */
function judgmentsFingerprint(ids: readonly string[], grades: Float64Array, count: number, minGrade: number): string {
  const entries = new Array<[string, number]>(count);
  for (let entry = 0; entry < count; entry++) entries[entry] = [ids[entry] as string, grades[entry] as number];
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return hash53(JSON.stringify([minGrade, entries])).slice(0, 8);
}

/** cyrb53 (public domain): a fast, well-mixed, non-cryptographic string hash, as 16 hex characters. */
function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}
