// Whole-run trec-eval on several cores: the run file is cut at query boundaries into as many parts
// as threads; the main thread measures the first part while each worker (worker.ts, handed the
// qrels the main thread parsed, in shared memory) measures another. The main thread then merges the per-query values, so
// the output is the same bytes as one thread's.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { StageTimes, TrecEvalSettings } from './engine.js';
import type { TrecMeasurePlan } from './measures.js';
import { TrecFormatError } from '../errors.js';
import type { SharedQrelsColumns } from '../columns.js';
import { DuplicateDocnoError } from '../errors.js';
import type { PartFailure, PartOutcome } from './part.js';

/** Below this run size one thread is as fast: a worker costs ~50 ms to start. */
export const PARALLEL_MIN_BYTES = 16 << 20;

/**
 * A worker's young generation, in MB. Pages touched for the first time are what a large run costs
 * most on a virtual machine; a worker's short-lived garbage fits in a few MB (default: 16 × 2).
 */
const WORKER_YOUNG_GENERATION_MB = 4;

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
 * The main thread's part is this much larger than a worker's: a worker starts ~0.1 s later (a new
 * isolate), so equal parts would leave the main thread waiting for the last one.
 */
const MAIN_PART_WEIGHT = 1.1;

/**
 * Byte offsets that cut the file into `parts` pieces (the first MAIN_PART_WEIGHT times the others),
 * each cut at the first line of a new query id; undefined when some cut finds no query change
 * nearby (one huge query, say).
 */
export function findRunCuts(path: string, size: number, parts: number): number[] | undefined {
  const cuts: number[] = [];
  const share = size / (MAIN_PART_WEIGHT + parts - 1);
  const descriptor = openSync(path, 'r');
  try {
    for (let part = 1; part < parts; part++) {
      const target = Math.max(Math.floor(share * (MAIN_PART_WEIGHT + part - 1)), cuts[cuts.length - 1] ?? 0);
      const cut = queryBoundaryAfter(descriptor, target, size);
      if (cut === undefined || cut >= size || cut <= (cuts[cuts.length - 1] ?? 0)) return undefined;
      cuts.push(cut);
    }
  } finally {
    closeSync(descriptor);
  }
  return cuts;
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
  start: number;
  end: number;
  plan: TrecMeasurePlan;
  settings: TrecEvalSettings;
  maxCarry: number;
}

interface SerializedFailure {
  query: number;
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
      grouped: boolean;
      measured: Uint8Array;
      /** Per qrels query, rowCount values. */
      values: Float64Array;
      lineBytes: Uint8Array;
      lineSpans: Int32Array;
      failures: SerializedFailure[];
      runQueryIds: string[];
      linesRead: number;
      times: StageTimes;
    }
  | { kind: 'format-error'; file: string; lineNumber: number; lineText: string; problem: string }
  | { kind: 'failed'; message: string };

/** Packs a part's outcome for postMessage (its arrays are transferred, not copied). */
export function packOutcome(outcome: PartOutcome, times: StageTimes): Extract<PartReply, { kind: 'done' }> {
  const failures = outcome.failures.map(({ query, inRun, error }) => ({
    query,
    inRun,
    file: error.file,
    queryId: error.queryId,
    docId: error.docId,
    lineNumber: error.lineNumber,
    firstLineNumber: error.firstLineNumber,
  }));
  const { grouped, measured, values, lineBytes, lineSpans, runQueryIds, linesRead } = outcome;
  return { kind: 'done', grouped, measured, values, lineBytes, lineSpans, failures, runQueryIds, linesRead, times };
}

/** A worker's part as the main thread's own, its run line numbers moved by `lineOffset`. */
export function unpackOutcome(reply: Extract<PartReply, { kind: 'done' }>, lineOffset: number): PartOutcome {
  const failures: PartFailure[] = reply.failures.map(
    ({ query, inRun, file, queryId, docId, lineNumber, firstLineNumber }) => {
      const shift = inRun ? lineOffset : 0;
      return {
        query,
        inRun,
        error: new DuplicateDocnoError(
          file,
          queryId,
          docId,
          lineNumber + shift,
          firstLineNumber + shift,
          inRun ? 'run' : 'qrels',
        ),
      };
    },
  );
  const { grouped, measured, values, lineBytes, lineSpans, runQueryIds, linesRead } = reply;
  return { grouped, measured, values, lineBytes, lineSpans, failures, runQueryIds, linesRead };
}

/** A run format error found by a worker, with the line number it has in the whole file. */
export function formatErrorOf(
  reply: Extract<PartReply, { kind: 'format-error' }>,
  lineOffset: number,
): TrecFormatError {
  return new TrecFormatError({
    file: reply.file,
    lineNumber: reply.lineNumber + lineOffset,
    lineText: reply.lineText,
    problem: reply.problem,
  });
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
