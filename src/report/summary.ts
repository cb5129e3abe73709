// The summary model: for each suite × measure of a run, its samples' mean, 95% interval and minimum, and
// the comparison with the baseline. Runner-agnostic: the Vitest and Jest reporters collect a CollectedRun
// and call summarize; the renderers (console, Markdown, JSON, HTML) only read the RunSummary.

import { mean as meanOf } from '../core/mean.js';
import { codePoints, lookAlikeKey, visibleControls } from '../core/escape.js';
import { meanInterval, type PairedTestName } from '../core/stats.js';
import { compareIds, pairRow, type RowComparison, type SampleChange } from '../baseline/compare.js';
import { groupRun, type GroupedRow } from '../baseline/group.js';
import { coverageOf, findRenamedSuites, isCovered, resolveLegacySuites } from '../baseline/identity.js';
import type { QuestionStatus } from '../baseline/accounting.js';
import { NOT_JUDGED_REASONS, type NotJudgedReason } from '../recording/outcomes.js';
import { own, type BaselineFile } from '../baseline/schema.js';
import {
  judgeMoves,
  movementOfMeans,
  resolveRegressionRule,
  toleranceFor,
  type ResolvedTolerance,
  type ToleranceOption,
} from '../core/regression-rule.js';
import {
  parseSuiteKey,
  suiteNameOf,
  type CollectedRun,
  type CollectedSample,
  type SuiteIdentity,
} from '../recording/collected.js';
import { checkRepeatRules, repeatFindings, type RepeatRules } from './repeats.js';

export type { RowComparison, SampleChange } from '../baseline/compare.js';
export { DEFAULT_TEST } from '../core/regression-rule.js';

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
  tolerance?: ToleranceOption | ResolvedTolerance;
  /** When set (e.g. 0.05), a drop must also be significant under the paired test, Holm-corrected across the compared rows. */
  significance?: number;
  /** Paired test: exact sign test (default), randomization (sign-flip) test, or paired t-test. */
  test?: PairedTestName;
  /** A regression fails the run (passed = false). Default true. */
  failOnRegression?: boolean;
  /** Samples missing from the baseline fail the run. Default false. */
  failOnNew?: boolean;
  /**
   * The baseline must be up to date (the reporters' default under CI): every finding — a regression, an
   * improvement not recorded, a suite or question new to the baseline, a baseline suite or question that
   * did not run although its file ran, a renamed suite — fails the run. Default false.
   */
  strict?: boolean;
  /** The run is updating the baseline: its changes are recorded, not judged (reporting only). */
  updatingBaseline?: boolean;
  /**
   * The run is a deliberate subset (RAG_PARTIAL=1, or the reporter option `partial`): baseline questions
   * it did not judge are reported but do not fail it under `strict`. Default false.
   */
  partial?: boolean;
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
  /** Under `strict`, each question must run at least this many times (repeats): `too-few-repeats` otherwise. */
  minRepeats?: number;
  /** Under `strict`, no question's spread over its runs (max − min) may exceed this: `unstable` fails otherwise. */
  maxSpread?: number;
}

export type RowStatus = 'regressed' | 'improved' | 'unchanged' | 'new';

export type FindingKind =
  | 'regression'
  | 'improvement'
  | 'new-suite'
  | 'new-questions'
  | 'missing-suite'
  | 'missing-questions'
  | 'renamed-suite'
  | 'ambiguous-suite'
  | 'unconfirmed-move'
  | 'not-judged'
  | 'unstable'
  | 'too-few-repeats';

/**
 * One way in which an update would change the baseline beyond tolerance (or a legacy suite that cannot
 * be matched). Plain text: each renderer escapes it for its medium.
 */
