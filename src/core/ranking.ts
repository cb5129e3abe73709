import { describeValue } from './describe.js';
import { documentKeyOf, hitKeys, isDocumentScorePair, isPlainKey } from './keys.js';
import { judgeKeys, loadGrades } from './judge-keys.js';
import { createMeasureScratch } from './measure-scratch.js';
import { gainOf, type Judgments } from './relevance.js';
import type { EvaluateOptions, Hit } from './types.js';

/**
 * Compares two strings in UTF-8 byte order (= code point order), as C's strcmp on UTF-8 does.
 * JavaScript's `<` compares UTF-16 code units, which orders U+E000–U+FFFF above astral characters.
 */
export function compareUtf8(a: string, b: string): number {
  return compareUtf8Ranges(a, 0, a.length, b, 0, b.length);
}

/** The one byte-order comparison: textA[aStart, aEnd) against textB[bStart, bEnd). */
function compareUtf8Ranges(
  textA: string,
  aStart: number,
  aEnd: number,
  textB: string,
  bStart: number,
  bEnd: number,
): number {
  const length = Math.min(aEnd - aStart, bEnd - bStart);
  for (let offset = 0; offset < length; offset++) {
    const unitA = textA.charCodeAt(aStart + offset);
    const unitB = textB.charCodeAt(bStart + offset);
    if (unitA !== unitB) return codePointOrder(unitA) - codePointOrder(unitB);
  }
  return aEnd - aStart - (bEnd - bStart);
}

