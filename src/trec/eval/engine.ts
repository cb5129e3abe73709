// The evaluation behind `rag-matchers trec-eval`: one query at a time, through the metric core
// (measureGradedRanking), printed exactly as trec_eval 10 prints. evaluate.ts drives it.
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { textLimits } from '../text.js';
import { formatMeasure } from '../../core/measures.js';
import {
  judgeByteSpans,
  judgeSpans,
  loadJudgedByteSpans,
  loadJudgedSpans,
  reserveJudgedSpans,
  spansEqual,
} from '../../core/judge-spans.js';
import { planMeasures, type MeasurePlan } from '../../core/measure-plan.js';
import { gradeTooLargeError, interpolatedPrecision, measureGradedRanking } from '../../core/measure-ranking.js';
import { createMeasureScratch, reserveScratch, type MeasureScratch } from '../../core/measure-scratch.js';
import type { JudgmentSettings } from '../../core/relevance.js';
import { DuplicateDocnoError } from '../errors.js';
import { docIdOf, qrelsLineOf, qrelsQueryText, rankEntries, type QrelsColumns, type SpanQuery } from '../columns.js';
import { FAST_VALUE_BYTES, formatFixed, measureColumn, writeCount, writeFixed, type ByteLines } from './format.js';
import type { TrecOutput } from './output.js';
import type { TrecMeasurePlan } from './measures.js';
import {
  IN_POOL_UNJUDGED,
  NOT_IN_POOL,
  listMeasureValue,
  relevanceString,
  zeroedWhenMissing,
  type JudgedList,
  type ListMeasureRow,
} from './list-measures.js';

export interface TrecEvalSettings {
  /** -l: the grade at or above which a document is relevant. */
  relevanceLevel: number;
  /** -M: documents per query kept after ranking (Infinity: all). */
  maxDocuments: number;
  /** -q: print every query's lines. */
  perQuery: boolean;
  /** -c: average over every qrels query (missing ones score 0). */
  complete: boolean;
  /** -J: rank only the judged documents (grade ≥ 0); the others are thrown out before measuring. */
  judgedOnly?: boolean;
  /** -N: documents in the collection (utility's non-relevant-not-retrieved term); trec_eval's default 0. */
  documentsInCollection?: number;
  /** -n: no summary. */
  summary: boolean;
  /** Decimals of measure values (trec_eval: 4). */
  digits: number;
  /** Run file name, for duplicate messages. */
  runFile: string;
  /**
   * Time the sort, measure and write stages query by query (--timings). Off by default: a clock read
   * costs over a microsecond on some virtual machines, and there are five per query.
   */
  timeStages?: boolean;
}

/** performance.now() when stages are timed, else 0 (no clock read). */
function clock(timed: boolean): number {
  return timed ? performance.now() : 0;
}

export interface StageTimes {
  read: number;
  sort: number;
  measure: number;
  write: number;
}

/** trec_eval's floor for a value in a geometric mean (MIN_GEO_MEAN): a query with AP 0 does not make it 0. */
const GEOMETRIC_MEAN_FLOOR = 0.00001;

function isBlank(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * The run tag of the last run line in `text` (trec_eval's runid: the sixth column of the file's
 * last line that is neither blank nor a comment), or undefined when `text` has no such line.
 */
export function lastRunTag(text: string, end = text.length): string | undefined {
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    let first = start;
    while (first < end && isBlank(text.charCodeAt(first))) first++;
    if (first < end && text.charCodeAt(first) !== 0x23 /* # */) {
      const fields = text
        .slice(first, end)
        .trim()
        .split(/[ \t\r\v\f]+/);
      return fields[5] ?? '';
    }
    end = start - 1;
  }
  return undefined;
}

/**
 * The run tag of a run file, read from its end (64 kB at first, more if its last line is longer), or
 * undefined when there is none in the last 3 × textLimits.maxLineLength bytes (the longest line the
 * reader takes, in UTF-8): a longer last line is the reader's error to report, with the file and line,
 * and a file of one gigabyte-long line is never decoded whole.
 */
