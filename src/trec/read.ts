// The library's TREC readers: qrels and runs as Maps, runs as columns, runs streamed by query.
// Every line is read by grammar.ts (the one TREC grammar, strict by default; `grammar: 'trec_eval'`
// reads what trec_eval 10 reads). No regex and no split per line: a 2-million-line run parses in a
// fraction of a second.

import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';

import { STRING_SOURCE_NAME } from '../files/format-error.js';
import { TrecFormatError } from './errors.js';
import { RunColumnsBuilder, type SpanQuery } from './columns.js';
import {
  firstLineStart,
  formatError,
  scanQrelsLines,
  scanRunLines,
  type QrelsLine,
  type RunLine,
  type TrecGrammar,
} from './grammar.js';
import { RunGrouper } from './grouper.js';
import { parseIntegerSpan } from './number.js';
import { decodeText, LineChunker } from './text.js';

/** query id → doc id → grade. Insertion order is file order. */
export type Qrels = Map<string, Map<string, number>>;

export interface RunEntry {
  docId: string;
  score: number;
  /** The rank column; NaN when `grammar: 'trec_eval'` let a rank that is not an integer through. */
  rank: number;
}

/** query id → entries in file order (not sorted: ranking by score is the metric core's job). */
export type TrecRun = Map<string, RunEntry[]>;

export interface TrecParseOptions {
  /** Name used in error messages; `<string>` when omitted. */
  file?: string;
  /**
   * 'strict' (default): exactly six run columns, an integer rank, no comment lines, decimal grades.
   * 'trec_eval': what trec_eval 10 reads — `#` lines skipped, run columns after the sixth ignored,
   * any rank, integer grades, a blank qrels line an error. See docs/datasets.md.
   */
  grammar?: TrecGrammar;
}

export interface RunQueryGroup {
  queryId: string;
  entries: RunEntry[];
}

/** A file path, or any async iterable of text or bytes (a Node readable stream is one): no Node types in the public API. */
export type RunStreamSource = string | AsyncIterable<string | Uint8Array>;

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

/**
 * Parses a TREC run (`qid Q0 docno rank score tag`). Entries keep file order; duplicates are kept.
 * Throws TrecFormatError naming file, line and problem.
 */
export function parseRun(text: string, options: TrecParseOptions = {}): TrecRun {
  const run: TrecRun = new Map();
  let currentQueryId = '';
  let currentEntries: RunEntry[] | undefined;
  const sink = {
    entry(lineText: string, line: RunLine): void {
      const { queryStart, queryEnd } = line;
      if (
        currentEntries === undefined ||
        queryEnd - queryStart !== currentQueryId.length ||
        !lineText.startsWith(currentQueryId, queryStart)
      ) {
        currentQueryId = lineText.slice(queryStart, queryEnd);
        currentEntries = entriesOf(run, currentQueryId);
      }
      const rank = parseIntegerSpan(lineText, line.rankStart, line.rankEnd);
      currentEntries.push({ docId: lineText.slice(line.docStart, line.docEnd), score: line.score, rank });
    },
  };
  scanRunLines(
    text,
    firstLineStart(text),
    text.length,
    1,
    options.file ?? STRING_SOURCE_NAME,
    options.grammar ?? 'strict',
    sink,
  );
  return run;
}

function entriesOf(run: TrecRun, queryId: string): RunEntry[] {
  let entries = run.get(queryId);
  if (entries === undefined) {
    entries = [];
    run.set(queryId, entries);
  }
  return entries;
}

/** A whole file as text, or an error naming it when it cannot be held in one string. */
async function readWholeFile(path: string): Promise<string> {
  return decodeText(await readFile(path), path);
}

/** Reads and parses a whole run file. */
export async function readRunFile(path: string, options: Omit<TrecParseOptions, 'file'> = {}): Promise<TrecRun> {
  return parseRun(await readWholeFile(path), { ...options, file: path });
}

/**
 * A run as columns: typed arrays over the parsed text, no object or string per line. Entry `i` (file
 * order) belongs to query `queryIds[queryIndex[i]]`, its doc id is `text.slice(docStart[i], docEnd[i])`
 * (runColumnDocId), its rank and score are `rank[i]` and `score[i]`.
 */
