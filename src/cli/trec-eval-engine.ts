// The evaluation behind `rag-matchers trec-eval`: one query at a time, through the metric core
// (prepareJudgments → judgeRanking → measureJudged), printed exactly as trec_eval 10 prints.
import { formatMeasure } from '../core/measures.js';
import { measureJudged, planMeasures, type MeasurePlan } from '../core/evaluate.js';
import { judgeRanking, type JudgedRanking } from '../core/ranking.js';
import type { Judgments } from '../core/relevance.js';
import { DuplicateDocnoError, rankByScore, type QueryRun } from './trec-fast.js';
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

export const EMPTY_QUERY_RUN: Omit<QueryRun, 'queryId'> = { docIds: [], scores: [], lineNumbers: () => [] };

/**
 * The core's Judgments for one qrels query, as prepareJudgments builds them for `{ minGrade }` with
 * linear gains (trec_eval's): relevant = grade ≥ level, ideal gains = the positive grades, highest
 * first. Built here from the parsed map directly: the grades are integers by construction, so
 * prepareJudgments' validation and copy would only cost time.
 */
export function trecJudgments(grades: Map<string, number>, relevanceLevel: number): Judgments {
  const relevantIds: string[] = [];
  const positiveGains: number[] = [];
  for (const [id, grade] of grades) {
    if (grade >= relevanceLevel) relevantIds.push(id);
    if (grade > 0) positiveGains.push(grade);
  }
  const idealGains = Float64Array.from(positiveGains).sort().reverse();
  return { grades, minGrade: relevanceLevel, relevantIds, idealGains, gain: 'linear', applyMinGradeToNdcg: false };
}

/** Accumulates per-query values in trec_eval's loop order and prints trec_eval's lines. */
export class TrecEvaluator {
  readonly times: StageTimes = { read: 0, sort: 0, measure: 0, write: 0 };
  private readonly sums: Float64Array;
  /** `%-22s\t` of each row, computed once. */
  private readonly prefixes: string[];
  private readonly canonicalNames: (string | undefined)[];
  private readonly measurePlan: MeasurePlan;
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
    this.canonicalNames = plan.rows.map((row) => (row.measure === undefined ? undefined : formatMeasure(row.measure)));
    this.measurePlan = planMeasures(plan.measures);
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

  /** Evaluates one query and records it at once (queries must come in byte order of id). */
  addQuery(queryId: string, grades: Map<string, number>, run: Omit<QueryRun, 'queryId'>): void {
    this.recordQuery(queryId, this.measureQuery(queryId, grades, run));
  }

  /**
   * The row values of one query (its run may be empty: a qrels query missing from the run, under
   * -c). Throws DuplicateDocnoError for a docno repeated within the kept top documents.
   */
  measureQuery(queryId: string, grades: Map<string, number>, run: Omit<QueryRun, 'queryId'>): Float64Array {
    const sortStarted = performance.now();
    const order = rankByScore(run.docIds, run.scores);
    const kept = Math.min(order.length, this.settings.maxDocuments);
    const keys = new Array<string>(kept);
    for (let rank = 0; rank < kept; rank++) keys[rank] = run.docIds[order[rank] as number] as string;
    const measureStarted = performance.now();
    this.times.sort += measureStarted - sortStarted;

    const judgments = trecJudgments(grades, this.settings.relevanceLevel);
    let judged: JudgedRanking;
    try {
      judged = judgeRanking(keys, judgments, 'error');
    } catch (error) {
      if (error instanceof RangeError) throw this.duplicateError(queryId, keys, run);
      throw error;
    }
    const values = measureJudged(judged, judgments, this.measurePlan);
    let relevantRetrieved = 0;
    for (let rank = 0; rank < kept; rank++) relevantRetrieved += judged.relevantAtRank[rank] as number;

    const rows = this.plan.rows;
    const rowValues = new Float64Array(rows.length);
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      if (row.kind === 'count') {
        rowValues[index] = row.count === 'num_ret' ? kept : row.count === 'num_rel' ? judgments.relevantIds.length : relevantRetrieved;
      } else {
        rowValues[index] = values[this.canonicalNames[index] as string] as number;
      }
    }
    this.times.measure += performance.now() - measureStarted;
    return rowValues;
  }

  /** Prints (with -q) and accumulates one query's values; trec_eval's loop order is byte order of id. */
  recordQuery(queryId: string, rowValues: Float64Array): void {
    const started = performance.now();
    const rows = this.plan.rows;
    const perQuery = this.settings.perQuery;
    let lines = '';
    for (let index = 0; index < rows.length; index++) {
      const value = rowValues[index] as number;
      if (perQuery) {
        const shown = rows[index]!.kind === 'count' ? String(value) : this.formatValue(value);
        lines += `${this.prefixes[index]}${queryId}\t${shown}\n`;
      }
      this.sums[index] = (this.sums[index] as number) + value;
    }
    if (perQuery) this.output.push(lines);
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

  private duplicateError(queryId: string, keys: readonly string[], run: Omit<QueryRun, 'queryId'>): DuplicateDocnoError {
    const kept = new Set<string>();
    let repeated = '';
    for (const key of keys) {
      if (kept.has(key)) {
        repeated = key;
        break;
      }
      kept.add(key);
    }
    const lineNumbers = run.lineNumbers();
    const lines: number[] = [];
    run.docIds.forEach((docId, index) => {
      if (docId === repeated) lines.push(lineNumbers[index] as number);
    });
    lines.sort((a, b) => a - b);
    return new DuplicateDocnoError(this.settings.runFile, queryId, repeated, lines[1] ?? Number.NaN, lines[0] ?? Number.NaN);
  }
}