function runTagOfFile(path: string): string | undefined {
  const descriptor = openSync(path, 'r');
  try {
    const size = fstatSync(descriptor).size;
    const limit = Math.min(size, 3 * textLimits.maxLineLength + 1);
    for (let length = Math.min(limit, 1 << 16); ; length = Math.min(limit, length * 4)) {
      const buffer = Buffer.allocUnsafe(length);
      const read = readSync(descriptor, buffer, 0, length, size - length);
      let text = buffer.toString('utf8', 0, read);
      // Unless the whole file was read, the first line may be cut: only the lines after it count.
      if (length < size) {
        const firstEnd = text.indexOf('\n');
        if (firstEnd === -1) {
          if (length < limit) continue;
          return undefined;
        }
        text = text.slice(firstEnd + 1);
      }
      const tag = lastRunTag(text);
      if (tag !== undefined || length === limit) return tag;
    }
  } finally {
    closeSync(descriptor);
  }
}

/** Accumulates per-query values in trec_eval's loop order and prints trec_eval's lines. */
export class TrecEvaluator {
  readonly times: StageTimes = { read: 0, sort: 0, measure: 0, write: 0 };
  private readonly sums: Float64Array;
  /** `%-22s\t` of each row, computed once. */
  private readonly prefixes: string[];
  /** The same as UTF-8 bytes, for `-q` lines. */
  private readonly prefixBytes: Buffer[];
  /** Room for one query's `-q` lines, less its id's bytes on each line. */
  private readonly queryLineBytes: number;
  /** Per row: the index of its measure in measurePlan, or -1 for a count. */
  private readonly rowMeasure: Int32Array;
  private readonly measurePlan: MeasurePlan;
  /** trec_eval's: relevant from the -l level up, linear gains from every positive grade. */
  private readonly judgmentSettings: JudgmentSettings;
  private readonly scratch: MeasureScratch = createMeasureScratch();
  private readonly digits: number;
  evaluatedCount = 0;
  /** Threads that measured the run (the stage times are the main thread's). */
  threads = 1;
  /** Σ over all qrels queries of judgments with grade > 0 (trec_eval's -c summary num_rel). */
  private relevantInAllQrels = 0;
  /** The run's tag (trec_eval's runid): the sixth column of its last line. */
  runId = '';

  constructor(
    private readonly plan: TrecMeasurePlan,
    private readonly settings: TrecEvalSettings,
    private readonly output: TrecOutput,
  ) {
    this.sums = new Float64Array(plan.rows.length);
    this.prefixes = plan.rows.map((row) => `${measureColumn(row.label)}\t`);
    this.prefixBytes = this.prefixes.map((prefix) => Buffer.from(prefix, 'utf8'));
    this.queryLineBytes = this.prefixBytes.reduce((total, prefix) => total + prefix.length + FAST_VALUE_BYTES + 2, 0);
    this.measurePlan = planMeasures(plan.measures);
    reserveScratch(this.scratch, 0, this.measurePlan.measures.length);
    const measureNames = this.measurePlan.names;
    this.rowMeasure = Int32Array.from(plan.rows, (row) =>
      row.measure === undefined ? -1 : measureNames.indexOf(formatMeasure(row.measure)),
    );
    this.judgmentSettings = { minGrade: settings.relevanceLevel, gain: 'linear', applyMinGradeToNdcg: false };
    this.rowBuffer = new Float64Array(plan.rows.length);
    this.digits = settings.digits;
  }

  /** The run's name in messages. */
  get runFile(): string {
    return this.settings.runFile;
  }

  /** -q: every query's lines are printed. */
  get printsQueries(): boolean {
    return this.settings.perQuery;
  }

  /** Values per query: one per printed row. */
  get rowCount(): number {
    return this.plan.rows.length;
  }

  /** Notes the run tag of a piece of the run that ends on a line end (pieces in file order). */
  noteRunText(text: string): void {
    const tag = lastRunTag(text);
    if (tag !== undefined) this.runId = tag;
  }

