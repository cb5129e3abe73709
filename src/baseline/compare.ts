// Comparing one suite × measure of this run with the baseline, question by question.
//
// The rule itself (tolerance, rounding slack, paired test, Holm) is src/core/regression-rule.ts, shared with
// toNotRegressFrom and `rag-matchers compare`.

import { comparePaired, valuesDiffer, type PairedMove, type RegressionRule } from '../core/regression-rule.js';
import type { GroupedRow } from './group.js';
import { own, type BaselineSamples } from './file/types.js';

/** A question whose value changed. */
export interface SampleChange {
  sampleId: string;
  /** The test that measured it in this run. */
  test: string;
  before: number;
  after: number;
  /** after − before. */
  delta: number;
  /**
   * A question that got worse while more of its top k had no judgment than in the baseline: how many of
   * its top `k` (undefined: of its ranking) are unjudged now, the first few of them, and how many were in
   * the baseline. Its drop may be a labelling gap rather than worse retrieval. With `positiveOnly` (the
   * question's labels hold no non-relevant judgment) they are only what now ranks there, not a labelling gap.
   */
  unjudged?: { count: number; ids: string[]; baselineCount: number; k?: number; positiveOnly?: true };
}

/** The paired comparison of a row with its baseline (the regression rule's PairedMove). */
export type RowComparison = PairedMove;

export interface RowPairing {
  comparison?: RowComparison;
  /** Sorted by drop, largest first (ties by id). */
  worse: SampleChange[];
  /** Sorted by gain, largest first. */
  better: SampleChange[];
  /** Ids of this run not in the baseline. */
  newSamples: string[];
  /** Ids of the baseline not in this run. */
  missingSamples: string[];
  /** Baseline value of each of this row's samples (undefined where new), in row order. */
  before: (number | undefined)[];
}

/**
 * Pairs a row with its baseline samples by sample id and runs the rule's paired test on the shared ones.
 * Questions in `relabelled` (measured against other judgments than their baseline values) are neither
 * paired nor new.
 */
export function pairRow(
  row: GroupedRow,
  baselineSamples: BaselineSamples,
  rule: RegressionRule,
  relabelled?: ReadonlySet<string>,
): RowPairing {
  const { ids, values } = row;
  const before: number[] = [];
  const after: number[] = [];
  const pairedIndex: number[] = [];
  const rowBefore = new Array<number | undefined>(ids.length);
  const newSamples: string[] = [];
  for (let index = 0; index < ids.length; index++) {
    const value = own(baselineSamples, ids[index]!);
    rowBefore[index] = value;
    if (value === undefined) {
      newSamples.push(ids[index]!);
      continue;
    }
    if (relabelled?.has(ids[index]!) === true) continue;
    before.push(value);
    after.push(values[index]!);
    pairedIndex.push(index);
  }
  const baselineIds = Object.keys(baselineSamples);
  let missingSamples: string[] = [];
  if (baselineIds.length !== before.length + (relabelled?.size ?? 0)) {
    const seen = new Set(ids);
    missingSamples = baselineIds.filter((id) => !seen.has(id)).sort(compareIds);
  }
  const result: RowPairing = { worse: [], better: [], newSamples, missingSamples, before: rowBefore };
  if (before.length === 0) return result;

  for (let i = 0; i < before.length; i++) {
    const b = before[i]!;
    const a = after[i]!;
    if (!valuesDiffer(b, a)) continue;
    const index = pairedIndex[i]!;
    const change = { sampleId: ids[index]!, test: row.sources[index]!.test, before: b, after: a, delta: a - b };
    (a < b ? result.worse : result.better).push(change);
  }
  result.worse.sort((x, y) => x.delta - y.delta || compareIds(x.sampleId, y.sampleId));
  result.better.sort((x, y) => y.delta - x.delta || compareIds(x.sampleId, y.sampleId));
  result.comparison = comparePaired(before, after, rule, result.worse.length + result.better.length);
  return result;
}

/**
 * Natural order, locale-free: `q2` before `q10`, then code-unit order. The ids are read as runs of ASCII
 * digits and runs of other characters: the first pair of runs that differ decides (two digit runs by
 * their value, leading zeros aside, then as text); with every run alike, fewer runs first, then
 * code-unit order. It walks the two strings in place: the sorts of a summary call it for every pair of
 * question ids they compare.
 */
export function compareIds(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const digits = isDigit(a.charCodeAt(i));
    const otherDigits = isDigit(b.charCodeAt(j));
    const end = runEnd(a, i, digits);
    const otherEnd = runEnd(b, j, otherDigits);
    if (!sameText(a, i, end, b, j, otherEnd)) {
      if (digits && otherDigits) {
        const significant = skipZeros(a, i, end);
        const otherSignificant = skipZeros(b, j, otherEnd);
        const byLength = end - significant - (otherEnd - otherSignificant);
        if (byLength !== 0) return byLength;
        const byDigits = compareText(a, significant, end, b, otherSignificant, otherEnd);
        if (byDigits !== 0) return byDigits;
      }
      return compareText(a, i, end, b, j, otherEnd) < 0 ? -1 : 1;
    }
    i = end;
    j = otherEnd;
  }
  if (i < a.length || j < b.length) return runCount(a, i) - runCount(b, j);
  return a < b ? -1 : a > b ? 1 : 0;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Where the run of digits (or of other characters) that starts at `start` ends. */
function runEnd(text: string, start: number, digits: boolean): number {
  let end = start + 1;
  while (end < text.length && isDigit(text.charCodeAt(end)) === digits) end++;
  return end;
}

/** The first place in [start, end) that is not a 0, or end. */
function skipZeros(text: string, start: number, end: number): number {
  let at = start;
  while (at < end && text.charCodeAt(at) === 48) at++;
  return at;
}

/** How many runs `text` has from `start` on. */
function runCount(text: string, start: number): number {
  let count = 0;
  for (let at = start; at < text.length; count++) at = runEnd(text, at, isDigit(text.charCodeAt(at)));
  return count;
}

function sameText(a: string, i: number, end: number, b: string, j: number, otherEnd: number): boolean {
  if (end - i !== otherEnd - j) return false;
  for (let k = 0; k < end - i; k++) if (a.charCodeAt(i + k) !== b.charCodeAt(j + k)) return false;
  return true;
}

/** Code-unit order of a[i, end) and b[j, otherEnd): negative, 0 or positive. */
function compareText(a: string, i: number, end: number, b: string, j: number, otherEnd: number): number {
  const length = Math.min(end - i, otherEnd - j);
  for (let k = 0; k < length; k++) {
    const difference = a.charCodeAt(i + k) - b.charCodeAt(j + k);
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  return Math.sign(end - i - (otherEnd - j));
}
