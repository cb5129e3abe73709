// The buffers one caller of the kernel reuses from query to query (MeasureScratch): the judged keys
// found, the judged grades, the ideal gains, the key table and the running counts, so that measuring
// a query allocates nothing.
import type { RankingState } from './measure-table.js';
import type { JudgmentSettings } from './relevance.js';
import { createKeyTable, type KeyTable } from './key-table.js';

/** Gains that are whole numbers below this are sorted by counting (grades are usually 0–3). */
export const COUNTED_GAIN_LIMIT = 64;

/**
 * The running counts, with the kernel's cursor into the ideal list. Its cursor into the found list is
 * judgedInTopK: the found keys before it are the judged ones ranked in the top k.
 */
interface KernelState extends RankingState {
  idealRank: number;
  nonRelevantSoFar: number;
}

/** Buffers one caller reuses from query to query. */
export interface MeasureScratch {
  /** The judged keys found, first sightings only, in rank order: their ranks (0-based) and grades. */
  foundRanks: Int32Array;
  foundGrades: Float64Array;
  foundCount: number;
  /** The query's judged grades, any order. */
  judgedGrades: Float64Array;
  /** After measureGradedRanking: per plan measure, its value. */
  values: Float64Array;
  /** After prepareRanking: how many judged grades reach minGrade (trec_eval's num_rel). */
  relevantCount: number;
  idealGains: number[];
  /** How many of idealGains are in use. */
  gainCount: number;
  /** Per whole gain below COUNTED_GAIN_LIMIT, how many judgments have it; all zero between queries. */
  gainCounts: Int32Array;
  /** The keys of the query being judged: its judged ids first (entry i ↔ judgedGrades[i]), then unjudged hits. */
  keys: KeyTable;
  /** After judgeKeys: how many keys were ranked again lower down. */
  duplicateCount: number;
  /** After judgeKeys tracking every key: the ranks (0-based, ascending) where an unjudged key is first seen. */
  unjudgedRanks: Int32Array;
  unjudgedCount: number;
  /** The judged ids as spans, for loadJudgedSpans (trec-eval). */
  judgedSpans: JudgedSpans;
  state: KernelState;
  settings: JudgmentSettings;
}

export function createMeasureScratch(): MeasureScratch {
  return {
    foundRanks: new Int32Array(64),
    foundGrades: new Float64Array(64),
    foundCount: 0,
    judgedGrades: new Float64Array(64),
    values: new Float64Array(16),
    relevantCount: 0,
    idealGains: [],
    gainCount: 0,
    gainCounts: new Int32Array(COUNTED_GAIN_LIMIT),
    keys: createKeyTable(),
    duplicateCount: 0,
    unjudgedRanks: new Int32Array(64),
    unjudgedCount: 0,
    judgedSpans: { texts: [], starts: new Int32Array(64), ends: new Int32Array(64) },
    state: {
      k: 0,
      evaluatedAtK: 0,
      retrievedCount: 0,
      relevantCount: 0,
      judgedNonRelevantCount: 0,
      truePositiveCount: 0,
      judgedInTopK: 0,
      firstRelevantRank: 0,
      precisionSum: 0,
      relevantInTopR: 0,
      bprefSum: 0,
      dcg: 0,
      idealDcg: 0,
      precisionOverRetrieved: false,
      foundRanks: new Int32Array(0),
      foundGrades: new Float64Array(0),
      foundCount: 0,
      minGrade: 1,
      highestGrade: 0,
      idealRank: 0,
      nonRelevantSoFar: 0,
    },
    settings: { minGrade: 1, gain: 'linear', applyMinGradeToNdcg: false },
  };
}

/** Makes room for `judgedCount` judgments (and as many found) and `measureCount` values (contents are not kept). */
export function reserveScratch(scratch: MeasureScratch, judgedCount: number, measureCount = 0): void {
  if (scratch.judgedGrades.length < judgedCount) {
    const capacity = Math.max(judgedCount, scratch.judgedGrades.length * 2);
    scratch.judgedGrades = new Float64Array(capacity);
    scratch.foundRanks = new Int32Array(capacity);
    scratch.foundGrades = new Float64Array(capacity);
  }
  if (scratch.values.length < measureCount) scratch.values = new Float64Array(measureCount);
}

/**
 * Judged ids held as spans of text, never cut out (trec-eval's qrels columns, or each id a whole
 * string): entry i is texts[i][starts[i], ends[i]), its grade scratch.judgedGrades[i]. The caller
 * fills the first `count` entries, then calls loadJudgedSpans.
 */
export interface JudgedSpans {
  texts: string[];
  starts: Int32Array;
  ends: Int32Array;
}