  /** Reads the run tag from the end of a run file. */
  noteRunFile(path: string): void {
    const tag = runTagOfFile(path);
    if (tag !== undefined) this.runId = tag;
  }

  /** Counts a qrels query for the -c summary of num_rel, whether or not it is evaluated. */
  noteQrelsQuery(grades: Map<string, number>): void {
    for (const grade of grades.values()) if (grade > 0) this.relevantInAllQrels++;
  }

  /** Sets the -c summary of num_rel directly (the whole qrels' judgments with grade > 0). */
  noteRelevantInAllQrels(count: number): void {
    this.relevantInAllQrels = count;
  }

  /** How many judged documents the query being measured has (in scratch.judgedSpans). */
  private judgedCount = 0;
  /** The ranking of the query being measured (rankEntries'), reused from query to query. */
  private rankOrder: Int32Array = new Int32Array(1024);
  /** addQuery's row values, consumed at once. */
  private readonly rowBuffer: Float64Array;

  /** Evaluates one query and records it at once (queries must come in byte order of id). */
  addQuery(queryId: string, grades: Map<string, number>, run: Omit<SpanQuery, 'queryId'>): void {
    this.judgeFromMap(grades);
    this.measureJudged(queryId, textQueryOf(run), this.rowBuffer, 0);
    this.recordQuery(queryId, this.rowBuffer);
  }

  /**
   * Writes the row values of qrels query `query` into target[offset…]. Throws DuplicateDocnoError
   * for a docno repeated in its judgments, then for one repeated within the kept top documents.
   */
  measureQrelsQuery(
    qrels: QrelsColumns,
    query: number,
    run: Omit<SpanQuery, 'queryId'>,
    target: Float64Array,
    offset: number,
  ): void {
    const queryId = qrels.queryIds[query] as string;
    if (run.bytes !== undefined && qrels.text === undefined && qrels.bytes !== undefined) {
      this.judgeBytesFromQrels(qrels, query);
      if (this.measureJudged(queryId, run, target, offset, qrels.bytes)) return;
      // A repeated docno or a grade too large: measured again as text, which throws the error with its words.
    }
    this.judgeFromQrels(qrels, query);
    this.measureJudged(queryId, textQueryOf(run), target, offset);
  }

  /** judgeFromQrels for judging spans of the qrels bytes themselves (ASCII, grouped: the query's entries are consecutive). */
  private judgeBytesFromQrels(qrels: QrelsColumns, query: number): void {
    const first = qrels.groups.starts[query] as number;
    const end = qrels.groups.starts[query + 1] as number;
    const spans = reserveJudgedSpans(this.scratch, end - first);
    const judgedGrades = this.scratch.judgedGrades;
    for (let entry = first; entry < end; entry++) {
      spans.starts[entry - first] = qrels.docStart[entry] as number;
      spans.ends[entry - first] = qrels.docEnd[entry] as number;
      judgedGrades[entry - first] = qrels.grade[entry] as number;
    }
    this.judgedCount = end - first;
    this.qrelsQuery = query;
    this.qrels = qrels;
  }

  private judgeFromMap(grades: Map<string, number>): void {
    const spans = reserveJudgedSpans(this.scratch, grades.size);
    const judgedGrades = this.scratch.judgedGrades;
    let count = 0;
    for (const [id, grade] of grades) {
      spans.texts[count] = id;
      spans.starts[count] = 0;
      spans.ends[count] = id.length;
      judgedGrades[count++] = grade;
    }
    this.judgedCount = count; // the ids of a Map are distinct
    this.qrels = undefined;
  }

  /** The judgments of qrels query `query`, straight from the columns (no strings); a repeated docno is fatal. */
  private judgeFromQrels(qrels: QrelsColumns, query: number): void {
    const { starts, order } = qrels.groups;
    const first = starts[query] as number;
    const count = (starts[query + 1] as number) - first;
    const spans = reserveJudgedSpans(this.scratch, count);
    const judgedGrades = this.scratch.judgedGrades;
    const { text, offset } = qrelsQueryText(qrels, query);
    for (let index = 0; index < count; index++) {
      const entry = order === undefined ? first + index : (order[first + index] as number);
      spans.texts[index] = text;
      spans.starts[index] = (qrels.docStart[entry] as number) - offset;
      spans.ends[index] = (qrels.docEnd[entry] as number) - offset;
      judgedGrades[index] = qrels.grade[entry] as number;
    }
    this.judgedCount = count;
    this.qrelsQuery = query;
    this.qrels = qrels;
  }

