// The summary model: for each suite × measure of a run, its samples' mean, 95% interval and minimum, and
// the comparison with the baseline. Runner-agnostic: the Vitest and Jest reporters collect a CollectedRun
// and call summarize; the renderers (console, Markdown, JSON, HTML) only read the RunSummary.

import { holmCorrection, meanInterval, type PairedTestName } from '../core/stats.js';
import {
  compareIds,
  exceedsTolerance,
  pairRow,
  resolveTolerance,
  toleranceFor,
  type ResolvedTolerance,
  type RowComparison,
  type SampleChange,
  type ToleranceOption,
} from '../baseline/compare.js';
import { belongsToFiles, fileOfSuite, groupRun, type GroupedRow } from '../baseline/group.js';
import { own, type BaselineFile } from '../baseline/schema.js';
import type { CollectedRun, CollectedSample } from './collected.js';

export type { RowComparison, SampleChange } from '../baseline/compare.js';

export const DEFAULT_TEST: PairedTestName = 'sign';
export const DEFAULT_SEED = 42;
/** Resamples of the paired randomization test. */
export const DEFAULT_TEST_RESAMPLES = 10_000;
/**
 * Resamples of the bootstrap interval shown next to a mean. The interval describes; the paired test
 * decides. 1,000 is the usual floor for percentile intervals (Efron & Tibshirani 1993, §19.3): the Monte
 * Carlo error of each end is about 0.09 standard errors of the mean, ±0.003 for 100 questions with a
 * spread of 0.3, under the width of any interval it is printed beside. The cost is resamples × samples
 * and is nearly all of a large run's summary time, so 10,000 would make a 100,000-sample summary ten
 * times slower for a third decimal; set intervalResamples for more.
 */
export const DEFAULT_INTERVAL_RESAMPLES = 1_000;
export const DEFAULT_CONFIDENCE = 0.95;

export interface SummaryOptions {
  /** Largest drop of a mean that is not a regression: a number, or per-measure overrides `{ default: 0.01, 'recall@5': 0 }`. Default 0.01. */
  tolerance?: ToleranceOption;
  /** When set (e.g. 0.05), a drop must also be significant under the paired test, Holm-corrected across the compared rows. */
  significance?: number;
  /** Paired test: exact sign test (default), randomization (sign-flip) test, or paired t-test. */
  test?: PairedTestName;
  /** A regression fails the run (passed = false). Default true. */
  failOnRegression?: boolean;
  /** Samples missing from the baseline fail the run. Default false. */
  failOnNew?: boolean;
  /** The run is updating the baseline: its changes are recorded, not judged (reporting only). */
  updatingBaseline?: boolean;
  /** Interval coverage. Default 0.95. */
  confidence?: number;
  /** Seed of the bootstrap and the randomization test. Default 42. */
  seed?: number;
  /** Randomization-test resamples. Default 10,000. */
  resamples?: number;
  /** Bootstrap resamples for intervals. Default 1,000. */
  intervalResamples?: number;
  /** Where the baseline was read from, for the report (informational). */
  baselinePath?: string;
  /**
   * Whether a test file (relative, '/'-separated) still exists. When given, the baseline rows of deleted
   * files are reported missing (obsolete) rather than "not run". summaryOptionsFrom fills it in.
   */
  fileExists?: (file: string) => boolean;
}

export type RowStatus = 'regressed' | 'improved' | 'unchanged' | 'new';

export interface RowInterval {
  lower: number;
  upper: number;
  method: 'wilson' | 'bootstrap-percentile';
  confidence: number;
  /** Bootstrap only. */
  resamples?: number;
  seed?: number;
}

