// The kinds of finding (FINDING_KINDS: the section a report lists each under, what accepts it, what makes it
// fail the run, the unit it counts, whether it is a value that moved) and the finding itself. No logic:
// ./findings.ts collects them from a summary, ./verdict.ts decides the verdict from them.
import type { NotJudgedReason } from '../recording/outcomes.js';

/** Which settings make a finding of a kind fail the run (when the run is judged, not updating the baseline). */
type FindingFailRule =
  /** failOnRegression (default true). */
  | 'regression'
  /** strict or failOnNew. */
  | 'new'
  /** strict (the baseline must be up to date). */
  | 'strict'
  /** strict, unless the run declared itself partial. */
  | 'strict-unless-partial'
  /** failOnCallChange (default false): calls per question changed since the baseline. */
  | 'calls'
  /** Always (but while updating): an explicit latency budget the suite went over. */
  | 'budget'
  /** failOnTagRegression (default false). */
  | 'tag'
  /** failOnInsensitive (a row no change can fail). */
  | 'insensitive'
  /** Never: shown, not failing (a kind no rule of the gate judges yet). */
  | 'never'
  /** Always: the finding exists only when an option asked the gate to judge it (e.g. maxChurn). */
  | 'option';

/**
 * Where a report lists a finding, in this order: the means that fell; the tags whose questions fell across
 * suites; what an update would change beyond
 * tolerance; questions or suites new to the baseline or gone from it; baseline questions this run did not
 * judge; questions run several times; questions that moved beyond tolerance while their suite's mean held;
 * what retrieval cost (latency over a budget, calls per question that changed); rows that no change can
 * fail under the gate's rule; rankings that changed (churn) while the values held.
 */
export const FINDING_SECTIONS = [
  'regressions',
  'tags',
  'changes',
  'new-or-gone',
  'not-judged',
  'repeats',
  'held',
  'rankings',
  'cost',
  'sensitivity',
] as const;

export type FindingSection = (typeof FINDING_SECTIONS)[number];

/** What one finding of a kind counts: a suite × measure row, questions (its `questions` or `count`), or a suite. */
type FindingUnit = 'row' | 'questions' | 'suite';

export interface FindingKindSpec {
  section: FindingSection;
  /**
   * What accepts it: RAG_BASELINE=update or prune; `run`: running those questions (or declaring the run
   * partial); `suite`: re-recording the suite (the update command narrowed to its file and describe path).
   */
  accept: GateFinding['accept'];
  fails: FindingFailRule;
  /** A mean that moved beyond tolerance (the only findings a report may call "beyond tolerance"). */
  valueMove: boolean;
  /** One finding per suite for every measure it affects (`measures`), rather than one per suite × measure. */
  perSuite: boolean;
  unit: FindingUnit;
}

// prettier-ignore
/**
 * Every kind of finding, in the order a report lists them within a suite. A new kind is an entry here
 * and a sentence in describeFinding (src/report/wording.ts; the switch there fails to compile without it);
 * the verdict (./verdict.ts) reads its section, rule and unit from here, so no report names it. Kinds that
 * no rule of the gate judges yet (ranking-only changes, tags, churn) come in with
 * `fails: 'never'`: shown in their section, failing nothing.
 */
export const FINDING_KINDS = {
  'renamed-suite':     { section: 'changes',     accept: 'update', fails: 'strict', valueMove: false, perSuite: true, unit: 'suite' },
  'new-suite':         { section: 'new-or-gone', accept: 'update', fails: 'new', valueMove: false, perSuite: true, unit: 'suite' },
  regression:          { section: 'regressions', accept: 'update', fails: 'regression', valueMove: true, perSuite: false, unit: 'row' },
  improvement:         { section: 'changes',     accept: 'update', fails: 'strict', valueMove: true, perSuite: false, unit: 'row' },
  'unconfirmed-move':  { section: 'changes',     accept: 'update', fails: 'strict', valueMove: true, perSuite: false, unit: 'row' },
  'new-questions':     { section: 'new-or-gone', accept: 'update', fails: 'new', valueMove: false, perSuite: true, unit: 'questions' },
  'missing-questions': { section: 'new-or-gone', accept: 'prune', fails: 'strict', valueMove: false, perSuite: true, unit: 'questions' },
  'missing-suite':     { section: 'new-or-gone', accept: 'prune', fails: 'strict', valueMove: false, perSuite: true, unit: 'suite' },
  'not-judged':        { section: 'not-judged',  accept: 'run', fails: 'strict-unless-partial', valueMove: false, perSuite: false, unit: 'questions' },
  // Values measured against other judgments than the baseline's: not a move of the retriever.
  'labels-changed':    { section: 'changes',     accept: 'suite', fails: 'strict', valueMove: false, perSuite: true, unit: 'questions' },
  // Repeated runs (./repeats.ts): an unstable question fails only beyond maxSpread.
  unstable:            { section: 'repeats',     accept: 'run', fails: 'strict', valueMove: false, perSuite: false, unit: 'questions' },
  'too-few-repeats':   { section: 'repeats',     accept: 'run', fails: 'strict', valueMove: false, perSuite: false, unit: 'questions' },
  // A question that moved beyond tolerance while its row's mean held: shown; the gate rule stays the suite's.
  'held-moves':        { section: 'held',        accept: 'update', fails: 'never', valueMove: false, perSuite: false, unit: 'questions' },
  // Calls of one kind per question changed since the baseline (deterministic): fails only with failOnCallChange.
  calls:               { section: 'cost',        accept: 'update', fails: 'calls', valueMove: false, perSuite: false, unit: 'questions' },
  // A suite over its explicit latency budget (≥ 20 timed questions); latency never gates against the baseline.
  latency:             { section: 'cost',        accept: 'run', fails: 'budget', valueMove: false, perSuite: true, unit: 'suite' },
  // A tag × measure whose questions, across suites, fell under the gate's rule (src/report/tags.ts).
  'tag-regression':    { section: 'tags',        accept: 'update', fails: 'tag', valueMove: true, perSuite: false, unit: 'row' },
  // A row no change of its questions can fail (SummaryRow.sensitivity): a warning, failing under failOnInsensitive.
  insensitive:         { section: 'sensitivity', accept: 'run', fails: 'insensitive', valueMove: false, perSuite: false, unit: 'row' },
  // Rankings that changed while every value of their questions held (./churn.ts): shown, counted apart; an
  // update writes them, yet they do not make the baseline out of date for strict CI.
  'rankings-changed':  { section: 'rankings',    accept: 'update', fails: 'never', valueMove: false, perSuite: true, unit: 'questions' },
  // A suite whose mean churn broke the reporter option maxChurn (only then is it a finding).
  'ranking-churn':     { section: 'rankings',    accept: 'update', fails: 'option', valueMove: false, perSuite: true, unit: 'suite' },
} as const satisfies Record<string, FindingKindSpec>;