/** Lifts surrogates above U+E000–U+FFFF so that code units compare like code points. */
function codePointOrder(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/**
 * trec_eval's ranking rule, the one every ranking by score follows (rankedKeys, rankTrecRun, eval,
 * compare, and trec-eval's columnar runs through compareSpansByTrecRank): negative when
 * (scoreA, idA) ranks above (scoreB, idB) — higher score first, equal scores by id descending in
 * byte order (strcmp). A sort comparator.
 */
export function compareByTrecRank(scoreA: number, idA: string, scoreB: number, idB: string): number {
  return scoreA === scoreB ? compareUtf8Ranges(idB, 0, idB.length, idA, 0, idA.length) : scoreB - scoreA;
}

/** compareByTrecRank for two ids held as spans of one text, text[aStart, aEnd) and text[bStart, bEnd). */
export function compareSpansByTrecRank(
  text: string,
  scoreA: number,
  aStart: number,
  aEnd: number,
  scoreB: number,
  bStart: number,
  bEnd: number,
): number {
  return scoreA === scoreB ? compareUtf8Ranges(text, bStart, bEnd, text, aStart, aEnd) : scoreB - scoreA;
}

/** compareSpansByTrecRank for ids held as spans of ASCII bytes (byte order is strcmp's order). */
export function compareByteSpansByTrecRank(
  bytes: Uint8Array,
  scoreA: number,
  aStart: number,
  aEnd: number,
  scoreB: number,
  bStart: number,
  bEnd: number,
): number {
  if (scoreA !== scoreB) return scoreB - scoreA;
  const length = Math.min(aEnd - aStart, bEnd - bStart);
  for (let offset = 0; offset < length; offset++) {
    const byteA = bytes[aStart + offset] as number;
    const byteB = bytes[bStart + offset] as number;
    if (byteA !== byteB) return byteB - byteA; // ties by id descending
  }
  return bEnd - bStart - (aEnd - aStart);
}

function scoreOf(hit: Hit, index: number): number {
  let score: unknown;
  if (isDocumentScorePair(hit)) score = hit[1];
  else if (hit !== null && typeof hit === 'object') score = (hit as { score?: unknown }).score;
  if (typeof score !== 'number' || Number.isNaN(score)) {
    throw new TypeError(
      `hits[${index}].score must be a number when sortBy is 'score', received ${describeValue(score)}. ` +
        `Give every hit a numeric score, or drop sortBy to rank by array order.`,
    );
  }
  return score;
}

/** Hit keys in rank order: array order, or score descending with ties broken by key descending (trec_eval). */
export function rankedKeys(
  hits: readonly Hit[],
  options: Pick<EvaluateOptions, 'key' | 'sortBy' | 'normalize'> = {},
): readonly string[] {
  const keys =
    options.key === undefined && options.normalize === undefined && isNonBlankStrings(hits)
      ? (hits as readonly string[])
      : hitKeys(hits, options);
  if (options.sortBy === undefined || options.sortBy === 'rank') return keys;
  if (options.sortBy !== 'score') {
    throw new RangeError(`sortBy must be 'rank' or 'score', received ${describeValue(options.sortBy)}.`);
  }
  const order = hits.map((hit, index) => ({ key: keys[index] as string, score: scoreOf(hit, index) }));
  order.sort((a, b) => compareByTrecRank(a.score, a.key, b.score, b.key));
  return order.map((entry) => entry.key);
}

/** The common case, ids as strings: they are their own keys, no copy needed. */
function isNonBlankStrings(hits: readonly Hit[]): boolean {
  for (let index = 0; index < hits.length; index++) {
    if (!isPlainKey(hits[index])) return false;
  }
  return true;
}

/** Collapses chunk keys to document keys, keeping each document at its first (best) rank. */
export function collapseToDocuments(
  keys: readonly string[],
  documentKey: (key: string) => string = documentKeyOf,
): string[] {
  const seen = new Set<string>();
  const documents: string[] = [];
  for (const key of keys) {
    const document = documentKey(key);
    if (!seen.has(document)) {
      seen.add(document);
      documents.push(document);
    }
  }
  return documents;
}

/** A ranking joined with its judgments: what every measure reads. */
export interface JudgedRanking {
  keys: readonly string[];
  /** Per rank: 1 when relevant (grade ≥ minGrade) and first seen, else 0. */
  relevantAtRank: Uint8Array;
  /** Per rank: the nDCG gain of a first-seen judged hit, else 0. */
  gainAtRank: Float64Array;
  /** Per rank: 1 when the key appeared higher up already (judged keys only, unless every duplicate was counted). */
  duplicateAtRank: Uint8Array;
  /** Repeated keys; -1 when only judged repeats were tracked (the measures' fast path). */
  duplicateCount: number;
}

/** The key table judgeRanking reuses from call to call (explainRanking runs one ranking at a time). */
const explainScratch = createMeasureScratch();

/**
 * One pass over the ranking through the kernel's key table (loadGrades, judgeKeys: the judging
 * evaluate() does), spelled out per rank: relevant, gain, repeat.
 */
export function judgeRanking(
  keys: readonly string[],
  judgments: Judgments,
  duplicates: EvaluateOptions['duplicates'] = 'count',
  countEveryDuplicate = true,
): JudgedRanking {
  if (duplicates !== 'count' && duplicates !== 'error') {
    throw new RangeError(`duplicates must be 'count' or 'error', received ${describeValue(duplicates)}.`);
  }
  const length = keys.length;
  // One buffer for the three per-rank arrays: one allocation per query instead of three.
  const buffer = new ArrayBuffer(length * 10);
  const gainAtRank = new Float64Array(buffer, 0, length);
  const relevantAtRank = new Uint8Array(buffer, length * 8, length);
  const duplicateAtRank = new Uint8Array(buffer, length * 9, length);
  const { grades, minGrade, gain, applyMinGradeToNdcg } = judgments;
  const gainFloor = applyMinGradeToNdcg ? minGrade : Number.MIN_VALUE;
  // Only a judged repeat changes a measure; unjudged repeats are tracked just to count (or reject) them.
  const trackEveryKey = countEveryDuplicate || duplicates === 'error';
  const scratch = explainScratch;
  const options = { checkKeys: false, trackEveryKey, duplicatesError: duplicates === 'error', duplicateAtRank };
  // The grades are a clean Map (readJudgedGrades made it); a long probe asks for them again, once.
  do loadGrades(scratch, grades, 'map');
  while (judgeKeys(scratch, keys, length, options) !== 'done');
  const { foundRanks, foundGrades, foundCount } = scratch;
  for (let found = 0; found < foundCount; found++) {
    const rank = foundRanks[found] as number;
    const grade = foundGrades[found] as number;
    if (grade >= minGrade) relevantAtRank[rank] = 1;
    if (grade >= gainFloor) gainAtRank[rank] = gainOf(grade, gain);
  }
  return {
    keys,
    relevantAtRank,
    gainAtRank,
    duplicateAtRank,
    duplicateCount: trackEveryKey ? scratch.duplicateCount : -1,
  };
}
