// The one streaming grouper: run lines grouped by query as they come, each query handed over (as
// spans of a text) once its lines are complete. Used by trec-eval (whole-run and --streaming modes,
// its worker threads) and by the library's streamRunByQuery; plus the qrels of --streaming.

import { closeSync, openSync, readSync } from 'node:fs';

import { compareUtf8 } from '../core/ranking.js';
import type { QueryQrels, SpanQuery } from './columns.js';
import { DuplicateDocnoError, TrecFormatError } from './errors.js';
import {
  formatError,
  RunLine,
  scanQrelsLines,
  scanRunByteLines,
  scanRunLines,
  type QrelsLine,
  type QrelsSink,
  type RunByteSink,
  type TrecGrammar,
} from './grammar.js';
import { parseIntegerSpan } from './number.js';
import { detachedSlice, LineChunker, textLimits, TrecTextTooLargeError } from './text.js';

/** The run is not grouped by query: a query id came back after another query's lines. */
export class RunNotGroupedError extends TrecFormatError {
  override name = 'RunNotGroupedError';
}

function sortedOrderProblem(kind: 'run' | 'qrels', queryId: string, previousQueryId: string): string {
  const sortCommand =
    kind === 'run' ? 'LC_ALL=C sort -s -k1,1 run > run.sorted' : 'LC_ALL=C sort -s -k1,1 qrels > qrels.sorted';
  return (
    `--streaming needs the ${kind} grouped by query, in byte order of query id, but query '${queryId}' comes after '${previousQueryId}'. ` +
    `Sort it (keeping line order within a query): \`${sortCommand}\`, or drop --streaming to read the whole file`
  );
}

/** A query's lines would have to be carried across more text than the caller allows. */
export class QueryTooLargeError extends Error {
  override name = 'QueryTooLargeError';
}

/** Explains a query id that comes back (grouped order): the id, the query before it, where its earlier lines ended. */
export type NotGroupedProblem = (queryId: string, previousQueryId: string, earlierLastLine: number) => string;

const DEFAULT_NOT_GROUPED: NotGroupedProblem = (queryId, previousQueryId) =>
  `run is not grouped by query: query '${queryId}' comes back after query '${previousQueryId}'`;

export interface RunGrouperOptions {
  /** 'grouped' (default): any query order, a query id that comes back is an error. 'sorted': ids in increasing byte order. */
  order?: 'grouped' | 'sorted';
  grammar?: TrecGrammar;
  /** Bound on the text carried for one query (beyond it, QueryTooLargeError: the caller reads the run another way). */
  maxCarry?: number;
  /** Keep each entry's rank (`SpanQuery.rank`); trec-eval does not need it. */
  keepRanks?: boolean;
  notGroupedProblem?: NotGroupedProblem;
}

/**
 * Groups run lines by query as they come, handing over each query (as spans) once its lines are
 * complete. The lines of the open query are carried into the next chunk, so that all of a query's
 * spans index one text. `order: 'grouped'` accepts any query order but throws RunNotGroupedError
 * when a query id comes back (it remembers the finished ids); `'sorted'` needs ids in increasing
 * byte order and remembers nothing.
 */
export class RunGrouper implements RunByteSink {
  private carry = '';
  private text = '';
  /** The ASCII bytes the spans index, when the text read last came as bytes (acceptCarried); else undefined. */
  private bytes: Buffer | undefined;
  /** Room for the open query's bytes between two texts (the reader reuses its buffer). */
  private keptBytes = Buffer.alloc(0);
  private queryId: string | undefined;
  private count = 0;
  private groupTextStart = 0;
  private docStart = new Int32Array(1024);
  private docEnd = new Int32Array(1024);
  private score = new Float64Array(1024);
  private rank: Float64Array | undefined;
  private lineNumbers = new Int32Array(1024);
  /** Finished query ids ('grouped' order) and the last line of each. */
  private readonly finished = new Map<string, number>();
  private lineNumber = 1;
  private readonly line = new RunLine();
  private readonly order: 'grouped' | 'sorted';
  private readonly grammar: TrecGrammar;
  private readonly maxCarry: number;
  private readonly notGroupedProblem: NotGroupedProblem;

  constructor(
    private readonly file: string,
    private readonly onQuery: (query: SpanQuery) => void,
    options: RunGrouperOptions = {},
  ) {
    this.order = options.order ?? 'grouped';
    this.grammar = options.grammar ?? 'trec_eval';
    this.maxCarry = options.maxCarry ?? Infinity;
    this.notGroupedProblem = options.notGroupedProblem ?? DEFAULT_NOT_GROUPED;
    if (options.keepRanks === true) this.rank = new Float64Array(1024);
  }

  /** Lines parsed so far (blank and comment lines included). */
  get linesRead(): number {
    return this.lineNumber - 1;
  }

