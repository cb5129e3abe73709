// Fast TREC readers for the `trec-eval` command, read the way trec_eval reads them.
//
// The library readers (src/dataset/trec.ts) build one object per run line; at 2,000,000 lines that
// costs more time and memory than the whole evaluation. These readers keep a run as columns: the file
// text plus typed arrays of doc-id offsets, scores and line numbers. Doc ids become strings one query
// at a time, when the query is ranked. The streaming reader holds one query at a time.
//
// Compatibility with trec_eval 10's readers (get_trec_results.c, get_qrels.c):
// - run lines: `qid Q0 docno rank score tag`; columns after the sixth are ignored; rank is ignored;
// - qrels lines: `qid iter docno rel`, exactly four columns, rel an integer;
// - separators: spaces, tabs, \r, \v, \f; blank lines and lines starting with `#` are skipped;
// - a docno repeated within one query (run or qrels) is fatal (trec_eval exits 4).
// Where trec_eval silently reads garbage (a score `abc` is 0 to atof, a grade `1.5` is 1 to atol),
// these readers stop with the file, line and problem.

import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

import { TrecFormatError } from '../dataset/errors.js';
import { compareUtf8 } from '../core/ranking.js';

const CHAR_TAB = 9;
const CHAR_VERTICAL_TAB = 11;
const CHAR_FORM_FEED = 12;
const CHAR_CARRIAGE_RETURN = 13;
const CHAR_SPACE = 32;
const CHAR_HASH = 35;
const CHAR_PLUS = 43;
const CHAR_MINUS = 45;
const CHAR_DOT = 46;
const CHAR_ZERO = 48;
const CHAR_LOWER_E = 101;
const CHAR_UPPER_E = 69;
const BYTE_ORDER_MARK = 0xfeff;

const RUN_LAYOUT = 'qid Q0 docno rank score tag';
const QRELS_LAYOUT = 'qid iter docno rel';

/** A docno that appears twice in one query's run or qrels: trec_eval's fatal error (exit 4). */
export class DuplicateDocnoError extends Error {
  constructor(
    readonly file: string,
    readonly queryId: string,
    readonly docId: string,
    readonly lineNumber: number,
    readonly firstLineNumber: number,
  ) {
    const where = Number.isFinite(lineNumber) ? `${file}:${lineNumber}` : file;
    const first = Number.isFinite(firstLineNumber) ? ` (first on line ${firstLineNumber})` : '';
    super(
      `${where}: duplicate docno '${docId}' in query '${queryId}'${first}. ` +
        `trec_eval treats a repeated document as a fatal error; remove the repeat (keep the line with the best score).`,
    );
    this.name = 'DuplicateDocnoError';
  }
}

/** C's isspace minus the newline: space, \t, \v, \f, \r. One comparison for an ordinary character. */
function isSeparator(code: number): boolean {
  return code <= CHAR_SPACE && (code === CHAR_SPACE || code === CHAR_TAB || code === CHAR_CARRIAGE_RETURN || code === CHAR_VERTICAL_TAB || code === CHAR_FORM_FEED);
}

/** Exact powers of ten: 10^0 … 10^22 are doubles without rounding. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, exponent) => Number(`1e${exponent}`));
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The decimal number in text[start, end) as strtod reads it (correctly rounded), or NaN when the
 * text is not a decimal number. Fast path (Clinger): an integer mantissa below 2^53 scaled by an
 * exact power of ten gives the correctly rounded double in one operation; anything else goes
 * through Number, which is also correctly rounded.
 */
