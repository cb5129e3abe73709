import { TOP_RANKED_DEPTH, type RankedKey } from '../core/judgment-audit.js';
import { checkGate } from './gate-presence.js';
import { publishedRunStamp, RUN_META_KEY } from './run-stamp.js';

/**
 * What a metric matcher measured, recorded on the running test so the reporters can average it per
 * suite and compare it with the baseline. Pure data: JSON-serialisable, no runner types.
 */
export interface MetricSample {
  /** Canonical measure name: `recall@5`, `ndcg@10`, `faithfulness`, `judge:<name>`. */
  measure: string;
  value: number;
  /** The minimum the assertion asked for, when it had one. */
  threshold?: number;
  /**
   * Whether the assertion passed (after `.not`). Absent on the declared measures a matcher records for
   * its question, except the one its own assertion measured: that one carries its verdict.
   */
  pass?: boolean;
  /** True when the assertion was negated with `.not`. */
  negated?: boolean;
  /** The question this sample belongs to (`options.queryId`); else the test name identifies it. */
  queryId?: string;
  /** The question's text (`options.query`), kept with its ranking in the baseline instead of the test's name. */
  query?: string;
  /**
   * The question's tags (the matchers' `tags` option; in Vitest also the test's own `tags` and `meta.tags`,
   * which the collector adds): sorted, each once. Reports give per-tag rows across suites.
   */
  tags?: string[];
  /**
   * Vitest's `repeats`: which repeat of its test recorded it (1 for the first repeat; absent on the
   * test's first run). Samples of one question from several runs are one question with several values.
   */
  repeat?: number;
  /**
   * A later assertion on a measure already recorded for its question in this test: not a value (the
   * first recording keeps the value), only a verdict. A failed one makes the recorded sample fail and
   * counts in its row's failures (groupRun folds it into that sample). Recorded only when it failed.
   */
  verdictOnly?: true;
  /** Set by groupRun on a sample that later assertions failed: every failed assertion on it, its own included. */
  failedAssertions?: number;
  /**
   * Retrieval measures: a short fingerprint of the question's judgments as evaluated (ids after
   * granularity, grades, minimum grade), so that a report can tell edited labels from a retrieval change.
   */
  labels?: string;
  /** Retrieval measures: the first few hits in the measure's top k that have no judgment, best rank first (absent when none). */
  unjudgedIds?: string[];
  /** How many hits in the measure's top k have no judgment (absent when none). */
  unjudgedCount?: number;
  /**
   * Set beside unjudgedIds when the question's judgments hold no non-relevant one (positive-only labels):
   * its unjudged hits are simply the ones not labelled relevant, so no report calls them unjudged and the
   * baseline keeps no count of them.
   */
  positiveOnly?: true;
  /** The line in its test file where the test's first recording matcher was called (annotations point there). */
  line?: number;
  /**
   * The file `line` is in when it is not the test file: the labelled file a describeRetrieval question was
   * read from (absolute while it travels; the collectors make it relative to the project root, '/'-separated).
   */
  lineFile?: string;
  /**
   * Retrieval measures, on the first sample a matcher call records: the question's top ranked keys in the
   * retriever's order (as judged: after granularity), each with its grade when it has a judgment, down to
   * the largest cutoff the call recorded (at most MAX_TOP_HITS). The baseline keeps it to explain a move.
   */
  topHits?: TopHit[];
  /**
   * Set while a sample travels to its collector: its queryId is its test's question, which the test's
   * earlier samples without a queryId take too (applyTestQuestion). Collected samples never have it.
   */
  testQuestion?: true;
  /**
   * Set only on a question's cost record (measure COST_MEASURE, value its latency): what its retrieval cost.
   * The collectors move these records out of the samples into CollectedRun.costs (splitCosts).
   */
  cost?: RecordedCost;
}

/** What a cost record carries (src/recording/cost.ts records it): latency, calls by kind, the suite's budget. */
export interface RecordedCost {
  latencyMs: number;
  calls: Readonly<Record<string, number>>;
  /** A latency budget in milliseconds the test set for its suite (nearest-rank percentiles and max). */
  latencyBudget?: LatencyBudget;
}

