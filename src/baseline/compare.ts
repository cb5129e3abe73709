// Comparing one suite × measure of this run with the baseline, question by question.
//
// The rule: a row regresses when the mean change on the questions both runs have, mean(after − before),
// is more than `tolerance` below zero (absolute; default 0.01; per-measure overrides). With
// `significance` set the drop must also be significant under the paired test, Holm-corrected across the
// rows of the run (src/report/summary.ts). Improvements are symmetric.

import { formatMeasure, parseMeasure } from '../core/measures.js';
import { pairedComparison, type PairedTestName } from '../core/stats.js';
import type { GroupedRow } from './group.js';
import { own, type BaselineSamples } from './schema.js';

export const DEFAULT_TOLERANCE = 0.01;

/** A number for every measure, or per-measure overrides (`{ 'recall@5': 0 }`) with an optional `default`. */
export type ToleranceOption = number | Readonly<Record<string, number>>;

export interface ResolvedTolerance {
  default: number;
  /** Canonical measure name → tolerance. */
  byMeasure: Readonly<Record<string, number>>;
}

/**
 * Checks a tolerance option and puts override keys in canonical form (`R@5` → `recall@5`). Keys must be
 * measures (`faithfulness` and `judge:<name>` included) or `default`; a typo is an error, not a silent default.
 */
export function resolveTolerance(option: ToleranceOption | undefined, name = 'tolerance'): ResolvedTolerance {
  if (option === undefined) return { default: DEFAULT_TOLERANCE, byMeasure: {} };
  if (typeof option === 'number') return { default: checkTolerance(option, name), byMeasure: {} };
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new TypeError(`${name} must be a number (e.g. 0.01) or an object of per-measure values (e.g. { default: 0.01, 'recall@5': 0 }), got ${option === null ? 'null' : Array.isArray(option) ? 'an array' : typeof option}.`);
  }
  let fallback = DEFAULT_TOLERANCE;
  const byMeasure: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const key of Object.keys(option)) {
    const value = checkTolerance(option[key], `${name}[${JSON.stringify(key)}]`);
    if (key === 'default') {
      fallback = value;
      continue;
    }
    byMeasure[canonicalMeasure(key, `${name}[${JSON.stringify(key)}]`)] = value;
  }
  return { default: fallback, byMeasure };
}

export function toleranceFor(tolerance: ResolvedTolerance, measure: string): number {
  return own(tolerance.byMeasure, measure) ?? tolerance.default;
}

function checkTolerance(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a finite number ≥ 0 (an absolute drop in the mean, e.g. 0.01), got ${String(value)}.`);
  }
  return value;
}

/** `recall@5` for `R@5`; `faithfulness` and `judge:<name>` as they are. */
export function canonicalMeasure(key: string, name: string): string {
  if (key === 'faithfulness' || /^judge:.+/.test(key)) return key;
  try {
    return formatMeasure(parseMeasure(key));
  } catch (error) {
    throw new RangeError(`${name}: ${(error as Error).message} (also faithfulness, judge:<name>, and default)`);
  }
}

/** A question whose value changed. */
export interface SampleChange {
  sampleId: string;
  /** The test that measured it in this run. */
  test: string;
  before: number;
  after: number;
  /** after − before. */
  delta: number;
}

export interface RowComparison {
  /** Questions in both this run and the baseline: the pairs. */
  shared: number;
  /** Pairs that got better / worse / stayed equal (any change counts; differences within 1e-12 are equal). */
  wins: number;
  losses: number;
  ties: number;
  /** Means over the shared questions. */
  meanBefore: number;
  meanAfter: number;
  test: PairedTestName;
  /** Two-sided p of the paired test; absent when the test cannot be run (a t-test on one pair). */
  p?: number;
  /** Holm-adjusted p across the compared rows of the run; set by summarize. */
  adjustedP?: number;
  method?: string;
  /** Randomization test only. */
  seed?: number | null;
  resamples?: number;
}

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

export interface PairOptions {
  test: PairedTestName;
  resamples: number;
  seed: number;
}

const RELATIVE_EPSILON = 1e-12;

/** Pairs a row with its baseline samples by sample id and runs the paired test on the shared ones. */
export function pairRow(row: GroupedRow, baselineSamples: BaselineSamples, options: PairOptions): RowPairing {
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
    before.push(value);
    after.push(values[index]!);
    pairedIndex.push(index);
  }
  const baselineIds = Object.keys(baselineSamples);
  let missingSamples: string[] = [];
  if (baselineIds.length !== before.length) {
    const seen = new Set(ids);
    missingSamples = baselineIds.filter((id) => !seen.has(id));
  }
  const result: RowPairing = { worse: [], better: [], newSamples, missingSamples, before: rowBefore };
  if (before.length === 0) return result;

  for (let i = 0; i < before.length; i++) {
    const b = before[i]!;
    const a = after[i]!;
    const delta = a - b;
    if (Math.abs(delta) <= RELATIVE_EPSILON * Math.max(1, Math.abs(a), Math.abs(b))) continue;
    const index = pairedIndex[i]!;
    const change = { sampleId: ids[index]!, test: row.sources[index]!.test, before: b, after: a, delta };
    (delta < 0 ? result.worse : result.better).push(change);
  }
  result.worse.sort((x, y) => x.delta - y.delta || compareIds(x.sampleId, y.sampleId));
  result.better.sort((x, y) => y.delta - x.delta || compareIds(x.sampleId, y.sampleId));

  const pairs = before.length;
  const discordant = result.worse.length + result.better.length;
  if (discordant === 0) {
    // Nothing changed: every test gives p = 1; skip the work.
    const mean = meanOf(before);
    result.comparison = { shared: pairs, wins: 0, losses: 0, ties: pairs, meanBefore: mean, meanAfter: meanOf(after), test: options.test, p: 1 };
    return result;
  }
  if (options.test === 't' && pairs < 2) {
    result.comparison = {
      shared: pairs,
      wins: result.better.length,
      losses: result.worse.length,
      ties: pairs - discordant,
      meanBefore: meanOf(before),
      meanAfter: meanOf(after),
      test: 't',
    };
    return result;
  }
  const paired = pairedComparison(before, after, { test: options.test, tolerance: 0, resamples: options.resamples, seed: options.seed });
  result.comparison = {
    shared: pairs,
    wins: paired.wins,
    losses: paired.losses,
    ties: paired.ties,
    meanBefore: paired.meanBefore,
    meanAfter: paired.meanAfter,
    test: options.test,
    p: paired.p,
    method: paired.method,
    ...(paired.seed !== undefined ? { seed: paired.seed } : {}),
    ...(paired.resamples !== undefined ? { resamples: paired.resamples } : {}),
  };
  return result;
}

/** Whether a mean change is beyond the tolerance, with rounding absorbed (0.80 − 0.81 is exactly at 0.01). */
export function exceedsTolerance(delta: number, tolerance: number, scale: number): 'below' | 'above' | 'within' {
  const slack = RELATIVE_EPSILON * Math.max(1, Math.abs(scale));
  if (delta < -tolerance - slack) return 'below';
  if (delta > tolerance + slack) return 'above';
  return 'within';
}

function meanOf(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total / values.length;
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
      const byDigits = x.replace(/^0+/, '') < y.replace(/^0+/, '') ? -1 : x.replace(/^0+/, '') > y.replace(/^0+/, '') ? 1 : 0;
      if (byDigits !== 0) return byDigits;
    }
    return x < y ? -1 : 1;
  }
  if (left.length !== right.length) return left.length - right.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