export function parseDecimal(text: string, start: number, end: number): number {
  let position = start;
  let code = text.charCodeAt(position);
  const negative = code === CHAR_MINUS;
  if (negative || code === CHAR_PLUS) position++;
  let mantissa = 0;
  let digits = 0;
  let fractionDigits = 0;
  for (; position < end; position++) {
    code = text.charCodeAt(position) - CHAR_ZERO;
    if (code < 0 || code > 9) break;
    mantissa = mantissa * 10 + code;
    digits++;
  }
  if (position < end && text.charCodeAt(position) === CHAR_DOT) {
    for (position++; position < end; position++) {
      code = text.charCodeAt(position) - CHAR_ZERO;
      if (code < 0 || code > 9) break;
      mantissa = mantissa * 10 + code;
      digits++;
      fractionDigits++;
    }
  }
  let exponent = 0;
  if (digits > 0 && position < end) {
    const marker = text.charCodeAt(position);
    if (marker !== CHAR_LOWER_E && marker !== CHAR_UPPER_E) return Number.NaN;
    let exponentPosition = position + 1;
    const sign = text.charCodeAt(exponentPosition);
    if (sign === CHAR_MINUS || sign === CHAR_PLUS) exponentPosition++;
    if (exponentPosition === end || end - exponentPosition > 4) return slowDecimal(text, start, end);
    for (; exponentPosition < end; exponentPosition++) {
      const digit = text.charCodeAt(exponentPosition) - CHAR_ZERO;
      if (digit < 0 || digit > 9) return Number.NaN;
      exponent = exponent * 10 + digit;
    }
    if (sign === CHAR_MINUS) exponent = -exponent;
    position = end;
  }
  if (digits === 0 || position !== end) return Number.NaN;
  if (mantissa > Number.MAX_SAFE_INTEGER) return slowDecimal(text, start, end);
  const power = exponent - fractionDigits;
  let magnitude: number;
  if (power === 0) magnitude = mantissa;
  else if (power > 0 && power <= 22) magnitude = mantissa * (POWERS_OF_TEN[power] as number);
  else if (power < 0 && power >= -22) magnitude = mantissa / (POWERS_OF_TEN[-power] as number);
  else return slowDecimal(text, start, end);
  return negative ? -magnitude : magnitude;
}

function slowDecimal(text: string, start: number, end: number): number {
  const slice = text.slice(start, end);
  return DECIMAL.test(slice) ? Number(slice) : Number.NaN;
}

