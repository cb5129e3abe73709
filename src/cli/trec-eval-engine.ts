// The evaluation behind `rag-matchers trec-eval`: one query at a time, through the metric core
// (measureGradedRanking), printed exactly as trec_eval 10 prints.
import { planMeasures, type MeasurePlan } from '../core/evaluate.js';
import { formatMeasure } from '../core/measures.js';
import { createMeasureScratch, measureGradedRanking, reserveScratch, type MeasureScratch } from '../core/measure-ranking.js';
import type { JudgmentSettings } from '../core/relevance.js';
import { DuplicateDocnoError, compareSpans, docIdOf, rankEntries, spanHash, type SpanQuery } from './trec-fast.js';
import type { Output } from './io.js';
import { formatFixed, measureColumn } from './trec-format.js';
import type { TrecMeasurePlan } from './trec-measures.js';

export interface TrecEvalSettings {
  /** -l: the grade at or above which a document is relevant. */
  relevanceLevel: number;
  /** -M: documents per query kept after ranking (Infinity: all). */
  maxDocuments: number;
  /** -q: print every query's lines. */
  perQuery: boolean;
  /** -c: average over every qrels query (missing ones score 0). */
  complete: boolean;
  /** -n: no summary. */
  summary: boolean;
  /** Decimals of measure values (trec_eval: 4). */
  digits: number;
  /** Run file name, for duplicate messages. */
  runFile: string;
}

export interface StageTimes {
  read: number;
  sort: number;
  measure: number;
  write: number;
}

/** An open-addressing table of small positive integers keyed by 32-bit hashes, reused across queries. */
class ReusableTable {
  slots = new Int32Array(256);
  hashes = new Uint32Array(256);
  mask = 255;

  /** Empties the table, sized for `entries` (load ≤ 1/2). */
  prepare(entries: number): void {
    let capacity = 16;
    while (capacity < entries * 2) capacity *= 2;
    if (capacity > this.slots.length) {
      this.slots = new Int32Array(capacity);
      this.hashes = new Uint32Array(capacity);
    } else {
      this.slots.fill(0, 0, capacity);
    }
    this.mask = capacity - 1;
  }
}

/** Accumulates per-query values in trec_eval's loop order and prints trec_eval's lines. */
export class TrecEvaluator {
  readonly times: StageTimes = { read: 0, sort: 0, measure: 0, write: 0 };
  private readonly sums: Float64Array;
  /** `%-22s\t` of each row, computed once. */
  private readonly prefixes: string[];
  /** Per row: the index of its measure in measurePlan, or -1 for a count. */
  private readonly rowMeasure: Int32Array;
  private readonly measurePlan: MeasurePlan;
  /** trec_eval's: relevant from the -l level up, linear gains from every positive grade. */
  private readonly judgmentSettings: JudgmentSettings;
  private readonly scratch: MeasureScratch = createMeasureScratch();
  private readonly digits: number;
  evaluatedCount = 0;
  /** Σ over all qrels queries of judgments with grade > 0 (trec_eval's -c summary num_rel). */
  private relevantInAllQrels = 0;

  constructor(
    private readonly plan: TrecMeasurePlan,
    private readonly settings: TrecEvalSettings,
    private readonly output: Output,
  ) {
    this.sums = new Float64Array(plan.rows.length);
    this.prefixes = plan.rows.map((row) => `${measureColumn(row.label)}\t`);
    this.measurePlan = planMeasures(plan.measures);
    const measureNames = this.measurePlan.names;
    this.rowMeasure = Int32Array.from(plan.rows, (row) => (row.measure === undefined ? -1 : measureNames.indexOf(formatMeasure(row.measure))));
    this.judgmentSettings = { minGrade: settings.relevanceLevel, gain: 'linear', applyMinGradeToNdcg: false };
    this.digits = settings.digits;
  }

  /** Counts a qrels query for the -c summary of num_rel, whether or not it is evaluated. */
  noteQrelsQuery(grades: Map<string, number>): void {
    for (const grade of grades.values()) if (grade > 0) this.relevantInAllQrels++;
  }

  /** Sets the -c summary of num_rel directly (the whole qrels' judgments with grade > 0). */
  noteRelevantInAllQrels(count: number): void {
    this.relevantInAllQrels = count;
  }

  private readonly judgedTable = new ReusableTable();
  private readonly judgedIds: string[] = [];
  private readonly rankTable = new ReusableTable();

  /** Evaluates one query and records it at once (queries must come in byte order of id). */
  addQuery(queryId: string, grades: Map<string, number>, run: Omit<SpanQuery, 'queryId'>): void {
    this.recordQuery(queryId, this.measureQuery(queryId, grades, run));
  }