  /** Parses complete lines (a chunk from a LineChunker). */
  accept(chunk: string): void {
    const from = this.carry.length;
    if (from + chunk.length > textLimits.maxTextLength) {
      throw new TrecTextTooLargeError(
        `${this.file}: query '${this.queryId ?? ''}' (from line ${this.lineNumbers[0] ?? this.lineNumber}) spans more than ` +
          `${textLimits.maxTextLength} characters, more than one JavaScript string holds; read the run whole (readRunColumnsFile()) instead`,
      );
    }
    const kept = this.acceptCarried(from === 0 ? chunk : this.carry + chunk, from);
    this.carry = kept === 0 ? '' : this.text;
  }

  /**
   * Parses the complete lines of `text` after its first `carried` characters, which are the ones the
   * last call asked to keep (readFileCarrying hands texts over this way). Returns how many characters
   * at the end of `text` the next text must begin with: the lines of the query still open, whose
   * spans then index them. `asciiBytes`: the text's bytes when it is ASCII (read from them, faster).
   */
  acceptCarried(text: string | undefined, carried: number, asciiBytes?: Buffer): number {
    if (asciiBytes !== undefined && this.grammar === 'trec_eval') return this.acceptBytes(asciiBytes, carried);
    const decoded = text ?? (asciiBytes as Buffer).toString('latin1');
    this.text = decoded;
    this.bytes = undefined;
    this.lineNumber += scanRunLines(
      decoded,
      carried,
      decoded.length,
      this.lineNumber,
      this.file,
      this.grammar,
      this,
      this.line,
      asciiBytes,
    );
    if (this.queryId === undefined) return 0;
    const start = this.groupTextStart;
    this.checkCarry(decoded.length - start);
    if (start > 0) {
      this.text = decoded.slice(start); // the open query's spans now index the kept text
      this.shiftSpans(start);
    }
    return decoded.length - start;
  }

  /**
   * acceptCarried for ASCII bytes, never decoded as a whole (a line off the usual layout is read from
   * their text, whose offsets are the same): the spans handed over index the bytes.
   */
  private acceptBytes(bytes: Buffer, carried: number): number {
    this.bytes = bytes;
    this.text = '';
    let text: string | undefined;
    const textOf = () => (text ??= bytes.toString('latin1'));
    this.lineNumber += scanRunByteLines(
      bytes,
      carried,
      bytes.length,
      this.lineNumber,
      this.file,
      this,
      this.line,
      textOf,
    );
    if (this.queryId === undefined) return 0;
    const start = this.groupTextStart;
    this.checkCarry(bytes.length - start);
    // The reader moves these bytes to the start of its buffer, over them: the spans index a copy.
    if (this.keptBytes.length < bytes.length - start)
      this.keptBytes = Buffer.allocUnsafe(Math.max(bytes.length - start, 2 * this.keptBytes.length));
    bytes.copy(this.keptBytes, 0, start);
    this.bytes = this.keptBytes.subarray(0, bytes.length - start);
    if (start > 0) this.shiftSpans(start);
    return bytes.length - start;
  }

  private checkCarry(length: number): void {
    if (length > this.maxCarry)
      throw new QueryTooLargeError(`query '${this.queryId}' spans more than ${this.maxCarry} characters`);
  }

  private shiftSpans(start: number): void {
    for (let index = 0; index < this.count; index++) {
      this.docStart[index] = (this.docStart[index] as number) - start;
      this.docEnd[index] = (this.docEnd[index] as number) - start;
    }
    this.groupTextStart = 0;
  }

  /** Hands over the last query. */
  finish(): void {
    if (this.queryId !== undefined) this.emit();
    this.queryId = undefined;
    this.carry = '';
  }

  entry(text: string, line: RunLine): void {
    const current = this.queryId;
    const { queryStart, queryEnd } = line;
    if (
      !line.sameQueryAsBefore &&
      (current === undefined || queryEnd - queryStart !== current.length || !text.startsWith(current, queryStart))
    )
      this.startQuery(detachedSlice(text, queryStart, queryEnd), line, text);
    this.add(line, text);
  }

  byteEntry(bytes: Uint8Array, line: RunLine): void {
    if (!line.sameQueryAsBefore && !isQueryIdAt(this.queryId, bytes, line.queryStart, line.queryEnd)) {
      const source = this.bytes as Buffer;
      this.startQuery(source.toString('latin1', line.queryStart, line.queryEnd), line, source);
    }
    this.add(line, this.bytes as Buffer);
  }