/** Integer in text[start, end) (optional sign, digits), or NaN. */
function parseInteger(text: string, start: number, end: number): number {
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

function formatError(file: string, text: string, lineStart: number, lineEnd: number, lineNumber: number, problem: string): TrecFormatError {
  const lineText = text.slice(lineStart, lineEnd).replace(/\r$/, '');
  return new TrecFormatError({ file, lineNumber, lineText, problem });
}

/** Number of columns in text[lineStart, lineEnd), for error messages. */
function countColumns(text: string, lineStart: number, lineEnd: number): number {
  let count = 0;
  let inColumn = false;
  for (let position = lineStart; position < lineEnd; position++) {
    const separator = isSeparator(text.charCodeAt(position));
    if (!separator && !inColumn) count++;
    inColumn = !separator;
  }
  return count;
}

// ---------------------------------------------------------------------------------------------
// Run lines
// ---------------------------------------------------------------------------------------------

/** Receives the fields of each run line; spans index into `text`. */
interface RunSink {
  entry(text: string, queryStart: number, queryEnd: number, docStart: number, docEnd: number, score: number, lineNumber: number, lineStart: number, lineEnd: number): void;
}

/** Columns of one run line, found by either scanner. */
class RunLineSpans {
  queryStart = 0;
  queryEnd = 0;
  docStart = 0;
  docEnd = 0;
  scoreStart = 0;
  scoreEnd = 0;
}

/**
 * The columns of a run line separated by spaces only (the usual layout), found with indexOf, which
 * is faster than a character loop. False when the line needs the general scanner: a column missing.
 */
function spaceSeparatedRunLine(text: string, lineStart: number, lineEnd: number, spans: RunLineSpans): boolean {
  let position = lineStart;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  spans.queryStart = position;
  let end = text.indexOf(' ', position);
  if (end === -1 || end >= lineEnd) return false;
  spans.queryEnd = end;
  position = end + 1;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  end = text.indexOf(' ', position); // Q0
  if (end === -1 || end >= lineEnd) return false;
  position = end + 1;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  spans.docStart = position;
  end = text.indexOf(' ', position);
  if (end === -1 || end >= lineEnd) return false;
  spans.docEnd = end;
  position = end + 1;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  end = text.indexOf(' ', position); // rank
  if (end === -1 || end >= lineEnd) return false;
  position = end + 1;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  spans.scoreStart = position;
  end = text.indexOf(' ', position);
  if (end === -1 || end >= lineEnd) return false;
  spans.scoreEnd = end;
  position = end + 1;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  return position < lineEnd; // a tag follows
}

/** The columns of a run line with any of trec_eval's separators. False when a column is missing. */
function generalRunLine(text: string, lineStart: number, lineEnd: number, spans: RunLineSpans): boolean {
  let position = lineStart;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  spans.queryStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  spans.queryEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++; // Q0
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  spans.docStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  spans.docEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++; // rank
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  spans.scoreStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  spans.scoreEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  return position < lineEnd; // a tag follows
}

const OTHER_SEPARATORS = /[\t\r\v\f]/;

/**
 * Parses the run lines in text[from, to) (`to` at a line end). Returns the number of lines seen
 * (blank and comment lines included), so that the caller can keep counting across chunks.
 * The rank column is ignored, as trec_eval ignores it: ranks come from the scores.
 */
function scanRunLines(text: string, from: number, to: number, firstLineNumber: number, file: string, sink: RunSink): number {
  const spans = new RunLineSpans();
  const spacesOnly = !OTHER_SEPARATORS.test(from === 0 && to === text.length ? text : text.slice(from, to));
  let lineNumber = firstLineNumber - 1;
  let lineStart = from;
  while (lineStart < to) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > to) lineEnd = to;
    lineNumber++;
    let first = lineStart;
    while (first < lineEnd && isSeparator(text.charCodeAt(first))) first++;
    if (first === lineEnd || text.charCodeAt(first) === CHAR_HASH) {
      lineStart = lineEnd + 1;
      continue;
    }
    if (!(spacesOnly && spaceSeparatedRunLine(text, lineStart, lineEnd, spans)) && !generalRunLine(text, lineStart, lineEnd, spans)) {
      const found = countColumns(text, lineStart, lineEnd);
      throw formatError(file, text, lineStart, lineEnd, lineNumber, `expected 6 columns (${RUN_LAYOUT}), found ${found}`);
    }
    const score = parseDecimal(text, spans.scoreStart, spans.scoreEnd);
    if (!Number.isFinite(score)) {
      const shown = text.slice(spans.scoreStart, spans.scoreEnd);
      const problem = Number.isNaN(score) ? `score '${shown}' is not a number` : `score '${shown}' is not a finite number`;
      throw formatError(file, text, lineStart, lineEnd, lineNumber, problem);
    }
    sink.entry(text, spans.queryStart, spans.queryEnd, spans.docStart, spans.docEnd, score, lineNumber, lineStart, lineEnd);
    lineStart = lineEnd + 1;
  }
  return lineNumber - firstLineNumber + 1;
}

/** A whole run kept as columns. Entry i belongs to query `queryIds[entryQuery[i]]`. */
export interface RunColumns {
  file: string;
  text: string;
  count: number;
  queryIds: string[];
  entryQuery: Int32Array;
  docStart: Int32Array;
  docEnd: Int32Array;
  score: Float64Array;
  lineNumber: Int32Array;
}

class RunColumnsSink implements RunSink {
  readonly queryIds: string[] = [];
  private readonly queryIndex = new Map<string, number>();
  private currentQuery = -1;
  private currentQueryId = '';
  count = 0;
  entryQuery: Int32Array;
  docStart: Int32Array;
  docEnd: Int32Array;
  score: Float64Array;
  lineNumber: Int32Array;

  constructor(capacity: number) {
    this.entryQuery = new Int32Array(capacity);
    this.docStart = new Int32Array(capacity);
    this.docEnd = new Int32Array(capacity);
    this.score = new Float64Array(capacity);
    this.lineNumber = new Int32Array(capacity);
  }

  entry(text: string, queryStart: number, queryEnd: number, docStart: number, docEnd: number, score: number, lineNumber: number): void {
    if (this.currentQuery === -1 || queryEnd - queryStart !== this.currentQueryId.length || !text.startsWith(this.currentQueryId, queryStart)) {
      const queryId = text.slice(queryStart, queryEnd);
      let index = this.queryIndex.get(queryId);
      if (index === undefined) {
        index = this.queryIds.length;
        this.queryIds.push(queryId);
        this.queryIndex.set(queryId, index);
      }
      this.currentQuery = index;
      this.currentQueryId = queryId;
    }
    const at = this.count++;
    if (at === this.entryQuery.length) this.grow();
    this.entryQuery[at] = this.currentQuery;
    this.docStart[at] = docStart;
    this.docEnd[at] = docEnd;
    this.score[at] = score;
    this.lineNumber[at] = lineNumber;
  }

