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
  scanRunLines,
  type QrelsLine,
  type QrelsSink,
  type RunSink,
  type TrecGrammar,
} from './grammar.js';
import { parseIntegerSpan } from './number.js';
import { LineChunker, textLimits, TrecTextTooLargeError } from './text.js';

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
export class RunGrouper implements RunSink {
  private carry = '';
  protected text = '';
  /** The ASCII bytes the spans index instead of `text` (ByteRunGrouper, trec-eval's); else undefined. */
  protected bytes: Buffer | undefined;
  protected queryId: string | undefined;
  protected count = 0;
  protected groupTextStart = 0;
  protected docStart = new Int32Array(1024);
  protected docEnd = new Int32Array(1024);
  protected score = new Float64Array(1024);
  private rank: Float64Array | undefined;
  protected lineNumbers = new Int32Array(1024);
  /** Finished query ids ('grouped' order) and the last line of each. */
  protected readonly finished = new Map<string, number>();
  protected lineNumber = 1;
  protected readonly line = new RunLine();
  private readonly order: 'grouped' | 'sorted';
  private readonly grammar: TrecGrammar;
  protected readonly maxCarry: number;
  protected readonly notGroupedProblem: NotGroupedProblem;

  constructor(
    protected readonly file: string,
    protected readonly onQuery: (query: SpanQuery) => void,
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
  acceptCarried(text: string, carried: number, asciiBytes?: Uint8Array): number {
    this.text = text;
    this.lineNumber += scanRunLines(
      text,
      carried,
      text.length,
      this.lineNumber,
      this.file,
      this.grammar,
      this,
      this.line,
      asciiBytes,
    );
    if (this.queryId === undefined) return 0;
    const start = this.groupTextStart;
    if (text.length - start > this.maxCarry)
      throw new QueryTooLargeError(`query '${this.queryId}' spans more than ${this.maxCarry} characters`);
    if (start > 0) {
      this.text = text.slice(start); // the open query's spans now index the kept text
      for (let index = 0; index < this.count; index++) {
        this.docStart[index] = (this.docStart[index] as number) - start;
        this.docEnd[index] = (this.docEnd[index] as number) - start;
      }
      this.groupTextStart = 0;
    }
    return text.length - start;
  }

  /** Hands over the last query. */
  finish(): void {
    if (this.queryId !== undefined) this.emit();
    this.queryId = undefined;
    this.carry = '';
  }

  entry(text: string, line: RunLine): void {
    const current = this.queryId;
    const { queryStart, queryEnd, lineNumber } = line;
    if (
      !line.sameQueryAsBefore &&
      (current === undefined || queryEnd - queryStart !== current.length || !text.startsWith(current, queryStart))
    ) {
      const queryId = text.slice(queryStart, queryEnd);
      if (this.order === 'sorted') {
        if (current !== undefined && compareUtf8(queryId, current) < 0) {
          throw new RunNotGroupedError({
            file: this.file,
            lineNumber,
            lineText: text.slice(line.lineStart, line.lineEnd),
            problem: sortedOrderProblem('run', queryId, current),
          });
        }
      } else {
        const earlierLastLine = this.finished.get(queryId);
        if (earlierLastLine !== undefined) {
          throw new RunNotGroupedError({
            file: this.file,
            lineNumber,
            lineText: text.slice(line.lineStart, line.lineEnd).replace(/\r$/, ''),
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
    const at = this.count++;
    if (at === this.docStart.length) this.grow();
    this.docStart[at] = line.docStart;
    this.docEnd[at] = line.docEnd;
    this.score[at] = line.score;
    this.lineNumbers[at] = lineNumber;
    if (this.rank !== undefined) this.rank[at] = parseIntegerSpan(text, line.rankStart, line.rankEnd);
  }

  protected grow(): void {
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

  protected emit(): void {
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
      const queryId = text.slice(queryStart, queryEnd);
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