export interface TrecRunColumns {
  text: string;
  /** Entries (non-blank lines). */
  count: number;
  /** Query ids, in order of first appearance. */
  queryIds: string[];
  queryIndex: Int32Array;
  docStart: Int32Array;
  docEnd: Int32Array;
  rank: Float64Array;
  score: Float64Array;
}

/**
 * Parses a TREC run into columns: what to use for large runs (millions of lines), where parseRun's
 * object per line costs most of the time and several times the memory. Same rules and errors as parseRun.
 */
export function parseRunColumns(text: string, options: TrecParseOptions = {}): TrecRunColumns {
  const builder = new RunColumnsBuilder(
    options.file ?? STRING_SOURCE_NAME,
    text.length,
    options.grammar ?? 'strict',
    true,
  );
  builder.accept(text);
  const columns = builder.finish();
  return {
    text,
    count: columns.count,
    queryIds: columns.queryIds,
    queryIndex: columns.entryQuery,
    docStart: columns.docStart,
    docEnd: columns.docEnd as Int32Array,
    rank: columns.rank as Float64Array,
    score: columns.score,
  };
}

/** Reads and parses a whole run file into columns (see parseRunColumns). */
export async function readRunColumnsFile(
  path: string,
  options: Omit<TrecParseOptions, 'file'> = {},
): Promise<TrecRunColumns> {
  return parseRunColumns(await readWholeFile(path), { ...options, file: path });
}

/** The doc id of entry `entry` of a columnar run. */
export function runColumnDocId(columns: TrecRunColumns, entry: number): string {
  return columns.text.slice(columns.docStart[entry] as number, columns.docEnd[entry] as number);
}

/** A columnar run as parseRun returns it: query id → entries in file order. */
export function runFromColumns(columns: TrecRunColumns): TrecRun {
  const entriesByQuery = columns.queryIds.map((): RunEntry[] => []);
  for (let entry = 0; entry < columns.count; entry++) {
    const docId = runColumnDocId(columns, entry);
    (entriesByQuery[columns.queryIndex[entry] as number] as RunEntry[]).push({
      docId,
      score: columns.score[entry] as number,
      rank: columns.rank[entry] as number,
    });
  }
  return new Map(columns.queryIds.map((queryId, index) => [queryId, entriesByQuery[index] as RunEntry[]]));
}

// ---------------------------------------------------------------------------------------------
// Streaming runs, one query at a time
// ---------------------------------------------------------------------------------------------

function notGroupedProblem(queryId: string, previousQueryId: string, earlierLastLine: number): string {
  return (
    `run is not grouped by query: query '${queryId}' appears again after query '${previousQueryId}' ` +
    `(its earlier lines end on line ${earlierLastLine}). streamRunByQuery() needs all lines of a query ` +
    `together: sort the file by query id keeping line order (e.g. \`sort -s -k1,1 run > run.sorted\`), ` +
    `or read the whole file with readRunFile()/parseRun() instead of streaming`
  );
}

function openRunSource(source: RunStreamSource): AsyncIterable<string | Uint8Array> {
  if (typeof source === 'string') return createReadStream(source, { highWaterMark: 1 << 20 });
  return source as AsyncIterable<string | Uint8Array>;
}

function groupOf(query: SpanQuery): RunQueryGroup {
  const entries = new Array<RunEntry>(query.count);
  for (let index = 0; index < query.count; index++) {
    entries[index] = {
      docId: query.text.slice(query.docStart[index] as number, query.docEnd[index] as number),
      score: query.score[index] as number,
      rank: (query.rank as Float64Array)[index] as number,
    };
  }
  return { queryId: query.queryId, entries };
}

/**
 * Streams a run grouped by query: yields `{ queryId, entries }` for each query in file order while
 * holding only one query's entries. `source` is a file path, a Node readable stream or any async
 * iterable of strings/bytes (UTF-8; chunks may split lines and multi-byte characters anywhere).
 * Throws TrecFormatError for a malformed line, or when a query id comes back after another query's
 * lines (the run is not grouped by query).
 */
