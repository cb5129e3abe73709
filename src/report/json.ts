// The JSON report (option `json`): the whole summary with every sample's value and baseline value, for
// CI artifacts, dashboards and the HTML renderer. Schema: JsonReport below, documented in
// docs/baselines-and-ci.md. Absent values are null, never missing keys, so consumers can rely on the shape.

import type { CollectedRun } from '../recording/collected.js';
import { acceptCommandFor, findingCommand, reportCommands } from './wording.js';
import { isUnstable, spreadOf } from './repeats.js';
import type {
  BaselineCoverage,
  GateFinding,
  MissingRow,
  RowStatus,
  RunSummary,
  SampleChange,
  SummaryRow,
} from './summary.js';
import type { TagChange, TagRow } from './summary-model.js';
import type { Verdict } from './verdict.js';
import type { QuestionEvidence } from './evidence.js';
import type { SuiteCost } from './costs.js';
import type { RowSensitivity } from '../core/sensitivity.js';
import type { RunChurn } from './churn.js';

/** 2: the report stores the verdict (`verdict`), which the HTML report reads. */
export const REPORT_SCHEMA_VERSION = 2;

export interface JsonReport {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  generatedBy: 'rag-matchers';
  kind: 'retrieval-report';
  runner: CollectedRun['runner'];
  /** The gate's verdict: verdict.passed. */
  passed: boolean;
  /** The verdict every report reads: headline, sections (indexes into `findings`), advice, exit code. */
  verdict: Verdict;
  counts: {
    samples: number;
    suites: number;
    rows: number;
    regressed: number;
    improved: number;
    unchanged: number;
    new: number;
    newSamples: number;
    missingRows: number;
    notRunSuites: number;
    notRunRows: number;
    /** Baseline questions this run did not judge (see `coverage`). */
    notJudged: number;
  };
  /** Every baseline question in the run's scope: judged, missing (gone), or not judged by reason. */
  coverage: BaselineCoverage;
  baseline: { path: string | null; found: boolean };
  /** The run's settings (RunSummary.settings) as JSON: tolerance as plain objects, significance null when unset. */
  settings: Omit<RunSummary['settings'], 'tolerance' | 'significance' | 'updatingBaseline' | 'pruning'> & {
    tolerance: { default: number; byMeasure: Record<string, number> };
    significance: number | null;
  };
  warnings: string[];
  /** Test files that ran in full (CollectedRun.files), or null when the runner did not say. */
  files: string[] | null;
  rows: JsonReportRow[];
  /** Per-tag rows across suites (RunSummary.tags): one per tag × measure; [] when no question has a tag. */
  tags: JsonReportTagRow[];
  missing: MissingRow[];
  /** Each timed suite's latency (ms, nearest-rank) and calls per question by kind; empty when nothing was timed. */
  costs: JsonReportCost[];
  /** Every difference an update would write beyond tolerance, by name, with the command that accepts it. */
  findings: (GateFinding & { command: string; evidence?: Record<string, QuestionEvidence> })[];
  /**
   * Each suite's ranking churn against the baseline's rankings (rank-biased overlap, top-k overlap, the
   * questions whose ranking changed), or null when the baseline or this run kept no ranking.
   */
  churn: RunChurn | null;
}

