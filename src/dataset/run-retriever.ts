// Runs the user's retriever over every query of an eval set, a few at a time, timing each call.
// A retriever that fails on one query costs that query (recorded with its error), not the run.
import { describeValue } from '../core/describe.js';
import { mean } from '../core/mean.js';
import { nearestRankPercentile } from '../core/latency.js';
import type { Hit } from '../core/types.js';
import type { EvalQuery } from './jsonl.js';

export interface RetrieverContext {
  /** The query's id in the eval set. */
  id: string;
  /** The cutoff asked for (hits beyond it are dropped), if any. */
  k: number | undefined;
  /** The whole eval-set entry (extra fields included). */
  query: EvalQuery;
}

/** The user's retriever: query text → hits in rank order. May be synchronous. */
export type Retriever = (query: string, context: RetrieverContext) => Promise<readonly Hit[]> | readonly Hit[];

export interface RunRetrieverOptions {
  /** Passed to the retriever; hits beyond k are dropped. Default: keep every hit. */
  k?: number;
  /** Calls in flight at once. Default 4. */
  concurrency?: number;
  /** Stop starting new calls after the first failure and reject with a RetrieverError. Default false. */
  stopOnError?: boolean;
  /** Called after each query, with the number done and the total. */
  onProgress?: (done: number, total: number) => void;
}

export interface RetrieverFailure {
  queryId: string;
  error: Error;
}

export interface LatencySummary {
  /** Milliseconds per successful query. */
  perQuery: Record<string, number>;
  /** Successful calls timed. */
  count: number;
  /** Nearest-rank percentiles over the successful calls, in milliseconds (NaN when none). */
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

export interface RunRetrieverResult {
  /** Query id → hits, in set order; failed queries are absent (evaluateRun counts them as missing). */
  run: Map<string, Hit[]>;
  latency: LatencySummary;
  /** Failed queries, in set order. */
  errors: RetrieverFailure[];
}

/** Thrown by runRetriever with stopOnError: the first failure, and what had been retrieved. */
export class RetrieverError extends Error {
  constructor(
    readonly queryId: string,
    override readonly cause: Error,
    readonly partial: RunRetrieverResult,
  ) {
    super(
      `runRetriever: the retriever failed on query '${queryId}': ${cause.message} (stopOnError is set; ${partial.run.size} queries were retrieved before it stopped)`,
    );
    this.name = 'RetrieverError';
  }
}

function summarise(ids: readonly string[], durations: (number | undefined)[]): LatencySummary {
  const perQuery: Record<string, number> = Object.create(null) as Record<string, number>;
  const values: number[] = [];
  ids.forEach((id, index) => {
    const duration = durations[index];
    if (duration === undefined) return;
    perQuery[id] = duration;
    values.push(duration);
  });
  values.sort((a, b) => a - b);
  return {
    perQuery,
    count: values.length,
    p50: nearestRankPercentile(values, 50),
    p95: nearestRankPercentile(values, 95),
    max: values.length === 0 ? Number.NaN : (values[values.length - 1] as number),
    mean: mean(values),
  };
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(typeof value === 'string' ? value : describeValue(value));
}

/**
 * Calls `retrieve(query.query, { id, k, query })` for every query of the set, at most `concurrency`
 * at a time. Returns the run (query id → hits, cut at k), each successful call's latency with p50/p95
 * (nearest rank), and the failures: a retriever that throws, rejects or returns something other than
 * an array fails that query only — unless `stopOnError`, which rejects with a RetrieverError.
 */
export async function runRetriever(
  set: readonly EvalQuery[],
  retrieve: Retriever,
  options: RunRetrieverOptions = {},
): Promise<RunRetrieverResult> {
  if (!Array.isArray(set))
    throw new TypeError(
      `runRetriever: set must be an eval set ({ id, query, relevant }[]), received ${describeValue(set)}.`,
    );
  if (typeof retrieve !== 'function')
    throw new TypeError(
      `runRetriever: retrieve must be a function (query, context) => hits, received ${describeValue(retrieve)}.`,
    );
  const { k, concurrency = 4, stopOnError = false, onProgress } = options;
  if (k !== undefined && (typeof k !== 'number' || !Number.isInteger(k) || k < 1)) {
    throw new RangeError(
      `runRetriever: options.k must be a positive whole number (e.g. 10), received ${describeValue(k)}.`,
    );
  }
  if (typeof concurrency !== 'number' || !Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(
      `runRetriever: options.concurrency must be a whole number ≥ 1 (e.g. 4), received ${describeValue(concurrency)}.`,
    );
  }
  const ids = set.map((query, index) => {
    const id: unknown = (query as { id?: unknown } | null)?.id;
    if ((typeof id !== 'string' || id === '') && !(typeof id === 'number' && Number.isSafeInteger(id))) {
      throw new TypeError(`runRetriever: set[${index}].id must be a non-empty string, received ${describeValue(id)}.`);
    }
    if (typeof query.query !== 'string') {
      throw new TypeError(
        `runRetriever: set[${index}].query (query '${String(id)}') must be the question text, received ${describeValue(query.query)}.`,
      );
    }
    return String(id);
  });
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined)
    throw new RangeError(`runRetriever: the set repeats the query id '${duplicate}'; give each query a unique id.`);

  const hitsByIndex: (Hit[] | undefined)[] = new Array(set.length);
  const durations: (number | undefined)[] = new Array(set.length);
  const failures: (Error | undefined)[] = new Array(set.length);
  let next = 0;
  let done = 0;
  let firstFailure: number | undefined;

  const callOne = async (index: number) => {
    const query = set[index] as EvalQuery;
    const id = ids[index] as string;
    const started = performance.now();
    try {
      const hits: unknown = await retrieve(query.query, { id, k, query });
      const elapsed = performance.now() - started;
      if (!Array.isArray(hits))
        throw new TypeError(
          `the retriever returned ${describeValue(hits)} for query '${id}'; it must return an array of hits in rank order`,
        );
      hitsByIndex[index] = k === undefined ? [...hits] : hits.slice(0, k);
      durations[index] = elapsed;
    } catch (error) {
      failures[index] = asError(error);
      if (firstFailure === undefined) firstFailure = index;
    }
    done++;
    onProgress?.(done, set.length);
  };

  const worker = async () => {
    while (next < set.length && !(stopOnError && firstFailure !== undefined)) await callOne(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, set.length) }, worker));

  const run = new Map<string, Hit[]>();
  const errors: RetrieverFailure[] = [];
  ids.forEach((id, index) => {
    const hits = hitsByIndex[index];
    if (hits !== undefined) run.set(id, hits);
    const error = failures[index];
    if (error !== undefined) errors.push({ queryId: id, error });
  });
  const result: RunRetrieverResult = { run, latency: summarise(ids, durations), errors };
  if (stopOnError && firstFailure !== undefined) {
    throw new RetrieverError(ids[firstFailure] as string, failures[firstFailure] as Error, result);
  }
  return result;
}