export interface GateFinding {
  kind: FindingKind;
  /** Display name of the suite (the new name for a rename). */
  suite: string;
  /** Exact key of the suite (suiteKeyOf). */
  suiteKey: string;
  measure?: string;
  /** Question ids concerned (new or missing ones); for a regression, the questions that got worse. */
  questions?: string[];
  /** Renamed suite: its name in the baseline. */
  from?: string;
  /** Means over the shared questions (regression, improvement). */
  before?: number;
  after?: number;
  /** Not judged: why, and how many baseline questions (`questions` holds the first few, as `suite › id`). */
  reason?: NotJudgedReason;
  /** Not judged: what the reason means here (`project bm25 was not selected (--project)`), when known. */
  detail?: string;
  /** Not judged: how many baseline questions. */
  count?: number;
  /** Unstable: each question's spread over its runs (max − min), parallel to `questions`. */
  spreads?: number[];
  /** Too few repeats: how many times each question ran, parallel to `questions`. */
  runs?: number[];
  /** The rule's limit: maxSpread (unstable, when set) or minRepeats (too-few-repeats). */
  limit?: number;
  /** What accepts it: RAG_BASELINE=update or RAG_BASELINE=prune; `run`: running those questions (or declaring the run partial). */
  accept: 'update' | 'prune' | 'run';
  /** True when it fails the run under the current settings. */
  fails: boolean;
}

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
  /** Display name of the suite (suiteNameOf). */
  suite: string;
  /** Exact identity of the suite (suiteKeyOf). */
  suiteKey: string;
  /** The Vitest project, when named. */
  project?: string;
  /** The suite's name in the baseline, when this run renamed it (same questions). */
  renamedFrom?: string;
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
  /** Question ids of the baseline this run found gone: their tests ran to the end and no longer produce them. */
  missingSamples: string[];
  /** Question ids of the baseline this run did not judge (filtered, skipped, failed before measuring, …): see RunSummary.notJudged. */
  notJudgedSamples: string[];
  /**
   * The row's samples as parallel arrays in recording order: question id, this run's value, the baseline's
   * value (undefined for a new question) and the collected sample itself (test name, pass, threshold).
   */
  sampleIds: string[];
  values: number[];
  before: (number | undefined)[];
  sources: CollectedSample[];
  /**
   * Only when some question ran more than once (repeats): each question's values over its runs, parallel
   * to `sampleIds` (undefined for a question run once); `values` holds their means.
   */
  repeats?: (number[] | undefined)[];
}

/** The questions of a baseline suite × measure that this run found gone (deleted or renamed tests, a deleted test file). */
export interface MissingRow {
  suite: string;
  suiteKey: string;
  measure: string;
  /** How many questions, and the mean of their baseline values. */
  count: number;
  mean: number;
  /** Their ids. */
  questions: string[];
}

/** Baseline questions this run did not judge, for one reason. */
export interface NotJudgedGroup {
  reason: NotJudgedReason;
  /** What the reason means here, when one detail covers the whole group. */
  detail?: string;
  /** Baseline questions (a question counts once, whatever its measures). */
  questions: number;
  /** Display names of their suites, in baseline order. */
  suites: string[];
  /** The first few, as `suite › question`. */
  examples: string[];
}

/** Every baseline question in the run's scope: judged (produced), missing (gone), or not judged. */
export interface BaselineCoverage {
  /** Baseline questions this run produced (for at least one measure) and so compared. */
  judged: number;
  /** Baseline questions this run found gone (prune removes them). */
  missing: number;
  /** The others, by reason, in NOT_JUDGED_REASONS order. */
  notJudged: NotJudgedGroup[];
}

export interface RunSummary {
  runner: CollectedRun['runner'];
  /** Whether every baseline question was judged: see BaselineCoverage. */
  coverage: BaselineCoverage;
  /** Sorted by suite, then measure (natural order). */
  rows: SummaryRow[];
  missing: MissingRow[];
  /** Baseline suites of files this run did not run (kept, not compared); deleted files' suites are in `missing` instead when fileExists was given. */
  notRun: { suites: number; rows: number };
  regressions: number;
  improvements: number;
  unchanged: number;
  newRows: number;
  /** Every difference between this run and the baseline beyond tolerance, by name, with what accepts it. */
  findings: GateFinding[];
  /** A version-1 baseline was read: how its suites were matched. */
  legacy?: { matched: number; guessed: number; ambiguous: { name: string; suites: string[] }[] };
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
    strict: boolean;
    updatingBaseline: boolean;
    partial: boolean;
    confidence: number;
    seed: number;
    resamples: number;
    intervalResamples: number;
    /** Rows in the Holm family: compared rows with at least one changed question. */
    holmFamily: number;
  } & RepeatRules;
}

