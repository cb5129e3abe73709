// Byte ranges of a run file, measured query by query as their lines come: what the main thread does
// with the whole run (one thread) and what each thread does with the pieces it takes (parallel.ts).
import { statSync } from 'node:fs';

import type { TrecEvaluator } from './engine.js';
import { ByteLines } from './format.js';
import type { QrelsColumns } from '../columns.js';
import { DuplicateDocnoError, TrecFormatError } from '../errors.js';
import { QueryTooLargeError, RunGrouper, RunNotGroupedError } from '../grouper.js';
import { readFileCarryingBytes } from '../text.js';

/** A query that cannot be measured: a docno repeated in its run lines or in its judgments. */
export interface PartFailure {
  /** Index of the query in the qrels. */
  query: number;
  /** The piece of the run (parallel.ts) it was found in; 0 when the run is read as one. */
  piece: number;
  /** The repeat is in the run (its line numbers count from the part's first line), else in the qrels. */
  inRun: boolean;
  error: DuplicateDocnoError;
}

export interface PartOutcome {
  /** Every query's lines came together. When false, the part was not read to its end and the rest means nothing. */
  grouped: boolean;
  /** Per qrels query: 1 when this part measured it. */
  measured: Uint8Array;
  /** Per qrels query: its row values (rowCount of them, query after query). */
  values: Float64Array;
  /**
   * With -q, the lines of the queries measured, formatted where they were measured (so that the
   * main thread only copies them out, in byte order of query id): query q's are
   * lineBytes[lineSpans[2q], lineSpans[2q + 1]). Empty without -q.
   */
  lineBytes: Uint8Array;
  lineSpans: Int32Array;
  failures: PartFailure[];
  /** Every query id of the part, in run order (judged or not). */
  runQueryIds: string[];
  /** Lines read (blank ones included). */
  linesRead: number;
}

/** Room for every qrels query's row values. */
export function emptyOutcome(qrels: QrelsColumns, rowCount: number): PartOutcome {
  const queryCount = qrels.queryIds.length;
  return {
    grouped: true,
    measured: new Uint8Array(queryCount),
    values: new Float64Array(queryCount * rowCount),
    lineBytes: new Uint8Array(0),
    lineSpans: new Int32Array(0),
    failures: [],
    runQueryIds: [],
    linesRead: 0,
  };
}

class StopReading extends Error {}

/** Room for the -q lines of `bytes` of run: about a third of them, with 30 rows and 100 hits a query. */
export function linesFor(evaluator: TrecEvaluator, bytes: number): ByteLines | undefined {
  // Growing would copy them, and fresh pages are what a large run costs most.
  return evaluator.printsQueries ? new ByteLines(Math.max(1 << 16, Math.ceil(bytes / 3))) : undefined;
}

/** What reading one byte range found besides its queries' values. */
interface RangeRead {
  /** Every query's lines came together. When false, the range was not read to its end and the rest means nothing. */
  grouped: boolean;
  /** Lines read (blank ones included). */
  linesRead: number;
}

/**
 * Measures the run's bytes [start, end) (a whole number of lines) against `qrels`, adding each
 * query's values (and, with -q, its lines) to `outcome`. A query that comes back after another
 * query's lines, or that spans more than `maxCarry` characters, ends the range with `grouped:
 * false`. Format errors and read errors are thrown, with line numbers counted from the range's
 * first line; a repeated docno is kept in `outcome.failures` under `piece`.
 */
