// trec-eval's evaluation: reads the qrels whole and the run in chunks (or both one query at a time
// with --streaming), measures each judged query with the engine (engine.ts), on one thread or
// several (parallel.ts), and prints what trec_eval 10 prints. The command (src/cli/commands/trec-eval.ts)
// only turns flags into a TrecEvalInvocation, calls evaluateTrec, and words its errors.
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';

import { DuplicateDocnoError, EXIT_BAD_INPUT, EXIT_NO_QUERIES, TrecEvalStop, TrecReadError } from '../errors.js';
import { TrecEvaluator, type TrecEvalSettings } from './engine.js';
import { TrecOutput, type OutputStream } from './output.js';
import type { TrecMeasurePlan } from './measures.js';
import { compareUtf8 } from '../../core/ranking.js';
import {
  EMPTY_SPAN_QUERY,
  RunColumnsBuilder,
  countPositiveJudgments,
  groupRunByQuery,
  parseQrelsBytes,
  queryRunOf,
  sharedQrelsColumns,
  type QrelsColumns,
  type QueryQrels,
  type SpanQuery,
} from '../columns.js';
import { QueryTooLargeError, RunGrouper, RunNotGroupedError, streamQrelsQueries } from '../grouper.js';
import { forEachLineChunk, readBytes, TrecTextTooLargeError } from '../text.js';
import {
  PARALLEL_MIN_BYTES,
  findRunCuts,
  pieceCount,
  pieceFormatError,
  shiftedFailure,
  startPart,
  unpackOutcome,
  workerScript,
  type StartedPart,
} from './parallel.js';
import {
  emptyOutcome,
  linesFor,
  measureClaimedPieces,
  measureRunRange,
  type PartOutcome,
  type PieceRead,
  type RunPieces,
  type ThreadOutcome,
} from './part.js';

/** What to evaluate and how: the command's flags, read. */
export interface TrecEvalInvocation {
  qrelsPath: string;
  runPath: string;
  plan: TrecMeasurePlan;
  settings: TrecEvalSettings;
  streaming: boolean;
  timings: boolean;
  /** --threads: how many threads may measure a run file (undefined: as many as the machine has, for a large run). */
  threads: number | undefined;
}

/** A progress display over the bytes of the run read so far. */
interface ProgressDisplay {
  update(done: number): void;
  finish(): void;
}

/** Where the evaluation reads standard input and writes its lines. */
export interface TrecEvalStreams {
  /** Receives trec_eval's lines (a Node stream takes bytes; anything else gets text). */
  stdout: OutputStream;
  /** The run when its path is '-'. */
  stdin: AsyncIterable<string | Uint8Array>;
  /** Starts a progress display over `total` bytes (undefined: unknown). Default: none. */
  progress?: (total: number | undefined) => ProgressDisplay;
}

/** --timings: the stages' milliseconds, the peak memory and the threads that measured. */
export interface TrecEvalTimings {
  read: number;
  sort: number;
  measure: number;
  write: number;
  total: number;
  maxRssMB: number;
  threads: number;
}

const NO_PROGRESS: ProgressDisplay = { update() {}, finish() {} };

function startProgress(streams: TrecEvalStreams, total: number | undefined): ProgressDisplay {
  return streams.progress?.(total) ?? NO_PROGRESS;
}

/**
 * Evaluates the run against the qrels and writes trec_eval's lines to streams.stdout; returns the
 * stage times when invocation.timings is set. Throws what stops trec_eval too: TrecReadError (a file
 * it cannot read), TrecFormatError, DuplicateDocnoError and TrecEvalStop, the last two with their
 * exit status.
 */
export async function evaluateTrec(
  invocation: TrecEvalInvocation,
  streams: TrecEvalStreams,
): Promise<TrecEvalTimings | undefined> {
  return invocation.streaming
    ? await evaluateStreaming(invocation, streams)
    : await evaluateWholeRun(invocation, streams);
}

/** A file's bytes (in shared memory with `shared`: workers read them too). */
async function readSource(
  role: TrecReadError['role'],
  path: string,
  streams: TrecEvalStreams,
  shared: boolean,
): Promise<Buffer> {
  try {
    return await readBytes(path, streams.stdin, shared);
  } catch (error) {
    throw new TrecReadError(role, path === '-' ? '<stdin>' : path, error);
  }
}

