// Runs and qrels as columns over their text — typed arrays of offsets, scores and grades, no object
// or string per line — and the ranking of one query's entries: what trec-eval measures from, and
// what parseRunColumns returns. Lines are read by grammar.ts's scanners.

import { compareByteSpansByTrecRank, compareSpansByTrecRank } from '../core/ranking.js';
import {
  firstLineStart,
  isSeparator,
  RunLine,
  scanQrelsByteLines,
  scanQrelsLines,
  scanRunLines,
  type QrelsByteSink,
  type QrelsLine,
  type RunSink,
  type TrecGrammar,
} from './grammar.js';
import { isAscii } from 'node:buffer';

import { parseIntegerSpan } from './number.js';
import { decodeText, detachedSlice, textLimits } from './text.js';

/**
 * A whole run kept as columns over the chunks it was read in: entry i belongs to query
 * `queryIds[entryQuery[i]]` and its doc id starts at `docStart[i]` in the chunk holding it (the last
 * chunk whose `chunkFirstEntry` is ≤ i; entryTextOf) and runs to the next separator (docEndOf).
 * Only the file's text and typed arrays stay in memory; no object or string per line, and no column
 * that the text already holds: a shuffled 2 M-line run is read whole, so every column costs 8–16 MB.
 */
export interface RunColumns {
  file: string;
  texts: string[];
  /** Per text: its first entry (increasing). */
  chunkFirstEntry: number[];
  count: number;
  queryIds: string[];
  entryQuery: Int32Array;
  docStart: Int32Array;
  /** Where each doc id ends; kept only when asked for (docEndOf finds it otherwise). */
  docEnd: Int32Array | undefined;
  score: Float64Array;
  /** The rank column (NaN where the trec_eval grammar let a non-integer through); kept only when asked for. */
  rank: Float64Array | undefined;
  /** Per text: the number of its first line (an entry's own is counted when a message needs it: runLineNumberOf). */
  chunkFirstLine: number[];
}

/** The line number of entry `entry`: its text's first line plus the line ends before the entry. */
function runLineNumberOf(run: RunColumns, entry: number): number {
  const chunk = entryTextOf(run, entry);
  const text = run.texts[chunk] as string;
  const end = run.docStart[entry] as number;
  let line = run.chunkFirstLine[chunk] as number;
  for (
    let position = text.indexOf('\n');
    position !== -1 && position < end;
    position = text.indexOf('\n', position + 1)
  )
    line++;
  return line;
}