/**
 * Summarises a run and compares it with the baseline (undefined: no baseline yet, every row is new).
 * Deterministic: the same run, baseline and options give the same summary.
 */
export function summarize(
  run: CollectedRun,
  baseline: BaselineFile | undefined,
  options: SummaryOptions = {},
): RunSummary {
  const settings = resolveSummaryOptions(options);
  const grouped = groupRun(run);
  const coverage = coverageOf(run, options.fileExists);

  let legacy: RunSummary['legacy'];
  if (baseline?.legacy !== undefined) {
    const identities: SuiteIdentity[] = [];
    for (const measures of grouped.suites.values()) identities.push(measures.values().next().value!.identity);
    const resolution = resolveLegacySuites(baseline, identities, coverage);
    baseline = resolution.file;
    legacy = { matched: resolution.matched, guessed: resolution.guessed, ambiguous: resolution.ambiguous };
  }
  const renames =
    baseline === undefined ? new Map<string, string>() : findRenamedSuites(baseline, grouped.suites, coverage);

  const groupedRows: GroupedRow[] = [];
  for (const measures of grouped.suites.values()) for (const row of measures.values()) groupedRows.push(row);
  groupedRows.sort(
    (a, b) => compareIds(a.suite, b.suite) || compareIds(a.key, b.key) || compareIds(a.measure, b.measure),
  );

  const rows = groupedRows.map((row) => summarizeRow(row, baseline, renames.get(row.key), settings));
  const compared = rows.filter((row) => row.comparison !== undefined);
  const verdicts = judgeMoves(
    compared.map((row) => ({ measure: row.measure, move: row.comparison! })),
    settings,
  );
  compared.forEach((row, index) => {
    row.status = verdicts[index]!;
  });
  const holmFamily = compared.filter(
    (row) => row.comparison!.p !== undefined && row.comparison!.wins + row.comparison!.losses > 0,
  ).length;

  const notJudged = new NotJudgedTally();
  const missing: MissingRow[] = [];
  let notRunSuites = 0;
  let notRunRows = 0;
  let judgedQuestions = 0;
  let missingQuestions = 0;
  const movedAway = new Set(renames.values());
  // A renamed suite has the same questions as its baseline rows: nothing of it is absent.
  const rowsByKey = new Map<string, SummaryRow[]>();
  for (const row of rows) {
    const list = rowsByKey.get(row.suiteKey);
    if (list === undefined) rowsByKey.set(row.suiteKey, [row]);
    else list.push(row);
  }
  if (baseline !== undefined) {
    for (const key of Object.keys(baseline.suites)) {
      const measures = baseline.suites[key]!;
      const questions = new Set<string>();
      for (const measure of Object.keys(measures)) for (const id of Object.keys(measures[measure]!)) questions.add(id);
      // A renamed suite is compared under its new name: its questions were judged.
      if (movedAway.has(key)) {
        judgedQuestions += questions.size;
        continue;
      }
      const seen = grouped.suites.get(key);
      const identity = parseSuiteKey(key);
      const suiteName = suiteNameOf(identity);
      // Every baseline question of the suite once, with its status when this run did not produce it.
      const statuses = new Map<string, QuestionStatus | 'judged'>();
      const produced = new Set<string>();
      for (const row of seen?.values() ?? []) for (const id of row.ids) produced.add(id);
      const statusOf = (id: string): QuestionStatus | 'judged' => {
        let status = statuses.get(id);
        if (status === undefined) {
          status = produced.has(id) ? 'judged' : coverage.accounting.statusOf(identity, id, seen);
          statuses.set(id, status);
        }
        return status;
      };
      for (const measure of Object.keys(measures)) {
        const ids = Object.keys(measures[measure]!);
        const row = seen?.get(measure);
        const rowIds = row === undefined ? undefined : new Set(row.ids);
        const gone: string[] = [];
        for (const id of ids) {
          if (rowIds?.has(id) === true) continue;
          const status = statusOf(id);
          // Produced for another measure but not this one: gone from this measure unless its test stopped early.
          const measureStatus = status === 'judged' ? coverage.accounting.statusOf(identity, id, seen) : status;
          if (measureStatus.kind === 'missing') gone.push(id);
          else if (status !== 'judged') notJudged.add(measureStatus, key, suiteName, id);
        }
        if (row !== undefined) {
          // The row's own list of absent questions keeps only the gone ones.
          for (const summaryRow of rowsByKey.get(key) ?? []) {
            if (summaryRow.measure !== measure) continue;
            const goneIds = new Set(gone);
            summaryRow.notJudgedSamples = summaryRow.missingSamples.filter((id) => !goneIds.has(id));
            summaryRow.missingSamples = summaryRow.missingSamples.filter((id) => goneIds.has(id));
          }
          continue;
        }
        if (gone.length === 0) continue;
        const goneValues = gone.map((id) => measures[measure]![id]!);
        missing.push({
          suite: suiteName,
          suiteKey: key,
          measure,
          count: gone.length,
          mean: meanOf(goneValues),
          questions: gone,
        });
      }
      let suiteJudged = 0;
      for (const id of questions) {
        const status = statuses.get(id);
        if (produced.has(id)) suiteJudged++;
        else if (status !== undefined && status !== 'judged' && status.kind === 'missing') missingQuestions++;
      }
      judgedQuestions += suiteJudged;
      if (seen === undefined && !isCovered(identity, coverage) && suiteJudged === 0) {
        notRunSuites++;
        notRunRows += Object.keys(measures).length;
      }
    }
  }
  missing.sort(
    (a, b) => compareIds(a.suite, b.suite) || compareIds(a.suiteKey, b.suiteKey) || compareIds(a.measure, b.measure),
  );

  const count = (status: RowStatus): number => rows.reduce((total, row) => total + (row.status === status ? 1 : 0), 0);
  const regressions = count('regressed');
  const newSamples = rows.reduce((total, row) => total + row.newSamples.length, 0);
  const findings =
    baseline === undefined && !settings.strict
      ? []
      : collectFindings(rows, missing, baseline, grouped.suites, legacy, notJudged.groups(), settings);
  // Repeated questions are marked whether or not there is a baseline.
  for (const finding of repeatFindings(rows, settings, settings.strict && !settings.updatingBaseline))
    findings.push(finding);
  const passed =
    !(settings.failOnRegression && regressions > 0) &&
    !(settings.failOnNew && newSamples > 0) &&
    !findings.some((finding) => finding.fails);

  const warnings: string[] = lookAlikeWarnings(rows);
  if (settings.significance !== undefined && settings.test === 'randomization') {
    // A Monte Carlo p is at least 1/(resamples + 1); Holm multiplies the smallest p by the family size.
    const monteCarloRows = compared.filter((row) => row.comparison!.method === 'randomization-monte-carlo').length;
    const smallestAdjusted = (holmFamily * 1) / (settings.resamples + 1);
    if (monteCarloRows > 0 && smallestAdjusted > settings.significance) {
      const needed = Math.ceil(holmFamily / settings.significance);
      warnings.push(
        `With ${holmFamily} compared ${holmFamily === 1 ? 'row' : 'rows'} and ${settings.resamples} randomization resamples, no Monte Carlo p-value can pass Holm at ${settings.significance} ` +
          `(the smallest is 1/${settings.resamples + 1}, times ${holmFamily}): such rows can never regress. Set resamples to at least ${needed}, or use test: 'sign'.`,
      );
    }
  }

  return {
    runner: run.runner,
    coverage: { judged: judgedQuestions, missing: missingQuestions, notJudged: notJudged.groups() },
    rows,
    missing,
    notRun: { suites: notRunSuites, rows: notRunRows },
    regressions,
    improvements: count('improved'),
    unchanged: count('unchanged'),
    newRows: count('new'),
    findings,
    ...(legacy !== undefined ? { legacy } : {}),
    newSamples,
    passed,
    baselineFound: baseline !== undefined,
    warnings,
    ...(options.baselinePath !== undefined ? { baselinePath: options.baselinePath } : {}),
    totals: { samples: grouped.sampleCount, suites: grouped.suites.size, rows: rows.length },
    settings: { ...settings, holmFamily },
  };
}