/** A failure to read the run file (from the file system, not its text) as a TrecReadError. */
function runReadError(invocation: TrecEvalInvocation, error: unknown): unknown {
  return error instanceof Error && 'code' in error ? new TrecReadError('run file', invocation.runPath, error) : error;
}

/** A qrels file without a judgment line: trec_eval stops too ("Cannot read qrels file", exit 2). */
function emptyQrels(path: string): TrecEvalStop {
  return new TrecEvalStop(
    `cannot read qrels file '${path}': it holds no judgment line (trec_eval stops on it too: "Cannot read qrels file")`,
    EXIT_BAD_INPUT,
  );
}

/** A run without a result line: trec_eval stops too ("Cannot read results file", exit 2). */
function emptyRun(file: string): TrecEvalStop {
  return new TrecEvalStop(
    `cannot read run file '${file}': it holds no result line (trec_eval stops on it too: "Cannot read results file")`,
    EXIT_BAD_INPUT,
  );
}

function noQueries(): TrecEvalStop {
  return new TrecEvalStop(
    'no queries with both results and relevance info (use -c to score qrels queries missing from the run as 0)',
    EXIT_NO_QUERIES,
  );
}

function timingsOf(
  invocation: TrecEvalInvocation,
  evaluator: TrecEvaluator,
  startedAt: number,
): TrecEvalTimings | undefined {
  if (!invocation.timings) return undefined;
  const { read, sort, measure, write } = evaluator.times;
  const round = (value: number) => Math.round(value * 10) / 10;
  const total = performance.now() - startedAt;
  return {
    read: round(read),
    sort: round(sort),
    measure: round(measure),
    write: round(write),
    total: round(total),
    maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    threads: evaluator.threads,
  };
}

