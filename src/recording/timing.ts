// The timing API of hand-written tests: `timeRetrieval` times one question's retrieval and records its
// cost; `countCall` and `withCallCount` count the calls it makes by kind. The runner's setup file
// (rag-matchers/vitest, rag-matchers/jest) tells it which test is running, so this module imports no runner.
import { AsyncLocalStorage } from 'node:async_hooks';
import { describeValue } from '../core/describe.js';
import { checkLatencyBudget, recordRetrievalCost, type LatencyBudget } from './cost.js';
import type { RecordingContext } from './sample.js';

/** The running test's recording context, as the setup file reads it from its runner. */
type ContextSource = () => RecordingContext | undefined;

let contextSource: ContextSource | undefined;

/** Installed by a runner's setup file. */
export function setRecordingContextSource(source: ContextSource | undefined): void {
  contextSource = source;
}

/** The calls of the retrieval being timed, by kind. */
type CallCounts = Record<string, number>;

// Each timeRetrieval's counts follow its own async work, so questions timed at once count apart.
const timedRetrievals = new AsyncLocalStorage<CallCounts>();

export interface TimeRetrievalOptions {
  /** The question's id, as the matchers' `queryId` (default: the test's question). */
  queryId?: string;
  /** The suite's latency budget in milliseconds, e.g. `{ p95: 300 }` (see docs/baselines-and-ci.md). */
  latencyBudget?: LatencyBudget;
}

/**
 * Runs `retrieve`, records its wall-clock time and the calls counted while it ran (countCall,
 * withCallCount) as the question's cost, and returns what it returned. A retrieval that throws records
 * nothing.
 */
export async function timeRetrieval<T>(
  retrieve: () => T | PromiseLike<T>,
  options: TimeRetrievalOptions = {},
): Promise<T> {
  if (typeof retrieve !== 'function')
    throw new TypeError(
      `timeRetrieval: retrieve must be a function (() => retriever.search(query)), got ${describeValue(retrieve)}.`,
    );
  if (options === null || typeof options !== 'object')
    throw new TypeError(`timeRetrieval: options must be an object ({ queryId }), got ${describeValue(options)}.`);
  const budget =
    options.latencyBudget === undefined
      ? undefined
      : checkLatencyBudget(options.latencyBudget, 'timeRetrieval: options.latencyBudget');
  const context = contextSource?.();
  if (context === undefined)
    throw new Error(
      "timeRetrieval: no test is running here, or the runner's setup file was not loaded (setupFiles: ['rag-matchers/vitest'], or setupFilesAfterEnv: ['rag-matchers/jest']).",
    );
  const calls: CallCounts = Object.create(null) as CallCounts;
  const start = performance.now();
  const result = await timedRetrievals.run(calls, retrieve);
  const latencyMs = performance.now() - start;
  recordRetrievalCost(
    budget === undefined ? { latencyMs, calls } : { latencyMs, calls, latencyBudget: budget },
    context,
    options.queryId,
  );
  return result;
}

/** Counts `count` calls of `kind` ('embed', 'rerank', …) to the retrieval being timed; outside timeRetrieval, nothing. */
export function countCall(kind: string, count = 1): void {
  if (typeof kind !== 'string' || kind === '')
    throw new TypeError(`countCall: kind must be a non-empty string such as 'rerank', got ${describeValue(kind)}.`);
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`countCall: count must be a whole number ≥ 0, got ${describeValue(count)}.`);
  const calls = timedRetrievals.getStore();
  if (calls !== undefined) calls[kind] = (calls[kind] ?? 0) + count;
}

/** `fn`, counting one call of `kind` each time it is called (countCall). */
export function withCallCount<Args extends unknown[], Result>(
  kind: string,
  fn: (...args: Args) => Result,
): (...args: Args) => Result {
  if (typeof kind !== 'string' || kind === '')
    throw new TypeError(`withCallCount: kind must be a non-empty string such as 'rerank', got ${describeValue(kind)}.`);
  if (typeof fn !== 'function')
    throw new TypeError(`withCallCount: fn must be the function to count, got ${describeValue(fn)}.`);
  return function counted(this: unknown, ...args: Args): Result {
    countCall(kind);
    return fn.apply(this, args);
  };
}
