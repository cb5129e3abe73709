// One byte range of a run file, measured query by query as its lines come: what the main thread does
// with the first part of a run and each worker (worker.ts) with another.
import { statSync } from 'node:fs';

import type { TrecEvaluator } from './engine.js';
import { ByteLines } from './format.js';
import type { QrelsColumns } from '../columns.js';
import { DuplicateDocnoError } from '../errors.js';
import { QueryTooLargeError, RunGrouper, RunNotGroupedError } from '../grouper.js';
import { readFileCarrying } from '../text.js';

/** A query that cannot be measured: a docno repeated in its run lines or in its judgments. */
export interface PartFailure {
  /** Index of the query in the qrels. */
  query: number;
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

/**
 * Measures the run's bytes [start, end) (a whole number of lines) against `qrels`. A query that comes
 * back after another query's lines, or that spans more than `maxCarry` characters, ends the part
 * with `grouped: false`. Format errors and read errors are thrown, with line numbers counted from
 * the part's first line.
 */
export function measureRunRange(
  path: string,
  start: number,
  end: number,
  qrels: QrelsColumns,
  evaluator: TrecEvaluator,
  maxCarry: number,
  onBytes?: (bytes: number) => void,
): PartOutcome {
  const rowCount = evaluator.rowCount;
  const outcome = emptyOutcome(qrels, rowCount);
  // Room for the part's lines at once (-q prints about a quarter of the run's bytes with 30 rows and
  // 100 hits a query): growing would copy them, and fresh pages are what a large run costs most.
  const lines = evaluator.printsQueries
    ? new ByteLines(Math.max(1 << 16, Math.ceil(((Number.isFinite(end) ? end : statSync(path).size) - start) / 3)))
    : undefined;
  if (lines !== undefined) outcome.lineSpans = new Int32Array(qrels.queryIds.length * 2);
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
        outcome.failures.push({ query: index, inRun: error.source === 'run', error });
      }
    },
    { maxCarry },
  );
  try {
    readFileCarrying(
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
    outcome.grouped = false;
  }
  outcome.linesRead = grouper.linesRead;
  if (lines !== undefined) outcome.lineBytes = lines.bytes.subarray(0, lines.length);
  return outcome;
}