/** A suite's latency budget in milliseconds: any of p50, p95 and max. */
export interface LatencyBudget {
  p50?: number;
  p95?: number;
  max?: number;
}

/** The measure cell of a cost record: no measure name starts with '#'. */
export const COST_MEASURE = '#cost';

/** One ranked key as a sample keeps it: its grade when it was judged. */
export type TopHit = RankedKey;

/** The most ranked keys a sample keeps (the baseline's default depth). */
export const MAX_TOP_HITS = TOP_RANKED_DEPTH;

/** The parts of a Vitest/Jest matcher context that recording reads. */
export interface RecordingContext {
  /** Vitest ≥ 4.1: the running test, whose `meta` reaches reporters. */
  task?: { readonly meta?: object; readonly result?: { retryCount?: number; repeatCount?: number } } | undefined;
  currentTestName?: string | undefined;
  testPath?: string | undefined;
  /** Jest 30 (jest-circus): the running test's entry, exact even inside test.concurrent. */
  currentTestIdentity?: (() => unknown) | undefined;
}

/** Takes what one matcher call recorded, in recording order (one write for all of them). */
export type SampleRecorder = (samples: readonly MetricSample[], context: RecordingContext) => void;

/** Key under which samples are stored in Vitest's `task.meta`. */
export const TASK_META_KEY = 'ragMatchers';
/** Where in `task.meta` the current attempt began: `{ repeat, retry, start }`. */
const ATTEMPT_META_KEY = 'ragMatchersAttempt';

interface Attempt {
  repeat: number;
  retry: number;
  /** Index in the samples array where this attempt's samples begin. */
  start: number;
}

let recorder: SampleRecorder | undefined;

/** Installed by a runner entry (`rag-matchers/jest`) that needs its own channel. */
export function setSampleRecorder(next: SampleRecorder | undefined): void {
  recorder = next;
}

/** Whether recordSample keeps what it is given in `context` (Vitest's task meta, or an installed recorder). */
export function isRecording(context: RecordingContext): boolean {
  return context.task?.meta !== undefined || recorder !== undefined;
}

/** Vitest carries samples on the test itself; elsewhere the installed recorder (if any) takes them. */
export function recordSample(sample: MetricSample, context: RecordingContext): void {
  recordSamples([sample], context);
}

/** recordSample for what one matcher call recorded, in order: under Jest, one write to the reporter's channel. */
export function recordSamples(given: readonly MetricSample[], context: RecordingContext): void {
  if (given.length === 0) return;
  const meta = context.task?.meta as Record<string, unknown> | undefined;
  checkGate(meta !== undefined ? 'vitest' : 'jest');
  if (meta !== undefined) {
    let samples = meta[TASK_META_KEY] as MetricSample[] | undefined;
    if (samples === undefined) {
      samples = meta[TASK_META_KEY] = [];
      const stamp = publishedRunStamp();
      if (stamp !== undefined) meta[RUN_META_KEY] = stamp;
    }
    const repeat = startAttempt(meta, samples, context.task?.result);
    for (const sample of given) samples.push(repeat === 0 ? sample : { ...sample, repeat });
    return;
  }
  recorder?.(given, context);
}

/**
 * A retried attempt replaces the failed attempt's samples (they would count twice otherwise);
 * each repeat (`repeats`) keeps its own, as the user asked for them. Returns the repeat.
 */
function startAttempt(
  meta: Record<string, unknown>,
  samples: MetricSample[],
  result: { retryCount?: number; repeatCount?: number } | undefined,
): number {
  const repeat = result?.repeatCount ?? 0;
  const retry = result?.retryCount ?? 0;
  const previous = meta[ATTEMPT_META_KEY] as Attempt | undefined;
  if (previous !== undefined && previous.repeat === repeat && previous.retry === retry) return repeat;
  if (previous !== undefined && previous.repeat === repeat) samples.length = previous.start;
  meta[ATTEMPT_META_KEY] = { repeat, retry, start: samples.length } satisfies Attempt;
  return repeat;
}