export async function* streamRunByQuery(
  source: RunStreamSource,
  options: TrecParseOptions = {},
): AsyncGenerator<RunQueryGroup, void, undefined> {
  const file = options.file ?? (typeof source === 'string' ? source : STRING_SOURCE_NAME);
  const ready: RunQueryGroup[] = [];
  const grouper = new RunGrouper(file, (query) => ready.push(groupOf(query)), {
    grammar: options.grammar ?? 'strict',
    keepRanks: true,
    notGroupedProblem,
  });
  const chunker = new LineChunker(
    (text) => grouper.accept(text),
    file,
    () => grouper.linesRead + 1,
  );
  // The queries completed before a bad line are yielded before its error is thrown.
  let failure: { error: unknown } | undefined;
  const consume = (chunk: string | Uint8Array | undefined): void => {
    try {
      if (chunk === undefined) {
        chunker.end();
        grouper.finish();
      } else if (typeof chunk === 'string') chunker.text(chunk);
      else chunker.bytes(chunk);
    } catch (error) {
      failure = { error };
    }
  };
  for await (const chunk of openRunSource(source)) {
    consume(chunk);
    yield* ready.splice(0);
    if (failure !== undefined) throw failure.error;
  }
  consume(undefined);
  yield* ready.splice(0);
  if (failure !== undefined) throw failure.error;
}

// ---------------------------------------------------------------------------------------------
// Qrels
// ---------------------------------------------------------------------------------------------

/**
 * Parses TREC qrels (`qid iter docno rel`; rel an integer or decimal, possibly negative; an integer
 * with `grammar: 'trec_eval'`). A docno judged twice for one query is an error, as in trec_eval.
 */
export function parseQrels(text: string, options: TrecParseOptions = {}): Qrels {
  const file = options.file ?? STRING_SOURCE_NAME;
  const grammar = options.grammar ?? 'strict';
  const qrels: Qrels = new Map();
  let currentQueryId = '';
  let currentJudgments: Map<string, number> | undefined;
  const sink = {
    judgment(lineText: string, line: QrelsLine): void {
      const { queryStart, queryEnd } = line;
      if (
        currentJudgments === undefined ||
        queryEnd - queryStart !== currentQueryId.length ||
        !lineText.startsWith(currentQueryId, queryStart)
      ) {
        currentQueryId = lineText.slice(queryStart, queryEnd);
        currentJudgments = judgmentsOf(qrels, currentQueryId);
      }
      const docId = lineText.slice(line.docStart, line.docEnd);
      if (currentJudgments.has(docId)) {
        const firstLine = findQrelsLine(text, grammar, currentQueryId, docId);
        const problem = `duplicate docno '${docId}' for query '${currentQueryId}' (first on line ${firstLine})`;
        throw formatError(file, lineText, line.lineStart, line.lineEnd, line.lineNumber, problem);
      }
      currentJudgments.set(docId, line.grade);
    },
  };
  scanQrelsLines(text, firstLineStart(text), text.length, 1, file, grammar, sink);
  return qrels;
}

function judgmentsOf(qrels: Qrels, queryId: string): Map<string, number> {
  let judgments = qrels.get(queryId);
  if (judgments === undefined) {
    judgments = new Map();
    qrels.set(queryId, judgments);
  }
  return judgments;
}

class FoundLine extends Error {
  constructor(readonly lineNumber: number) {
    super('found');
  }
}

/** Line number of the first judgment of docId for queryId (only called to explain a duplicate). */
function findQrelsLine(text: string, grammar: TrecGrammar, queryId: string, docId: string): number {
  const sink = {
    judgment(lineText: string, line: QrelsLine): void {
      if (
        lineText.slice(line.queryStart, line.queryEnd) === queryId &&
        lineText.slice(line.docStart, line.docEnd) === docId
      ) {
        throw new FoundLine(line.lineNumber);
      }
    },
  };
  try {
    scanQrelsLines(text, firstLineStart(text), text.length, 1, STRING_SOURCE_NAME, grammar, sink);
  } catch (error) {
    if (error instanceof FoundLine) return error.lineNumber;
    if (!(error instanceof TrecFormatError)) throw error;
  }
  return Number.NaN;
}

/** Reads and parses a qrels file. */
export async function readQrelsFile(path: string, options: Omit<TrecParseOptions, 'file'> = {}): Promise<Qrels> {
  return parseQrels(await readWholeFile(path), { ...options, file: path });
}
