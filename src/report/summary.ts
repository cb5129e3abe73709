// The summary model: for each suite × measure of a run, its samples' mean, 95% interval and minimum, and
// the comparison with the baseline. Runner-agnostic: the Vitest and Jest reporters collect a CollectedRun
// and call summarize; the renderers (console, Markdown, JSON, HTML) only read the RunSummary.

import { mean as meanOf } from '../core/mean.js';
import { codePoints, lookAlikeKey, visibleControls } from '../core/escape.js';
import { compareIds, pairRow, type SampleChange } from '../baseline/compare.js';
import { groupRun, type GroupedRow } from '../baseline/group.js';
import { isCovered } from '../baseline/identity.js';
import { diffRun, prepareRun, type BaselineDiff, type PreparedRun, type RowDiff } from '../baseline/diff.js';
import { IntervalCache, intervalsOf, withRange, type IntervalInput, type RowIntervalWithMean } from './intervals.js';
import { collectFindings, insensitiveFindings, tagFindings } from './findings.js';
import { costFindings, summarizeCosts } from './costs.js';
import { checkLatencyBudget } from '../recording/cost.js';
import { summarizeTags } from './tags.js';
import { decideVerdict } from './verdict.js';
import { checkRepeatRules, repeatFindings } from './repeats.js';
import type {
  MissingRow,
  NotJudgedGroup,
  ResolvedSummaryOptions,
  RowStatus,
  RunSummary,
  SummaryOptions,
  SummaryRow,
} from './summary-model.js';
import { NOT_JUDGED_REASONS, type NotJudgedReason } from '../recording/outcomes.js';
import {
  createRecord,
  own,
  type BaselineFile,
  type BaselineSampleAudits,
  type QuestionRanking,
} from '../baseline/file/types.js';
import { rankingsOfRun } from '../baseline/rankings.js';
import { questionEvidence, type QuestionEvidence } from './evidence.js';
import { auditsOf } from '../baseline/audits.js';
import { checkChurnLimits, rankingChurn } from './churn.js';
import { parseMeasure, rankCutoffOf } from '../core/measures.js';
import { DEFAULT_CONFIDENCE } from '../core/stats.js';
import { sensitivityOf } from '../core/sensitivity.js';
import {
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  holmFamilySize,
  judgeMoves,
  resolveRegressionRule,
  toleranceFor,
} from '../core/regression-rule.js';
import { parseSuiteKey, suiteNameOf, type CollectedRun } from '../recording/collected.js';

export type { RowComparison, SampleChange } from '../baseline/compare.js';
export { IntervalCache, type RowInterval } from './intervals.js';
export type { GateFinding } from './finding-kinds.js';
export type {
  BaselineCoverage,
  MissingRow,
  RowStatus,
  RunSummary,
  SummaryOptions,
  SummaryRow,
  TagChange,
  TagRow,
} from './summary-model.js';

/**
 * Resamples of the bootstrap interval shown next to a mean. The interval describes; the paired test
 * decides. 1,000 is the usual floor for percentile intervals (Efron & Tibshirani 1993, §19.3): the Monte
 * Carlo error of each end is about 0.09 standard errors of the mean, ±0.003 for 100 questions with a
 * spread of 0.3, under the width of any interval it is printed beside. The cost is resamples × samples
 * and is nearly all of a large run's summary time, so 10,000 would make a 100,000-sample summary ten
 * times slower for a third decimal; set intervalResamples for more.
 */
export const DEFAULT_INTERVAL_RESAMPLES = 1_000;

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
  const prepared = prepareRun(run, options.fileExists);
  return summarizeDiff(prepared, diffRun(prepared, baseline, { tolerance: settings.tolerance }), options);
}

/**
 * The summary of a run prepared once (prepareRun) and diffed once against its baseline (diffRun, with
 * the tolerance of `options`): what summarize gives, for a caller that also updates the baseline with the
 * same diff.
 */