  private grow(): void {
    const capacity = Math.max(16, this.entryQuery.length * 2);
    const grown = <T extends Int32Array | Float64Array>(array: T): T => {
      const next = new (array.constructor as new (length: number) => T)(capacity);
      next.set(array);
      return next;
    };
    this.entryQuery = grown(this.entryQuery);
    this.docStart = grown(this.docStart);
    this.docEnd = grown(this.docEnd);
    this.score = grown(this.score);
    this.lineNumber = grown(this.lineNumber);
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let position = text.indexOf('\n'); position !== -1; position = text.indexOf('\n', position + 1)) count++;
  return count;
}

/** Parses a whole run text into columns. */
export function parseRunColumns(text: string, file: string): RunColumns {
  const start = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
  const sink = new RunColumnsSink(countNewlines(text) + 1);
  scanRunLines(text, start, text.length, 1, file, sink);
  return {
    file,
    text,
    count: sink.count,
    queryIds: sink.queryIds,
    entryQuery: sink.entryQuery,
    docStart: sink.docStart,
    docEnd: sink.docEnd,
    score: sink.score,
    lineNumber: sink.lineNumber,
  };
}

/** Entries grouped by query: entries of query q are order[starts[q] … starts[q + 1]), in file order. */
export interface RunGroups {
  starts: Int32Array;
  order: Int32Array;
}

/** Counting sort of entries by query: O(entries), stable (file order within a query). */
function groupByQuery(entryQuery: Int32Array, count: number, queryCount: number): RunGroups {
  const starts = new Int32Array(queryCount + 1);
  for (let index = 0; index < count; index++) {
    const slot = (entryQuery[index] as number) + 1;
    starts[slot] = (starts[slot] as number) + 1;
  }
  for (let query = 0; query < queryCount; query++) starts[query + 1] = (starts[query + 1] as number) + (starts[query] as number);
  const next = starts.slice(0, queryCount);
  const order = new Int32Array(count);
  for (let index = 0; index < count; index++) {
    const query = entryQuery[index] as number;
    const position = next[query] as number;
    order[position] = index;
    next[query] = position + 1;
  }
  return { starts, order };
}

/** The run's entries grouped by query. */
export function groupRunByQuery(run: RunColumns): RunGroups {
  return groupByQuery(run.entryQuery, run.count, run.queryIds.length);
}

/** One query's retrieved documents, in file order. */
export interface QueryRun {
  queryId: string;
  docIds: string[];
  scores: ArrayLike<number>;
  /** Line number of each entry (asked for only to explain a duplicate). */
  lineNumbers: () => ArrayLike<number>;
}

/** The entries of one query of a columnar run, as strings and numbers. */
export function queryRunOf(run: RunColumns, groups: RunGroups, query: number): QueryRun {
  const from = groups.starts[query] as number;
  const to = groups.starts[query + 1] as number;
  const length = to - from;
  const { order } = groups;
  const { docStart, docEnd, text } = run;
  const docIds = new Array<string>(length);
  const first = order[from] as number;
  // A grouped run (the usual case) keeps each query's entries contiguous: view them without copying.
  let contiguous = true;
  for (let offset = 0; offset < length; offset++) {
    const entry = order[from + offset] as number;
    if (entry !== first + offset) contiguous = false;
    docIds[offset] = text.slice(docStart[entry] as number, docEnd[entry] as number);
  }
  const pick = (values: Float64Array | Int32Array): ArrayLike<number> =>
    contiguous ? values.subarray(first, first + length) : Array.from({ length }, (_, offset) => values[order[from + offset] as number] as number);
  return { queryId: run.queryIds[query] as string, docIds, scores: pick(run.score), lineNumbers: () => pick(run.lineNumber) };
}