export interface SummaryRow {
  suite: string;
  file: string;
  describePath: string[];
  measure: string;
  count: number;
  mean: number;
  interval: RowInterval;
  min: number;
  max: number;
  /** Samples whose assertion failed. */
  failures: number;
  /** The baseline's samples of this suite × measure (all of them, shared or not). */
  baseline?: { mean: number; count: number };
  /** mean(after − before) over the shared questions; equals mean − baseline.mean when both have the same questions. */
  delta?: number;
  /** The tolerance applied to this measure. */
  tolerance: number;
  status: RowStatus;
  comparison?: RowComparison;
  worse: SampleChange[];
  better: SampleChange[];
  /** Question ids of this run not in the baseline. */
  newSamples: string[];
  /** Question ids of the baseline this run did not produce. */
  missingSamples: string[];
  /**
   * The row's samples as parallel arrays in recording order: question id, this run's value, the baseline's
   * value (undefined for a new question) and the collected sample itself (test name, pass, threshold).
   */
  sampleIds: string[];
  values: number[];
  before: (number | undefined)[];
  sources: CollectedSample[];
}

/** A baseline suite × measure that a test file that ran in full did not produce (deleted or renamed tests), or of a deleted test file. */
export interface MissingRow {
  suite: string;
  measure: string;
  count: number;
  mean: number;
}

export interface RunSummary {
  runner: CollectedRun['runner'];
  /** Sorted by suite, then measure (natural order). */
  rows: SummaryRow[];
  missing: MissingRow[];
  /** Baseline suites of files this run did not run (kept, not compared); deleted files' suites are in `missing` instead when fileExists was given. */
  notRun: { suites: number; rows: number };
  regressions: number;
  improvements: number;
  unchanged: number;
  newRows: number;
  /** Questions with no baseline value, over all rows (new rows included). */
  newSamples: number;
  /** The gate: false on a regression (unless failOnRegression is false) or, with failOnNew, on new samples. */
  passed: boolean;
  baselineFound: boolean;
  baselinePath?: string;
  /** Settings that make the verdict weaker than it looks (e.g. a test that can never reach significance). */
  warnings: string[];
  totals: { samples: number; suites: number; rows: number };
  settings: {
    tolerance: ResolvedTolerance;
    significance?: number;
    test: PairedTestName;
    failOnRegression: boolean;
    failOnNew: boolean;
    updatingBaseline: boolean;
    confidence: number;
    seed: number;
    resamples: number;
    intervalResamples: number;
    /** Rows in the Holm family: compared rows with at least one changed question. */
    holmFamily: number;
  };
}

/**
 * Summarises a run and compares it with the baseline (undefined: no baseline yet, every row is new).
 * Deterministic: the same run, baseline and options give the same summary.
 */