export function summarizeDiff(prepared: PreparedRun, diff: BaselineDiff, options: SummaryOptions = {}): RunSummary {
  const settings = resolveSummaryOptions(options);
  const { run, grouped } = prepared;
  const baseline = diff.baseline;

  const produced = diff.rows.filter((row) => row.produced !== undefined);
  const ranges = produced.map((row) => withRange(row.produced!.values));
  const intervals = rowIntervals(ranges, settings, options.intervals);
  const rows = produced.map((row, index) =>
    summarizeRow(row, row.produced!, baseline, settings, ranges[index]!, intervals[index]!),
  );
  const currentRankings = rankingsOfRun(grouped);
  attachEvidence(rows, baseline, currentRankings);
  rows.sort(
    (a, b) => compareIds(a.suite, b.suite) || compareIds(a.suiteKey, b.suiteKey) || compareIds(a.measure, b.measure),
  );
  const compared = rows.filter((row) => row.comparison !== undefined);
  const verdicts = judgeMoves(
    compared.map((row) => ({ measure: row.measure, move: row.comparison! })),
    settings,
  );
  compared.forEach((row, index) => {
    row.status = verdicts[index]!;
  });
  const holmFamily = holmFamilySize(compared.map((row) => row.comparison));

  const { notJudged, missing, notRun, judgedQuestions, missingQuestions } = accountBaseline(diff, prepared);

  const renamedFrom = new Map<string, string>();
  for (const row of diff.rows) if (row.renamedFrom !== undefined) renamedFrom.set(row.suiteKey, row.renamedFrom);
  const churn = rankingChurn(rows, baseline?.rankings, currentRankings, renamedFrom);

  const count = (status: RowStatus): number => rows.reduce((total, row) => total + (row.status === status ? 1 : 0), 0);
  const regressions = count('regressed');
  const newSamples = rows.reduce((total, row) => total + row.newSamples.length, 0);
  // Without a baseline, every suite is new: a finding only where that can fail the run.
  const findings =
    baseline === undefined && !settings.strict && !settings.failOnNew
      ? []
      : collectFindings(
          {
            rows,
            missing,
            baseline,
            current: grouped.suites,
            notJudged: notJudged.groups(),
            fileGone: (file) => options.fileExists?.(file) === false,
            ...(churn !== undefined ? { churn } : {}),
          },
          settings,
        );
  const tags = summarizeTags(rows, settings);
  for (const finding of tagFindings(tags, settings)) findings.push(finding);
  // Repeated questions are marked whether or not there is a baseline.
  for (const finding of repeatFindings(rows, settings, settings.strict && !settings.updatingBaseline))
    findings.push(finding);
  // A renamed suite's latency and calls are compared with those it had under its old name.
  const costs = run.costs === undefined ? [] : summarizeCosts(run.costs, baseline, settings.latency, renamedFrom);
  if (costs.length > 0)
    for (const finding of costFindings(costs, run.costs!, baseline, settings, renamedFrom)) findings.push(finding);
  // So are rows that no change can fail, in every mode.
  findings.push(...insensitiveFindings(rows, settings));
  const coverageCounts = { judged: judgedQuestions, missing: missingQuestions, notJudged: notJudged.groups() };
  const verdict = decideVerdict({
    findings,
    settings,
    baselineFound: baseline !== undefined,
    ...(options.baselinePath !== undefined ? { baselinePath: options.baselinePath } : {}),
    rows: rows.length,
    counts: { improved: count('improved'), unchanged: count('unchanged'), new: count('new') },
    coverage: coverageCounts,
  });

  const warnings = [...lookAlikeWarnings(rows), ...holmWarnings(compared, holmFamily, settings)];

  return {
    runner: run.runner,
    coverage: coverageCounts,
    rows,
    tags,
    missing,
    notRun,
    regressions,
    improvements: count('improved'),
    unchanged: count('unchanged'),
    newRows: count('new'),
    findings,
    newSamples,
    ...(churn !== undefined ? { churn } : {}),
    passed: verdict.passed,
    verdict,
    baselineFound: baseline !== undefined,
    ...(costs.length > 0 ? { costs } : {}),
    warnings,
    ...(options.baselinePath !== undefined ? { baselinePath: options.baselinePath } : {}),
    totals: { samples: grouped.sampleCount, suites: grouped.suites.size, rows: rows.length },
    settings: { ...settings, holmFamily },
  };
}