  /**
   * The row values of one query (its run may be empty: a qrels query missing from the run, under
   * -c). Throws DuplicateDocnoError for a docno repeated within the kept top documents.
   *
   * Doc ids stay spans of the run text: ranked by score and docno, checked for repeats and matched
   * with the judged ids through hash tables; the core's judgeRanking then gets the judged id
   * strings (shared with the qrels) and stand-in keys for the rest.
   */
  measureQuery(queryId: string, grades: Map<string, number>, run: Omit<SpanQuery, 'queryId'>): Float64Array {
    const sortStarted = performance.now();
    const order = rankEntries(run);
    const kept = Math.min(order.length, this.settings.maxDocuments);
    const measureStarted = performance.now();
    this.times.sort += measureStarted - sortStarted;

    const { text, docStart, docEnd } = run;
    const scratch = this.scratch;
    reserveScratch(scratch, kept, grades.size, this.measurePlan);
    const { gradeAtRank, judgedGrades } = scratch;
    // The judged ids of this query, by hash.
    const judgedIds = this.judgedIds;
    judgedIds.length = 0;
    for (const [id, grade] of grades) {
      judgedGrades[judgedIds.length] = grade;
      judgedIds.push(id);
    }
    const judged = this.judgedTable;
    judged.prepare(judgedIds.length);
    for (let index = 0; index < judgedIds.length; index++) {
      const id = judgedIds[index] as string;
      const hash = spanHash(id, 0, id.length);
      let slot = hash & judged.mask;
      while (judged.slots[slot] !== 0) slot = (slot + 1) & judged.mask;
      judged.slots[slot] = index + 1;
      judged.hashes[slot] = hash;
    }
    // Each kept document: a repeat is fatal (trec_eval); a judged one gets its grade.
    const level = this.settings.relevanceLevel;
    let relevantRetrieved = 0;
    const seen = this.rankTable;
    seen.prepare(kept);
    for (let rank = 0; rank < kept; rank++) {
      const entry = order[rank] as number;
      const start = docStart[entry] as number;
      const end = docEnd[entry] as number;
      const hash = spanHash(text, start, end);
      let slot = hash & seen.mask;
      for (let other = seen.slots[slot] as number; other !== 0; other = seen.slots[slot] as number) {
        const otherEntry = order[other - 1] as number;
        if (seen.hashes[slot] === hash && compareSpans(text, start, end, docStart[otherEntry] as number, docEnd[otherEntry] as number) === 0) {
          throw this.duplicateError(queryId, run, entry, otherEntry);
        }
        slot = (slot + 1) & seen.mask;
      }
      seen.slots[slot] = rank + 1;
      seen.hashes[slot] = hash;
      let grade = Number.NaN;
      for (let probe = hash & judged.mask, found = judged.slots[probe] as number; found !== 0; probe = (probe + 1) & judged.mask, found = judged.slots[probe] as number) {
        const id = judgedIds[found - 1] as string;
        if (judged.hashes[probe] === hash && id.length === end - start && text.startsWith(id, start)) {
          grade = judgedGrades[found - 1] as number;
          if (grade >= level) relevantRetrieved++;
          break;
        }
      }
      gradeAtRank[rank] = grade;
    }

    measureGradedRanking(scratch, kept, judgedIds.length, this.judgmentSettings, this.measurePlan, false);
    const rows = this.plan.rows;
    const rowValues = new Float64Array(rows.length);
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      if (row.kind === 'count') {
        rowValues[index] = row.count === 'num_ret' ? kept : row.count === 'num_rel' ? scratch.relevantCount : relevantRetrieved;
      } else {
        rowValues[index] = scratch.values[this.rowMeasure[index] as number] as number;
      }
    }
    this.times.measure += performance.now() - measureStarted;
    return rowValues;
  }

  /** One query's `-q` lines. */
  formatQuery(queryId: string, rowValues: ArrayLike<number>): string {
    const rows = this.plan.rows;
    let lines = '';
    for (let index = 0; index < rows.length; index++) {
      const value = rowValues[index] as number;
      const shown = rows[index]!.kind === 'count' ? String(value) : this.formatValue(value);
      lines += `${this.prefixes[index]}${queryId}\t${shown}\n`;
    }
    return lines;
  }

  /** Prints (with -q) and accumulates one query's values; trec_eval's loop order is byte order of id. */
  recordQuery(queryId: string, rowValues: ArrayLike<number>): void {
    const started = performance.now();
    const rows = this.plan.rows;
    for (let index = 0; index < rows.length; index++) this.sums[index] = (this.sums[index] as number) + (rowValues[index] as number);
    if (this.settings.perQuery) this.output.push(this.formatQuery(queryId, rowValues));
    this.evaluatedCount++;
    this.times.write += performance.now() - started;
  }

  /** The `all` lines: sums for the counts, means for the measures (over the evaluated queries). */
  pushSummary(): void {
    if (!this.settings.summary) return;
    const rows = this.plan.rows;
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      const sum = this.sums[index] as number;
      if (row.kind === 'count') {
        // trec_eval 10 with -c recounts num_rel from the whole qrels (grade > 0, whatever -l says).
        const total = row.count === 'num_rel' && this.settings.complete ? this.relevantInAllQrels : sum;
        this.output.push(`${this.prefixes[index]}all\t${total}\n`);
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

  private duplicateError(queryId: string, run: Omit<SpanQuery, 'queryId'>, entry: number, otherEntry: number): DuplicateDocnoError {
    const lines = [run.lineNumber[entry] as number, run.lineNumber[otherEntry] as number].sort((a, b) => a - b);
    return new DuplicateDocnoError(this.settings.runFile, queryId, docIdOf(run, entry), lines[1] as number, lines[0] as number);
  }
}
