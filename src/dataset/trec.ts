// TREC qrels and run files: fast readers, a streaming reader grouped by query, and atomic writers.
//
// The readers scan the whole text with indexOf/charCodeAt: no regex and no split per line, so a
// 2-million-line run parses in a fraction of a second. Column layout follows trec_eval:
//   qrels: qid iter docno rel            run: qid Q0 docno rank score tag
// Columns are separated by any run of spaces or tabs (or \v, \f, \r: C's isspace, as trec_eval);
// `\r\n` line ends and blank lines are accepted.

import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';

import { writeFileAtomic } from './atomic-write.js';
import { STRING_SOURCE_NAME, TrecFormatError } from './errors.js';

export { TrecFormatError } from './errors.js';

/** query id → doc id → grade. Insertion order is file order. */
export type Qrels = Map<string, Map<string, number>>;

export interface RunEntry {
  docId: string;
  score: number;
  rank: number;
}

/** query id → entries in file order (not sorted: ranking by score is the metric core's job). */
export type TrecRun = Map<string, RunEntry[]>;

export interface TrecParseOptions {
  /** Name used in error messages; `<string>` when omitted. */
  file?: string;
}

export interface RunQueryGroup {
  queryId: string;
  entries: RunEntry[];
}

/** A file path, or any async iterable of text or bytes (a Node readable stream is one): no Node types in the public API. */
export type RunStreamSource = string | AsyncIterable<string | Uint8Array>;

export interface FormatRunOptions {
  /** Run tag written in the sixth column. */
  tag?: string;
}

const QRELS_LAYOUT = 'qid iter docno rel';
const QRELS_COLUMN_COUNT = 4;
const RUN_LAYOUT = 'qid Q0 docno rank score tag';
const RUN_COLUMN_COUNT = 6;
const DEFAULT_RUN_TAG = 'rag-matchers';

const CHAR_TAB = 9;
const CHAR_CARRIAGE_RETURN = 13;
const CHAR_SPACE = 32;
const CHAR_PLUS = 43;
const CHAR_MINUS = 45;
const CHAR_DOT = 46;
const CHAR_ZERO = 48;
const CHAR_NINE = 57;
const CHAR_UPPER_E = 69;
const CHAR_LOWER_E = 101;
const BYTE_ORDER_MARK = 0xfeff;

// ---------------------------------------------------------------------------------------------
// Line scanning
// ---------------------------------------------------------------------------------------------

/** Start/end offsets of the columns of one line; reused for every line to avoid allocation. */
class ColumnSpans {
  readonly starts: Int32Array;
  readonly ends: Int32Array;

