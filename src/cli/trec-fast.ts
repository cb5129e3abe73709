// Fast TREC readers for the `trec-eval` command, read the way trec_eval reads them.
//
// The library readers (src/dataset/trec.ts) build one object per run line; at 2,000,000 lines that
// costs more time and memory than the whole evaluation. Here a run is read in 64 kB chunks and a
// query's documents are spans of the text (doc-id offsets, scores and line numbers in reused typed
// arrays), handed over as soon as the query's lines are complete; no string is made per run line.
// A run that is not grouped by query is kept as columns over its chunks instead (RunColumns).
//
// Compatibility with trec_eval 10's readers (get_trec_results.c, get_qrels.c):
// - run lines: `qid Q0 docno rank score tag`; columns after the sixth are ignored; rank is ignored;
// - qrels lines: `qid iter docno rel`, exactly four columns, rel an integer;
// - separators: spaces, tabs, \r, \v, \f; blank lines and lines starting with `#` are skipped;
// - a docno repeated within one query (run or qrels) is fatal (trec_eval exits 4).
// Where trec_eval silently reads garbage (a score `abc` is 0 to atof, a grade `1.5` is 1 to atol),
// these readers stop with the file, line and problem.

import { isAscii } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

import { TrecFormatError } from '../dataset/errors.js';
import { compareUtf8 } from '../core/ranking.js';
import { parseIntegerSpan } from '../dataset/trec.js';

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
    /** Where the repeat is: the run's lines or the qrels'. */
    readonly source: 'run' | 'qrels' = 'run',
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

/** True when text[from, to) holds a separator other than the space (then the general scanner runs). */
function hasOtherSeparators(text: string, from: number, to: number): boolean {
  for (const separator of ['\t', '\r', '\v', '\f']) {
    const found = text.indexOf(separator, from);
    if (found !== -1 && found < to) return true;
  }
  return false;
}

/**
 * Parses the run lines in text[from, to) (`to` at a line end). Returns the number of lines seen
 * (blank and comment lines included), so that the caller can keep counting across chunks.
 * The rank column is ignored, as trec_eval ignores it: ranks come from the scores.
 */