/** Index in run.texts of the chunk that holds entry `entry`. */
export function entryTextOf(run: RunColumns, entry: number): number {
  const firsts = run.chunkFirstEntry;
  let low = 0;
  let high = firsts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if ((firsts[middle] as number) <= entry) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** End of the doc id that starts at `start`: the next separator (the grammar's column rule). */
export function docEndOf(text: string, start: number): number {
  let end = start;
  while (end < text.length && !isSeparator(text.charCodeAt(end)) && text.charCodeAt(end) !== 10) end++;
  return end;
}

/** Builds RunColumns from complete-line chunks (forEachLineChunk's), in file order. */
export class RunColumnsBuilder implements RunSink {
  private readonly queryIds: string[] = [];
  private readonly queryIndex = new Map<string, number>();
  private readonly texts: string[] = [];
  private readonly chunkFirstEntry: number[] = [];
  private readonly chunkFirstLine: number[] = [];
  private currentQuery = -1;
  private currentQueryId = '';
  private lineNumber = 1;
  private count = 0;
  private entryQuery = new Int32Array(0);
  private docStart = new Int32Array(0);
  private docEnd: Int32Array | undefined;
  private score = new Float64Array(0);
  private rank: Float64Array | undefined;
  private readonly line = new RunLine();

  /**
   * `totalLength`: the input's size, when known, to size the columns from the first chunk's lines.
   * `keepRanks`: also keep the rank column and where each doc id ends (trec-eval needs neither).
   */
  constructor(
    private readonly file: string,
    private readonly totalLength?: number,
    private readonly grammar: TrecGrammar = 'trec_eval',
    keepRanks = false,
  ) {
    if (keepRanks) {
      this.rank = new Float64Array(0);
      this.docEnd = new Int32Array(0);
    }
  }

  /** Lines parsed so far (blank and comment lines included). */
  get linesRead(): number {
    return this.lineNumber - 1;
  }

  accept(text: string): void {
    if (this.texts.length === 0) {
      // Size the columns once (a little above the estimate) rather than doubling them while reading.
      const lines = countNewlines(text) + 1;
      const estimate =
        this.totalLength === undefined
          ? 1 << 16
          : Math.ceil((this.totalLength / Math.max(1, text.length)) * lines * 1.05) + 16;
      this.resize(Math.max(estimate, lines + 16));
    }
    this.texts.push(text);
    this.chunkFirstEntry.push(this.count);
    this.chunkFirstLine.push(this.lineNumber);
    const from = this.texts.length === 1 ? firstLineStart(text) : 0;
    this.lineNumber += scanRunLines(text, from, text.length, this.lineNumber, this.file, this.grammar, this, this.line);
  }

  finish(): RunColumns {
    return {
      file: this.file,
      texts: this.texts,
      chunkFirstEntry: this.chunkFirstEntry,
      count: this.count,
      queryIds: this.queryIds,
      entryQuery: this.entryQuery,
      docStart: this.docStart,
      docEnd: this.docEnd,
      score: this.score,
      rank: this.rank,
      chunkFirstLine: this.chunkFirstLine,
    };
  }

  entry(text: string, line: RunLine): void {
    const { queryStart, queryEnd } = line;
    if (
      this.currentQuery === -1 ||
      queryEnd - queryStart !== this.currentQueryId.length ||
      !text.startsWith(this.currentQueryId, queryStart)
    ) {
      const queryId = detachedSlice(text, queryStart, queryEnd);
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
    this.docStart[at] = line.docStart;
    if (this.docEnd !== undefined) this.docEnd[at] = line.docEnd;
    this.score[at] = line.score;
    if (this.rank !== undefined) this.rank[at] = parseIntegerSpan(text, line.rankStart, line.rankEnd);
  }

  private resize(capacity: number): void {
    const grown = <T extends Int32Array | Float64Array>(array: T): T => {
      const next = new (array.constructor as new (length: number) => T)(capacity);
      next.set(array.subarray(0, Math.min(array.length, capacity)));
      return next;
    };
    this.entryQuery = grown(this.entryQuery);
    this.docStart = grown(this.docStart);
    if (this.docEnd !== undefined) this.docEnd = grown(this.docEnd);
    this.score = grown(this.score);
    if (this.rank !== undefined) this.rank = grown(this.rank);
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
  for (let query = 0; query < queryCount; query++)
    starts[query + 1] = (starts[query + 1] as number) + (starts[query] as number);
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
  /** When set, the doc id spans index these ASCII bytes instead of `text` (trec-eval's usual run, never decoded). */
  bytes?: Uint8Array | undefined;
  count: number;
  indices: Int32Array | undefined;
  docStart: Int32Array;
  docEnd: Int32Array;
  score: Float64Array;
  /** Ranks from the rank column, when the reader was asked to keep them. */
  rank?: Float64Array | undefined;
  lineNumber: Int32Array;
  /** The line number of an entry, when `lineNumber` is not filled in (counted only for a message). */
  lineNumberOf?: (entry: number) => number;
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
  const parts = new Array<string>(count);
  let offset = 0;
  for (let position = 0; position < count; position++) {
    const entry = groups.order[from + position] as number;
    const text = run.texts[entryTextOf(run, entry)] as string;
    const start = run.docStart[entry] as number;
    const docId = text.slice(start, run.docEnd === undefined ? docEndOf(text, start) : (run.docEnd[entry] as number));
    parts[position] = docId;
    docStart[position] = offset;
    docEnd[position] = offset + docId.length;
    offset += docId.length + 1;
    score[position] = run.score[entry] as number;
  }
  return {
    queryId: run.queryIds[query] as string,
    text: parts.join('\n'),
    count,
    indices: undefined,
    docStart,
    docEnd,
    score,
    lineNumber: EMPTY_SPAN_QUERY.lineNumber,
    lineNumberOf: (position) => runLineNumberOf(run, groups.order[from + position] as number),
  };
}

/** The doc id of entry `entry` (an array position) of a span query. */
export function docIdOf(query: Omit<SpanQuery, 'queryId'>, entry: number): string {
  const start = query.docStart[entry] as number;
  const end = query.docEnd[entry] as number;
  const { bytes } = query;
  if (bytes === undefined) return query.text.slice(start, end);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', start, end);
}

/** Entry a against entry b (array positions) by the core's ranking rule: negative when a ranks above b. */
function compareEntries(query: Omit<SpanQuery, 'queryId'>, a: number, b: number): number {
  const { text, bytes, score, docStart, docEnd } = query;
  if (bytes !== undefined) {
    return compareByteSpansByTrecRank(
      bytes,
      score[a] as number,
      docStart[a] as number,
      docEnd[a] as number,
      score[b] as number,
      docStart[b] as number,
      docEnd[b] as number,
    );
  }
  return compareSpansByTrecRank(
    text,
    score[a] as number,
    docStart[a] as number,
    docEnd[a] as number,
    score[b] as number,
    docStart[b] as number,
    docEnd[b] as number,
  );
}

/**
 * trec_eval's ranking of a query's entries: score descending, ties by docno descending in byte
 * order (strcmp); the rank column and the line order play no part. Fills the first `count` places of
 * `order` (or of a larger array, returned instead when it has too few) with array positions, best
 * first: the caller keeps what it gets for the next query. Runs usually list a query best first
 * already, so an insertion sort finishes in about one pass; when the input turns out to be far from
 * sorted it hands over to Array.prototype.sort.
 */
export function rankEntries(query: Omit<SpanQuery, 'queryId'>, order: Int32Array): Int32Array {
  const { count, indices } = query;
  if (order.length < count) order = new Int32Array(Math.max(count, 2 * order.length));
  let moves = 0;
  const budget = 4 * count + 16;
  for (let index = 0; index < count; index++) {
    const entry = indices === undefined ? index : (indices[index] as number);
    let position = index;
    while (position > 0 && compareEntries(query, entry, order[position - 1] as number) < 0) {
      order[position] = order[position - 1] as number;
      position--;
      if (++moves > budget) {
        order.set(sortEntries(query));
        return order;
      }
    }
    order[position] = entry;
  }
  return order;
}

function sortEntries(query: Omit<SpanQuery, 'queryId'>): number[] {
  const { count, indices } = query;
  const order = Array.from({ length: count }, (_, index) =>
    indices === undefined ? index : (indices[index] as number),
  );
  return order.sort((a, b) => compareEntries(query, a, b));
}

// ---------------------------------------------------------------------------------------------
// Qrels
// ---------------------------------------------------------------------------------------------

/** One query's judgments: doc id → integer grade, in file order. */
export interface QueryQrels {
  queryId: string;
  grades: Map<string, number>;
}

/**
 * A whole qrels file kept as columns; a query's judgments are looked at when the query is evaluated
 * (and a repeated docno is reported then, as trec_eval does). Entries of query q are entries
 * `order[starts[q]] …` (in file order), or `starts[q] …` directly when `order` is undefined: the
 * file was grouped by query, as qrels files are, and no reordering was needed.
 */
export interface QrelsColumns {
  file: string;
  /**
   * The file's text, which docStart and docEnd index; undefined on a worker thread that reads the
   * doc ids from `bytes` instead (qrelsQueryText), one query at a time.
   */
  text: string | undefined;
  /** The file's bytes when `text` is undefined: ASCII (a byte per character) and grouped by query. */
  bytes: Buffer | undefined;
  count: number;
  queryIds: string[];
  queryIndex: Map<string, number>;
  docStart: Int32Array;
  docEnd: Int32Array;
  /** Whole grades in 32 bits (the usual qrels, half the memory); any other grade makes it a Float64Array. */
  grade: Int32Array | Float64Array;
  groups: { starts: Int32Array; order: Int32Array | undefined };
}

class QrelsColumnsSink implements QrelsByteSink {
  readonly queryIds: string[] = [];
  readonly queryIndex = new Map<string, number>();
  private currentQueryId = '';
  count = 0;
  docStart: Int32Array;
  docEnd: Int32Array;
  grade: Int32Array | Float64Array;
  /** Runs of consecutive lines of one query: its index and first entry. */
  readonly segmentQuery: number[] = [];
  readonly segmentStart: number[] = [];
  /** Every query's lines come in one run. */
  grouped = true;
  /** Offset in the whole file of the text being scanned (parseQrelsBytes hands over odd lines one at a time). */
  base = 0;

  constructor(
    capacity: number,
    private readonly shared: boolean,
  ) {
    this.docStart = new Int32Array(this.memory(capacity * 4));
    this.docEnd = new Int32Array(this.memory(capacity * 4));
    this.grade = new Int32Array(this.memory(capacity * 4));
  }

  private memory(bytes: number): ArrayBuffer | SharedArrayBuffer {
    return this.shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  }

  /** A quarter more room (parseQrelsBytes sizes the columns from an estimate). */
  private grow(): void {
    const capacity = Math.ceil(this.docStart.length * 1.25) + 16;
    const docStart = new Int32Array(this.memory(capacity * 4));
    const docEnd = new Int32Array(this.memory(capacity * 4));
    const grade = this.widened
      ? new Float64Array(this.memory(capacity * 8))
      : new Int32Array(this.memory(capacity * 4));
    docStart.set(this.docStart);
    docEnd.set(this.docEnd);
    grade.set(this.grade);
    this.docStart = docStart;
    this.docEnd = docEnd;
    this.grade = grade;
  }

  judgment(text: string, line: QrelsLine): void {
    const { queryStart, queryEnd } = line;
    if (
      this.segmentQuery.length === 0 ||
      queryEnd - queryStart !== this.currentQueryId.length ||
      !text.startsWith(this.currentQueryId, queryStart)
    )
      this.startSegment(detachedSlice(text, queryStart, queryEnd));
    this.add(line, this.base);
  }

  byteJudgment(bytes: Uint8Array, line: QrelsLine, sameQueryAsBefore: boolean): void {
    if (!sameQueryAsBefore && !this.isCurrentQueryAt(bytes, line.queryStart, line.queryEnd)) {
      const source = bytes as Buffer;
      this.startSegment(source.toString('latin1', line.queryStart, line.queryEnd));
    }
    this.add(line, 0);
  }

  private isCurrentQueryAt(bytes: Uint8Array, start: number, end: number): boolean {
    const queryId = this.currentQueryId;
    if (this.segmentQuery.length === 0 || queryId.length !== end - start) return false;
    for (let index = 0; index < queryId.length; index++)
      if (queryId.charCodeAt(index) !== bytes[start + index]) return false;
    return true;
  }

  /** A run of lines of another query than the line before. */
  private startSegment(queryId: string): void {
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

  private add(line: QrelsLine, base: number): void {
    const at = this.count++;
    if (at === this.docStart.length) this.grow();
    this.docStart[at] = base + line.docStart;
    this.docEnd[at] = base + line.docEnd;
    const grade = line.grade;
    if (!this.widened && !isInt32(grade)) this.widenGrades();
    this.grade[at] = grade;
  }

  /** The grades column holds whole 32-bit grades until one is not. */
  private widened = false;

  private widenGrades(): void {
    const grade = new Float64Array(this.memory(this.grade.length * 8));
    grade.set(this.grade);
    this.grade = grade;
    this.widened = true;
  }

  /** Entries by query: straight from the runs of lines when grouped, else a stable counting sort of the runs. */
  groups(): QrelsColumns['groups'] {
    const queryCount = this.queryIds.length;
    const segmentCount = this.segmentQuery.length;
    const starts = new Int32Array(queryCount + 1);
    const segmentEnd = (segment: number) =>
      segment + 1 < segmentCount ? (this.segmentStart[segment + 1] as number) : this.count;
    for (let segment = 0; segment < segmentCount; segment++) {
      const slot = (this.segmentQuery[segment] as number) + 1;
      starts[slot] = (starts[slot] as number) + segmentEnd(segment) - (this.segmentStart[segment] as number);
    }
    for (let query = 0; query < queryCount; query++)
      starts[query + 1] = (starts[query + 1] as number) + (starts[query] as number);
    if (this.grouped) return { starts, order: undefined };
    const next = starts.slice(0, queryCount);
    const order = new Int32Array(this.count);
    for (let segment = 0; segment < segmentCount; segment++) {
      const query = this.segmentQuery[segment] as number;
      let position = next[query] as number;
      for (let entry = this.segmentStart[segment] as number; entry < segmentEnd(segment); entry++)
        order[position++] = entry;
      next[query] = position;
    }
    return { starts, order };
  }
}

/** Parses a whole qrels text into columns. */
/**
 * Parses a whole qrels text into columns. `shared`: the per-judgment columns live in shared memory,
 * so that another thread that holds the same text can use them without parsing it again
 * (sharedQrelsColumns / qrelsFromShared).
 */
function parseQrelsColumns(
  text: string,
  file: string,
  grammar: TrecGrammar = 'trec_eval',
  shared = false,
): QrelsColumns {
  const sink = new QrelsColumnsSink(countNewlines(text) + 1, shared);
  scanQrelsLines(text, firstLineStart(text), text.length, 1, file, grammar, sink);
  const { count, queryIds, queryIndex, docStart, docEnd, grade } = sink;
  return {
    file,
    text,
    bytes: undefined,
    count,
    queryIds,
    queryIndex,
    docStart,
    docEnd,
    grade,
    groups: sink.groups(),
  };
}

/** True when a 32-bit integer column holds `value` exactly (-0 included, as 0 it would not be). */
function isInt32(value: number): boolean {
  return (value | 0) === value && (value !== 0 || 1 / value > 0);
}

/** Bytes of the start of the file whose lines size the columns (from an estimate, a little above). */
const QRELS_SAMPLE_BYTES = 1 << 16;

/** Room for about the lines of `bytes`, counted in its first QRELS_SAMPLE_BYTES. */
function estimatedLines(bytes: Buffer): number {
  const sampleEnd = Math.min(bytes.length, QRELS_SAMPLE_BYTES);
  let lines = 1;
  for (
    let position = bytes.indexOf(0x0a);
    position !== -1 && position < sampleEnd;
    position = bytes.indexOf(0x0a, position + 1)
  )
    lines++;
  return Math.ceil((bytes.length / Math.max(1, sampleEnd)) * lines * 1.05) + 16;
}

/**
 * parseQrelsColumns over a file's bytes (trec_eval's grammar). An ASCII file (the usual qrels) is
 * read from its bytes, never decoded as a whole; grouped by query, its columns keep the bytes, and
 * each query's doc ids are read from them when it is judged. Any other file is decoded whole, as
 * parseQrelsColumns reads it.
 */
export function parseQrelsBytes(bytes: Buffer, file: string, shared = false): QrelsColumns {
  // A file larger than one string holds is refused as the whole-text reader refuses it (decodeText).
  if (bytes.length > textLimits.maxTextLength || !isAscii(bytes))
    return parseQrelsColumns(decodeText(bytes, file), file, 'trec_eval', shared);
  const sink = new QrelsColumnsSink(estimatedLines(bytes), shared);
  scanQrelsByteLines(bytes, file, sink);
  const { count, queryIds, queryIndex, docStart, docEnd, grade } = sink;
  const groups = sink.groups();
  // Not grouped: a query's doc ids are scattered over the file, so the text is kept whole.
  const text = groups.order === undefined ? undefined : decodeText(bytes, file);
  return {
    file,
    text,
    bytes: text === undefined ? bytes : undefined,
    count,
    queryIds,
    queryIndex,
    docStart,
    docEnd,
    grade,
    groups,
  };
}

/**
 * What another thread needs to use parsed qrels columns: the file's bytes (in shared memory, as
 * readBytes reads them with `shared`) rather than its text, and no Map.
 */
export type SharedQrelsColumns = Omit<QrelsColumns, 'text' | 'bytes' | 'queryIndex'> & { bytes: Buffer };

/** The parts of parsed columns to post to another thread; `bytes` are those `qrels.text` was decoded from. */
export function sharedQrelsColumns(qrels: QrelsColumns, bytes: Buffer): SharedQrelsColumns {
  const { file, count, queryIds, docStart, docEnd, grade, groups } = qrels;
  return { file, count, queryIds, docStart, docEnd, grade, groups, bytes };
}

/**
 * Columns posted by another thread. An ASCII file grouped by query (the usual qrels) is not decoded
 * whole: each query's doc ids are decoded when it is judged (qrelsQueryText), so a thread holds
 * no copy of the text; any other file is decoded here as the posting thread decoded it.
 */
export function qrelsFromShared(shared: SharedQrelsColumns): QrelsColumns {
  const queryIndex = new Map<string, number>();
  shared.queryIds.forEach((queryId, index) => queryIndex.set(queryId, index));
  const bytes = Buffer.from(shared.bytes.buffer, shared.bytes.byteOffset, shared.bytes.byteLength);
  if (shared.groups.order === undefined && isAscii(bytes)) return { ...shared, text: undefined, bytes, queryIndex };
  return { ...shared, text: decodeText(bytes, shared.file), bytes: undefined, queryIndex };
}

/** The text holding the doc ids of one qrels query, and the offset in the whole text of its first character. */
export interface QrelsQueryText {
  text: string;
  offset: number;
}

/** Where the doc ids of qrels query `query` are read: the whole text, or just the query's span of the bytes. */
export function qrelsQueryText(qrels: QrelsColumns, query: number): QrelsQueryText {
  if (qrels.text !== undefined) return { text: qrels.text, offset: 0 };
  const { starts } = qrels.groups; // grouped: a query's entries are consecutive, in file order
  const first = starts[query] as number;
  const last = (starts[query + 1] as number) - 1;
  if (last < first) return { text: '', offset: 0 };
  const offset = qrels.docStart[first] as number;
  return { text: (qrels.bytes as Buffer).toString('latin1', offset, qrels.docEnd[last] as number), offset };
}

/** The line number (1-based) of a qrels entry: counted when a message needs it, not kept per line. */
export function qrelsLineOf(qrels: QrelsColumns, entry: number): number {
  const end = qrels.docStart[entry] as number;
  const { text, bytes } = qrels;
  let line = 1;
  if (text !== undefined) {
    for (
      let position = text.indexOf('\n');
      position !== -1 && position < end;
      position = text.indexOf('\n', position + 1)
    )
      line++;
  } else {
    // ASCII: a byte per character, so the entry's offset is a byte offset too.
    const source = bytes as Buffer;
    for (
      let position = source.indexOf(0x0a);
      position !== -1 && position < end;
      position = source.indexOf(0x0a, position + 1)
    )
      line++;
  }
  return line;
}

/** Judgments with grade > 0 in the whole qrels (trec_eval's -c summary of num_rel). */
export function countPositiveJudgments(qrels: QrelsColumns): number {
  let count = 0;
  for (let entry = 0; entry < qrels.count; entry++) if ((qrels.grade[entry] as number) > 0) count++;
  return count;
}