  constructor(capacity: number) {
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  start(column: number): number {
    return this.starts[column] as number;
  }

  end(column: number): number {
    return this.ends[column] as number;
  }
}

/** C's isspace(), as trec_eval splits columns (a line holds no `\n`); `\r` being one makes `\r\n` line ends work. */
function isColumnSeparator(charCode: number): boolean {
  return charCode === CHAR_SPACE || (charCode >= CHAR_TAB && charCode <= CHAR_CARRIAGE_RETURN);
}

/** Records the columns of text[lineStart, lineEnd) in `spans` (up to its capacity) and returns how many there are. */
function splitColumns(text: string, lineStart: number, lineEnd: number, spans: ColumnSpans): number {
  const capacity = spans.starts.length;
  let columnCount = 0;
  let position = lineStart;
  while (position < lineEnd) {
    if (isColumnSeparator(text.charCodeAt(position))) {
      position++;
      continue;
    }
    const columnStart = position;
    do position++;
    while (position < lineEnd && !isColumnSeparator(text.charCodeAt(position)));
    if (columnCount < capacity) {
      spans.starts[columnCount] = columnStart;
      spans.ends[columnCount] = position;
    }
    columnCount++;
  }
  return columnCount;
}

/** Offset where the first line starts: after a UTF-8 byte order mark, if any. */
function firstLineStart(text: string): number {
  return text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
}

/** End of the line starting at lineStart (offset of its `\n`, or the text's end). */
function lineEndFrom(text: string, lineStart: number): number {
  const newline = text.indexOf('\n', lineStart);
  return newline === -1 ? text.length : newline;
}

/** True when text[start, end) equals `candidate`, without allocating a substring. */
function spanEquals(text: string, start: number, end: number, candidate: string): boolean {
  return end - start === candidate.length && text.startsWith(candidate, start);
}

/** Integer value of text[start, end) (optional sign, decimal digits), or NaN. */
export function parseIntegerSpan(text: string, start: number, end: number): number {
  let position = start;
  const first = text.charCodeAt(position);
  if (first === CHAR_MINUS || first === CHAR_PLUS) position++;
  if (position === end) return Number.NaN;
  let value = 0;
  for (; position < end; position++) {
    const digit = text.charCodeAt(position) - CHAR_ZERO;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  if (value > Number.MAX_SAFE_INTEGER) return Number.NaN;
  return first === CHAR_MINUS ? -value : value;
}

function isDecimalNumberChar(charCode: number): boolean {
  return (
    (charCode >= CHAR_ZERO && charCode <= CHAR_NINE) ||
    charCode === CHAR_DOT ||
    charCode === CHAR_MINUS ||
    charCode === CHAR_PLUS ||
    charCode === CHAR_LOWER_E ||
    charCode === CHAR_UPPER_E
  );
}

/** Exact powers of ten as doubles: 10^0 … 10^22 are all representable without rounding. */
const EXACT_POWERS_OF_TEN = Array.from({ length: 23 }, (_, exponent) => Number(`1e${exponent}`));
const MAX_EXACT_POWER = 22;

/**
 * Decimal number in text[start, end) (as C's strtod reads `1.5`, `-2`, `1.5e-3`), or NaN.
 * Only decimal notation is accepted: `Number` alone would also take `0x1F`, `0b1` and `Infinity`.
 *
 * Fast path without allocating a substring: when the digits form an integer m ≤ 2^53 and the decimal
 * exponent p satisfies |p| ≤ 22, m and 10^|p| are exact doubles, so one multiplication or division
 * gives the correctly rounded result (Clinger's fast path) — the same double as strtod or Number.
 * Anything else (more than 15–16 significant digits, huge exponents) goes through Number.
 */
function parseDecimalSpan(text: string, start: number, end: number): number {
  let position = start;
  let charCode = text.charCodeAt(position);
  const negative = charCode === CHAR_MINUS;
  if (negative || charCode === CHAR_PLUS) position++;
  let mantissa = 0;
  let digitCount = 0;
  let fractionDigitCount = 0;
  for (; position < end; position++) {
    charCode = text.charCodeAt(position);
    const digit = charCode - CHAR_ZERO;
    if (digit < 0 || digit > 9) break;
    mantissa = mantissa * 10 + digit;
    digitCount++;
  }
  if (position < end && charCode === CHAR_DOT) {
    for (position++; position < end; position++) {
      charCode = text.charCodeAt(position);
      const digit = charCode - CHAR_ZERO;
      if (digit < 0 || digit > 9) break;
      mantissa = mantissa * 10 + digit;
      digitCount++;
      fractionDigitCount++;
    }
  }
  let exponent = 0;
  if (digitCount > 0 && position < end && (charCode === CHAR_LOWER_E || charCode === CHAR_UPPER_E)) {
    const exponentValue = parseIntegerSpan(text, position + 1, end);
    if (Number.isNaN(exponentValue)) return parseDecimalSlow(text, start, end);
    exponent = exponentValue;
    position = end;
  }
  if (digitCount === 0 || position !== end || mantissa > Number.MAX_SAFE_INTEGER) {
    return parseDecimalSlow(text, start, end);
  }
  const power = exponent - fractionDigitCount;
  let magnitude: number;
  if (power === 0) magnitude = mantissa;
  else if (power > 0 && power <= MAX_EXACT_POWER) magnitude = mantissa * (EXACT_POWERS_OF_TEN[power] as number);
  else if (power < 0 && power >= -MAX_EXACT_POWER) magnitude = mantissa / (EXACT_POWERS_OF_TEN[-power] as number);
  else return parseDecimalSlow(text, start, end);
  return negative ? -magnitude : magnitude;
}

function parseDecimalSlow(text: string, start: number, end: number): number {
  for (let position = start; position < end; position++) {
    if (!isDecimalNumberChar(text.charCodeAt(position))) return Number.NaN;
  }
  return Number(text.slice(start, end));
}

// ---------------------------------------------------------------------------------------------
// Error construction
// ---------------------------------------------------------------------------------------------

interface LineLocation {
  file: string;
  text: string;
  lineStart: number;
  lineEnd: number;
  lineNumber: number;
}

function formatErrorAt(location: LineLocation, problem: string): TrecFormatError {
  const lineText = location.text.slice(location.lineStart, location.lineEnd).replace(/\r$/, '');
  return new TrecFormatError({ file: location.file, lineNumber: location.lineNumber, lineText, problem });
}

function columnCountProblem(layout: string, expected: number, found: number): string {
  return `expected ${expected} columns (${layout}), found ${found}`;
}

function numberProblem(text: string, spans: ColumnSpans, column: number, label: string, value: number): string {
  const shown = text.slice(spans.start(column), spans.end(column));
  return Number.isNaN(value) ? `${label} '${shown}' is not a number` : `${label} '${shown}' is not a finite number`;
}

// ---------------------------------------------------------------------------------------------
// Run lines
// ---------------------------------------------------------------------------------------------

/** Parses one run line at a time; after `parseLine` returns true its fields hold the line's values. */
class RunLineParser {
  readonly spans = new ColumnSpans(RUN_COLUMN_COUNT);
  queryStart = 0;
  queryEnd = 0;
  docStart = 0;
  docEnd = 0;
  rank = 0;
  score = 0;
  /** The text of the last line parsed (doc ids are sliced from it on demand). */
  private text = '';

  constructor(readonly file: string) {}

  /** False for a blank line; throws TrecFormatError for a malformed one. */
  parseLine(text: string, lineStart: number, lineEnd: number, lineNumber: number): boolean {
    const spans = this.spans;
    const columnCount = splitColumns(text, lineStart, lineEnd, spans);
    if (columnCount === 0) return false;
    if (columnCount !== RUN_COLUMN_COUNT) {
      this.fail(text, lineStart, lineEnd, lineNumber, columnCountProblem(RUN_LAYOUT, RUN_COLUMN_COUNT, columnCount));
    }
    const rank = parseIntegerSpan(text, spans.start(3), spans.end(3));
    if (Number.isNaN(rank)) {
      const shown = text.slice(spans.start(3), spans.end(3));
      this.fail(text, lineStart, lineEnd, lineNumber, `rank '${shown}' is not an integer`);
    }
    const score = parseDecimalSpan(text, spans.start(4), spans.end(4));
    if (!Number.isFinite(score)) {
      this.fail(text, lineStart, lineEnd, lineNumber, numberProblem(text, spans, 4, 'score', score));
    }
    this.text = text;
    this.queryStart = spans.start(0);
    this.queryEnd = spans.end(0);
    this.docStart = spans.start(2);
    this.docEnd = spans.end(2);
    this.rank = rank;
    this.score = score;
    return true;
  }

  entry(): RunEntry {
    return { docId: this.text.slice(this.docStart, this.docEnd), score: this.score, rank: this.rank };
  }

  fail(text: string, lineStart: number, lineEnd: number, lineNumber: number, problem: string): never {
    throw formatErrorAt({ file: this.file, text, lineStart, lineEnd, lineNumber }, problem);
  }
}

/**
 * Parses a TREC run (`qid Q0 docno rank score tag`). Entries keep file order; duplicates are kept.
 * Throws TrecFormatError naming file, line and problem.
 */
export function parseRun(text: string, options: TrecParseOptions = {}): TrecRun {
  const parser = new RunLineParser(options.file ?? STRING_SOURCE_NAME);
  const run: TrecRun = new Map();
  let currentQueryId = '';
  let currentEntries: RunEntry[] | undefined;
  let lineNumber = 0;
  for (let lineStart = firstLineStart(text); lineStart < text.length; ) {
    const lineEnd = lineEndFrom(text, lineStart);
    lineNumber++;
    if (parser.parseLine(text, lineStart, lineEnd, lineNumber)) {
      if (currentEntries === undefined || !spanEquals(text, parser.queryStart, parser.queryEnd, currentQueryId)) {
        currentQueryId = text.slice(parser.queryStart, parser.queryEnd);
        currentEntries = entriesOf(run, currentQueryId);
      }
      currentEntries.push(parser.entry());
    }
    lineStart = lineEnd + 1;
  }
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

/** Reads and parses a whole run file. */
export async function readRunFile(path: string): Promise<TrecRun> {
  return parseRun(await readFile(path, 'utf8'), { file: path });
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
  const parser = new RunLineParser(options.file ?? STRING_SOURCE_NAME);
  let capacity = 16;
  for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', newline + 1)) capacity++;
  const queryIds: string[] = [];
  const queryIndexOf = new Map<string, number>();
  const queryIndex = new Int32Array(capacity);
  const docStart = new Int32Array(capacity);
  const docEnd = new Int32Array(capacity);
  const rank = new Float64Array(capacity);
  const score = new Float64Array(capacity);
  let count = 0;
  let currentQuery = -1;
  let currentQueryId = '';
  let lineNumber = 0;
  for (let lineStart = firstLineStart(text); lineStart < text.length; ) {
    const lineEnd = lineEndFrom(text, lineStart);
    lineNumber++;
    if (parser.parseLine(text, lineStart, lineEnd, lineNumber)) {
      if (currentQuery === -1 || !spanEquals(text, parser.queryStart, parser.queryEnd, currentQueryId)) {
        currentQueryId = text.slice(parser.queryStart, parser.queryEnd);
        let index = queryIndexOf.get(currentQueryId);
        if (index === undefined) {
          index = queryIds.length;
          queryIds.push(currentQueryId);
          queryIndexOf.set(currentQueryId, index);
        }
        currentQuery = index;
      }
      queryIndex[count] = currentQuery;
      docStart[count] = parser.docStart;
      docEnd[count] = parser.docEnd;
      rank[count] = parser.rank;
      score[count] = parser.score;
      count++;
    }
    lineStart = lineEnd + 1;
  }
  return { text, count, queryIds, queryIndex, docStart, docEnd, rank, score };
}

/** Reads and parses a whole run file into columns (see parseRunColumns). */
export async function readRunColumnsFile(path: string): Promise<TrecRunColumns> {
  return parseRunColumns(await readFile(path, 'utf8'), { file: path });
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
    (entriesByQuery[columns.queryIndex[entry] as number] as RunEntry[]).push({ docId, score: columns.score[entry] as number, rank: columns.rank[entry] as number });
  }
  return new Map(columns.queryIds.map((queryId, index) => [queryId, entriesByQuery[index] as RunEntry[]]));
}

// ---------------------------------------------------------------------------------------------
// Streaming runs, one query at a time
// ---------------------------------------------------------------------------------------------

interface OpenGroup extends RunQueryGroup {
  lastLineNumber: number;
}

/**
 * Groups parsed run lines by query. Holds one query's entries at a time, plus the ids (and last
 * line numbers) of finished queries so that a query id that comes back is reported, not split.
 */
class RunQueryGrouper {
  private readonly parser: RunLineParser;
  private readonly finishedQueryLastLines = new Map<string, number>();
  private openGroup: OpenGroup | undefined;
  lineNumber = 0;

  constructor(file: string) {
    this.parser = new RunLineParser(file);
  }

  /**
   * Consumes the lines that start in text[from, to) (`to` is just past a `\n`, or the end of input);
   * yields each query whose lines are complete.
   */
  *acceptLines(text: string, from: number, to: number): Generator<RunQueryGroup> {
    for (let lineStart = from; lineStart < to; ) {
      const newline = text.indexOf('\n', lineStart);
      const lineEnd = newline === -1 || newline >= to ? to : newline;
      this.lineNumber++;
      const finished = this.acceptLine(text, lineStart, lineEnd);
      if (finished !== undefined) yield finished;
      lineStart = lineEnd + 1;
    }
  }

  /** The last query, once the input has ended. */
  finish(): RunQueryGroup | undefined {
    const last = this.openGroup;
    this.openGroup = undefined;
    return last === undefined ? undefined : { queryId: last.queryId, entries: last.entries };
  }

  private acceptLine(text: string, lineStart: number, lineEnd: number): RunQueryGroup | undefined {
    const parser = this.parser;
    const lineNumber = this.lineNumber;
    if (!parser.parseLine(text, lineStart, lineEnd, lineNumber)) return undefined;
    const open = this.openGroup;
    if (open !== undefined && spanEquals(text, parser.queryStart, parser.queryEnd, open.queryId)) {
      open.entries.push(parser.entry());
      open.lastLineNumber = lineNumber;
      return undefined;
    }
    const queryId = text.slice(parser.queryStart, parser.queryEnd);
    const earlierLastLine = this.finishedQueryLastLines.get(queryId);
    if (earlierLastLine !== undefined && open !== undefined) {
      const problem = notGroupedProblem(queryId, open.queryId, earlierLastLine);
      parser.fail(text, lineStart, lineEnd, lineNumber, problem);
    }
    this.openGroup = { queryId, entries: [parser.entry()], lastLineNumber: lineNumber };
    if (open === undefined) return undefined;
    this.finishedQueryLastLines.set(open.queryId, open.lastLineNumber);
    return { queryId: open.queryId, entries: open.entries };
  }
}

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
  return source;
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
  const grouper = new RunQueryGrouper(file);
  const decoder = new TextDecoder('utf-8');
  let pendingParts: string[] = [];
  let atStart = true;
  for await (const chunk of openRunSource(source)) {
    let decoded = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (decoded.length === 0) continue;
    if (atStart) {
      decoded = decoded.slice(firstLineStart(decoded));
      atStart = false;
    }
    const lastNewline = decoded.lastIndexOf('\n');
    pendingParts.push(decoded);
    if (lastNewline === -1) continue; // no complete line yet: keep collecting (no quadratic re-joining)
    const text = pendingParts.length === 1 ? decoded : pendingParts.join('');
    const completeLinesEnd = text.length - decoded.length + lastNewline + 1;
    yield* grouper.acceptLines(text, 0, completeLinesEnd);
    const rest = text.slice(completeLinesEnd);
    pendingParts = rest.length === 0 ? [] : [rest];
  }
  pendingParts.push(decoder.decode());
  const rest = pendingParts.join('');
  yield* grouper.acceptLines(rest, atStart ? firstLineStart(rest) : 0, rest.length);
  const last = grouper.finish();
  if (last !== undefined) yield last;
}

// ---------------------------------------------------------------------------------------------
// Qrels
// ---------------------------------------------------------------------------------------------

/** Parses qrels columns; the values of the last parsed line are in its fields. */
class QrelsLineParser {
  readonly spans = new ColumnSpans(QRELS_COLUMN_COUNT);
  grade = 0;