/** True when entry a ranks above entry b: higher score, or equal score and larger docno (byte order). */
function ranksAbove(docIds: readonly string[], scores: ArrayLike<number>, a: number, b: number): boolean {
  const scoreA = scores[a] as number;
  const scoreB = scores[b] as number;
  return scoreA > scoreB || (scoreA === scoreB && compareUtf8(docIds[a] as string, docIds[b] as string) > 0);
}

/**
 * trec_eval's ranking: score descending, ties by docno descending in byte order (strcmp); the
 * rank column and the line order play no part. Returns positions into `docIds`.
 *
 * Runs usually list a query's documents best first already, so an insertion sort finishes in about
 * one pass; when the input turns out to be far from sorted it hands over to Array.prototype.sort.
 */
export function rankByScore(docIds: readonly string[], scores: ArrayLike<number>): number[] {
  const length = docIds.length;
  const order = new Array<number>(length);
  let moves = 0;
  const budget = 4 * length + 16;
  for (let index = 0; index < length; index++) {
    let position = index;
    while (position > 0 && ranksAbove(docIds, scores, index, order[position - 1] as number)) {
      order[position] = order[position - 1] as number;
      position--;
      if (++moves > budget) return sortRanking(docIds, scores);
    }
    order[position] = index;
  }
  return order;
}

function sortRanking(docIds: readonly string[], scores: ArrayLike<number>): number[] {
  const order = Array.from({ length: docIds.length }, (_, index) => index);
  order.sort((a, b) => {
    const difference = (scores[b] as number) - (scores[a] as number);
    return difference !== 0 ? difference : compareUtf8(docIds[b] as string, docIds[a] as string);
  });
  return order;
}

// ---------------------------------------------------------------------------------------------
// Qrels
// ---------------------------------------------------------------------------------------------

/** One query's judgments: doc id → integer grade, in file order. */
export interface QueryQrels {
  queryId: string;
  grades: Map<string, number>;
}

interface QrelsSink {
  judgment(text: string, queryStart: number, queryEnd: number, docStart: number, docEnd: number, grade: number, lineNumber: number, lineStart: number, lineEnd: number): void;
}

function scanQrelsLines(text: string, from: number, to: number, firstLineNumber: number, file: string, sink: QrelsSink): number {
  let lineNumber = firstLineNumber - 1;
  let lineStart = from;
  while (lineStart < to) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > to) lineEnd = to;
    lineNumber++;
    let position = lineStart;
    while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
    if (position === lineEnd || text.charCodeAt(position) === CHAR_HASH) {
      lineStart = lineEnd + 1;
      continue;
    }
    const queryStart = position;
    while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
    const queryEnd = position;
    while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
    while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
    while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
    const docStart = position;
    while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
    const docEnd = position;
    while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
    const gradeStart = position;
    while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
    const gradeEnd = position;
    while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
    if (gradeStart === gradeEnd || position !== lineEnd) {
      const found = countColumns(text, lineStart, lineEnd);
      throw formatError(file, text, lineStart, lineEnd, lineNumber, `expected 4 columns (${QRELS_LAYOUT}), found ${found}`);
    }
    const grade = parseInteger(text, gradeStart, gradeEnd);
    if (Number.isNaN(grade)) {
      const shown = text.slice(gradeStart, gradeEnd);
      const problem = `relevance grade '${shown}' is not an integer (trec_eval reads grades as whole numbers, e.g. 0, 1, 2)`;
      throw formatError(file, text, lineStart, lineEnd, lineNumber, problem);
    }
    sink.judgment(text, queryStart, queryEnd, docStart, docEnd, grade, lineNumber, lineStart, lineEnd);
    lineStart = lineEnd + 1;
  }
  return lineNumber - firstLineNumber + 1;
}

/**
 * A whole qrels file kept as columns; a query's grade map is built when the query is evaluated (and
 * a repeated docno is reported then, as trec_eval does).
 */
export interface QrelsColumns {
  file: string;
  text: string;
  count: number;
  queryIds: string[];
  queryIndex: Map<string, number>;
  entryQuery: Int32Array;
  docStart: Int32Array;
  docEnd: Int32Array;
  grade: Float64Array;
  lineNumber: Int32Array;
  groups: RunGroups;
}