/** A warning when Holm makes every Monte Carlo p-value unable to reach `significance`: such rows can never regress. */
function holmWarnings(compared: readonly SummaryRow[], holmFamily: number, settings: ResolvedSummaryOptions): string[] {
  const warnings: string[] = [];
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
  return warnings;
}

/** What the summary found of the baseline: what it judged or not, and why. */
interface BaselineAccount {
  notJudged: NotJudgedTally;
  /** Baseline rows this run did not produce although their file ran (sorted by suite, then measure). */
  missing: MissingRow[];
  notRun: RunSummary['notRun'];
  judgedQuestions: number;
  missingQuestions: number;
}

/**
 * Reads the diff's cells of the baseline: each baseline question is judged (produced, for some measure),
 * missing (gone) or not judged, and every baseline cell this run did not produce is missing or not judged
 * for its measure (a question produced for one measure and not another is not judged for the other
 * unless its tests ran to the end). Sets each summary row's missing and not-judged questions (in place).
 */
function accountBaseline(diff: BaselineDiff, prepared: PreparedRun): BaselineAccount {
  const notJudged = new NotJudgedTally();
  const missing: MissingRow[] = [];
  let notRunSuites = 0;
  let notRunRows = 0;
  let judgedQuestions = 0;
  let missingQuestions = 0;
  if (diff.baseline === undefined)
    return { notJudged, missing, notRun: { suites: 0, rows: 0 }, judgedQuestions, missingQuestions };
  for (const suiteRows of suitesOf(diff.rows)) {
    const { identity, suiteKey } = suiteRows[0]!;
    const suiteName = suiteNameOf(identity);
    const produced = new Set<string>();
    const gone = new Set<string>();
    const unjudged = new Set<string>();
    const inBaseline = new Set<string>();
    for (const row of suiteRows)
      for (const [id, cell] of row.cells) {
        if (cell.kind !== 'new') inBaseline.add(id);
        if (cell.kind === 'judged' || cell.kind === 'new') produced.add(id);
        if (cell.kind === 'missing') gone.add(id);
        if (cell.kind === 'not-judged') unjudged.add(id);
      }
    for (const row of suiteRows) {
      const goneIds: string[] = [];
      const notJudgedIds: string[] = [];
      for (const [id, cell] of row.cells) {
        if (cell.kind === 'missing') goneIds.push(id);
        if (cell.kind !== 'not-judged') continue;
        notJudgedIds.push(id);
        notJudged.add(cell, suiteKey, suiteName, produced.has(id) ? `${id} · ${row.measure}` : id, id);
      }
      goneIds.sort(compareIds);
      if (row.produced !== undefined) continue;
      if (goneIds.length === 0) continue;
      missing.push({
        suite: suiteName,
        suiteKey,
        measure: row.measure,
        count: goneIds.length,
        mean: meanOf(goneIds.map((id) => (row.cells.get(id) as { before: number }).before)),
        questions: goneIds,
      });
    }
    // Each baseline question counts once: judged, missing, or (with any measure not judged) not judged.
    let suiteJudged = 0;
    for (const id of inBaseline) {
      if (unjudged.has(id)) continue;
      if (produced.has(id)) suiteJudged++;
      else if (gone.has(id)) missingQuestions++;
    }
    judgedQuestions += suiteJudged;
    if (
      suiteRows.every((row) => row.produced === undefined) &&
      !isCovered(identity, prepared.coverage) &&
      suiteJudged === 0
    ) {
      notRunSuites++;
      notRunRows += suiteRows.length;
    }
  }
  missing.sort(
    (a, b) => compareIds(a.suite, b.suite) || compareIds(a.suiteKey, b.suiteKey) || compareIds(a.measure, b.measure),
  );
  return {
    notJudged,
    missing,
    notRun: { suites: notRunSuites, rows: notRunRows },
    judgedQuestions,
    missingQuestions,
  };
}