type FindingKind = keyof typeof FINDING_KINDS;

/**
 * One way in which an update would change the baseline beyond tolerance. Plain text: each renderer
 * escapes it for its medium.
 */
export interface GateFinding {
  kind: FindingKind;
  /** Display name of the suite (the new name for a rename). */
  suite: string;
  /** Exact key of the suite (suiteKeyOf). */
  suiteKey: string;
  /** The measure whose mean moved (regression, improvement, unconfirmed move). */
  measure?: string;
  /** New or missing questions: every measure they are new to or missing from, in the suite's order (one finding for all). */
  measures?: string[];
  /** Question ids concerned (new or missing ones, each once whatever its measures); for a regression, the questions that got worse. */
  questions?: string[];
  /** Missing suite: its test file was deleted (rather than ran without it). */
  fileGone?: true;
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
  /**
   * Regression or unconfirmed move: the questions that got worse while unjudged hits entered their top k
   * since the baseline (see SampleChange.unjudged), with their values.
   */
  unjudged?: {
    question: string;
    before: number;
    after: number;
    count: number;
    ids: string[];
    baselineCount: number;
    k?: number;
    /** The question's labels hold no non-relevant judgment: `ids` are what now ranks there, not a labelling gap. */
    positiveOnly?: true;
  }[];
  /**
   * Rankings changed (the questions are those whose values held) and ranking churn: the suite's churn over
   * the questions whose ranking both the baseline and this run kept (./churn.ts); for ranking churn also
   * the limit of maxChurn it broke.
   */
  churn?: {
    questions: number;
    meanRbo: number;
    meanOverlap: number;
    k: number;
    topChangedShare: number;
    broken?: { measure: 'rbo' | 'overlap'; limit: number };
  };
  /** Held moves: each question's baseline and current value, parallel to `questions` (worst drop first, then gains). */
  moves?: { before: number; after: number }[];
  /** Unstable: each question's spread over its runs (max − min), parallel to `questions`. */
  spreads?: number[];
  /** Too few repeats: how many times each question ran, parallel to `questions`. */
  runs?: number[];
  /** The rule's limit: maxSpread (unstable, when set), minRepeats (too-few-repeats), or the significance or tolerance that no change can pass (insensitive). */
  limit?: number;
  /** Calls: the kind of call (`rerank`), and each question's calls per question before → after, parallel to `questions`. */
  callKind?: string;
  callChanges?: { before: number; after: number }[];
  /** Latency: the suite's statistics over budget, each with its value and budget in milliseconds, and the timed questions. */
  overBudget?: { statistic: 'p50' | 'p95' | 'max'; value: number; budget: number }[];
  timed?: number;
  /** Tag regression: the tag (`suite` and `suiteKey` are ''; `questions` are `suite › id`). */
  tag?: string;
  /** Tag regression: how many of the tag's questions were compared, in how many suites. */
  shared?: number;
  suites?: number;
  /** Insensitive: which part of the rule no change can pass (see RowSensitivity), and the row's questions in `count`, its mean in `before`. */
  limitedBy?: 'tolerance' | 'significance';
  /** What accepts it: see FindingKindSpec.accept. */
  accept: 'update' | 'prune' | 'run' | 'suite';
  /** True when it fails the run under the current settings. */
  fails: boolean;
}