class QrelsColumnsSink implements QrelsSink {
  readonly queryIds: string[] = [];
  readonly queryIndex = new Map<string, number>();
  private currentQuery = -1;
  private currentQueryId = '';
  count = 0;
  readonly entryQuery: Int32Array;
  readonly docStart: Int32Array;
  readonly docEnd: Int32Array;
  readonly grade: Float64Array;
  readonly lineNumber: Int32Array;

  constructor(capacity: number) {
    this.entryQuery = new Int32Array(capacity);
    this.docStart = new Int32Array(capacity);
    this.docEnd = new Int32Array(capacity);
    this.grade = new Float64Array(capacity);
    this.lineNumber = new Int32Array(capacity);
  }

  judgment(text: string, queryStart: number, queryEnd: number, docStart: number, docEnd: number, grade: number, lineNumber: number): void {
    if (this.currentQuery === -1 || queryEnd - queryStart !== this.currentQueryId.length || !text.startsWith(this.currentQueryId, queryStart)) {
      const queryId = text.slice(queryStart, queryEnd);
      let index = this.queryIndex.get(queryId);
      if (index === undefined) {
        index = this.queryIds.length;
        this.queryIds.push(queryId);
        this.queryIndex.set(queryId, index);
      }
      this.currentQuery = index;
      this.currentQueryId = queryId;
    }
    const at = this.count++;
    this.entryQuery[at] = this.currentQuery;
    this.docStart[at] = docStart;
    this.docEnd[at] = docEnd;
    this.grade[at] = grade;
    this.lineNumber[at] = lineNumber;
  }
}

/** Parses a whole qrels text into columns. */
export function parseQrelsColumns(text: string, file: string): QrelsColumns {
  const start = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
  const sink = new QrelsColumnsSink(countNewlines(text) + 1);
  scanQrelsLines(text, start, text.length, 1, file, sink);
  const columns = { file, text, count: sink.count, queryIds: sink.queryIds, queryIndex: sink.queryIndex, entryQuery: sink.entryQuery };
  return {
    ...columns,
    docStart: sink.docStart,
    docEnd: sink.docEnd,
    grade: sink.grade,
    lineNumber: sink.lineNumber,
    groups: groupByQuery(sink.entryQuery, sink.count, sink.queryIds.length),
  };
}

/** The judgments of qrels query `query` as doc id → grade; a repeated docno is fatal. */
export function gradesOf(qrels: QrelsColumns, query: number): Map<string, number> {
  const { starts, order } = qrels.groups;
  const grades = new Map<string, number>();
  for (let position = starts[query] as number; position < (starts[query + 1] as number); position++) {
    const entry = order[position] as number;
    const docId = qrels.text.slice(qrels.docStart[entry] as number, qrels.docEnd[entry] as number);
    if (grades.has(docId)) {
      const firstLine = firstLineOf(qrels, query, docId);
      throw new DuplicateDocnoError(qrels.file, qrels.queryIds[query] as string, docId, qrels.lineNumber[entry] as number, firstLine);
    }
    grades.set(docId, qrels.grade[entry] as number);
  }
  return grades;
}

function firstLineOf(qrels: QrelsColumns, query: number, docId: string): number {
  const { starts, order } = qrels.groups;
  for (let position = starts[query] as number; position < (starts[query + 1] as number); position++) {
    const entry = order[position] as number;
    if (qrels.text.slice(qrels.docStart[entry] as number, qrels.docEnd[entry] as number) === docId) return qrels.lineNumber[entry] as number;
  }
  return Number.NaN;
}

/** Judgments with grade > 0 in the whole qrels (trec_eval's -c summary of num_rel). */
export function countPositiveJudgments(qrels: QrelsColumns): number {
  let count = 0;
  for (let entry = 0; entry < qrels.count; entry++) if ((qrels.grade[entry] as number) > 0) count++;
  return count;
}

// ---------------------------------------------------------------------------------------------
// Reading text in chunks
// ---------------------------------------------------------------------------------------------

/** Source of a run or qrels: a path, or `-` for standard input. */
export type TextSource = string;

/**
 * Chunks small enough to stay in V8's young generation: a string above ~128 kB goes to the
 * large-object space, each one on freshly mapped pages.
 */
const CHUNK_BYTES = 1 << 16;