export function summarize(run: CollectedRun, baseline: BaselineFile | undefined, options: SummaryOptions = {}): RunSummary {
  const settings = resolveSummaryOptions(options);
  const grouped = groupRun(run);
  const ranFiles = new Set(run.files ?? grouped.files);

  const groupedRows: GroupedRow[] = [];
  for (const measures of grouped.suites.values()) for (const row of measures.values()) groupedRows.push(row);
  groupedRows.sort((a, b) => compareIds(a.suite, b.suite) || compareIds(a.measure, b.measure));

  const rows = groupedRows.map((row) => summarizeRow(row, baseline, settings));

  // Holm across the compared rows whose questions changed at all (a row with no changed question has
  // p = 1 under every test and can never be significant; leaving it out does not favour any row).
  const family = rows.filter((row) => row.comparison?.p !== undefined && row.comparison.wins + row.comparison.losses > 0);
  const adjusted = holmCorrection(family.map((row) => row.comparison!.p!));
  family.forEach((row, index) => {
    row.comparison!.adjustedP = adjusted[index]!;
  });
  for (const row of rows) {
    if (row.comparison?.p !== undefined && row.comparison.adjustedP === undefined) row.comparison.adjustedP = row.comparison.p;
    row.status = decideStatus(row, settings.significance);
  }

  const missing: MissingRow[] = [];
  let notRunSuites = 0;
  let notRunRows = 0;
  if (baseline !== undefined) {
    for (const suiteId of Object.keys(baseline.suites)) {
      const measures = baseline.suites[suiteId]!;
      const seen = grouped.suites.get(suiteId);
      const ran = belongsToFiles(suiteId, ranFiles);
      const deleted = !ran && seen === undefined && options.fileExists !== undefined && !options.fileExists(fileOfSuite(suiteId, ranFiles));
      if (!ran && !deleted) {
        if (seen === undefined) {
          notRunSuites++;
          notRunRows += Object.keys(measures).length;
        }
        continue;
      }
      for (const measure of Object.keys(measures)) {
        if (seen?.has(measure)) continue;
        const values = Object.values(measures[measure]!);
        if (values.length === 0) continue;
        missing.push({ suite: suiteId, measure, count: values.length, mean: values.reduce((sum, value) => sum + value, 0) / values.length });
      }
    }
  }
  missing.sort((a, b) => compareIds(a.suite, b.suite) || compareIds(a.measure, b.measure));

  const count = (status: RowStatus): number => rows.reduce((total, row) => total + (row.status === status ? 1 : 0), 0);
  const regressions = count('regressed');
  const newSamples = rows.reduce((total, row) => total + row.newSamples.length, 0);
  const passed = !(settings.failOnRegression && regressions > 0) && !(settings.failOnNew && newSamples > 0);

  const warnings: string[] = [];
  if (settings.significance !== undefined && settings.test === 'randomization') {
    // A Monte Carlo p is at least 1/(resamples + 1); Holm multiplies the smallest p by the family size.
    const monteCarloRows = family.filter((row) => row.comparison!.method === 'randomization-monte-carlo').length;
    const smallestAdjusted = (family.length * 1) / (settings.resamples + 1);
    if (monteCarloRows > 0 && smallestAdjusted > settings.significance) {
      const needed = Math.ceil(family.length / settings.significance);
      warnings.push(
        `With ${family.length} compared ${family.length === 1 ? 'row' : 'rows'} and ${settings.resamples} randomization resamples, no Monte Carlo p-value can pass Holm at ${settings.significance} ` +
          `(the smallest is 1/${settings.resamples + 1}, times ${family.length}): such rows can never regress. Set resamples to at least ${needed}, or use test: 'sign'.`,
      );
    }
  }

  return {
    runner: run.runner,
    rows,
    missing,
    notRun: { suites: notRunSuites, rows: notRunRows },
    regressions,
    improvements: count('improved'),
    unchanged: count('unchanged'),
    newRows: count('new'),
    newSamples,
    passed,
    baselineFound: baseline !== undefined,
    warnings,
    ...(options.baselinePath !== undefined ? { baselinePath: options.baselinePath } : {}),
    totals: { samples: grouped.sampleCount, suites: grouped.suites.size, rows: rows.length },
    settings: { ...settings, holmFamily: family.length },
  };
}

type ResolvedSummaryOptions = Omit<RunSummary['settings'], 'holmFamily'>;

function summarizeRow(row: GroupedRow, baseline: BaselineFile | undefined, settings: ResolvedSummaryOptions): SummaryRow {
  const values = row.values;
  let min = Infinity;
  let max = -Infinity;
  let failures = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value < min) min = value;
    if (value > max) max = value;
    if (row.sources[i]!.pass === false) failures++;
  }
  const { mean, ...interval } = intervalOf(values, min, max, settings);
  const summary: SummaryRow = {
    suite: row.suite,
    file: row.file,
    describePath: row.describePath,
    measure: row.measure,
    count: values.length,
    mean,
    interval,
    min,
    max,
    failures,
    tolerance: toleranceFor(settings.tolerance, row.measure),
    status: 'new',
    worse: [],
    better: [],
    newSamples: row.ids,
    missingSamples: [],
    sampleIds: row.ids,
    values,
    before: new Array<number | undefined>(values.length),
    sources: row.sources,
  };

  const suiteBaseline = baseline === undefined ? undefined : own(baseline.suites, row.suite);
  const baselineSamples = suiteBaseline === undefined ? undefined : own(suiteBaseline, row.measure);
  if (baselineSamples !== undefined) {
    const baselineValues = Object.values(baselineSamples);
    if (baselineValues.length > 0) {
      summary.baseline = { mean: baselineValues.reduce((sum, value) => sum + value, 0) / baselineValues.length, count: baselineValues.length };
    }
    const pairing = pairRow(row, baselineSamples, { test: settings.test, resamples: settings.resamples, seed: settings.seed });
    summary.worse = pairing.worse;
    summary.better = pairing.better;
    summary.newSamples = pairing.newSamples;
    summary.missingSamples = pairing.missingSamples;
    summary.before = pairing.before;
    if (pairing.comparison !== undefined) {
      summary.comparison = pairing.comparison;
      summary.delta = pairing.comparison.meanAfter - pairing.comparison.meanBefore;
    }
  }
  return summary;
}

