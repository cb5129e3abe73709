// The summary model: what summarize returns (RunSummary, its rows, what it found of the baseline) and
// the options it takes. Types only; src/report/summary.ts works them out, the renderers read them.
import type { RowComparison, SampleChange } from '../baseline/compare.js';
import type { PairedTestName } from '../core/stats.js';
import type { RowSensitivity } from '../core/sensitivity.js';
import type { ResolvedTolerance, ToleranceOption } from '../core/regression-rule.js';
import type { CollectedRun, CollectedSample } from '../recording/collected.js';
import type { NotJudgedReason } from '../recording/outcomes.js';
import type { LatencyBudget } from '../recording/sample.js';
import type { SuiteCost } from './costs.js';
import type { QuestionEvidence } from './evidence.js';
import type { GateFinding } from './finding-kinds.js';
import type { IntervalCache, RowInterval } from './intervals.js';
import type { RepeatRules } from './repeats.js';
import type { Verdict } from './verdict.js';
import type { ChurnLimits, RunChurn } from './churn.js';

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
  /** A regressed tag row (RunSummary.tags) fails the run. Default false: tag rows are shown, not gating. */
  failOnTagRegression?: boolean;
  /** A row that no change of its questions can fail under the rule (see SummaryRow.sensitivity) fails the run. Default false. */
  failOnInsensitive?: boolean;
  /**
   * The baseline must be up to date (the reporters' default under CI): every finding — a regression, an
   * improvement not recorded, a suite or question new to the baseline, a baseline suite or question that
   * did not run although its file ran, a renamed suite — fails the run. Default false.
   */
  strict?: boolean;
  /** The run is updating the baseline: its changes are recorded, not judged (reporting only). */
  updatingBaseline?: boolean;
  /** With updatingBaseline: the update also removes what the run found gone (RAG_BASELINE=prune). */
  pruning?: boolean;
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
  /**
   * Intervals worked out ahead (precomputeIntervals, while later test files still run): a row takes one
   * worked out for exactly its values and settings instead of bootstrapping again.
   */
  intervals?: IntervalCache;
  /** Under `strict`, each question must run at least this many times (repeats): `too-few-repeats` otherwise. */
  minRepeats?: number;
  /** Under `strict`, no question's spread over its runs (max − min) may exceed this: `unstable` fails otherwise. */
  maxSpread?: number;
  /** A change in calls per question since the baseline (a `calls` finding) fails the run. Default false. */
  failOnCallChange?: boolean;
  /**
   * The latency budget of suites that record none, in milliseconds (`{ p95: 300 }`): a suite with at least
   * 20 timed questions over it fails the run (a `latency` finding). Default: none.
   */
  latency?: LatencyBudget;
  /**
   * Fail a suite whose rankings churned more than this against the baseline's: its mean rank-biased
   * overlap below `rbo`, or its mean top-5 overlap below `overlap` (`ranking-churn`). Default: unset, churn
   * is shown and never fails.
   */
  maxChurn?: ChurnLimits;
}

export type RowStatus = 'regressed' | 'improved' | 'unchanged' | 'new';

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
  /** Failed assertions on the row's samples (a sample asserted and failed twice counts twice). */
  failures: number;
  /** The baseline's samples of this suite × measure (all of them, shared or not). */
  baseline?: { mean: number; count: number };
  /** mean(after − before) over the shared questions; equals mean − baseline.mean when both have the same questions. */
  delta?: number;
  /** The tolerance applied to this measure. */
  tolerance: number;
  /**
   * The smallest change of this row's questions that the gate's rule would fail, every other row unchanged,
   * from each question's baseline value (this run's value for a question new to the baseline).
   * docs/statistics.md#sensitivity.
   */
  sensitivity: RowSensitivity;
  /**
   * True when the mean over the questions compared with the baseline moved by no more than the tolerance
   * (the baseline diff's decision): an update keeps their baseline values. False for a row with none.
   */
  withinTolerance: boolean;
  status: RowStatus;
  comparison?: RowComparison;
  worse: SampleChange[];
  better: SampleChange[];
  /**
   * Question id → what explains its move (its text, its ranking before → after), for the questions of
   * `worse` and `better` whose ranking the baseline or this run kept. Absent when none did.
   */
  evidence?: Record<string, QuestionEvidence>;
  /** Question ids of this run not in the baseline. */
  newSamples: string[];
  /**
   * Questions measured against other judgments than their baseline values (their label fingerprints
   * differ): not compared, left out of the paired test. Absent when none.
   */
  relabelled?: SampleChange[];
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