export interface JsonReportRow {
  /** Display name. */
  suite: string;
  /** Exact identity: JSON of [file, describe path, project?]. */
  suiteKey: string;
  project: string | null;
  /** The suite's name in the baseline when it was renamed, else null. */
  renamedFrom: string | null;
  file: string;
  describePath: string[];
  measure: string;
  status: RowStatus;
  count: number;
  mean: number;
  min: number;
  max: number;
  /** Samples whose assertion failed. */
  failures: number;
  interval: {
    lower: number;
    upper: number;
    method: 'wilson' | 'bootstrap-percentile';
    confidence: number;
    resamples: number | null;
    seed: number | null;
  };
  baseline: { mean: number; count: number } | null;
  /** mean(after − before) on the shared questions. */
  delta: number | null;
  tolerance: number;
  /** The smallest change of this row's questions that the gate's rule would fail (docs/statistics.md#sensitivity). */
  sensitivity: RowSensitivity;
  comparison: {
    shared: number;
    wins: number;
    losses: number;
    ties: number;
    meanBefore: number;
    meanAfter: number;
    test: 'sign' | 'randomization' | 't';
    p: number | null;
    adjustedP: number | null;
    method: string | null;
    seed: number | null;
    resamples: number | null;
  } | null;
  worse: SampleChange[];
  better: SampleChange[];
  /** Question id → what explains its move (text, ranking before → after, moves), for the questions of worse and better. */
  evidence?: Record<string, QuestionEvidence>;
  newSamples: string[];
  missingSamples: string[];
  /** Baseline questions of this row that the run did not judge. */
  notJudgedSamples: string[];
  samples: JsonReportSample[];
}

/** A suite's cost (SuiteCost), absent parts as null. */
export type JsonReportCost = Omit<SuiteCost, 'budget' | 'baseline'> & {
  budget: NonNullable<SuiteCost['budget']> | null;
  baseline: NonNullable<SuiteCost['baseline']> | null;
};

/** A tag × measure across suites: the unit is a suite × question whose question carries the tag. */
export interface JsonReportTagRow {
  tag: string;
  measure: string;
  status: RowStatus;
  /** Suite × question units with the tag, and the suites they are in. */
  count: number;
  suites: number;
  mean: number;
  interval: JsonReportRow['interval'];
  baseline: { mean: number; count: number } | null;
  delta: number | null;
  tolerance: number;
  comparison: JsonReportRow['comparison'];
  /** Units that got worse, largest drop first. */
  worse: TagChange[];
}

export interface JsonReportSample {
  id: string;
  test: string;
  value: number;
  /** The baseline's value, null for a question new to the baseline. */
  before: number | null;
  pass: boolean;
  threshold: number | null;
  negated: boolean;
  /** Only for a question run several times (repeats): its values over its runs (`value` is their mean). */
  repeats?: number[];
  /** With `repeats`: max − min of them. */
  spread?: number;
  /** With `repeats`: whether they differ. */
  unstable?: boolean;
  /** The question's tags, when the sample has any. */
  tags?: string[];
}