/** Every difference an update would write (beyond tolerance), in the order of the rows, each with what accepts it. */
function collectFindings(
  rows: readonly SummaryRow[],
  missing: readonly MissingRow[],
  baseline: BaselineFile | undefined,
  current: ReadonlyMap<string, ReadonlyMap<string, GroupedRow>>,
  legacy: RunSummary['legacy'],
  notJudged: readonly NotJudgedGroup[],
  settings: ResolvedSummaryOptions,
): GateFinding[] {
  const findings: GateFinding[] = [];
  const judged = !settings.updatingBaseline;
  const strict = judged && settings.strict;
  const failsNew = judged && (settings.strict || settings.failOnNew);
  const suitesSeen = new Set<string>();
  for (const row of rows) {
    const inBaseline =
      baseline !== undefined && (own(baseline.suites, row.suiteKey) !== undefined || row.renamedFrom !== undefined);
    if (!suitesSeen.has(row.suiteKey)) {
      suitesSeen.add(row.suiteKey);
      if (row.renamedFrom !== undefined) {
        findings.push({
          kind: 'renamed-suite',
          suite: row.suite,
          suiteKey: row.suiteKey,
          from: row.renamedFrom,
          accept: 'update',
          fails: strict,
        });
      } else if (!inBaseline) {
        const questions = new Set<string>();
        for (const suiteRow of current.get(row.suiteKey)!.values()) for (const id of suiteRow.ids) questions.add(id);
        findings.push({
          kind: 'new-suite',
          suite: row.suite,
          suiteKey: row.suiteKey,
          questions: [...questions],
          accept: 'update',
          fails: failsNew,
        });
      }
    }
    if (!inBaseline) continue;
    if (row.status === 'regressed' || row.status === 'improved') {
      const regressed = row.status === 'regressed';
      findings.push({
        kind: regressed ? 'regression' : 'improvement',
        suite: row.suite,
        suiteKey: row.suiteKey,
        measure: row.measure,
        questions: (regressed ? row.worse : row.better).map((change) => change.sampleId),
        before: row.comparison!.meanBefore,
        after: row.comparison!.meanAfter,
        accept: 'update',
        fails: regressed ? judged && settings.failOnRegression : strict,
      });
    } else if (row.comparison !== undefined && movementOfMeans(row.comparison, row.tolerance) !== 'within') {
      // Beyond the tolerance but not significant: not a regression, yet an update would write it (it
      // writes by tolerance alone), so under CI the file is out of date as with an improvement.
      findings.push({
        kind: 'unconfirmed-move',
        suite: row.suite,
        suiteKey: row.suiteKey,
        measure: row.measure,
        questions: (row.comparison.delta < 0 ? row.worse : row.better).map((change) => change.sampleId),
        before: row.comparison.meanBefore,
        after: row.comparison.meanAfter,
        accept: 'update',
        fails: strict,
      });
    }
    if (row.newSamples.length > 0) {
      findings.push({
        kind: 'new-questions',
        suite: row.suite,
        suiteKey: row.suiteKey,
        measure: row.measure,
        questions: [...row.newSamples],
        accept: 'update',
        fails: failsNew,
      });
    }
    if (row.missingSamples.length > 0) {
      findings.push({
        kind: 'missing-questions',
        suite: row.suite,
        suiteKey: row.suiteKey,
        measure: row.measure,
        questions: [...row.missingSamples],
        accept: 'prune',
        fails: strict,
      });
    }
  }
  // Baseline rows this run did not produce although their file ran: whole suites, or measures of a suite.
  const missingSuites = new Map<string, MissingRow[]>();
  for (const entry of missing) {
    const list = missingSuites.get(entry.suiteKey);
    if (list === undefined) missingSuites.set(entry.suiteKey, [entry]);
    else list.push(entry);
  }
  for (const [key, entries] of missingSuites) {
    if (!current.has(key)) {
      const questions = new Set<string>();
      for (const entry of entries) for (const id of entry.questions) questions.add(id);
      findings.push({
        kind: 'missing-suite',
        suite: entries[0]!.suite,
        suiteKey: key,
        questions: [...questions].sort(compareIds),
        accept: 'prune',
        fails: strict,
      });
      continue;
    }
    for (const entry of entries) {
      const ids = [...entry.questions].sort(compareIds);
      findings.push({
        kind: 'missing-questions',
        suite: entry.suite,
        suiteKey: key,
        measure: entry.measure,
        questions: ids,
        accept: 'prune',
        fails: strict,
      });
    }
  }
  // Baseline questions this run did not judge: in strict CI a run must judge them all, unless it said it is partial.
  for (const group of notJudged) {
    findings.push({
      kind: 'not-judged',
      suite: group.suites[0]!,
      suiteKey: '',
      reason: group.reason,
      ...(group.detail !== undefined ? { detail: group.detail } : {}),
      count: group.questions,
      questions: group.examples,
      accept: 'run',
      fails: strict && !settings.partial,
    });
  }
  for (const ambiguous of legacy?.ambiguous ?? []) {
    findings.push({
      kind: 'ambiguous-suite',
      suite: ambiguous.name,
      suiteKey: '',
      questions: ambiguous.suites,
      accept: 'update',
      fails: strict,
    });
  }
  return findings;
}