/** The diff's rows, one list per suite (they are in suite order). */
function suitesOf(rows: readonly RowDiff[]): RowDiff[][] {
  const suites: RowDiff[][] = [];
  for (const row of rows) {
    const last = suites.at(-1);
    if (last !== undefined && last[0]!.suiteKey === row.suiteKey) last.push(row);
    else suites.push([row]);
  }
  return suites;
}

/** How many examples a not-judged group keeps. */
const NOT_JUDGED_EXAMPLES = 5;

/** Baseline questions not judged, grouped by reason; a question counts once whatever its measures. */
class NotJudgedTally {
  private readonly byReason = new Map<
    NotJudgedReason,
    { details: Set<string | undefined>; questions: Set<string>; suites: string[]; examples: string[] }
  >();

  /** `example` names the question (with its measure when the run judged it for others); `questionId` counts it. */
  add(
    status: { reason: NotJudgedReason; detail?: string },
    suiteKey: string,
    suiteName: string,
    example: string,
    questionId: string,
  ): void {
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
    if (group.examples.length < NOT_JUDGED_EXAMPLES) group.examples.push(`${suiteName} › ${example}`);
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
  diffRow: RowDiff,
  row: GroupedRow,
  baseline: BaselineFile | undefined,
  settings: ResolvedSummaryOptions,
  { min, max }: IntervalInput,
  { mean, ...interval }: RowIntervalWithMean,
): SummaryRow {
  const renamedFrom = diffRow.renamedFrom;
  const values = row.values;
  let failures = 0;
  for (const source of row.sources) failures += source.failedAssertions ?? (source.pass === false ? 1 : 0);
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
    sensitivity: { canFail: false, limitedBy: 'tolerance' },
    withinTolerance: diffRow.withinTolerance,
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
    const audits = auditsOf(baseline, renamedFrom ?? row.key, row.measure);
    const relabelled = relabelledOf(diffRow, row);
    const pairing = pairRow(row, baselineSamples, settings, relabelled.ids);
    if (relabelled.changes.length > 0) summary.relabelled = relabelled.changes;
    noteUnjudgedEntries(row, pairing.worse, audits);
    summary.worse = pairing.worse;
    summary.better = pairing.better;
    summary.newSamples = pairing.newSamples;
    summary.missingSamples = absentOf(diffRow, 'missing');
    summary.notJudgedSamples = absentOf(diffRow, 'not-judged');
    summary.before = pairing.before;
    if (pairing.comparison !== undefined) {
      summary.comparison = pairing.comparison;
      summary.delta = pairing.comparison.delta;
    } else if (relabelled.changes.length > 0) {
      // Every shared question was relabelled: nothing is compared, and nothing is new.
      summary.status = 'unchanged';
    }
  }
  // Judged against what the next comparison would hold: each question's baseline value, or this run's for a new one.
  const reference = values.map((value, index) => summary.before[index] ?? value);
  summary.sensitivity = sensitivityOf(reference, row.measure, settings);
  return summary;
}