  /** The qrels query judgeFromQrels set up last (for the message of a repeated docno), if any. */
  private qrels: QrelsColumns | undefined;
  private qrelsQuery = -1;

  /** The error for judged entry `repeated`, which repeats an earlier one, of the query set up last. */
  private judgedRepeatError(queryId: string, repeated: number): DuplicateDocnoError {
    const { texts, starts, ends } = this.scratch.judgedSpans;
    const docId = (texts[repeated] as string).slice(starts[repeated] as number, ends[repeated] as number);
    let firstIndex = 0;
    while (
      !spansEqual(
        texts[firstIndex] as string,
        starts[firstIndex] as number,
        ends[firstIndex] as number,
        texts[repeated] as string,
        starts[repeated] as number,
        ends[repeated] as number,
      )
    )
      firstIndex++;
    const qrels = this.qrels;
    if (qrels === undefined) return new DuplicateDocnoError('qrels', queryId, docId, NaN, NaN, 'qrels');
    const { starts: groupStarts, order } = qrels.groups;
    const first = groupStarts[this.qrelsQuery] as number;
    const entryOf = (index: number) => (order === undefined ? first + index : (order[first + index] as number));
    return new DuplicateDocnoError(
      qrels.file,
      queryId,
      docId,
      qrelsLineOf(qrels, entryOf(repeated)),
      qrelsLineOf(qrels, entryOf(firstIndex)),
      'qrels',
    );
  }