/** meanInterval (Wilson when every value is 0/1, else the seeded bootstrap); all-equal values give [v, v] under either, without resampling. */
function intervalOf(values: number[], min: number, max: number, settings: ResolvedSummaryOptions): RowInterval & { mean: number } {
  const binary = values.every((value) => value === 0 || value === 1);
  if (min === max && !binary) {
    return { mean: min, lower: min, upper: min, method: 'bootstrap-percentile', confidence: settings.confidence, resamples: settings.intervalResamples, seed: settings.seed };
  }
  const interval = meanInterval(values, { confidence: settings.confidence, seed: settings.seed, resamples: settings.intervalResamples, binary });
  return interval.method === 'wilson'
    ? { mean: interval.mean, lower: interval.lower, upper: interval.upper, method: 'wilson', confidence: interval.confidence }
    : { mean: interval.mean, lower: interval.lower, upper: interval.upper, method: interval.method, confidence: interval.confidence, resamples: interval.resamples, seed: interval.seed };
}

function decideStatus(row: SummaryRow, significance: number | undefined): RowStatus {
  const comparison = row.comparison;
  if (comparison === undefined || row.delta === undefined) return 'new';
  const direction = exceedsTolerance(row.delta, row.tolerance, Math.max(Math.abs(comparison.meanBefore), Math.abs(comparison.meanAfter)));
  if (direction === 'within') return 'unchanged';
  if (significance !== undefined && !(comparison.adjustedP !== undefined && comparison.adjustedP <= significance)) return 'unchanged';
  return direction === 'below' ? 'regressed' : 'improved';
}

function resolveSummaryOptions(options: SummaryOptions): ResolvedSummaryOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError(`summarize: options must be an object, got ${options === null ? 'null' : typeof options}.`);
  if (options.fileExists !== undefined && typeof options.fileExists !== 'function') throw new TypeError('fileExists must be a function (file) => boolean when given.');
  const test = options.test ?? DEFAULT_TEST;
  if (test !== 'sign' && test !== 'randomization' && test !== 't') {
    throw new RangeError(`test must be 'sign', 'randomization' or 't', got ${JSON.stringify(test)}.`);
  }
  const significance = options.significance;
  if (significance !== undefined && (typeof significance !== 'number' || !(significance > 0 && significance < 1))) {
    throw new RangeError(`significance must be a number strictly between 0 and 1 (e.g. 0.05), got ${String(significance)}; leave it unset to judge by the tolerance alone.`);
  }
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be a number strictly between 0 and 1 (e.g. 0.95), got ${String(confidence)}.`);
  }
  const failOnRegression = options.failOnRegression ?? true;
  const failOnNew = options.failOnNew ?? false;
  if (typeof failOnRegression !== 'boolean') throw new TypeError(`failOnRegression must be true or false, got ${String(failOnRegression)}.`);
  if (typeof failOnNew !== 'boolean') throw new TypeError(`failOnNew must be true or false, got ${String(failOnNew)}.`);
  const seed = options.seed ?? DEFAULT_SEED;
  const resamples = options.resamples ?? DEFAULT_TEST_RESAMPLES;
  const intervalResamples = options.intervalResamples ?? DEFAULT_INTERVAL_RESAMPLES;
  for (const [name, value] of [['resamples', resamples], ['intervalResamples', intervalResamples]] as const) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new RangeError(`${name} must be a whole number ≥ 1, got ${String(value)}.`);
    }
  }
  return {
    tolerance: resolveTolerance(options.tolerance),
    ...(significance !== undefined ? { significance } : {}),
    test,
    failOnRegression,
    failOnNew,
    updatingBaseline: options.updatingBaseline === true,
    confidence,
    seed,
    resamples,
    intervalResamples,
  };
}