/** Gives each row the evidence of its changed questions (worse and better), worked out once per question. */
function attachEvidence(
  rows: SummaryRow[],
  baseline: BaselineFile | undefined,
  current: BaselineFile['rankings'],
): void {
  if (baseline?.rankings === undefined && current === undefined) return;
  const rankingOf = (rankings: BaselineFile['rankings'], suiteKey: string, id: string): QuestionRanking | undefined => {
    const suite = rankings === undefined ? undefined : own(rankings, suiteKey);
    return suite === undefined ? undefined : own(suite, id);
  };
  const made = new Map<string, QuestionEvidence | undefined>();
  for (const row of rows) {
    for (const change of [...row.worse, ...row.better]) {
      const key = JSON.stringify([row.suiteKey, change.sampleId]);
      if (!made.has(key))
        made.set(
          key,
          questionEvidence(
            rankingOf(baseline?.rankings, row.suiteKey, change.sampleId),
            rankingOf(current, row.suiteKey, change.sampleId),
          ),
        );
      const evidence = made.get(key);
      if (evidence !== undefined) (row.evidence ??= createRecord())[change.sampleId] = evidence;
    }
  }
}

/** The row's baseline questions this run did not produce, of one kind, in id order. */
function absentOf(row: RowDiff, kind: 'missing' | 'not-judged'): string[] {
  const ids: string[] = [];
  for (const [id, cell] of row.cells) if (cell.kind === kind) ids.push(id);
  return ids.sort(compareIds);
}

/** The questions of `row` measured against other judgments than their baseline values (the diff's relabelled cells). */
function relabelledOf(diffRow: RowDiff, row: GroupedRow): { ids: Set<string>; changes: SampleChange[] } {
  const ids = new Set<string>();
  const changes: SampleChange[] = [];
  for (let index = 0; index < row.ids.length; index++) {
    const id = row.ids[index]!;
    const cell = diffRow.cells.get(id);
    if (cell?.kind !== 'judged' || !cell.relabelled) continue;
    ids.add(id);
    changes.push({
      sampleId: id,
      test: row.sources[index]!.test,
      before: cell.before,
      after: cell.after,
      delta: cell.after - cell.before,
    });
  }
  return { ids, changes };
}

/**
 * Marks each change of `worse` whose top k holds more unjudged hits than in the baseline (a baseline
 * that kept no count for it, written before schema version 4, counts as none).
 */
function noteUnjudgedEntries(row: GroupedRow, worse: SampleChange[], audits: BaselineSampleAudits | undefined): void {
  if (worse.length === 0) return;
  let indexOf: Map<string, number> | undefined;
  let k: number | undefined;
  for (const change of worse) {
    indexOf ??= new Map(row.ids.map((id, index) => [id, index]));
    const sample = row.sources[indexOf.get(change.sampleId)!]!;
    const ids = sample.unjudgedIds;
    if (ids === undefined || ids.length === 0) continue;
    const count = Math.max(sample.unjudgedCount ?? 0, ids.length);
    const baselineCount = (audits === undefined ? undefined : own(audits, change.sampleId))?.unjudged ?? 0;
    if (count <= baselineCount) continue;
    k ??= cutoffOf(row.measure);
    change.unjudged = {
      count,
      ids: [...ids],
      baselineCount,
      ...(k !== undefined ? { k } : {}),
      ...(sample.positiveOnly === true ? { positiveOnly: true as const } : {}),
    };
  }
}

/** A retrieval measure's cutoff (undefined: the whole list, or not a retrieval measure). */
function cutoffOf(measure: string): number | undefined {
  try {
    return rankCutoffOf(parseMeasure(measure));
  } catch {
    return undefined;
  }
}

/**
 * Works out the intervals of `run`'s rows now and keeps them in `cache`, for a summarize given the same
 * cache (and the same options) to take: a reporter calls it with each ended test file's samples while
 * later files still run, so that the bootstrap runs then rather than after the last one. The summary is
 * the same either way.
 */
export function precomputeIntervals(run: CollectedRun, options: SummaryOptions, cache: IntervalCache): void {
  const settings = resolveSummaryOptions(options);
  const ranges = [...groupRun(run).suites.values()].flatMap((measures) =>
    [...measures.values()].map((row) => withRange(row.values)),
  );
  intervalsOf(ranges, settings, cache).forEach((interval, index) =>
    cache.keep(ranges[index]!.values, settings, interval),
  );
}