/** Reads a whole file (or `-`: standard input) as UTF-8. */
export async function readText(source: TextSource, stdin: AsyncIterable<string | Uint8Array> = process.stdin): Promise<string> {
  // readFile(path, 'utf8') decodes large files chunk by chunk through a StringDecoder; one
  // Buffer decoded at once is several times faster.
  if (source !== '-') return (await readFile(source)).toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** Turns decoded pieces into texts that end on a line end (the last one may not). */
class LineChunker {
  private pending = '';
  private atStart = true;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly onText: (text: string) => void) {}

  bytes(chunk: Uint8Array): void {
    this.text(this.decoder.decode(chunk, { stream: true }));
  }

  text(decoded: string): void {
    if (decoded.length === 0) return;
    if (this.atStart) {
      if (decoded.charCodeAt(0) === BYTE_ORDER_MARK) decoded = decoded.slice(1);
      this.atStart = false;
    }
    const lastNewline = decoded.lastIndexOf('\n');
    if (lastNewline === -1) {
      this.pending += decoded;
      return;
    }
    const complete = this.pending.length === 0 ? decoded.slice(0, lastNewline + 1) : this.pending + decoded.slice(0, lastNewline + 1);
    this.pending = decoded.slice(lastNewline + 1);
    this.onText(complete);
  }

  end(): void {
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    if (rest.length > 0) this.onText(rest);
  }
}

