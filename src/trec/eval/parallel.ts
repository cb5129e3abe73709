// Whole-run trec-eval on several cores: the run file is cut at query boundaries into pieces of a few
// MB, and every thread — the main one once it has parsed the qrels, each worker (worker.ts) once it
// has them, in shared memory — takes the next piece until none is left, so that a thread that starts
// late or gets less of a busy machine takes fewer. The main thread then merges the per-query values
// in file order, so the output is the same bytes as one thread's.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { StageTimes, TrecEvalSettings } from './engine.js';
import type { TrecMeasurePlan } from './measures.js';
import { TrecFormatError } from '../errors.js';
import type { SharedQrelsColumns } from '../columns.js';
import { DuplicateDocnoError } from '../errors.js';
import type { PartFailure, PartOutcome, PieceRead, ThreadOutcome } from './part.js';

/** Below this run size one thread is as fast: a worker costs ~50 ms to start. */
export const PARALLEL_MIN_BYTES = 16 << 20;

/**
 * About this many bytes a piece: small enough that the last piece taken keeps no thread waiting
 * long (~10 ms), large enough that finding the cuts (one 64 kB read each) costs nothing.
 */
const PIECE_BYTES = 2 << 20;

/** How many pieces a run of `size` bytes is cut into for `threads` threads: at least one each. */
export function pieceCount(size: number, threads: number): number {
  return Math.max(threads, Math.ceil(size / PIECE_BYTES));
}

/**
 * A worker's young generation, in MB. Pages touched for the first time are what a large run costs
 * most on a virtual machine; a worker's short-lived garbage fits in a few MB (default: 16 × 2), less
 * than 1 MB between two collections since the run is read as bytes (2 MB here: 2.5 MB less peak RSS
 * on Node 22 than 4, for a few more collections of almost nothing).
 */
const WORKER_YOUNG_GENERATION_MB = 2;

/** How far past a cut point to look for the next query's first line: a little first, then more. */
const BOUNDARY_SEARCH_BYTES = [64 << 10, 4 << 20];

/** The worker script beside this module in the built package (dist/); none when running from source. */
export function workerScript(): URL | undefined {
  const here = (import.meta as { url?: unknown }).url; // undefined in the CommonJS build
  if (typeof here !== 'string' || !here.endsWith('.js')) return undefined;
  const script = new URL('./trec-eval-worker.js', here);
  return existsSync(fileURLToPath(script)) ? script : undefined;
}

const NEWLINE = 0x0a;

function isSeparatorByte(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d && byte !== NEWLINE);
}

/**
 * Byte offsets that cut the file into about `pieces` equal pieces, each cut at the first line of a
 * new query id; a cut that finds no query change nearby (one huge query, say) is left out, so
 * pieces may be fewer. Undefined when no cut is found at all.
 */
export function findRunCuts(path: string, size: number, pieces: number): number[] | undefined {
  const cuts: number[] = [];
  const descriptor = openSync(path, 'r');
  try {
    for (let piece = 1; piece < pieces; piece++) {
      const previous = cuts[cuts.length - 1] ?? 0;
      const target = Math.max(Math.floor((size * piece) / pieces), previous);
      const cut = queryBoundaryAfter(descriptor, target, size);
      if (cut !== undefined && cut < size && cut > previous) cuts.push(cut);
    }
  } finally {
    closeSync(descriptor);
  }
  return cuts.length === 0 ? undefined : cuts;
}

/** The start of the first line after `target` whose query id differs from the line before it. */
function queryBoundaryAfter(descriptor: number, target: number, size: number): number | undefined {
  for (const searchBytes of BOUNDARY_SEARCH_BYTES) {
    const boundary = queryBoundaryWithin(descriptor, target, Math.min(searchBytes, size - target));
    if (boundary !== undefined || searchBytes >= size - target) return boundary;
  }
  return undefined;
}

function queryBoundaryWithin(descriptor: number, target: number, length: number): number | undefined {
  const window = Buffer.allocUnsafe(length);
  const bytesRead = readSync(descriptor, window, 0, length, target);
  let lineStart = window.indexOf(NEWLINE) + 1; // the line cut in two belongs to the part before
  if (lineStart === 0) return undefined;
  let previous: Buffer | undefined;
  while (lineStart < bytesRead) {
    const lineEnd = window.indexOf(NEWLINE, lineStart);
    if (lineEnd === -1) return undefined; // not a whole line within the window
    let idStart = lineStart;
    while (idStart < lineEnd && isSeparatorByte(window[idStart] as number)) idStart++;
    let idEnd = idStart;
    while (idEnd < lineEnd && !isSeparatorByte(window[idEnd] as number)) idEnd++;
    if (idEnd > idStart) {
      const queryId = window.subarray(idStart, idEnd);
      if (previous !== undefined && !queryId.equals(previous)) return target + lineStart;
      previous = queryId;
    }
    lineStart = lineEnd + 1;
  }
  return undefined;
}