  /** A new query id: the query before it is handed over (a query id that comes back is an error). */
  private startQuery(queryId: string, line: RunLine, source: string | Buffer): void {
    const current = this.queryId;
    if (this.order === 'sorted') {
      if (current !== undefined && compareUtf8(queryId, current) < 0) {
        throw new RunNotGroupedError({
          file: this.file,
          lineNumber: line.lineNumber,
          lineText: spanText(source, line.lineStart, line.lineEnd),
          problem: sortedOrderProblem('run', queryId, current),
        });
      }
    } else {
      const earlierLastLine = this.finished.get(queryId);
      if (earlierLastLine !== undefined) {
        throw new RunNotGroupedError({
          file: this.file,
          lineNumber: line.lineNumber,
          lineText: spanText(source, line.lineStart, line.lineEnd).replace(/\r$/, ''),
          problem: this.notGroupedProblem(queryId, current ?? '', earlierLastLine),
        });
      }
    }
    if (current !== undefined) {
      if (this.order === 'grouped') this.finished.set(current, this.lineNumbers[this.count - 1] as number);
      this.emit();
    }
    this.queryId = queryId;
    this.count = 0;
    this.groupTextStart = line.lineStart;
  }

  private add(line: RunLine, source: string | Buffer): void {
    const at = this.count++;
    if (at === this.docStart.length) this.grow();
    this.docStart[at] = line.docStart;
    this.docEnd[at] = line.docEnd;
    this.score[at] = line.score;
    this.lineNumbers[at] = line.lineNumber;
    if (this.rank !== undefined) {
      const { rankStart, rankEnd } = line;
      this.rank[at] =
        typeof source === 'string'
          ? parseIntegerSpan(source, rankStart, rankEnd)
          : parseIntegerSpan(spanText(source, rankStart, rankEnd), 0, rankEnd - rankStart);
    }
  }

  private grow(): void {
    const capacity = this.docStart.length * 2;
    const grown = <T extends Int32Array | Float64Array>(array: T): T => {
      const next = new (array.constructor as new (length: number) => T)(capacity);
      next.set(array);
      return next;
    };
    this.docStart = grown(this.docStart);
    this.docEnd = grown(this.docEnd);
    this.score = grown(this.score);
    if (this.rank !== undefined) this.rank = grown(this.rank);
    this.lineNumbers = grown(this.lineNumbers);
  }

  private emit(): void {
    this.onQuery({
      queryId: this.queryId as string,
      text: this.text,
      bytes: this.bytes,
      count: this.count,
      indices: undefined,
      docStart: this.docStart,
      docEnd: this.docEnd,
      score: this.score,
      rank: this.rank,
      lineNumber: this.lineNumbers,
    });
  }
}

/** True when bytes[start, end) are the characters of `queryId` (ASCII). */
function isQueryIdAt(queryId: string | undefined, bytes: Uint8Array, start: number, end: number): boolean {
  if (queryId === undefined || queryId.length !== end - start) return false;
  for (let index = 0; index < queryId.length; index++)
    if (queryId.charCodeAt(index) !== bytes[start + index]) return false;
  return true;
}

/** The characters [start, end) of a text, or of ASCII bytes. */
function spanText(source: string | Buffer, start: number, end: number): string {
  return typeof source === 'string' ? source.slice(start, end) : source.toString('latin1', start, end);
}

// ---------------------------------------------------------------------------------------------
// Qrels one query at a time (--streaming)
// ---------------------------------------------------------------------------------------------

class StreamingQrelsSink implements QrelsSink {
  current: QueryQrels | undefined;
  readonly completed: QueryQrels[] = [];

  constructor(private readonly file: string) {}

  judgment(text: string, line: QrelsLine): void {
    let current = this.current;
    const { queryStart, queryEnd } = line;
    if (
      current === undefined ||
      queryEnd - queryStart !== current.queryId.length ||
      !text.startsWith(current.queryId, queryStart)
    ) {
      const queryId = detachedSlice(text, queryStart, queryEnd);
      if (current !== undefined) {
        if (compareUtf8(queryId, current.queryId) < 0) {
          throw formatError(
            this.file,
            text,
            line.lineStart,
            line.lineEnd,
            line.lineNumber,
            sortedOrderProblem('qrels', queryId, current.queryId),
          );
        }
        this.completed.push(current);
      }
      current = { queryId, grades: new Map() };
      this.current = current;
    }
    const docId = text.slice(line.docStart, line.docEnd);
    if (current.grades.has(docId))
      throw new DuplicateDocnoError(this.file, current.queryId, docId, line.lineNumber, Number.NaN, 'qrels');
    current.grades.set(docId, line.grade);
  }
}

const CHUNK_BYTES = 1 << 16;

/**
 * Reads a qrels file one query at a time (synchronously, 64 kB at a time), with trec_eval's
 * grammar. Queries must come in increasing byte order of query id, as for a --streaming run.
 */
export function* streamQrelsQueries(path: string, file: string): Generator<QueryQrels> {
  const sink = new StreamingQrelsSink(file);
  let lineNumber = 1;
  const chunker = new LineChunker(
    (text) => {
      lineNumber += scanQrelsLines(text, 0, text.length, lineNumber, file, 'trec_eval', sink);
    },
    file,
    () => lineNumber,
  );
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