function scanRunLines(text: string, from: number, to: number, firstLineNumber: number, file: string, sink: RunSink): number {
  const spans = new RunLineSpans();
  const spacesOnly = !hasOtherSeparators(text, from, to);
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

/**
 * A whole run kept as columns over the chunks it was read in: entry i belongs to query
 * `queryIds[entryQuery[i]]` and its doc id is `texts[entryText[i]]`[docStart[i], docEnd[i]).
 * Only the file's text and typed arrays stay in memory; no object or string per line.
 */
export interface RunColumns {
  file: string;
  texts: string[];
  count: number;
  queryIds: string[];
  entryQuery: Int32Array;
  entryText: Int32Array;
  docStart: Int32Array;
  docEnd: Int32Array;
  score: Float64Array;
  lineNumber: Int32Array;
}

/** Builds RunColumns from complete-line chunks (forEachLineChunk's), in file order. */
export class RunColumnsBuilder implements RunSink {
  private readonly queryIds: string[] = [];
  private readonly queryIndex = new Map<string, number>();
  private readonly texts: string[] = [];
  private currentQuery = -1;
  private currentQueryId = '';
  private lineNumber = 1;
  private count = 0;
  private entryQuery = new Int32Array(0);
  private entryText = new Int32Array(0);
  private docStart = new Int32Array(0);
  private docEnd = new Int32Array(0);
  private score = new Float64Array(0);
  private lineNumbers = new Int32Array(0);

  /** `totalLength`: the input's size, when known, to size the columns from the first chunk's lines. */
  constructor(
    private readonly file: string,
    private readonly totalLength?: number,
  ) {}

  accept(text: string): void {
    if (this.texts.length === 0) {
      // Size the columns once (a little above the estimate) rather than doubling them while reading.
      const lines = countNewlines(text) + 1;
      const estimate = this.totalLength === undefined ? 1 << 16 : Math.ceil((this.totalLength / Math.max(1, text.length)) * lines * 1.05) + 16;
      this.resize(Math.max(estimate, lines + 16));
    }
    this.texts.push(text);
    this.lineNumber += scanRunLines(text, 0, text.length, this.lineNumber, this.file, this);
  }

  finish(): RunColumns {
    return {
      file: this.file,
      texts: this.texts,
      count: this.count,
      queryIds: this.queryIds,
      entryQuery: this.entryQuery,
      entryText: this.entryText,
      docStart: this.docStart,
      docEnd: this.docEnd,
      score: this.score,
      lineNumber: this.lineNumbers,
    };
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
    if (at === this.entryQuery.length) this.resize(this.entryQuery.length * 2);
    this.entryQuery[at] = this.currentQuery;
    this.entryText[at] = this.texts.length - 1;
    this.docStart[at] = docStart;
    this.docEnd[at] = docEnd;
    this.score[at] = score;
    this.lineNumbers[at] = lineNumber;
  }

  private resize(capacity: number): void {
    const grown = <T extends Int32Array | Float64Array>(array: T): T => {
      const next = new (array.constructor as new (length: number) => T)(capacity);
      next.set(array.subarray(0, Math.min(array.length, capacity)));
      return next;
    };
    this.entryQuery = grown(this.entryQuery);
    this.entryText = grown(this.entryText);
    this.docStart = grown(this.docStart);
    this.docEnd = grown(this.docEnd);
    this.score = grown(this.score);
    this.lineNumbers = grown(this.lineNumbers);
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let position = text.indexOf('\n'); position !== -1; position = text.indexOf('\n', position + 1)) count++;
  return count;
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

/**
 * One query's retrieved documents as spans of a text: entry `i` (for i < count) is at position
 * `indices[i]` of the arrays (or `i` when indices is undefined); its doc id is
 * text[docStart, docEnd). Doc ids stay spans — no string per run line — until a message needs one.
 * The arrays may be reused for the next query once the consumer returns.
 */
export interface SpanQuery {
  queryId: string;
  text: string;
  count: number;
  indices: Int32Array | undefined;
  docStart: Int32Array;
  docEnd: Int32Array;
  score: Float64Array;
  lineNumber: Int32Array;
}

/** A query with no retrieved document (a qrels query missing from the run, under -c). */
export const EMPTY_SPAN_QUERY: Omit<SpanQuery, 'queryId'> = {
  text: '',
  count: 0,
  indices: undefined,
  docStart: new Int32Array(0),
  docEnd: new Int32Array(0),
  score: new Float64Array(0),
  lineNumber: new Int32Array(0),
};

/**
 * The entries of one query of a columnar run, as a span query of its own: the query's doc ids
 * (which may lie in different chunks) are copied into one small text, in file order.
 */
export function queryRunOf(run: RunColumns, groups: RunGroups, query: number): SpanQuery {
  const from = groups.starts[query] as number;
  const to = groups.starts[query + 1] as number;
  const count = to - from;
  const docStart = new Int32Array(count);
  const docEnd = new Int32Array(count);
  const score = new Float64Array(count);
  const lineNumber = new Int32Array(count);
  const parts = new Array<string>(count);
  let offset = 0;
  for (let position = 0; position < count; position++) {
    const entry = groups.order[from + position] as number;
    const docId = (run.texts[run.entryText[entry] as number] as string).slice(run.docStart[entry] as number, run.docEnd[entry] as number);
    parts[position] = docId;
    docStart[position] = offset;
    docEnd[position] = offset + docId.length;
    offset += docId.length + 1;
    score[position] = run.score[entry] as number;
    lineNumber[position] = run.lineNumber[entry] as number;
  }
  return { queryId: run.queryIds[query] as string, text: parts.join('\n'), count, indices: undefined, docStart, docEnd, score, lineNumber };
}

/** The doc id of entry `entry` (an array position) of a span query. */
export function docIdOf(query: Omit<SpanQuery, 'queryId'>, entry: number): string {
  return query.text.slice(query.docStart[entry] as number, query.docEnd[entry] as number);
}

/** Lifts surrogates above U+E000–U+FFFF so that UTF-16 code units compare like code points (UTF-8 bytes). */
function codePointOrder(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** text[aStart, aEnd) against text[bStart, bEnd) in UTF-8 byte order (C's strcmp), as compareUtf8. */
export function compareSpans(text: string, aStart: number, aEnd: number, bStart: number, bEnd: number): number {
  const length = Math.min(aEnd - aStart, bEnd - bStart);
  for (let offset = 0; offset < length; offset++) {
    const unitA = text.charCodeAt(aStart + offset);
    const unitB = text.charCodeAt(bStart + offset);
    if (unitA !== unitB) return codePointOrder(unitA) - codePointOrder(unitB);
  }
  return aEnd - aStart - (bEnd - bStart);
}

/**
 * A 32-bit hash of text[start, end) for the per-query tables: FNV-1a over the length and the last
 * (at most) 12 code units, where doc ids of one collection differ. Equal ids hash equal; the tables
 * compare the ids themselves on a hash match.
 */
export function spanHash(text: string, start: number, end: number): number {
  let hash = Math.imul(0x811c9dc5 ^ (end - start), 0x01000193);
  for (let position = Math.max(start, end - 12); position < end; position++) {
    hash ^= text.charCodeAt(position);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** True when entry a ranks above entry b: higher score, or equal score and larger docno (byte order). */
function ranksAbove(query: Omit<SpanQuery, 'queryId'>, a: number, b: number): boolean {
  const scoreA = query.score[a] as number;
  const scoreB = query.score[b] as number;
  if (scoreA !== scoreB) return scoreA > scoreB;
  const { text, docStart, docEnd } = query;
  return compareSpans(text, docStart[a] as number, docEnd[a] as number, docStart[b] as number, docEnd[b] as number) > 0;
}

/**
 * trec_eval's ranking of a query's entries: score descending, ties by docno descending in byte
 * order (strcmp); the rank column and the line order play no part. Returns array positions, best
 * first. Runs usually list a query best first already, so an insertion sort finishes in about one
 * pass; when the input turns out to be far from sorted it hands over to Array.prototype.sort.
 */
export function rankEntries(query: Omit<SpanQuery, 'queryId'>): number[] {
  const { count, indices } = query;
  const order = new Array<number>(count);
  let moves = 0;
  const budget = 4 * count + 16;
  for (let index = 0; index < count; index++) {
    const entry = indices === undefined ? index : (indices[index] as number);
    let position = index;
    while (position > 0 && ranksAbove(query, entry, order[position - 1] as number)) {
      order[position] = order[position - 1] as number;
      position--;
      if (++moves > budget) return sortEntries(query);
    }
    order[position] = entry;
  }
  return order;
}

function sortEntries(query: Omit<SpanQuery, 'queryId'>): number[] {
  const { count, indices, score, text, docStart, docEnd } = query;
  const order = Array.from({ length: count }, (_, index) => (indices === undefined ? index : (indices[index] as number)));
  return order.sort((a, b) => {
    const difference = (score[b] as number) - (score[a] as number);
    return difference !== 0 ? difference : compareSpans(text, docStart[b] as number, docEnd[b] as number, docStart[a] as number, docEnd[a] as number);
  });
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

/** Columns of one qrels line. */
class QrelsLineSpans {
  queryStart = 0;
  queryEnd = 0;
  docStart = 0;
  docEnd = 0;
  gradeStart = 0;
  gradeEnd = 0;
}

/** A qrels line of single-space-separated columns (the usual layout), found with indexOf. */
function spaceSeparatedQrelsLine(text: string, lineStart: number, lineEnd: number, spans: QrelsLineSpans): boolean {
  const queryEnd = text.indexOf(' ', lineStart);
  if (queryEnd <= lineStart || queryEnd >= lineEnd) return false;
  const iterationEnd = text.indexOf(' ', queryEnd + 1);
  if (iterationEnd <= queryEnd + 1 || iterationEnd >= lineEnd) return false;
  const docEnd = text.indexOf(' ', iterationEnd + 1);
  if (docEnd <= iterationEnd + 1 || docEnd >= lineEnd - 1) return false;
  // The grade runs to the line end: no further space allowed (a fifth column, or trailing blanks, go the general way).
  const extra = text.indexOf(' ', docEnd + 1);
  if (extra !== -1 && extra < lineEnd) return false;
  spans.queryStart = lineStart;
  spans.queryEnd = queryEnd;
  spans.docStart = iterationEnd + 1;
  spans.docEnd = docEnd;
  spans.gradeStart = docEnd + 1;
  spans.gradeEnd = lineEnd;
  return true;
}

/** A qrels line with any separators; false unless it has exactly four columns. */
function generalQrelsLine(text: string, lineStart: number, lineEnd: number, spans: QrelsLineSpans): boolean {
  let position = lineStart;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  spans.queryStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  spans.queryEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++; // iter (ignored)
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  spans.docStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  spans.docEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  spans.gradeStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  spans.gradeEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  return spans.gradeStart !== spans.gradeEnd && position === lineEnd;
}

function scanQrelsLines(text: string, from: number, to: number, firstLineNumber: number, file: string, sink: QrelsSink): number {
  const spans = new QrelsLineSpans();
  const spacesOnly = !hasOtherSeparators(text, from, to);
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
    if (!(spacesOnly && first === lineStart && spaceSeparatedQrelsLine(text, lineStart, lineEnd, spans)) && !generalQrelsLine(text, lineStart, lineEnd, spans)) {
      const found = countColumns(text, lineStart, lineEnd);
      throw formatError(file, text, lineStart, lineEnd, lineNumber, `expected 4 columns (${QRELS_LAYOUT}), found ${found}`);
    }
    const grade = parseIntegerSpan(text, spans.gradeStart, spans.gradeEnd);
    if (Number.isNaN(grade)) {
      const shown = text.slice(spans.gradeStart, spans.gradeEnd);
      const problem = `relevance grade '${shown}' is not an integer (trec_eval reads grades as whole numbers, e.g. 0, 1, 2)`;
      throw formatError(file, text, lineStart, lineEnd, lineNumber, problem);
    }
    sink.judgment(text, spans.queryStart, spans.queryEnd, spans.docStart, spans.docEnd, grade, lineNumber, lineStart, lineEnd);
    lineStart = lineEnd + 1;
  }
  return lineNumber - firstLineNumber + 1;
}

/**
 * A whole qrels file kept as columns; a query's judgments are looked at when the query is evaluated
 * (and a repeated docno is reported then, as trec_eval does). Entries of query q are entries
 * `order[starts[q]] …` (in file order), or `starts[q] …` directly when `order` is undefined: the
 * file was grouped by query, as qrels files are, and no reordering was needed.
 */
export interface QrelsColumns {
  file: string;
  text: string;
  count: number;
  queryIds: string[];
  queryIndex: Map<string, number>;
  docStart: Int32Array;
  docEnd: Int32Array;
  grade: Float64Array;
  groups: { starts: Int32Array; order: Int32Array | undefined };
}

class QrelsColumnsSink implements QrelsSink {
  readonly queryIds: string[] = [];
  readonly queryIndex = new Map<string, number>();
  private currentQueryId = '';
  count = 0;
  readonly docStart: Int32Array;
  readonly docEnd: Int32Array;
  readonly grade: Float64Array;
  /** Runs of consecutive lines of one query: its index and first entry. */
  readonly segmentQuery: number[] = [];
  readonly segmentStart: number[] = [];
  /** Every query's lines come in one run. */
  grouped = true;

  constructor(capacity: number) {
    this.docStart = new Int32Array(capacity);
    this.docEnd = new Int32Array(capacity);
    this.grade = new Float64Array(capacity);
  }

  judgment(text: string, queryStart: number, queryEnd: number, docStart: number, docEnd: number, grade: number): void {
    if (this.segmentQuery.length === 0 || queryEnd - queryStart !== this.currentQueryId.length || !text.startsWith(this.currentQueryId, queryStart)) {
      const queryId = text.slice(queryStart, queryEnd);
      let index = this.queryIndex.get(queryId);
      if (index === undefined) {
        index = this.queryIds.length;
        this.queryIds.push(queryId);
        this.queryIndex.set(queryId, index);
      } else {
        this.grouped = false;
      }
      this.segmentQuery.push(index);
      this.segmentStart.push(this.count);
      this.currentQueryId = queryId;
    }
    const at = this.count++;
    this.docStart[at] = docStart;
    this.docEnd[at] = docEnd;
    this.grade[at] = grade;
  }

  /** Entries by query: straight from the runs of lines when grouped, else a stable counting sort of the runs. */
  groups(): QrelsColumns['groups'] {
    const queryCount = this.queryIds.length;
    const segmentCount = this.segmentQuery.length;
    const starts = new Int32Array(queryCount + 1);
    const segmentEnd = (segment: number) => (segment + 1 < segmentCount ? (this.segmentStart[segment + 1] as number) : this.count);
    for (let segment = 0; segment < segmentCount; segment++) {
      const slot = (this.segmentQuery[segment] as number) + 1;
      starts[slot] = (starts[slot] as number) + segmentEnd(segment) - (this.segmentStart[segment] as number);
    }
    for (let query = 0; query < queryCount; query++) starts[query + 1] = (starts[query + 1] as number) + (starts[query] as number);
    if (this.grouped) return { starts, order: undefined };
    const next = starts.slice(0, queryCount);
    const order = new Int32Array(this.count);
    for (let segment = 0; segment < segmentCount; segment++) {
      const query = this.segmentQuery[segment] as number;
      let position = next[query] as number;
      for (let entry = this.segmentStart[segment] as number; entry < segmentEnd(segment); entry++) order[position++] = entry;
      next[query] = position;
    }
    return { starts, order };
  }
}

/** Parses a whole qrels text into columns. */
export function parseQrelsColumns(text: string, file: string): QrelsColumns {
  const start = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
  const sink = new QrelsColumnsSink(countNewlines(text) + 1);
  scanQrelsLines(text, start, text.length, 1, file, sink);
  const { count, queryIds, queryIndex, docStart, docEnd, grade } = sink;
  return { file, text, count, queryIds, queryIndex, docStart, docEnd, grade, groups: sink.groups() };
}

/** The line number (1-based) of a qrels entry: counted when a message needs it, not kept per line. */
export function qrelsLineOf(qrels: QrelsColumns, entry: number): number {
  const end = qrels.docStart[entry] as number;
  let line = 1;
  for (let position = qrels.text.indexOf('\n'); position !== -1 && position < end; position = qrels.text.indexOf('\n', position + 1)) line++;
  return line;
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
 * Chunks small enough to stay in V8's young generation: a string above 128 kB goes to the
 * large-object space, each one on freshly mapped pages.
 */
const CHUNK_BYTES = 1 << 16;

/** Reads a whole file (or `-`: standard input) as UTF-8. */
export async function readText(source: TextSource, stdin: AsyncIterable<string | Uint8Array> = process.stdin): Promise<string> {
  // One synchronous read (the async one goes through the thread pool 512 kB at a time), decoded at
  // once: readFile(path, 'utf8') decodes chunk by chunk through a StringDecoder, several times slower.
  if (source !== '-') return decodeText(readFileSync(source));
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return decodeText(Buffer.concat(chunks));
}

/** UTF-8 text; ASCII (the usual TREC file) decodes several times faster as Latin-1, which is the same for it. */
function decodeText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Turns decoded pieces into texts that end on a line end (the last one may not). */
class LineChunker {
  private pending = '';
  private atStart = true;
  private readonly decoder = new TextDecoder('utf-8');
  /** The decoder may hold the first bytes of a character split across chunks. */
  private decoderBusy = false;

  constructor(private readonly onText: (text: string) => void) {}

  bytes(chunk: Uint8Array): void {
    // ASCII (the usual run) decodes several times faster as Latin-1, which is the same for ASCII.
    if (!this.decoderBusy && isAscii(chunk)) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      this.text(buffer.toString('latin1'));
      return;
    }
    this.text(this.decoder.decode(chunk, { stream: true }));
    this.decoderBusy = chunk.length > 0 && (chunk[chunk.length - 1] as number) >= 0x80;
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

/**
 * Reads a file (or bytes [start, end) of it) synchronously in small chunks into a reused buffer,
 * handing over complete lines.
 */
export function readFileChunks(path: string, onText: (text: string) => void, onBytes?: (bytes: number) => void, start = 0, end = Infinity): void {
  const chunker = new LineChunker(onText);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const descriptor = openSync(path, 'r');
  try {
    for (let position = start; position < end; ) {
      const bytesRead = readSync(descriptor, buffer, 0, Math.min(CHUNK_BYTES, end - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
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

/** A query's lines would have to be carried across more text than the caller allows. */
export class QueryTooLargeError extends Error {
  override name = 'QueryTooLargeError';
}

/**
 * Groups run lines by query as they come, handing over each query (as spans) once its lines are
 * complete. The lines of the open query are carried into the next chunk, so that all of a query's
 * spans index one text. `order: 'grouped'` accepts any query order but throws RunNotGroupedError
 * when a query id comes back (it remembers the finished ids); `'sorted'` needs ids in increasing
 * byte order and remembers nothing. `maxCarry` bounds the text carried for one query (beyond it,
 * QueryTooLargeError: the caller reads the run another way).
 */
export class RunGrouper implements RunSink {
  private carry = '';
  private text = '';
  private queryId: string | undefined;
  private count = 0;
  private groupTextStart = 0;
  private docStart = new Int32Array(1024);
  private docEnd = new Int32Array(1024);
  private score = new Float64Array(1024);
  private lineNumbers = new Int32Array(1024);
  private readonly finished = new Set<string>();
  private lineNumber = 1;

  constructor(
    private readonly file: string,
    private readonly order: 'grouped' | 'sorted',
    private readonly onQuery: (query: SpanQuery) => void,
    private readonly maxCarry = Infinity,
  ) {}

  /** Lines parsed so far (blank and comment lines included). */
  get linesRead(): number {
    return this.lineNumber - 1;
  }

  /** Parses complete lines (a chunk from forEachLineChunk). */
  accept(chunk: string): void {
    const from = this.carry.length;
    const text = from === 0 ? chunk : this.carry + chunk;
    this.text = text;
    this.lineNumber += scanRunLines(text, from, text.length, this.lineNumber, this.file, this);
    if (this.queryId === undefined) {
      this.carry = '';
      return;
    }
    const start = this.groupTextStart;
    if (text.length - start > this.maxCarry) throw new QueryTooLargeError(`query '${this.queryId}' spans more than ${this.maxCarry} characters`);
    this.carry = start === 0 ? text : text.slice(start);
    this.text = this.carry; // the open query's spans now index the carried text
    if (start > 0) {
      for (let index = 0; index < this.count; index++) {
        this.docStart[index] = (this.docStart[index] as number) - start;
        this.docEnd[index] = (this.docEnd[index] as number) - start;
      }
      this.groupTextStart = 0;
    }
  }

  /** Hands over the last query. */
  finish(): void {
    if (this.queryId !== undefined) this.emit();
    this.queryId = undefined;
    this.carry = '';
  }

  entry(text: string, queryStart: number, queryEnd: number, docStart: number, docEnd: number, score: number, lineNumber: number, lineStart: number, lineEnd: number): void {
    const current = this.queryId;
    if (current === undefined || queryEnd - queryStart !== current.length || !text.startsWith(current, queryStart)) {
      const queryId = text.slice(queryStart, queryEnd);
      if (this.order === 'sorted') {
        if (current !== undefined && compareUtf8(queryId, current) < 0) {
          throw new RunNotGroupedError({ file: this.file, lineNumber, lineText: text.slice(lineStart, lineEnd), problem: sortedOrderProblem('run', queryId, current) });
        }
      } else if (this.finished.has(queryId)) {
        throw new RunNotGroupedError({
          file: this.file,
          lineNumber,
          lineText: text.slice(lineStart, lineEnd),
          problem: `run is not grouped by query: query '${queryId}' comes back after query '${current ?? ''}'`,
        });
      }
      if (current !== undefined) {
        if (this.order === 'grouped') this.finished.add(current);
        this.emit();
      }
      this.queryId = queryId;
      this.count = 0;
      this.groupTextStart = lineStart;
    }
    const at = this.count++;
    if (at === this.docStart.length) this.grow();
    this.docStart[at] = docStart;
    this.docEnd[at] = docEnd;
    this.score[at] = score;
    this.lineNumbers[at] = lineNumber;
  }

  private grow(): void {
    const capacity = this.docStart.length * 2;
    const docStart = new Int32Array(capacity);
    docStart.set(this.docStart);
    const docEnd = new Int32Array(capacity);
    docEnd.set(this.docEnd);
    const score = new Float64Array(capacity);
    score.set(this.score);
    const lineNumbers = new Int32Array(capacity);
    lineNumbers.set(this.lineNumbers);
    this.docStart = docStart;
    this.docEnd = docEnd;
    this.score = score;
    this.lineNumbers = lineNumbers;
  }

  private emit(): void {
    this.onQuery({
      queryId: this.queryId as string,
      text: this.text,
      count: this.count,
      indices: undefined,
      docStart: this.docStart,
      docEnd: this.docEnd,
      score: this.score,
      lineNumber: this.lineNumbers,
    });
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
    if (current.grades.has(docId)) throw new DuplicateDocnoError(this.file, current.queryId, docId, lineNumber, Number.NaN, 'qrels');
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