  /**
   * Writes the row values of one query (its run may be empty: a qrels query missing from the run,
   * under -c), judged by the judged spans set up before. Throws DuplicateDocnoError for a docno
   * repeated within the kept top documents.
   *
   * Doc ids stay spans of the run text: ranked by score and docno (the core's rule), checked for
   * repeats and matched with the judged spans in the core's key table, then measured from each rank's grade.
   */
  private measureJudged(
    queryId: string,
    run: Omit<SpanQuery, 'queryId'>,
    target: Float64Array,
    offset: number,
    judgedBytes?: Uint8Array,
  ): boolean {
    const timed = this.settings.timeStages === true;
    const sortStarted = clock(timed);
    const order = rankEntries(run, this.rankOrder);
    this.rankOrder = order;
    const kept = Math.min(run.count, this.settings.maxDocuments);
    const measureStarted = clock(timed);
    this.times.sort += measureStarted - sortStarted;

    const scratch = this.scratch;
    // One key table for the judged spans and the kept ones: a repeat is fatal (trec_eval), first in
    // the qrels, then in the run; a judged document gets its grade.
    if (judgedBytes !== undefined) {
      // Judged and ranked spans of bytes (the run's and the qrels'); any repeat is reported from text.
      if (
        loadJudgedByteSpans(scratch, judgedBytes, this.judgedCount, kept) !== -1 ||
        judgeByteSpans(scratch, judgedBytes, run.bytes as Uint8Array, run.docStart, run.docEnd, order, kept) !== -1
      )
        return false;
    } else {
      const repeatedJudgment = loadJudgedSpans(scratch, this.judgedCount, kept);
      if (repeatedJudgment !== -1) throw this.judgedRepeatError(queryId, repeatedJudgment);
      const repeatedRank = judgeSpans(scratch, run.text, run.docStart, run.docEnd, order, kept);
      if (repeatedRank !== -1) throw this.rankRepeatError(queryId, run, order, repeatedRank);
    }
    const retrieved = this.settings.judgedOnly === true ? keepJudgedOnly(scratch) : kept;
    const { foundGrades, foundCount, judgedGrades } = scratch;
    const level = this.settings.relevanceLevel;
    let relevantRetrieved = 0;
    for (let found = 0; found < foundCount; found++) if ((foundGrades[found] as number) >= level) relevantRetrieved++;

    const overflowing = measureGradedRanking(
      scratch,
      retrieved,
      this.judgedCount,
      this.judgmentSettings,
      this.measurePlan,
      false,
    );
    if (overflowing !== -1) {
      if (judgedBytes !== undefined) return false;
      const { texts, starts, ends } = scratch.judgedSpans;
      const docId = (texts[overflowing] as string).slice(starts[overflowing] as number, ends[overflowing] as number);
      throw gradeTooLargeError(
        `the judgment of ${docId} in query ${queryId}`,
        judgedGrades[overflowing] as number,
        'linear',
      );
    }
    // trec_eval measures a qrels query missing from the run (-c) as a ranking of one document
    // outside the pool (none under -J or -M 0), then zeroes num_ret and a few leftovers.
    const missing = run.count === 0;
    const listed = missing && this.settings.judgedOnly !== true ? Math.min(1, this.settings.maxDocuments) : retrieved;
    const judgedList = this.plan.needsList ? this.judgedListOf(scratch, listed) : undefined;
    const rows = this.plan.rows;
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      let value: number;
      switch (row.kind) {
        case 'count':
          value =
            row.count === 'num_ret'
              ? retrieved
              : row.count === 'num_rel'
                ? scratch.relevantCount
                : row.count === 'num_q'
                  ? 1
                  : row.count === 'num_nonrel_judged_ret'
                    ? judgedNonRelevantFound(scratch, level)
                    : relevantRetrieved;
          break;
        case 'list': {
          const listRow = row.list as ListMeasureRow;
          value = missing && zeroedWhenMissing(row.label) ? 0 : listMeasureValue(judgedList as JudgedList, listRow);
          break;
        }
        case 'relstring':
          this.relevanceStrings.set(
            offset + index,
            missing && zeroedWhenMissing(row.label)
              ? ''
              : relevanceString(judgedList as JudgedList, row.relstringLength as number),
          );
          value = 0;
          break;
        case 'value':
          value = scratch.values[this.rowMeasure[index] as number] as number;
          break;
        case 'gm':
          value = Math.log(Math.max(scratch.values[this.rowMeasure[index] as number] as number, GEOMETRIC_MEAN_FLOOR));
          break;
        case 'iprec':
          // With nothing ranked, trec_eval divides 0 by 0 at the levels it reaches (round(level × R) = 0).
          value =
            listed === 0 && Math.round((row.recallLevel as number) * scratch.relevantCount) === 0
              ? Number.NaN
              : interpolatedPrecision(scratch, row.recallLevel as number);
          break;
        default:
          value = 0; // runid: printed from this.runId
      }
      target[offset + index] = value;
    }
    this.times.measure += clock(timed) - measureStarted;
    return true;
  }

  /** Per row value offset: the relstring of the query measured there, until its line is formatted. */
  private readonly relevanceStrings = new Map<number, string>();
  /** The judged list's grades, reused from query to query. */
  private listGrades = new Float64Array(64);

  /**
   * The query just measured as trec_eval's measures read it: the grade of each of the `retrieved`
   * top ranks (ranks past the judged ones found are outside the pool) and the count per grade.
   */
  private judgedListOf(scratch: MeasureScratch, retrieved: number): JudgedList {
    if (this.listGrades.length < retrieved)
      this.listGrades = new Float64Array(Math.max(retrieved, this.listGrades.length * 2));
    const grades = this.listGrades;
    grades.fill(NOT_IN_POOL, 0, retrieved);
    const level = this.settings.relevanceLevel;
    const { foundRanks, foundGrades, foundCount, judgedGrades } = scratch;
    let relevantRetrieved = 0;
    let inPoolUnjudged = 0;
    for (let found = 0; found < foundCount; found++) {
      const rank = foundRanks[found] as number;
      if (rank >= retrieved) break;
      const grade = foundGrades[found] as number;
      grades[rank] = grade < 0 ? IN_POOL_UNJUDGED : grade;
      if (grade < 0) inPoolUnjudged++;
      else if (grade >= level) relevantRetrieved++;
    }
    const levelCounts: number[] = [];
    let relevantCount = 0;
    for (let judged = 0; judged < this.judgedCount; judged++) {
      const grade = judgedGrades[judged] as number;
      if (grade < 0) continue;
      for (let missingLevel = levelCounts.length; missingLevel <= grade; missingLevel++) levelCounts.push(0);
      levelCounts[grade] = (levelCounts[grade] as number) + 1;
      if (grade >= level) relevantCount++;
    }
    return {
      retrieved,
      grades,
      relevantRetrieved,
      notInPool: retrieved - foundCountWithin(scratch, retrieved),
      inPoolUnjudged,
      relevantCount,
      levelCounts,
      relevanceLevel: level,
      documentsInCollection: this.settings.documentsInCollection ?? 0,
    };
  }

  /** Appends one query's `-q` lines to `target`: bytes written in place, no string per line. */
  formatQuery(target: ByteLines, queryId: string, rowValues: ArrayLike<number>, offset = 0): void {
    const rows = this.plan.rows;
    const id = Buffer.from(queryId, 'utf8');
    const idLength = id.length;
    const digits = this.digits;
    target.reserve(this.queryLineBytes + rows.length * idLength);
    let bytes = target.bytes;
    let at = target.length;
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      if (row.summaryOnly === true) continue;
      const prefix = this.prefixBytes[index] as Buffer;
      for (let position = 0; position < prefix.length; position++) bytes[at++] = prefix[position] as number;
      for (let position = 0; position < idLength; position++) bytes[at++] = id[position] as number;
      bytes[at++] = 0x09;
      if (row.kind === 'relstring') {
        // trec_eval's `'%s'`: the relstring between single quotes, printed per query only.
        target.length = at;
        target.text(`'${this.relevanceStrings.get(offset + index) ?? ''}'\n`);
        this.relevanceStrings.delete(offset + index);
        target.reserve(this.queryLineBytes + rows.length * idLength);
        bytes = target.bytes;
        at = target.length;
        continue;
      }
      const value = rowValues[offset + index] as number;
      const end = row.kind === 'count' ? writeCount(bytes, at, value) : writeFixed(bytes, at, value, digits);
      if (end === -1) {
        // A value off the fast path (huge, negative, NaN, an exact tie): formatted as text.
        target.length = at;
        if (row.kind === 'count') target.count(value);
        else target.fixed(value, digits);
        target.reserve(this.queryLineBytes + rows.length * idLength);
        bytes = target.bytes;
        at = target.length;
      } else {
        at = end;
      }
      bytes[at++] = 0x0a;
    }
    target.length = at;
  }

  /**
   * Prints (with -q) and accumulates one query's values; trec_eval's loop order is byte order of id.
   * `lines`: the query's `-q` lines when formatQuery made them already (in the thread that measured it).
   */
  recordQuery(queryId: string, rowValues: ArrayLike<number>, offset = 0, lines?: Uint8Array): void {
    const timed = this.settings.timeStages === true;
    const started = clock(timed);
    const rows = this.plan.rows;
    for (let index = 0; index < rows.length; index++)
      this.sums[index] = (this.sums[index] as number) + (rowValues[offset + index] as number);
    if (this.settings.perQuery) {
      if (lines !== undefined) {
        this.output.pushBytes(lines);
      } else {
        this.formatQuery(this.output.lines, queryId, rowValues, offset);
        this.output.flushIfFull();
      }
    }
    this.evaluatedCount++;
    this.times.write += clock(timed) - started;
  }

  /** The `all` lines: sums for the counts, means for the measures (over the evaluated queries). */
  pushSummary(): void {
    if (!this.settings.summary) return;
    const rows = this.plan.rows;
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      const sum = this.sums[index] as number;
      if (row.kind === 'relstring') continue; // per query only
      if (row.kind === 'runid') {
        this.output.push(`${this.prefixes[index]}all\t${this.runId}\n`);
      } else if (row.kind === 'count') {
        // trec_eval 10 with -c recounts num_rel from the whole qrels (grade > 0, whatever -l says).
        const total = row.count === 'num_rel' && this.settings.complete ? this.relevantInAllQrels : sum;
        this.output.push(`${this.prefixes[index]}all\t${total}\n`);
      } else if (row.kind === 'gm') {
        this.output.push(`${this.prefixes[index]}all\t${this.formatValue(Math.exp(sum / this.evaluatedCount))}\n`);
      } else {
        this.output.push(`${this.prefixes[index]}all\t${this.formatValue(sum / this.evaluatedCount)}\n`);
      }
    }
  }

  /** `%6.<digits>f`. */
  private formatValue(value: number): string {
    const text = formatFixed(value, this.digits);
    return text.length >= 6 ? text : text.padStart(6);
  }

  /** The error for the key at rank `rank`, which a higher rank holds already. */
  private rankRepeatError(
    queryId: string,
    run: Omit<SpanQuery, 'queryId'>,
    order: Int32Array,
    rank: number,
  ): DuplicateDocnoError {
    const { text, docStart, docEnd } = run;
    const entry = order[rank] as number;
    let higher = 0;
    for (; ; higher++) {
      const other = order[higher] as number;
      if (
        spansEqual(
          text,
          docStart[entry] as number,
          docEnd[entry] as number,
          text,
          docStart[other] as number,
          docEnd[other] as number,
        )
      )
        break;
    }
    const lineOf = (position: number) => run.lineNumberOf?.(position) ?? (run.lineNumber[position] as number);
    const lines = [lineOf(entry), lineOf(order[higher] as number)].sort((a, b) => a - b);
    return new DuplicateDocnoError(
      this.settings.runFile,
      queryId,
      docIdOf(run, entry),
      lines[1] as number,
      lines[0] as number,
    );
  }
}