type ResolvedSummaryOptions = Omit<RunSummary['settings'], 'holmFamily'>;

/** How many examples a not-judged group keeps. */
const NOT_JUDGED_EXAMPLES = 5;

/** Baseline questions not judged, grouped by reason; a question counts once whatever its measures. */
class NotJudgedTally {
  private readonly byReason = new Map<
    NotJudgedReason,
    { details: Set<string | undefined>; questions: Set<string>; suites: string[]; examples: string[] }
  >();

  add(status: QuestionStatus, suiteKey: string, suiteName: string, questionId: string): void {
    if (status.kind !== 'not-judged') return;
    let group = this.byReason.get(status.reason);
    if (group === undefined) {
      group = { details: new Set(), questions: new Set(), suites: [], examples: [] };
      this.byReason.set(status.reason, group);
    }
    const question = JSON.stringify([suiteKey, questionId]);
    if (group.questions.has(question)) return;
    group.questions.add(question);
    group.details.add(status.detail);
    if (!group.suites.includes(suiteName)) group.suites.push(suiteName);
    if (group.examples.length < NOT_JUDGED_EXAMPLES) group.examples.push(`${suiteName} › ${questionId}`);
  }

  groups(): NotJudgedGroup[] {
    const groups: NotJudgedGroup[] = [];
    for (const reason of NOT_JUDGED_REASONS) {
      const group = this.byReason.get(reason);
      if (group === undefined) continue;
      const [detail] = group.details;
      groups.push({
        reason,
        ...(group.details.size === 1 && detail !== undefined ? { detail } : {}),
        questions: group.questions.size,
        suites: group.suites,
        examples: group.examples,
      });
    }
    return groups;
  }
}

