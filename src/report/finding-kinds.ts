// The kinds of finding (FINDING_KINDS: what accepts each, what makes it fail the run, whether it is a value
// that moved) and the finding itself. No logic: ./findings.ts collects them from a summary.
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
  | 'strict-unless-partial';

export interface FindingKindSpec {
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
}

/**
 * Every kind of finding, in the order a report lists them within a suite. A new kind is an entry here
 * and a sentence in describeFinding (src/report/wording.ts; the switch there fails to compile without it).
 */
export const FINDING_KINDS = {
  'renamed-suite': { accept: 'update', fails: 'strict', valueMove: false, perSuite: true },
  'new-suite': { accept: 'update', fails: 'new', valueMove: false, perSuite: true },
  regression: { accept: 'update', fails: 'regression', valueMove: true, perSuite: false },
  improvement: { accept: 'update', fails: 'strict', valueMove: true, perSuite: false },
  'unconfirmed-move': { accept: 'update', fails: 'strict', valueMove: true, perSuite: false },
  'new-questions': { accept: 'update', fails: 'new', valueMove: false, perSuite: true },
  'missing-questions': { accept: 'prune', fails: 'strict', valueMove: false, perSuite: true },
  'missing-suite': { accept: 'prune', fails: 'strict', valueMove: false, perSuite: true },
  'not-judged': { accept: 'run', fails: 'strict-unless-partial', valueMove: false, perSuite: false },
  // Values measured against other judgments than the baseline's: not a move of the retriever.
  'labels-changed': { accept: 'suite', fails: 'strict', valueMove: false, perSuite: true },
  // Repeated runs (./repeats.ts): an unstable question fails only beyond maxSpread.
  unstable: { accept: 'run', fails: 'strict', valueMove: false, perSuite: false },
  'too-few-repeats': { accept: 'run', fails: 'strict', valueMove: false, perSuite: false },
} as const satisfies Record<string, FindingKindSpec>;

export type FindingKind = keyof typeof FINDING_KINDS;

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
  }[];
  /** Unstable: each question's spread over its runs (max − min), parallel to `questions`. */
  spreads?: number[];
  /** Too few repeats: how many times each question ran, parallel to `questions`. */
  runs?: number[];
  /** The rule's limit: maxSpread (unstable, when set) or minRepeats (too-few-repeats). */
  limit?: number;
  /** What accepts it: see FindingKindSpec.accept. */
  accept: 'update' | 'prune' | 'run' | 'suite';
  /** True when it fails the run under the current settings. */
  fails: boolean;
}