/** The report object (see JsonReport). `run` supplies the list of files that ran; `acceptCommand` the update command (default for the runner). */
export function renderJson(
  summary: RunSummary,
  run?: Pick<CollectedRun, 'files'>,
  acceptCommand = acceptCommandFor(summary.runner),
): JsonReport {
  const settings = summary.settings;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    generatedBy: 'rag-matchers',
    kind: 'retrieval-report',
    runner: summary.runner,
    passed: summary.passed,
    verdict: copyVerdict(summary.verdict),
    counts: {
      samples: summary.totals.samples,
      suites: summary.totals.suites,
      rows: summary.totals.rows,
      regressed: summary.regressions,
      improved: summary.improvements,
      unchanged: summary.unchanged,
      new: summary.newRows,
      newSamples: summary.newSamples,
      missingRows: summary.missing.length,
      notRunSuites: summary.notRun.suites,
      notRunRows: summary.notRun.rows,
      notJudged: summary.coverage.notJudged.reduce((sum, group) => sum + group.questions, 0),
    },
    coverage: {
      judged: summary.coverage.judged,
      missing: summary.coverage.missing,
      notJudged: summary.coverage.notJudged.map((group) => ({
        ...group,
        suites: [...group.suites],
        examples: [...group.examples],
      })),
    },
    baseline: { path: summary.baselinePath ?? null, found: summary.baselineFound },
    settings: {
      tolerance: { default: settings.tolerance.default, byMeasure: { ...settings.tolerance.byMeasure } },
      significance: settings.significance ?? null,
      test: settings.test,
      failOnRegression: settings.failOnRegression,
      failOnNew: settings.failOnNew,
      failOnTagRegression: settings.failOnTagRegression,
      failOnInsensitive: settings.failOnInsensitive,
      strict: settings.strict,
      partial: settings.partial,
      confidence: settings.confidence,
      seed: settings.seed,
      resamples: settings.resamples,
      intervalResamples: settings.intervalResamples,
      holmFamily: settings.holmFamily,
      ...(settings.minRepeats !== undefined ? { minRepeats: settings.minRepeats } : {}),
      ...(settings.maxSpread !== undefined ? { maxSpread: settings.maxSpread } : {}),
      failOnCallChange: settings.failOnCallChange,
      ...(settings.latency !== undefined ? { latency: { ...settings.latency } } : {}),
      ...(settings.maxChurn !== undefined ? { maxChurn: { ...settings.maxChurn } } : {}),
    },
    warnings: [...summary.warnings],
    files: run?.files ? [...run.files] : null,
    rows: summary.rows.map(jsonRow),
    tags: summary.tags.map(jsonTagRow),
    missing: summary.missing.map((row) => ({ ...row })),
    costs: (summary.costs ?? []).map((cost) => ({
      ...cost,
      latency: { ...cost.latency },
      calls: cost.calls.map((calls) => ({ ...calls })),
      budget: cost.budget === undefined ? null : { ...cost.budget },
      baseline: cost.baseline === undefined ? null : { ...cost.baseline },
    })),
    findings: summary.findings.map((finding) => ({
      ...finding,
      ...(finding.questions !== undefined ? { questions: [...finding.questions] } : {}),
      ...findingEvidence(summary, finding),
      command: findingCommand(finding, reportCommands(acceptCommand)),
    })),
    churn:
      summary.churn === undefined
        ? null
        : {
            settings: { ...summary.churn.settings },
            suites: summary.churn.suites.map((suite) => ({
              ...suite,
              changes: suite.changes.map((change) => ({ ...change })),
            })),
          },
  };
}

/** The evidence of a row finding's changed questions, for tools: `{ evidence: { id: … } }`, or nothing. */
function findingEvidence(summary: RunSummary, finding: GateFinding): { evidence?: Record<string, QuestionEvidence> } {
  if (finding.suiteKey === undefined || finding.measure === undefined) return {};
  const row = summary.rows.find(
    (candidate) => candidate.suiteKey === finding.suiteKey && candidate.measure === finding.measure,
  );
  return row?.evidence === undefined ? {} : { evidence: { ...row.evidence } };
}

function copyVerdict(verdict: Verdict): Verdict {
  return {
    ...verdict,
    tally: [...verdict.tally],
    advice: verdict.advice === null ? null : { ...verdict.advice },
    sections: verdict.sections.map((section) => ({ ...section, findings: [...section.findings] })),
    clears: [...verdict.clears],
    notes: [...verdict.notes],
  };
}

function jsonInterval(interval: SummaryRow['interval']): JsonReportRow['interval'] {
  return {
    lower: interval.lower,
    upper: interval.upper,
    method: interval.method,
    confidence: interval.confidence,
    resamples: interval.resamples ?? null,
    seed: interval.seed ?? null,
  };
}

function jsonComparison(comparison: SummaryRow['comparison']): JsonReportRow['comparison'] {
  return comparison === undefined
    ? null
    : {
        shared: comparison.shared,
        wins: comparison.wins,
        losses: comparison.losses,
        ties: comparison.ties,
        meanBefore: comparison.meanBefore,
        meanAfter: comparison.meanAfter,
        test: comparison.test,
        p: comparison.p ?? null,
        adjustedP: comparison.adjustedP ?? null,
        method: comparison.method ?? null,
        seed: comparison.seed ?? null,
        resamples: comparison.resamples ?? null,
      };
}