function summarizeRow(
  row: GroupedRow,
  baseline: BaselineFile | undefined,
  renamedFrom: string | undefined,
  settings: ResolvedSummaryOptions,
): SummaryRow {
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
  const { mean, ...interval } = takeIntervalAhead(values, settings) ?? intervalOf(values, min, max, settings);
  const summary: SummaryRow = {
    suite: row.suite,
    suiteKey: row.key,
    ...(row.identity.project !== undefined ? { project: row.identity.project } : {}),
    ...(renamedFrom !== undefined ? { renamedFrom: suiteNameOf(parseSuiteKey(renamedFrom)) } : {}),
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
    notJudgedSamples: [],
    sampleIds: row.ids,
    values,
    before: new Array<number | undefined>(values.length),
    sources: row.sources,
    ...(row.repeats !== undefined ? { repeats: row.repeats } : {}),
  };

  const suiteBaseline = baseline === undefined ? undefined : own(baseline.suites, renamedFrom ?? row.key);
  const baselineSamples = suiteBaseline === undefined ? undefined : own(suiteBaseline, row.measure);
  if (baselineSamples !== undefined) {
    const baselineValues = Object.values(baselineSamples);
    if (baselineValues.length > 0) {
      summary.baseline = {
        mean: meanOf(baselineValues),
        count: baselineValues.length,
      };
    }
    const pairing = pairRow(row, baselineSamples, settings);
    summary.worse = pairing.worse;
    summary.better = pairing.better;
    summary.newSamples = pairing.newSamples;
    summary.missingSamples = pairing.missingSamples;
    summary.before = pairing.before;
    if (pairing.comparison !== undefined) {
      summary.comparison = pairing.comparison;
      summary.delta = pairing.comparison.delta;
    }
  }
  return summary;
}