function measureRunBytes(
  path: string,
  start: number,
  end: number,
  piece: number,
  qrels: QrelsColumns,
  evaluator: TrecEvaluator,
  maxCarry: number,
  outcome: PartOutcome,
  lines: ByteLines | undefined,
  onBytes?: (bytes: number) => void,
): RangeRead {
  const rowCount = evaluator.rowCount;
  if (lines !== undefined && outcome.lineSpans.length === 0)
    outcome.lineSpans = new Int32Array(qrels.queryIds.length * 2);
  const grouper = new RunGrouper(
    evaluator.runFile,
    (query) => {
      outcome.runQueryIds.push(query.queryId);
      const index = qrels.queryIndex.get(query.queryId);
      if (index === undefined) return;
      try {
        evaluator.measureQrelsQuery(qrels, index, query, outcome.values, index * rowCount);
        outcome.measured[index] = 1;
        if (lines !== undefined) {
          outcome.lineSpans[2 * index] = lines.length;
          evaluator.formatQuery(lines, query.queryId, outcome.values, index * rowCount);
          outcome.lineSpans[2 * index + 1] = lines.length;
        }
      } catch (error) {
        if (!(error instanceof DuplicateDocnoError)) throw error;
        outcome.failures.push({ query: index, piece, inRun: error.source === 'run', error });
      }
    },
    { maxCarry },
  );
  let grouped = true;
  try {
    readFileCarryingBytes(
      path,
      (text, carried, asciiBytes) => {
        try {
          return grouper.acceptCarried(text, carried, asciiBytes);
        } catch (error) {
          if (error instanceof RunNotGroupedError || error instanceof QueryTooLargeError) throw new StopReading();
          throw error;
        }
      },
      { file: evaluator.runFile, lineNumber: () => grouper.linesRead + 1, onBytes, start, end },
    );
    grouper.finish();
  } catch (error) {
    if (!(error instanceof StopReading)) throw error;
    grouped = false;
  }
  if (lines !== undefined) outcome.lineBytes = lines.bytes.subarray(0, lines.length);
  return { grouped, linesRead: grouper.linesRead };
}

/** measureRunBytes over one range as a whole outcome (the one-thread read of a run file). */
export function measureRunRange(
  path: string,
  start: number,
  end: number,
  qrels: QrelsColumns,
  evaluator: TrecEvaluator,
  maxCarry: number,
  onBytes?: (bytes: number) => void,
): PartOutcome {
  const outcome = emptyOutcome(qrels, evaluator.rowCount);
  const size = Number.isFinite(end) ? end : statSync(path).size;
  const lines = linesFor(evaluator, size - start);
  const read = measureRunBytes(path, start, end, 0, qrels, evaluator, maxCarry, outcome, lines, onBytes);
  outcome.grouped = read.grouped;
  outcome.linesRead = read.linesRead;
  return outcome;
}

/** A format error found in a piece, with its line number counted from the piece's first line. */
interface PieceFormatError {
  file: string;
  lineNumber: number;
  lineText: string;
  problem: string;
}

/** How one piece of a run went, for the merge in file order. */
export interface PieceRead extends RangeRead {
  piece: number;
  formatError?: PieceFormatError;
}

/**
 * The run's pieces, taken one at a time by every thread: piece p is bytes [starts[p], ends[p]) and
 * `claims[0]` (shared memory) counts the pieces taken so far.
 */
export interface RunPieces {
  runPath: string;
  starts: number[];
  ends: number[];
  claims: Int32Array;
}

/** What one thread measured: its queries' values, and how each piece it took went. */
export interface ThreadOutcome {
  outcome: PartOutcome;
  pieces: PieceRead[];
}

/**
 * Takes pieces until none is left and measures each into one outcome: the loop every thread runs
 * (the main thread once the qrels are parsed, each worker once they arrive), so that a thread
 * that starts late or runs slowly simply takes fewer. A format error is kept with its piece (the
 * first in file order is reported); a piece that is not grouped stops every thread (the run is
 * then read the one-thread way).
 */
export function measureClaimedPieces(
  pieces: RunPieces,
  qrels: QrelsColumns,
  evaluator: TrecEvaluator,
  maxCarry: number,
  lines: ByteLines | undefined,
  onPiece?: (start: number) => void,
): ThreadOutcome {
  const outcome = emptyOutcome(qrels, evaluator.rowCount);
  const reads: PieceRead[] = [];
  const count = pieces.starts.length;
  for (let piece = Atomics.add(pieces.claims, 0, 1); piece < count; piece = Atomics.add(pieces.claims, 0, 1)) {
    const start = pieces.starts[piece] as number;
    onPiece?.(start);
    try {
      const read = measureRunBytes(
        pieces.runPath,
        start,
        pieces.ends[piece] as number,
        piece,
        qrels,
        evaluator,
        maxCarry,
        outcome,
        lines,
      );
      reads.push({ piece, ...read });
      if (!read.grouped) Atomics.store(pieces.claims, 0, count);
    } catch (error) {
      if (!(error instanceof TrecFormatError)) throw error;
      const { file, lineNumber, lineText, problem } = error;
      reads.push({ piece, grouped: true, linesRead: 0, formatError: { file, lineNumber, lineText, problem } });
    }
  }
  return { outcome, pieces: reads };
}
