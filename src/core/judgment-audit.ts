// What a recorded question keeps about its judgments, so that a report can tell a retrieval change from a
// labelling one: a short fingerprint of the judgments as evaluated (ids after granularity and Unicode
// normalisation, their grades, the minimum grade), and the ranked hits that have no judgment at all.
import { collapseToDocuments, rankedKeys } from './ranking.js';
import { readJudgedGrades, readJudgmentSettings } from './relevance.js';
import type { EvaluateOptions, Hit, Relevance } from './types.js';

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
}

/** The unjudged hits within the top `k` (undefined: the whole ranking): the first few ids and how many there are. */
export interface UnjudgedAtCutoff {
  ids: string[];
  count: number;
}

/** Audits one query's judgments and ranking (hits and relevance already checked by an evaluation). */
export function auditJudgments(
  hits: readonly Hit[],
  relevant: Relevance,
  options: EvaluateOptions = {},
): JudgmentAudit {
  const grades = readJudgedGrades(relevant, options);
  const { minGrade } = readJudgmentSettings(options);
  const ranked = rankedKeys(hits, options);
  const keys = options.granularity === 'document' ? collapseToDocuments(ranked, options.documentKey) : ranked;
  const unjudgedIds: string[] = [];
  const unjudgedRanks: number[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (grades.has(key) || seen.has(key)) continue;
    seen.add(key);
    unjudgedIds.push(key);
    unjudgedRanks.push(index + 1);
  }
  let positiveOnly = true;
  for (const grade of grades.values()) if (grade < minGrade) positiveOnly = false;
  return { fingerprint: judgmentsFingerprint(grades, minGrade), unjudgedIds, unjudgedRanks, positiveOnly };
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
function judgmentsFingerprint(grades: ReadonlyMap<string, number>, minGrade: number): string {
  const ids = [...grades.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return hash53(JSON.stringify([minGrade, ids.map((id) => [id, grades.get(id)])])).slice(0, 8);
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