/** What the main thread sends a worker. */
export interface PartRequest {
  runPath: string;
  starts: number[];
  ends: number[];
  /** The shared count of pieces taken (an Int32Array over it). */
  claims: SharedArrayBuffer;
  plan: TrecMeasurePlan;
  settings: TrecEvalSettings;
  maxCarry: number;
  /** The run's size: the room a worker makes for its -q lines at first is its share of it. */
  size: number;
  threads: number;
}

interface SerializedFailure {
  query: number;
  piece: number;
  inRun: boolean;
  file: string;
  queryId: string;
  docId: string;
  lineNumber: number;
  firstLineNumber: number;
}

/** What a worker sends back. */
export type PartReply =
  | {
      kind: 'done';
      measured: Uint8Array;
      /** Per qrels query, rowCount values. */
      values: Float64Array;
      lineBytes: Uint8Array;
      lineSpans: Int32Array;
      failures: SerializedFailure[];
      runQueryIds: string[];
      pieces: PieceRead[];
      times: StageTimes;
    }
  | { kind: 'failed'; message: string };

/** Packs a thread's outcome for postMessage (its arrays are transferred, not copied). */
export function packOutcome(thread: ThreadOutcome, times: StageTimes): Extract<PartReply, { kind: 'done' }> {
  const failures = thread.outcome.failures.map(({ query, piece, inRun, error }) => ({
    query,
    piece,
    inRun,
    file: error.file,
    queryId: error.queryId,
    docId: error.docId,
    lineNumber: error.lineNumber,
    firstLineNumber: error.firstLineNumber,
  }));
  const { measured, values, lineBytes, lineSpans, runQueryIds } = thread.outcome;
  return { kind: 'done', measured, values, lineBytes, lineSpans, failures, runQueryIds, pieces: thread.pieces, times };
}

/** A worker's outcome as the main thread's own (its failures' line numbers still count from their piece's first line). */
export function unpackOutcome(reply: Extract<PartReply, { kind: 'done' }>): ThreadOutcome {
  const failures: PartFailure[] = reply.failures.map(
    ({ query, piece, inRun, file, queryId, docId, lineNumber, firstLineNumber }) => ({
      query,
      piece,
      inRun,
      error: new DuplicateDocnoError(file, queryId, docId, lineNumber, firstLineNumber, inRun ? 'run' : 'qrels'),
    }),
  );
  const { measured, values, lineBytes, lineSpans, runQueryIds } = reply;
  const outcome: PartOutcome = {
    grouped: true,
    measured,
    values,
    lineBytes,
    lineSpans,
    failures,
    runQueryIds,
    linesRead: 0,
  };
  return { outcome, pieces: reply.pieces };
}

/** A piece's format error, with the line number it has in the whole file. */
export function pieceFormatError(read: PieceRead, lineOffset: number): TrecFormatError | undefined {
  const found = read.formatError;
  if (found === undefined) return undefined;
  return new TrecFormatError({ ...found, lineNumber: found.lineNumber + lineOffset });
}

/** A repeated docno found in a piece, with its run line numbers counted in the whole file. */
export function shiftedFailure(failure: PartFailure, lineOffset: number): DuplicateDocnoError {
  const { error } = failure;
  if (!failure.inRun || lineOffset === 0) return error;
  return new DuplicateDocnoError(
    error.file,
    error.queryId,
    error.docId,
    error.lineNumber + lineOffset,
    error.firstLineNumber + lineOffset,
    'run',
  );
}

/** A worker measuring one part of the run. */
export interface StartedPart {
  reply: Promise<PartReply>;
  /** Hands the worker the qrels columns the main thread parsed, with the file's bytes (shared memory, not copied). */
  sendQrels: (qrels: SharedQrelsColumns) => void;
  cancel: () => void;
}

/** Starts a worker on one part; the promise never rejects (a crash is a 'failed' reply). */
export function startPart(script: URL, request: PartRequest): StartedPart {
  const worker = new Worker(script, {
    workerData: request,
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
  const reply = new Promise<PartReply>((resolve) => {
    worker.once('message', (message: PartReply) => resolve(message));
    worker.once('error', (error) => resolve({ kind: 'failed', message: error.message }));
    worker.once('exit', (code) => resolve({ kind: 'failed', message: `worker exited with ${code}` }));
  });
  // The caller cancels every worker when it is done, also after an error, so none keeps the process alive.
  return {
    reply,
    sendQrels: (qrels) => worker.postMessage(qrels),
    cancel: () => void worker.terminate(),
  };
}