  constructor(readonly file: string) {}

  /** False for a blank line; throws TrecFormatError for a malformed one. */
  parseLine(text: string, lineStart: number, lineEnd: number, lineNumber: number): boolean {
    const spans = this.spans;
    const columnCount = splitColumns(text, lineStart, lineEnd, spans);
    if (columnCount === 0) return false;
    if (columnCount !== QRELS_COLUMN_COUNT) {
      const problem = columnCountProblem(QRELS_LAYOUT, QRELS_COLUMN_COUNT, columnCount);
      throw formatErrorAt({ file: this.file, text, lineStart, lineEnd, lineNumber }, problem);
    }
    const grade = parseDecimalSpan(text, spans.start(3), spans.end(3));
    if (!Number.isFinite(grade)) {
      const problem = numberProblem(text, spans, 3, 'relevance grade', grade);
      throw formatErrorAt({ file: this.file, text, lineStart, lineEnd, lineNumber }, problem);
    }
    this.grade = grade;
    return true;
  }
}

/**
 * Parses TREC qrels (`qid iter docno rel`; rel an integer or decimal, possibly negative).
 * A docno judged twice for one query is an error, as in trec_eval.
 */
export function parseQrels(text: string, options: TrecParseOptions = {}): Qrels {
  const file = options.file ?? STRING_SOURCE_NAME;
  const parser = new QrelsLineParser(file);
  const spans = parser.spans;
  const qrels: Qrels = new Map();
  let currentQueryId = '';
  let currentJudgments: Map<string, number> | undefined;
  let lineNumber = 0;
  for (let lineStart = firstLineStart(text); lineStart < text.length; ) {
    const lineEnd = lineEndFrom(text, lineStart);
    lineNumber++;
    if (parser.parseLine(text, lineStart, lineEnd, lineNumber)) {
      if (currentJudgments === undefined || !spanEquals(text, spans.start(0), spans.end(0), currentQueryId)) {
        currentQueryId = text.slice(spans.start(0), spans.end(0));
        currentJudgments = judgmentsOf(qrels, currentQueryId);
      }
      const docId = text.slice(spans.start(2), spans.end(2));
      if (currentJudgments.has(docId)) {
        const firstLine = findQrelsLine(text, currentQueryId, docId);
        const problem = `duplicate docno '${docId}' for query '${currentQueryId}' (first on line ${firstLine})`;
        throw formatErrorAt({ file, text, lineStart, lineEnd, lineNumber }, problem);
      }
      currentJudgments.set(docId, parser.grade);
    }
    lineStart = lineEnd + 1;
  }
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

/** Line number of the first judgment of docId for queryId (only called to explain a duplicate). */
function findQrelsLine(text: string, queryId: string, docId: string): number {
  const spans = new ColumnSpans(QRELS_COLUMN_COUNT);
  let lineNumber = 0;
  for (let lineStart = firstLineStart(text); lineStart < text.length; ) {
    const lineEnd = lineEndFrom(text, lineStart);
    lineNumber++;
    const columnCount = splitColumns(text, lineStart, lineEnd, spans);
    if (
      columnCount === QRELS_COLUMN_COUNT &&
      spanEquals(text, spans.start(0), spans.end(0), queryId) &&
      spanEquals(text, spans.start(2), spans.end(2), docId)
    ) {
      return lineNumber;
    }
    lineStart = lineEnd + 1;
  }
  return Number.NaN;
}

/** Reads and parses a qrels file. */
export async function readQrelsFile(path: string): Promise<Qrels> {
  return parseQrels(await readFile(path, 'utf8'), { file: path });
}

// ---------------------------------------------------------------------------------------------
// Writers
// ---------------------------------------------------------------------------------------------

/** Formats qrels as `qid 0 docno rel` lines. Throws TypeError/RangeError for ids or grades TREC cannot hold. */
export function formatQrels(qrels: Qrels): string {
  let output = '';
  for (const [queryId, judgments] of qrels) {
    assertTrecColumn('formatQrels', 'query id', queryId, '');
    for (const [docId, grade] of judgments) {
      assertTrecColumn('formatQrels', 'doc id', docId, ` in query '${queryId}'`);
      assertFiniteNumber('formatQrels', 'grade', grade, ` of doc '${docId}' in query '${queryId}'`);
      output += `${queryId} 0 ${docId} ${formatNumber(grade)}\n`;
    }
  }
  return output;
}

/** Formats a run as `qid Q0 docno rank score tag` lines, in stored order with stored ranks. */
export function formatRun(run: TrecRun, options: FormatRunOptions = {}): string {
  const tag = options.tag ?? DEFAULT_RUN_TAG;
  assertTrecColumn('formatRun', 'tag', tag, '');
  let output = '';
  for (const [queryId, entries] of run) {
    assertTrecColumn('formatRun', 'query id', queryId, '');
    for (const { docId, rank, score } of entries) {
      assertTrecColumn('formatRun', 'doc id', docId, ` in query '${queryId}'`);
      assertInteger('formatRun', 'rank', rank, ` of doc '${docId}' in query '${queryId}'`);
      assertFiniteNumber('formatRun', 'score', score, ` of doc '${docId}' in query '${queryId}'`);
      output += `${queryId} Q0 ${docId} ${rank} ${formatNumber(score)} ${tag}\n`;
    }
  }
  return output;
}

/** Writes qrels atomically (temp file + rename). */
export async function writeQrelsFile(path: string, qrels: Qrels): Promise<void> {
  await writeFileAtomic(path, formatQrels(qrels));
}

/** Writes a run atomically (temp file + rename). */
export async function writeRunFile(path: string, run: TrecRun, options: FormatRunOptions = {}): Promise<void> {
  await writeFileAtomic(path, formatRun(run, options));
}

/** Shortest text that parses back to the same double (String() drops the sign of -0). */
function formatNumber(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

function assertTrecColumn(caller: string, label: string, value: unknown, where: string): void {
  if (typeof value !== 'string') {
    throw new TypeError(`${caller}: ${label} ${String(value)}${where} must be a string; convert it with String()`);
  }
  if (value.length === 0 || containsSeparatorOrControl(value)) {
    throw new RangeError(
      `${caller}: ${label} ${JSON.stringify(value)}${where} is empty or contains whitespace/control characters, ` +
        `which TREC files use as separators; use a non-empty id without spaces (e.g. replace them with '_')`,
    );
  }
}

function containsSeparatorOrControl(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const charCode = value.charCodeAt(index);
    if (charCode <= CHAR_SPACE || charCode === 0x7f) return true;
  }
  return false;
}

function assertFiniteNumber(caller: string, label: string, value: unknown, where: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`${caller}: ${label} ${String(value)}${where} is not a finite number; give a finite number`);
  }
}

function assertInteger(caller: string, label: string, value: unknown, where: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new RangeError(`${caller}: ${label} ${String(value)}${where} is not an integer; give an integer rank`);
  }
}
