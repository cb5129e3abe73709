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

/** Natural order, locale-free: `q2` before `q10`, then code-unit order. */
export function compareIds(a: string, b: string): number {
  const chunk = /(\d+|\D+)/g;
  const left = a.match(chunk) ?? [];
  const right = b.match(chunk) ?? [];
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const x = left[i]!;
    const y = right[i]!;
    if (x === y) continue;
    const xDigits = x.charCodeAt(0) >= 48 && x.charCodeAt(0) <= 57;
    const yDigits = y.charCodeAt(0) >= 48 && y.charCodeAt(0) <= 57;
    if (xDigits && yDigits) {
      const byLength = x.replace(/^0+/, '').length - y.replace(/^0+/, '').length;
      if (byLength !== 0) return byLength;
      const byDigits =
        x.replace(/^0+/, '') < y.replace(/^0+/, '') ? -1 : x.replace(/^0+/, '') > y.replace(/^0+/, '') ? 1 : 0;
      if (byDigits !== 0) return byDigits;
    }
    return x < y ? -1 : 1;
  }
  if (left.length !== right.length) return left.length - right.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