/**
 * A query whose spans index ASCII bytes (the grouper's usual query) as one whose spans index a text:
 * the bytes its doc ids lie in, decoded, with the spans moved to match. Any other query as it is.
 */
function textQueryOf(run: Omit<SpanQuery, 'queryId'>): Omit<SpanQuery, 'queryId'> {
  const { bytes, count, indices } = run;
  if (bytes === undefined) return run;
  let low = bytes.length;
  let high = 0;
  for (let index = 0; index < count; index++) {
    const entry = indices === undefined ? index : (indices[index] as number);
    low = Math.min(low, run.docStart[entry] as number);
    high = Math.max(high, run.docEnd[entry] as number);
  }
  if (low > high) low = high;
  const docStart = run.docStart.map((start) => start - low);
  const docEnd = run.docEnd.map((end) => end - low);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', low, high);
  return { ...run, text, bytes: undefined, docStart, docEnd };
}

/**
 * -J: keeps the judged documents (grade ≥ 0) of the ranking, in rank order, renumbered from 0 (as
 * trec_eval throws out the others before any measure); returns how many are kept.
 */
function keepJudgedOnly(scratch: MeasureScratch): number {
  const { foundRanks, foundGrades } = scratch;
  let kept = 0;
  for (let found = 0; found < scratch.foundCount; found++) {
    const grade = foundGrades[found] as number;
    if (grade < 0) continue;
    foundRanks[kept] = kept;
    foundGrades[kept++] = grade;
  }
  scratch.foundCount = kept;
  return kept;
}

/** Judged documents found within the top `retrieved` ranks. */
function foundCountWithin(scratch: MeasureScratch, retrieved: number): number {
  let count = 0;
  while (count < scratch.foundCount && (scratch.foundRanks[count] as number) < retrieved) count++;
  return count;
}

/** trec_eval's num_nonrel_judged_ret: ranked documents judged with 0 ≤ grade < -l. */
function judgedNonRelevantFound(scratch: MeasureScratch, level: number): number {
  let count = 0;
  for (let found = 0; found < scratch.foundCount; found++) {
    const grade = scratch.foundGrades[found] as number;
    if (grade >= 0 && grade < level) count++;
  }
  return count;
}