function jsonTagRow(row: TagRow): JsonReportTagRow {
  return {
    tag: row.tag,
    measure: row.measure,
    status: row.status,
    count: row.count,
    suites: row.suites,
    mean: row.mean,
    interval: jsonInterval(row.interval),
    baseline: row.baseline === undefined ? null : { ...row.baseline },
    delta: row.delta ?? null,
    tolerance: row.tolerance,
    comparison: jsonComparison(row.comparison),
    worse: row.worse.map((change) => ({ ...change })),
  };
}

function jsonRow(row: SummaryRow): JsonReportRow {
  return {
    suite: row.suite,
    suiteKey: row.suiteKey,
    project: row.project ?? null,
    renamedFrom: row.renamedFrom ?? null,
    file: row.file,
    describePath: [...row.describePath],
    measure: row.measure,
    status: row.status,
    count: row.count,
    mean: row.mean,
    min: row.min,
    max: row.max,
    failures: row.failures,
    interval: jsonInterval(row.interval),
    baseline: row.baseline === undefined ? null : { ...row.baseline },
    delta: row.delta ?? null,
    tolerance: row.tolerance,
    sensitivity: { ...row.sensitivity },
    comparison: jsonComparison(row.comparison),
    worse: row.worse.map((change) => ({ ...change })),
    better: row.better.map((change) => ({ ...change })),
    ...(row.evidence === undefined ? {} : { evidence: { ...row.evidence } }),
    newSamples: [...row.newSamples],
    missingSamples: [...row.missingSamples],
    notJudgedSamples: [...row.notJudgedSamples],
    samples: row.sampleIds.map((id, index) => {
      const source = row.sources[index]!;
      const sample: JsonReportSample = {
        id,
        test: source.test,
        value: row.values[index]!,
        before: row.before[index] ?? null,
        pass: source.pass !== false,
        threshold: source.threshold ?? null,
        negated: source.negated === true,
      };
      const runs = row.repeats?.[index];
      if (runs !== undefined) {
        sample.repeats = [...runs];
        sample.spread = spreadOf(runs);
        sample.unstable = isUnstable(runs);
      }
      if (source.tags !== undefined) sample.tags = [...source.tags];
      return sample;
    }),
  };
}

/**
 * JSON text: 2-space indent, with objects and arrays that hold no objects or arrays on one line (one
 * sample per line), and a final newline. Keeps a 100,000-sample report readable and about half the size
 * of fully indented JSON.
 */
export function formatJsonReport(report: JsonReport): string {
  return `${stringifyCompactLeaves(report, '')}\n`;
}

function stringifyCompactLeaves(value: unknown, indent: string): string {
  // A template literal: a value JSON leaves out (undefined) reads "undefined".
  if (typeof value !== 'object' || value === null) return `${JSON.stringify(value)}`;
  const isArray = Array.isArray(value);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  // Most objects are leaves (a sample each): told apart without listing their entries.
  const leaf = leafSize(value);
  if (leaf === 0) return `${open}${close}`;
  if (leaf > 0) return JSON.stringify(value);
  // Appended rather than joined per level: each level's text is then not copied again by its parent's.
  const inner = `${indent}  `;
  let text = `${open}\n`;
  let first = true;
  if (isArray) {
    for (const item of value as unknown[]) {
      text += `${first ? inner : `,\n${inner}`}${stringifyCompactLeaves(item, inner)}`;
      first = false;
    }
  } else {
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      text += `${first ? inner : `,\n${inner}`}${JSON.stringify(key)}: ${stringifyCompactLeaves(item, inner)}`;
      first = false;
    }
  }
  return `${text}\n${indent}${close}`;
}

/** How many entries `value` shows (an object's own ones not undefined), or -1 when one is an object or array. */
function leafSize(value: object): number {
  let size = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === 'object' && item !== null) return -1;
      size++;
    }
    return size;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null) return -1;
    if (item !== undefined) size++;
  }
  return size;
}