/** Reads a file synchronously in small chunks into a reused buffer, handing over complete lines. */
function readFileChunks(path: string, onText: (text: string) => void, onBytes?: (bytes: number) => void): void {
  const chunker = new LineChunker(onText);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const descriptor = openSync(path, 'r');
  try {
    for (;;) {
      const bytesRead = readSync(descriptor, buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      onBytes?.(bytesRead);
      chunker.bytes(buffer.subarray(0, bytesRead));
    }
  } finally {
    closeSync(descriptor);
  }
  chunker.end();
}

/**
 * Hands over the source's text in pieces that end on a line end: a file is read synchronously in
 * 64 kB chunks (one reused buffer), standard input as it arrives.
 */
export async function forEachLineChunk(
  source: TextSource,
  stdin: AsyncIterable<string | Uint8Array>,
  onText: (text: string) => void,
  onBytes?: (bytes: number) => void,
): Promise<void> {
  if (source !== '-') {
    readFileChunks(source, onText, onBytes);
    return;
  }
  const chunker = new LineChunker(onText);
  for await (const chunk of stdin) {
    if (typeof chunk === 'string') {
      onBytes?.(chunk.length);
      chunker.text(chunk);
    } else {
      onBytes?.(chunk.byteLength);
      chunker.bytes(chunk);
    }
  }
  chunker.end();
}

// ---------------------------------------------------------------------------------------------
// Runs one query at a time
// ---------------------------------------------------------------------------------------------

/** The run is not grouped by query: a query id came back after another query's lines. */
export class RunNotGroupedError extends TrecFormatError {
  override name = 'RunNotGroupedError';
}

function sortedOrderProblem(kind: 'run' | 'qrels', queryId: string, previousQueryId: string): string {
  const sortCommand = kind === 'run' ? 'LC_ALL=C sort -s -k1,1 run > run.sorted' : 'LC_ALL=C sort -s -k1,1 qrels > qrels.sorted';
  return (
    `--streaming needs the ${kind} grouped by query, in byte order of query id, but query '${queryId}' comes after '${previousQueryId}'. ` +
    `Sort it (keeping line order within a query): \`${sortCommand}\`, or drop --streaming to read the whole file`
  );
}

/**
 * Groups run lines by query as they come, handing over each query once its lines are complete.
 * `order: 'grouped'` accepts any query order but throws RunNotGroupedError when a query id comes back
 * (it remembers the finished ids); `'sorted'` needs ids in increasing byte order and remembers nothing.
 */
export class RunGrouper implements RunSink {
  private current: { queryId: string; docIds: string[]; scores: number[]; lines: number[] } | undefined;
  private readonly finished = new Set<string>();
  private lineNumber = 1;

  constructor(
    private readonly file: string,
    private readonly order: 'grouped' | 'sorted',
    private readonly onQuery: (query: QueryRun) => void,
  ) {}

  /** Parses complete lines (a chunk from forEachLineChunk). */
  accept(text: string): void {
    this.lineNumber += scanRunLines(text, 0, text.length, this.lineNumber, this.file, this);
  }

  /** Hands over the last query. */
  finish(): void {
    const current = this.current;
    this.current = undefined;
    if (current !== undefined) this.emit(current);
  }

  entry(text: string, queryStart: number, queryEnd: number, docStart: number, docEnd: number, score: number, lineNumber: number, lineStart: number, lineEnd: number): void {
    let current = this.current;
    if (current === undefined || queryEnd - queryStart !== current.queryId.length || !text.startsWith(current.queryId, queryStart)) {
      const queryId = text.slice(queryStart, queryEnd);
      if (this.order === 'sorted') {
        if (current !== undefined && compareUtf8(queryId, current.queryId) < 0) {
          throw new RunNotGroupedError({ file: this.file, lineNumber, lineText: text.slice(lineStart, lineEnd), problem: sortedOrderProblem('run', queryId, current.queryId) });
        }
      } else if (this.finished.has(queryId)) {
        throw new RunNotGroupedError({
          file: this.file,
          lineNumber,
          lineText: text.slice(lineStart, lineEnd),
          problem: `run is not grouped by query: query '${queryId}' comes back after query '${current?.queryId ?? ''}'`,
        });
      }
      if (current !== undefined) {
        if (this.order === 'grouped') this.finished.add(current.queryId);
        this.emit(current);
      }
      current = { queryId, docIds: [], scores: [], lines: [] };
      this.current = current;
    }
    current.docIds.push(text.slice(docStart, docEnd));
    current.scores.push(score);
    current.lines.push(lineNumber);
  }

  private emit(current: { queryId: string; docIds: string[]; scores: number[]; lines: number[] }): void {
    const lines = current.lines;
    this.onQuery({ queryId: current.queryId, docIds: current.docIds, scores: current.scores, lineNumbers: () => lines });
  }
}

// ---------------------------------------------------------------------------------------------
// Qrels one query at a time (--streaming)
// ---------------------------------------------------------------------------------------------

class StreamingQrelsSink implements QrelsSink {
  current: QueryQrels | undefined;
  readonly completed: QueryQrels[] = [];

  constructor(private readonly file: string) {}

  judgment(text: string, queryStart: number, queryEnd: number, docStart: number, docEnd: number, grade: number, lineNumber: number, lineStart: number, lineEnd: number): void {
    let current = this.current;
    if (current === undefined || queryEnd - queryStart !== current.queryId.length || !text.startsWith(current.queryId, queryStart)) {
      const queryId = text.slice(queryStart, queryEnd);
      if (current !== undefined) {
        if (compareUtf8(queryId, current.queryId) < 0) {
          throw formatError(this.file, text, lineStart, lineEnd, lineNumber, sortedOrderProblem('qrels', queryId, current.queryId));
        }
        this.completed.push(current);
      }
      current = { queryId, grades: new Map() };
      this.current = current;
    }
    const docId = text.slice(docStart, docEnd);
    if (current.grades.has(docId)) throw new DuplicateDocnoError(this.file, current.queryId, docId, lineNumber, Number.NaN);
    current.grades.set(docId, grade);
  }
}

/**
 * Reads a qrels file one query at a time (synchronously, 64 kB at a time). Queries must come in
 * increasing byte order of query id, as for a --streaming run.
 */
export function* streamQrelsQueries(path: string, file: string): Generator<QueryQrels> {
  const sink = new StreamingQrelsSink(file);
  const chunker = new LineChunker((text) => {
    lineNumber += scanQrelsLines(text, 0, text.length, lineNumber, file, sink);
  });
  let lineNumber = 1;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const descriptor = openSync(path, 'r');
  try {
    for (;;) {
      const bytesRead = readSync(descriptor, buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      chunker.bytes(buffer.subarray(0, bytesRead));
      if (sink.completed.length > 0) {
        yield* sink.completed;
        sink.completed.length = 0;
      }
    }
    chunker.end();
  } finally {
    closeSync(descriptor);
  }
  yield* sink.completed;
  sink.completed.length = 0;
  if (sink.current !== undefined) yield sink.current;
}