/** Each row's interval: the one `cache` kept for it, else worked out now (all rows' bootstraps together). */
function rowIntervals(
  rows: readonly IntervalInput[],
  settings: ResolvedSummaryOptions,
  cache: IntervalCache | undefined,
): RowIntervalWithMean[] {
  const kept = rows.map((row) => cache?.take(row.values, settings));
  const missing = rows.filter((_, index) => kept[index] === undefined);
  const worked = intervalsOf(missing, settings, cache);
  let next = 0;
  return kept.map((interval) => interval ?? worked[next++]!);
}

function resolveSummaryOptions(options: SummaryOptions): ResolvedSummaryOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`summarize: options must be an object, got ${options === null ? 'null' : typeof options}.`);
  if (options.fileExists !== undefined && typeof options.fileExists !== 'function')
    throw new TypeError('fileExists must be a function (file) => boolean when given.');
  if (options.intervals !== undefined && !(options.intervals instanceof IntervalCache))
    throw new TypeError('intervals must be an IntervalCache (new IntervalCache()) when given.');
  const rule = resolveRegressionRule(
    {
      tolerance: options.tolerance,
      significance: options.significance,
      test: options.test,
      resamples: options.resamples ?? DEFAULT_RESAMPLES,
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
  const failOnInsensitive = options.failOnInsensitive ?? false;
  const strict = options.strict ?? false;
  if (typeof failOnRegression !== 'boolean')
    throw new TypeError(`failOnRegression must be true or false, got ${String(failOnRegression)}.`);
  if (typeof failOnNew !== 'boolean') throw new TypeError(`failOnNew must be true or false, got ${String(failOnNew)}.`);
  const failOnTagRegression = options.failOnTagRegression ?? false;
  if (typeof failOnTagRegression !== 'boolean')
    throw new TypeError(`failOnTagRegression must be true or false, got ${String(failOnTagRegression)}.`);
  if (typeof failOnInsensitive !== 'boolean')
    throw new TypeError(`failOnInsensitive must be true or false, got ${String(failOnInsensitive)}.`);
  if (typeof strict !== 'boolean') throw new TypeError(`strict must be true or false, got ${String(strict)}.`);
  const failOnCallChange = options.failOnCallChange ?? false;
  if (typeof failOnCallChange !== 'boolean')
    throw new TypeError(`failOnCallChange must be true or false, got ${String(failOnCallChange)}.`);
  const latency =
    options.latency === undefined ? undefined : checkLatencyBudget(options.latency, 'summarize: options.latency');
  const intervalResamples = options.intervalResamples ?? DEFAULT_INTERVAL_RESAMPLES;
  if (typeof intervalResamples !== 'number' || !Number.isInteger(intervalResamples) || intervalResamples < 1) {
    throw new RangeError(`intervalResamples must be a whole number ≥ 1, got ${String(intervalResamples)}.`);
  }
  const maxChurn = checkChurnLimits(options.maxChurn, 'summarize: options');
  return {
    ...rule,
    ...(maxChurn !== undefined ? { maxChurn } : {}),
    ...checkRepeatRules({ minRepeats: options.minRepeats, maxSpread: options.maxSpread }, 'summarize: options'),
    failOnRegression,
    failOnNew,
    failOnTagRegression,
    failOnInsensitive,
    strict,
    updatingBaseline: options.updatingBaseline === true,
    pruning: options.updatingBaseline === true && options.pruning === true,
    partial: options.partial === true,
    confidence,
    intervalResamples,
    failOnCallChange,
    ...(latency !== undefined ? { latency } : {}),
  };
}

/** Most look-alike pairs named in warnings; more are counted. */
const MAX_LOOK_ALIKE_WARNINGS = 5;

/**
 * A warning per row where two question ids (this run's or the baseline's) differ only in invisible
 * characters, trailing spaces or Unicode normalisation: they print alike but are compared as two
 * questions (`q1` in the baseline, `q1 ` now: one missing, one new).
 */
function lookAlikeWarnings(rows: readonly SummaryRow[]): string[] {
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