/** A question of a tag row that got worse: its suite (display name), id, and values. */
export interface TagChange {
  suite: string;
  sampleId: string;
  before: number;
  after: number;
  /** after − before. */
  delta: number;
}

/**
 * One tag × measure across suites (src/report/tags.ts): the unit is a suite × question whose question
 * carries the tag; compared with the baseline on the units it holds, under the gate's rule.
 */
export interface TagRow {
  tag: string;
  measure: string;
  /** Suite × question units with the tag in this run. */
  count: number;
  /** Suites they are in. */
  suites: number;
  mean: number;
  interval: RowInterval;
  /** Mean and count of the paired units' baseline values. */
  baseline?: { mean: number; count: number };
  /** mean(after − before) over the paired units. */
  delta?: number;
  tolerance: number;
  /** 'new' when no unit has a baseline value. */
  status: RowStatus;
  comparison?: RowComparison;
  /** Units that got worse, largest drop first. */
  worse: TagChange[];
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
  /** Baseline questions this run produced and so compared (a question with a measure not judged counts as not judged). */
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
  /** Per-tag rows across suites, sorted by tag, then measure; [] when no question has a tag. */
  tags: TagRow[];
  missing: MissingRow[];
  /** Baseline suites of files this run did not run (kept, not compared); deleted files' suites are in `missing` instead when fileExists was given. */
  notRun: { suites: number; rows: number };
  regressions: number;
  improvements: number;
  unchanged: number;
  newRows: number;
  /** Every difference between this run and the baseline beyond tolerance, by name, with what accepts it. */
  findings: GateFinding[];
  /** Questions with no baseline value, over all rows (new rows included). */
  newSamples: number;
  /** The gate: verdict.passed, false when a finding fails the run. */
  passed: boolean;
  /** The verdict every report reads: sections, headline, advice, exit code (./verdict.ts). */
  verdict: Verdict;
  baselineFound: boolean;
  baselinePath?: string;
  /** Each timed suite's latency and calls per question (src/report/costs.ts), by suite name; absent when nothing was timed. */
  costs?: SuiteCost[];
  /**
   * Each suite's ranking churn: this run's rankings against the baseline's, without labels (./churn.ts).
   * Absent when the baseline or this run kept no ranking.
   */
  churn?: RunChurn;
  /** Settings that make the verdict weaker than it looks (e.g. a test that can never reach significance). */
  warnings: string[];
  totals: { samples: number; suites: number; rows: number };
  /** SummaryOptions with their defaults filled in (the settings are stated there, once). */
  settings: Required<Pick<SummaryOptions, DefaultedSetting>> &
    Pick<SummaryOptions, 'significance' | 'latency' | 'maxChurn'> &
    RepeatRules & {
      tolerance: ResolvedTolerance;
      /** Rows in the Holm family: compared rows with at least one changed question. */
      holmFamily: number;
    };
}

/** The settings that always have a value once resolved (their defaults are in SummaryOptions' docs). */
type DefaultedSetting =
  | 'test'
  | 'failOnRegression'
  | 'failOnNew'
  | 'failOnTagRegression'
  | 'failOnInsensitive'
  | 'strict'
  | 'updatingBaseline'
  | 'pruning'
  | 'partial'
  | 'confidence'
  | 'seed'
  | 'resamples'
  | 'intervalResamples'
  | 'failOnCallChange';

export type ResolvedSummaryOptions = Omit<RunSummary['settings'], 'holmFamily'>;