type RowIntervalWithMean = RowInterval & { mean: number };

/**
 * Intervals worked out before summarize (precomputeIntervals, while later test files still run), each
 * with the values and settings it was worked out for: a row takes one only when both are exactly its own.
 */
const intervalsAhead = new Map<string, { values: readonly number[]; interval: RowIntervalWithMean }>();

function intervalAheadKey(values: readonly number[], settings: ResolvedSummaryOptions): string {
  let sum = 0;
  for (const value of values) sum += value;
  return `${settings.confidence} ${settings.seed} ${settings.intervalResamples} ${values.length} ${sum}`;
}

function takeIntervalAhead(
  values: readonly number[],
  settings: ResolvedSummaryOptions,
): RowIntervalWithMean | undefined {
  if (intervalsAhead.size === 0) return undefined;
  const key = intervalAheadKey(values, settings);
  const ahead = intervalsAhead.get(key);
  if (ahead === undefined || ahead.values.length !== values.length) return undefined;
  for (let index = 0; index < values.length; index++)
    if (!Object.is(ahead.values[index], values[index])) return undefined;
  intervalsAhead.delete(key);
  return ahead.interval;
}

/**
 * Works out the intervals of `run`'s rows now, for summarize to take later (with the same options): a
 * reporter calls it with each ended test file's samples while later files still run, so that the
 * bootstrap runs then rather than after the last one. The summary is the same either way.
 */
export function precomputeIntervals(run: CollectedRun, options: SummaryOptions = {}): void {
  const settings = resolveSummaryOptions(options);
  for (const measures of groupRun(run).suites.values()) {
    for (const row of measures.values()) {
      const values = row.values;
      let min = Infinity;
      let max = -Infinity;
      for (const value of values) {
        if (value < min) min = value;
        if (value > max) max = value;
      }
      intervalsAhead.set(intervalAheadKey(values, settings), {
        values: [...values],
        interval: intervalOf(values, min, max, settings),
      });
    }
  }
}

/** Drops the intervals worked out ahead that no summary took (a run cut short, a file run again). */
export function forgetPrecomputedIntervals(): void {
  intervalsAhead.clear();
}

/** meanInterval (Wilson when every value is 0/1, else the seeded bootstrap); all-equal values give [v, v] under either, without resampling. */
function intervalOf(
  values: number[],
  min: number,
  max: number,
  settings: ResolvedSummaryOptions,
): RowInterval & { mean: number } {
  const binary = values.every((value) => value === 0 || value === 1);
  if (min === max && !binary) {
    return {
      mean: min,
      lower: min,
      upper: min,
      method: 'bootstrap-percentile',
      confidence: settings.confidence,
      resamples: settings.intervalResamples,
      seed: settings.seed,
    };
  }
  const interval = meanInterval(values, {
    confidence: settings.confidence,
    seed: settings.seed,
    resamples: settings.intervalResamples,
    binary,
  });
  return interval.method === 'wilson'
    ? {
        mean: interval.mean,
        lower: interval.lower,
        upper: interval.upper,
        method: 'wilson',
        confidence: interval.confidence,
      }
    : {
        mean: interval.mean,
        lower: interval.lower,
        upper: interval.upper,
        method: interval.method,
        confidence: interval.confidence,
        resamples: interval.resamples,
        seed: interval.seed,
      };
}