async function fileSize(path: string): Promise<number | undefined> {
  if (path === '-') return undefined;
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

async function checkReadable(role: TrecReadError['role'], path: string): Promise<void> {
  if (path === '-') return;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (error) {
    throw new TrecReadError(role, path, error);
  }
}

/** Largest text carried for one query while reading grouped (beyond it the run is read whole). */
const MAX_CARRY = 1 << 24;

/** Per qrels query (by index): its row values, or the duplicate that makes it fatal. */
interface Measured {
  /** 1 when the query was measured; its values are then valuesOf(query)[query × rowCount …]. */
  measured: Uint8Array;
  /** Room for every query's values: the main thread's, where a query no worker measured goes. */
  values: Float64Array;
  /** The values of the workers' queries, where they measured them (not copied into `values`). */
  workerValues: Float64Array[];
  /** Per query: 0 for `values`, else 1 + its index in workerValues. */
  valuesSource: Uint8Array;
  /** With -q, the lines of measured queries that were formatted where they were measured. */
  lines: (Uint8Array | undefined)[];
  failures: (DuplicateDocnoError | undefined)[];
  /** Queries in the run, judged or not (0: the run has no result line). */
  runQueryCount: number;
}

/**
 * Evaluates every run query that has judgments. The run is read in 64 kB chunks and each query is evaluated as soon as its lines are
 * complete, so a run grouped by query (the usual case) never sits in memory whole. A run whose query
 * ids come back (lines not grouped) is then read again as a whole, into columns.
 */
async function measureSerially(
  invocation: TrecEvalInvocation,
  streams: TrecEvalStreams,
  qrels: QrelsColumns,
  evaluator: TrecEvaluator,
): Promise<Measured> {
  const rowCount = evaluator.rowCount;
  let result: Measured | undefined;
  let retained: string[] | undefined;
  if (invocation.runPath !== '-') {
    const outcome = measureFilePart(
      invocation,
      streams,
      qrels,
      evaluator,
      Infinity,
      await fileSize(invocation.runPath),
    );
    if (outcome.grouped) return measuredOf(outcome, qrels);
  } else {
    ({ result, retained } = await measureGroupedStdin(invocation, streams, qrels, evaluator));
    if (result !== undefined) return result;
  }

  // Not grouped: read again (or, from standard input, take the chunks kept) into columns: text and typed arrays.
  const columnsResult = measuredOf(emptyOutcome(qrels, rowCount), qrels);
  const builder = new RunColumnsBuilder(
    invocation.settings.runFile,
    retained === undefined
      ? await fileSize(invocation.runPath)
      : retained.reduce((total, text) => total + text.length, 0),
  );
  if (retained === undefined) {
    try {
      await forEachLineChunk(invocation.runPath, streams.stdin, (text) => builder.accept(text), {
        file: invocation.settings.runFile,
        lineNumber: () => builder.linesRead + 1,
      });
    } catch (error) {
      throw runReadError(invocation, error);
    }
  } else {
    for (const text of retained) builder.accept(text);
    retained.length = 0;
  }
  const run = builder.finish();
  const groups = groupRunByQuery(run);
  run.queryIds.forEach((queryId, runIndex) => {
    const index = qrels.queryIndex.get(queryId);
    if (index !== undefined) measureInto(columnsResult, qrels, evaluator, index, queryRunOf(run, groups, runIndex));
  });
  columnsResult.runQueryCount = run.queryIds.length;
  return columnsResult;
}

/** Measures one query into `result`; a repeated docno is kept as the query's failure. */
function measureInto(
  result: Measured,
  qrels: QrelsColumns,
  evaluator: TrecEvaluator,
  query: number,
  run: Omit<SpanQuery, 'queryId'>,
): void {
  try {
    evaluator.measureQrelsQuery(qrels, query, run, result.values, query * evaluator.rowCount);
    result.measured[query] = 1;
  } catch (error) {
    if (!(error instanceof DuplicateDocnoError)) throw error;
    result.failures[query] = error;
  }
}

/**
 * The run from standard input, measured as it comes while it is grouped by query; every chunk is
 * kept, so that an ungrouped run can be read again. `result` is undefined when it was not grouped.
 */
async function measureGroupedStdin(
  invocation: TrecEvalInvocation,
  streams: TrecEvalStreams,
  qrels: QrelsColumns,
  evaluator: TrecEvaluator,
): Promise<{ result: Measured | undefined; retained: string[] }> {
  const result = measuredOf(emptyOutcome(qrels, evaluator.rowCount), qrels);
  const progress = startProgress(streams, undefined);
  let bytesRead = 0;
  const retained: string[] = [];
  let grouped = true;
  const grouper = new RunGrouper(
    invocation.settings.runFile,
    (query) => {
      result.runQueryCount++;
      const index = qrels.queryIndex.get(query.queryId);
      if (index !== undefined) measureInto(result, qrels, evaluator, index, query);
    },
    { maxCarry: MAX_CARRY },
  );
  try {
    await forEachLineChunk(
      '-',
      streams.stdin,
      (text) => {
        retained.push(text);
        evaluator.noteRunText(text);
        if (!grouped) return;
        try {
          grouper.accept(text);
        } catch (error) {
          if (!(error instanceof RunNotGroupedError) && !(error instanceof QueryTooLargeError)) throw error;
          grouped = false;
        }
      },
      {
        file: invocation.settings.runFile,
        lineNumber: () => grouper.linesRead + 1,
        onBytes: (bytes) => progress.update((bytesRead += bytes)),
      },
    );
  } catch (error) {
    throw runReadError(invocation, error);
  } finally {
    progress.finish();
  }
  if (grouped) grouper.finish();
  return { result: grouped ? result : undefined, retained };
}

/** The run file's bytes [0, end), measured as they come (with a progress bar over `total` bytes). */
function measureFilePart(
  invocation: TrecEvalInvocation,
  streams: TrecEvalStreams,
  qrels: QrelsColumns,
  evaluator: TrecEvaluator,
  end: number,
  total: number | undefined,
): PartOutcome {
  const progress = startProgress(streams, total);
  let bytesRead = 0;
  try {
    return measureRunRange(invocation.runPath, 0, end, qrels, evaluator, MAX_CARRY, (bytes) =>
      progress.update((bytesRead += bytes)),
    );
  } catch (error) {
    throw runReadError(invocation, error);
  } finally {
    progress.finish();
  }
}

/** A part's outcome as per-query results (its arrays are taken, not copied). */
function measuredOf(outcome: PartOutcome, qrels: QrelsColumns): Measured {
  const failures = new Array<DuplicateDocnoError | undefined>(qrels.queryIds.length);
  for (const { query, error } of outcome.failures) failures[query] = error;
  const lines = new Array<Uint8Array | undefined>(qrels.queryIds.length);
  addLinesOf(outcome, lines);
  return {
    measured: outcome.measured,
    values: outcome.values,
    workerValues: [],
    valuesSource: new Uint8Array(qrels.queryIds.length),
    lines,
    failures,
    runQueryCount: outcome.runQueryIds.length,
  };
}

/** The -q lines a part formatted, per query. */
function addLinesOf(outcome: PartOutcome, lines: (Uint8Array | undefined)[]): void {
  const { lineBytes, lineSpans, measured } = outcome;
  if (lineSpans.length === 0) return;
  for (let query = 0; query < measured.length; query++) {
    if (measured[query] === 1)
      lines[query] = lineBytes.subarray(lineSpans[2 * query] as number, lineSpans[2 * query + 1] as number);
  }
}

/** A run file cut into pieces, and the workers started on them before the qrels are read. */
interface ParallelParts {
  pieces: RunPieces;
  size: number;
  workers: StartedPart[];
}

/** Default thread count: one per core, up to this. */
const MAX_DEFAULT_THREADS = 4;

/** Cuts the run file into pieces and starts a worker per thread after the first; undefined when one thread will do. */
async function startParallelParts(invocation: TrecEvalInvocation): Promise<ParallelParts | undefined> {
  if (invocation.runPath === '-') return undefined;
  const threads = invocation.threads ?? Math.min(availableParallelism(), MAX_DEFAULT_THREADS);
  const size = await fileSize(invocation.runPath);
  if (threads < 2 || size === undefined || (invocation.threads === undefined && size < PARALLEL_MIN_BYTES))
    return undefined;
  const script = workerScript();
  if (script === undefined) return undefined; // running from source: no worker script to start
  const cuts = findRunCuts(invocation.runPath, size, pieceCount(size, threads));
  if (cuts === undefined) return undefined;
  const claims = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const starts = [0, ...cuts];
  const ends = [...cuts, size];
  const workers = Array.from({ length: threads - 1 }, () =>
    startPart(script, {
      runPath: invocation.runPath,
      starts,
      ends,
      claims,
      plan: invocation.plan,
      settings: invocation.settings,
      maxCarry: MAX_CARRY,
      size,
      threads,
    }),
  );
  return { pieces: { runPath: invocation.runPath, starts, ends, claims: new Int32Array(claims) }, size, workers };
}

/** The main thread's pieces (a progress bar over the file's bytes, as far as the pieces it takes). */
function measureMainPieces(
  invocation: TrecEvalInvocation,
  streams: TrecEvalStreams,
  qrels: QrelsColumns,
  evaluator: TrecEvaluator,
  parts: ParallelParts,
): ThreadOutcome {
  const progress = startProgress(streams, parts.size);
  const lines = linesFor(evaluator, parts.size / (parts.workers.length + 1));
  try {
    return measureClaimedPieces(parts.pieces, qrels, evaluator, MAX_CARRY, lines, (start) => progress.update(start));
  } catch (error) {
    throw runReadError(invocation, error);
  } finally {
    progress.finish();
  }
}

/**
 * Every thread's pieces, merged; undefined when the run turns out not to be grouped by query (or
 * a worker failed): the caller then reads it the one-thread way. Pieces are looked at in file
 * order: a format error is the first in that order, with its line number in the whole file.
 */
async function measureInParallel(
  invocation: TrecEvalInvocation,
  streams: TrecEvalStreams,
  qrels: QrelsColumns,
  evaluator: TrecEvaluator,
  parts: ParallelParts,
): Promise<Measured | undefined> {
  const threads = [measureMainPieces(invocation, streams, qrels, evaluator, parts)];
  for (const worker of parts.workers) {
    const reply = await worker.reply;
    if (reply.kind === 'failed') return undefined;
    threads.push(unpackOutcome(reply));
  }
  const lineOffsets = pieceLineOffsets(threads, parts.pieces.starts.length);
  if (lineOffsets === undefined) return undefined;
  // Grouped within each piece; grouped as a whole unless a query id shows up in two pieces.
  const runQueryIds = new Set<string>();
  for (const { outcome } of threads) {
    for (const queryId of outcome.runQueryIds) {
      if (runQueryIds.has(queryId)) return undefined;
      runQueryIds.add(queryId);
    }
  }
  const [main, ...workers] = threads.map(({ outcome }) => outcome) as [PartOutcome, ...PartOutcome[]];
  const result = measuredOf({ ...main, failures: [] }, qrels);
  for (const outcome of workers) {
    result.workerValues.push(outcome.values);
    const source = result.workerValues.length;
    const measured = outcome.measured;
    for (let query = 0; query < measured.length; query++) {
      if (measured[query] === 0) continue;
      result.measured[query] = 1;
      result.valuesSource[query] = source;
    }
    addLinesOf(outcome, result.lines);
    result.runQueryCount += outcome.runQueryIds.length;
  }
  for (const { outcome } of threads) {
    for (const failure of outcome.failures)
      result.failures[failure.query] = shiftedFailure(failure, lineOffsets[failure.piece] as number);
  }
  evaluator.threads = threads.length;
  return result;
}

/**
 * The number of the line before each piece's first (pieces in file order), from the lines each read;
 * undefined when a piece was not read whole (not grouped, or left when another was not). Throws the
 * first format error in file order.
 */
function pieceLineOffsets(threads: ThreadOutcome[], pieceCount: number): number[] | undefined {
  const reads = new Array<PieceRead | undefined>(pieceCount);
  for (const thread of threads) for (const read of thread.pieces) reads[read.piece] = read;
  const offsets: number[] = [];
  let lineOffset = 0;
  for (const read of reads) {
    if (read === undefined || !read.grouped) return undefined;
    const formatError = pieceFormatError(read, lineOffset);
    if (formatError !== undefined) throw formatError;
    offsets.push(lineOffset);
    lineOffset += read.linesRead;
  }
  return offsets;
}

/**
 * The whole run, any line order (trec_eval's mode). Queries are printed and averaged in byte order
 * of id, as trec_eval does; a duplicate docno surfaces when that order reaches its query, after any
 * format error.
 */
async function evaluateWholeRun(
  invocation: TrecEvalInvocation,
  streams: TrecEvalStreams,
): Promise<TrecEvalTimings | undefined> {
  const startedAt = performance.now();
  await checkReadable('run file', invocation.runPath);
  // Workers start first: they load while the main thread reads the qrels.
  const parts = await startParallelParts(invocation);
  try {
    return await evaluateWholeRunWith(invocation, streams, parts, startedAt);
  } finally {
    for (const worker of parts?.workers ?? []) worker.cancel();
  }
}

/**
 * The qrels, parsed, and handed to the workers. With workers the file is read into shared memory
 * and they get its bytes, not a text of their own; the bytes are let go once decoded otherwise.
 */
async function readQrels(
  invocation: TrecEvalInvocation,
  streams: TrecEvalStreams,
  parts: ParallelParts | undefined,
): Promise<QrelsColumns> {
  const parallel = parts !== undefined;
  const bytes = await readSource('qrels file', invocation.qrelsPath, streams, parallel);
  let qrels: QrelsColumns;
  try {
    qrels = parseQrelsBytes(bytes, invocation.qrelsPath, parallel);
  } catch (error) {
    if (!(error instanceof TrecTextTooLargeError)) throw error;
    throw new TrecReadError('qrels file', invocation.qrelsPath === '-' ? '<stdin>' : invocation.qrelsPath, error);
  }
  if (qrels.count === 0) throw emptyQrels(invocation.qrelsPath);
  for (const worker of parts?.workers ?? []) worker.sendQrels(sharedQrelsColumns(qrels, bytes));
  return qrels;
}

async function evaluateWholeRunWith(
  invocation: TrecEvalInvocation,
  streams: TrecEvalStreams,
  parts: ParallelParts | undefined,
  startedAt: number,
): Promise<TrecEvalTimings | undefined> {
  const { settings } = invocation;
  const qrels = await readQrels(invocation, streams, parts);
  const output = new TrecOutput(streams.stdout);
  const evaluator = new TrecEvaluator(invocation.plan, settings, output);
  if (invocation.runPath !== '-') evaluator.noteRunFile(invocation.runPath);
  let measured = parts && (await measureInParallel(invocation, streams, qrels, evaluator, parts));
  if (measured === undefined) {
    // Not grouped (or a worker failed): the workers' memory goes before the run is read again whole.
    for (const worker of parts?.workers ?? []) worker.cancel();
    measured = await measureSerially(invocation, streams, qrels, evaluator);
  }
  if (measured.runQueryCount === 0) throw emptyRun(settings.runFile);

  const order = byteOrder(qrels.queryIds);
  for (const query of order) {
    const failure = measured.failures[query];
    if (failure !== undefined) {
      await output.end();
      throw failure;
    }
    if (measured.measured[query] === 0) {
      if (!settings.complete) continue;
      try {
        evaluator.measureQrelsQuery(qrels, query, EMPTY_SPAN_QUERY, measured.values, query * evaluator.rowCount);
      } catch (error) {
        await output.end();
        throw error;
      }
    }
    evaluator.recordQuery(
      qrels.queryIds[query] as string,
      valuesOf(measured, query),
      query * evaluator.rowCount,
      measured.lines[query],
    );
  }
  if (evaluator.evaluatedCount === 0) throw noQueries();
  // Only -c's summary reads it (num_rel over the whole qrels), and it is a pass over every judgment.
  if (settings.complete) evaluator.noteRelevantInAllQrels(countPositiveJudgments(qrels));
  evaluator.pushSummary();
  const writeStarted = performance.now();
  await output.end();
  evaluator.times.write += performance.now() - writeStarted;
  evaluator.times.read =
    performance.now() - startedAt - evaluator.times.sort - evaluator.times.measure - evaluator.times.write;
  return timingsOf(invocation, evaluator, startedAt);
}

/** The array holding query `query`'s values (at query × rowCount). */
function valuesOf(measured: Measured, query: number): Float64Array {
  const source = measured.valuesSource[query] as number;
  return source === 0 ? measured.values : (measured.workerValues[source - 1] as Float64Array);
}

/** Indices of `ids` in byte order of id (trec_eval's print order); a qrels file usually is in that order already. */
function byteOrder(ids: readonly string[]): number[] {
  const order = Array.from({ length: ids.length }, (_, index) => index);
  for (let index = 1; index < ids.length; index++) {
    if (compareUtf8(ids[index - 1] as string, ids[index] as string) > 0)
      return order.sort((a, b) => compareUtf8(ids[a] as string, ids[b] as string));
  }
  return order;
}

/**
 * --streaming: both files one query at a time, merged on query id. Both must be grouped by query
 * in byte order of id; memory holds one query of each plus the output buffer, however many queries.
 * Lines are printed as queries complete, in the same order and bytes as the whole-run mode.
 */
async function evaluateStreaming(
  invocation: TrecEvalInvocation,
  streams: TrecEvalStreams,
): Promise<TrecEvalTimings | undefined> {
  const startedAt = performance.now();
  const { settings } = invocation;
  await checkReadable('qrels file', invocation.qrelsPath);
  await checkReadable('run file', invocation.runPath);
  const output = new TrecOutput(streams.stdout);
  const evaluator = new TrecEvaluator(invocation.plan, settings, output);
  const progress = startProgress(streams, await fileSize(invocation.runPath));
  let bytesRead = 0;

  const qrelsQueries = streamQrelsQueries(invocation.qrelsPath, invocation.qrelsPath);
  let pending = qrelsQueries.next().value as QueryQrels | undefined;
  if (pending === undefined) throw emptyQrels(invocation.qrelsPath);
  let runQueryCount = 0;
  const nextQrels = () => {
    pending = qrelsQueries.next().value as QueryQrels | undefined;
  };
  /** qrels queries before `queryId` (none of them in the run): evaluated as empty under -c. */
  const passQrelsBefore = (queryId: string | undefined) => {
    while (pending !== undefined && (queryId === undefined || compareUtf8(pending.queryId, queryId) < 0)) {
      evaluator.noteQrelsQuery(pending.grades);
      if (settings.complete) evaluator.addQuery(pending.queryId, pending.grades, EMPTY_SPAN_QUERY);
      nextQrels();
    }
  };
  const grouper = new RunGrouper(
    settings.runFile,
    (query) => {
      runQueryCount++;
      passQrelsBefore(query.queryId);
      if (pending !== undefined && pending.queryId === query.queryId) {
        evaluator.noteQrelsQuery(pending.grades);
        evaluator.addQuery(query.queryId, pending.grades, query);
        nextQrels();
      }
    },
    { order: 'sorted' },
  );
  try {
    await forEachLineChunk(
      invocation.runPath,
      streams.stdin,
      (text) => {
        evaluator.noteRunText(text);
        grouper.accept(text);
      },
      {
        file: settings.runFile,
        lineNumber: () => grouper.linesRead + 1,
        onBytes: (bytes) => progress.update((bytesRead += bytes)),
      },
    );
    grouper.finish();
    if (runQueryCount === 0) throw emptyRun(settings.runFile);
    passQrelsBefore(undefined);
  } catch (error) {
    progress.finish();
    await output.end();
    throw error;
  }
  progress.finish();
  if (evaluator.evaluatedCount === 0) throw noQueries();
  evaluator.pushSummary();
  await output.end();
  evaluator.times.read =
    performance.now() - startedAt - evaluator.times.sort - evaluator.times.measure - evaluator.times.write;
  return timingsOf(invocation, evaluator, startedAt);
}