function resolveSummaryOptions(options: SummaryOptions): ResolvedSummaryOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`summarize: options must be an object, got ${options === null ? 'null' : typeof options}.`);
  if (options.fileExists !== undefined && typeof options.fileExists !== 'function')
    throw new TypeError('fileExists must be a function (file) => boolean when given.');
  const rule = resolveRegressionRule(
    {
      tolerance: options.tolerance,
      significance: options.significance,
      test: options.test,
      resamples: options.resamples ?? DEFAULT_TEST_RESAMPLES,
      seed: options.seed ?? DEFAULT_SEED,
    },
    'summarize: options',
  );
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)) {
    throw new RangeError(
      `confidence must be a number strictly between 0 and 1 (e.g. 0.95), got ${String(confidence)}.`,
    );
  }
  const failOnRegression = options.failOnRegression ?? true;
  const failOnNew = options.failOnNew ?? false;
  const strict = options.strict ?? false;
  if (typeof failOnRegression !== 'boolean')
    throw new TypeError(`failOnRegression must be true or false, got ${String(failOnRegression)}.`);
  if (typeof failOnNew !== 'boolean') throw new TypeError(`failOnNew must be true or false, got ${String(failOnNew)}.`);
  if (typeof strict !== 'boolean') throw new TypeError(`strict must be true or false, got ${String(strict)}.`);
  const intervalResamples = options.intervalResamples ?? DEFAULT_INTERVAL_RESAMPLES;
  if (typeof intervalResamples !== 'number' || !Number.isInteger(intervalResamples) || intervalResamples < 1) {
    throw new RangeError(`intervalResamples must be a whole number ≥ 1, got ${String(intervalResamples)}.`);
  }
  return {
    ...rule,
    ...checkRepeatRules({ minRepeats: options.minRepeats, maxSpread: options.maxSpread }, 'summarize: options'),
    failOnRegression,
    failOnNew,
    strict,
    updatingBaseline: options.updatingBaseline === true,
    partial: options.partial === true,
    confidence,
    intervalResamples,
  };
}

/** Most look-alike pairs named in warnings; more are counted. */
const MAX_LOOK_ALIKE_WARNINGS = 5;

/**
 * A warning per row where two question ids (this run's or the baseline's) differ only in invisible
 * characters, trailing spaces or Unicode normalisation: they print alike but are compared as two
 * questions (`q1` in the baseline, `q1 ` now: one missing, one new).
 */
export function lookAlikeWarnings(rows: readonly SummaryRow[]): string[] {
  const warnings: string[] = [];
  let more = 0;
  for (const row of rows) {
    const byLook = new Map<string, string>();
    for (const id of [...row.sampleIds, ...row.missingSamples]) {
      const look = lookAlikeKey(id);
      const seen = byLook.get(look);
      if (seen === undefined) {
        byLook.set(look, id);
      } else if (seen !== id) {
        if (warnings.length < MAX_LOOK_ALIKE_WARNINGS) {
          warnings.push(
            `${visibleControls(row.suite)} · ${visibleControls(row.measure)}: question ids "${visibleControls(seen)}" and "${visibleControls(id)}" differ only in invisible characters, trailing spaces or Unicode normalisation (${codePoints(seen)} vs ${codePoints(id)}); they are two different questions.`,
          );
        } else {
          more += 1;
        }
      }
    }
  }
  if (more > 0) warnings.push(`${more} more pairs of look-alike question ids (see the JSON report's rows).`);
  return warnings;
}
