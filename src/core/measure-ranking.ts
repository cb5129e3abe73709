// The fast path of evaluateMeasures and of the CLI's trec-eval: every planned measure of one ranking
// in a single pass, with nothing allocated per query but the result. Two layers:
//   measureGradedRanking — the measures, from the ranks and grades of the judged keys found (first
//                          sightings only) and the query's judged grades; shared by both callers;
//   measureRanking       — keys and a grade Map in, a Record of values out (evaluateMeasures).
// evaluate() and measureJudged() keep the general path (metrics.ts), which also reports counts and
// every duplicate; the two agree to the last bit (test/unit/core/measure-ranking.test.ts).
import type { MeasurePlan } from './evaluate.js';
import { isPlainKey } from './keys.js';
import { discount } from './metrics.js';
import { gainOf, type JudgmentSettings } from './relevance.js';
import type { EvaluateOptions } from './types.js';

/** Judged keys seen so far, scanned linearly while few (the usual case), then through a Set. */
const LINEAR_SEEN_LIMIT = 16;

/** Gains that are whole numbers below this are sorted by counting (grades are usually 0–3). */
const COUNTED_GAIN_LIMIT = 64;

/** Buffers one caller reuses from query to query. */
export interface MeasureScratch {
  /** The judged keys found, first sightings only, in rank order: their ranks (0-based) and grades. */
  foundRanks: Int32Array;
  foundGrades: Float64Array;
  foundCount: number;
  /** The query's judged grades, any order. */
  judgedGrades: Float64Array;
  /** After a measure: per plan measure, its value. */
  values: Float64Array;
  /** After a measure: how many judged grades reach minGrade (trec_eval's num_rel). */
  relevantCount: number;
  idealGains: number[];
  /** Per whole gain below COUNTED_GAIN_LIMIT, how many judgments have it; all zero between queries. */
  gainCounts: Int32Array;
  seenKeys: string[];
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
    gainCounts: new Int32Array(COUNTED_GAIN_LIMIT),
    seenKeys: [],
  };
}

/** Makes room for `judgedCount` judgments (and as many found) and `plan`'s values (contents are not kept). */
export function reserveScratch(scratch: MeasureScratch, judgedCount: number, plan: MeasurePlan): void {
  if (scratch.judgedGrades.length < judgedCount) {
    const capacity = Math.max(judgedCount, scratch.judgedGrades.length * 2);
    scratch.judgedGrades = new Float64Array(capacity);
    scratch.foundRanks = new Int32Array(capacity);
    scratch.foundGrades = new Float64Array(capacity);
  }
  if (scratch.values.length < plan.measures.length) scratch.values = new Float64Array(plan.measures.length);
}

/** How many top ranks the plan reads: all of them when some measure is uncut, else its largest cutoff. */
export function ranksNeeded(plan: MeasurePlan, retrievedCount: number): number {
  if (plan.needsUncut || plan.cutoffs.length === 0) return plan.needsUncut ? retrievedCount : 0;
  return Math.min(retrievedCount, plan.cutoffs[plan.cutoffs.length - 1] as number);
}

/**
 * Puts the ideal gains highest first into idealGains[0, count): from the counts when every gain was
 * a small whole number (highestCounted ≥ 0; the counts are cleared on the way), else by sorting.
 */
function orderIdealGains(scratch: MeasureScratch, count: number, highestCounted: number): void {
  const { idealGains, gainCounts } = scratch;
  if (highestCounted >= 0) {
    let filled = 0;
    for (let gain = highestCounted; filled < count; gain--) {
      for (let left = gainCounts[gain] as number; left > 0; left--) idealGains[filled++] = gain;
      gainCounts[gain] = 0;
    }
    return;
  }
  gainCounts.fill(0);
  const sorted = idealGains.slice(0, count).sort((a, b) => b - a);
  for (let index = 0; index < count; index++) idealGains[index] = sorted[index] as number;
}

/**
 * Every measure of `plan` for one ranking of `retrievedCount` keys, into scratch.values (by measure
 * index), from the judged keys found (scratch.foundRanks/foundGrades/foundCount, at least those among
 * the first ranksNeeded(plan, retrievedCount) ranks) and scratch.judgedGrades[0, judgedCount). Sets
 * scratch.relevantCount.
 */
export function measureGradedRanking(
  scratch: MeasureScratch,
  retrievedCount: number,
  judgedCount: number,
  settings: JudgmentSettings,
  plan: MeasurePlan,
  precisionOverRetrieved: boolean,
): void {
  const { minGrade, gain } = settings;
  // nDCG gains come from every positive grade (trec_eval), or from relevant ones only (applyMinGradeToNdcg).
  const gainFloor = settings.applyMinGradeToNdcg ? minGrade : Number.MIN_VALUE;
  const { foundRanks, foundGrades, foundCount, judgedGrades, idealGains, gainCounts, values } = scratch;
  let relevantCount = 0;
  let gainCount = 0;
  let highestCounted = 0; // the highest gain counted so far; -1 once some gain cannot be counted
  for (let index = 0; index < judgedCount; index++) {
    const grade = judgedGrades[index] as number;
    if (grade >= minGrade) relevantCount++;
    if (grade >= gainFloor) {
      const value = gainOf(grade, gain);
      idealGains[gainCount++] = value;
      if (highestCounted >= 0 && value === Math.floor(value) && value < COUNTED_GAIN_LIMIT) {
        gainCounts[value] = (gainCounts[value] as number) + 1;
        if (value > highestCounted) highestCounted = value;
      } else {
        highestCounted = -1;
      }
    }
  }
  orderIdealGains(scratch, gainCount, highestCounted);
  scratch.relevantCount = relevantCount;

  const cutoffs = plan.cutoffs;
  let found = 0;
  let truePositiveCount = 0;
  let relevantInTopR = 0;
  let firstRelevantRank = 0;
  let precisionSum = 0;
  let dcg = 0;
  let idealRank = 0;
  let ideal = 0;
  // Cutoffs ascending, then the whole list (group cutoffs.length) when an uncut measure needs it.
  for (let group = 0; group <= cutoffs.length; group++) {
    const uncut = group === cutoffs.length;
    if (uncut && !plan.needsUncut) break;
    const k = uncut ? retrievedCount : (cutoffs[group] as number);
    const evaluatedAtK = k < retrievedCount ? k : retrievedCount;
    for (; found < foundCount; found++) {
      const rank = foundRanks[found] as number;
      if (rank >= evaluatedAtK) break;
      const grade = foundGrades[found] as number;
      if (grade >= gainFloor) dcg += gainOf(grade, gain) / discount(rank + 1);
      if (grade >= minGrade) {
        truePositiveCount++;
        precisionSum += truePositiveCount / (rank + 1);
        if (firstRelevantRank === 0) firstRelevantRank = rank + 1;
        if (rank < relevantCount) relevantInTopR++;
      }
    }
    // trec_eval's uncut nDCG divides by the ideal over every judged gain; a cut one by the ideal's top k.
    const idealEnd = uncut || k > gainCount ? gainCount : k;
    for (; idealRank < idealEnd; idealRank++) ideal += (idealGains[idealRank] as number) / discount(idealRank + 1);

    const precisionBase = precisionOverRetrieved ? evaluatedAtK : k;
    const precision = precisionBase === 0 ? 0 : truePositiveCount / precisionBase;
    const recall = relevantCount === 0 ? 0 : truePositiveCount / relevantCount;
    const members = plan.cutoffMembers[group] as readonly number[];
    for (let member = 0; member < members.length; member++) {
      const measureIndex = members[member] as number;
      let value: number;
      switch ((plan.measures[measureIndex] as { name: string }).name) {
        case 'precision': value = precision; break;
        case 'recall': value = recall; break;
        case 'f1': value = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall); break;
        case 'hit': value = truePositiveCount > 0 ? 1 : 0; break;
        case 'mrr': value = firstRelevantRank === 0 ? 0 : 1 / firstRelevantRank; break;
        case 'ndcg': value = ideal === 0 ? 0 : dcg / ideal; break;
        case 'map': value = relevantCount === 0 ? 0 : precisionSum / relevantCount; break;
        default: value = relevantCount === 0 ? 0 : relevantInTopR / relevantCount; // rprec: uncut, so the pass covered the top R
      }
      values[measureIndex] = value;
    }
  }
}

/** evaluateMeasures' scratch. A re-entrant call (a Map subclass calling back) gets its own. */
const sharedScratch = createMeasureScratch();
let scratchInUse = false;

/** Why measureRanking could not measure its input as it is: the grades or the keys must be read first. */
export type MeasureRefusal = 'grades' | 'keys';

/**
 * The values of `plan`'s measures for one ranking, keyed by canonical name, as measureJudged gives
 * them for the same input with duplicates: 'count'. Refuses with 'grades' when `grades` is not
 * clean (an id that is not a non-blank string, a grade that is not a finite number): pass it through
 * readJudgedGrades first, which copies it clean or says what is wrong. With `checkKeys`, `keys` may
 * be the raw hits: each is checked to be a non-blank string on the way (the usual hits are their own
 * keys), and anything else refuses with 'keys' (make them with rankedKeys).
 */
export function measureRanking(
  keys: readonly unknown[],
  grades: ReadonlyMap<unknown, unknown>,
  settings: JudgmentSettings,
  plan: MeasurePlan,
  precisionDenominator: EvaluateOptions['precisionDenominator'] = 'k',
  checkKeys = false,
): Record<string, number> | MeasureRefusal {
  const reentered = scratchInUse;
  scratchInUse = true;
  try {
    return measureWith(keys, grades, settings, plan, precisionDenominator === 'retrieved', checkKeys, reentered ? createMeasureScratch() : sharedScratch);
  } finally {
    if (!reentered) scratchInUse = false;
  }
}

function measureWith(
  keys: readonly unknown[],
  untrustedGrades: ReadonlyMap<unknown, unknown>,
  settings: JudgmentSettings,
  plan: MeasurePlan,
  precisionOverRetrieved: boolean,
  checkKeys: boolean,
  scratch: MeasureScratch,
): Record<string, number> | MeasureRefusal {
  const retrievedCount = keys.length;
  const rankCount = ranksNeeded(plan, retrievedCount);
  reserveScratch(scratch, untrustedGrades.size, plan);
  const { foundRanks, foundGrades, judgedGrades, seenKeys } = scratch;
  // The judgments are checked while their grades are copied (keys and values apart: no pair per entry).
  for (const id of untrustedGrades.keys()) if (!isPlainKey(id)) return 'grades';
  let judgedCount = 0;
  for (const grade of untrustedGrades.values()) {
    if (typeof grade !== 'number' || grade - grade !== 0) return 'grades';
    judgedGrades[judgedCount++] = grade;
  }
  // Keys the plan does not read are still checked: a bad hit is an error wherever it is ranked.
  if (checkKeys) for (let rank = rankCount; rank < retrievedCount; rank++) if (!isPlainKey(keys[rank])) return 'keys';
  const grades = untrustedGrades as ReadonlyMap<string, number>;
  let seenCount = 0;
  let seenSet: Set<string> | undefined;
  let foundCount = 0;
  for (let rank = 0; rank < rankCount; rank++) {
    const key = keys[rank] as string;
    if (checkKeys && !isPlainKey(key)) return 'keys';
    const grade = grades.get(key);
    if (grade === undefined) continue;
    // A judged key ranked again takes its slot and gains nothing.
    if (seenSet !== undefined) {
      if (seenSet.has(key)) continue;
      seenSet.add(key);
    } else {
      let repeated = false;
      for (let index = 0; index < seenCount; index++) {
        if (seenKeys[index] === key) {
          repeated = true;
          break;
        }
      }
      if (repeated) continue;
      seenKeys[seenCount++] = key;
      if (seenCount > LINEAR_SEEN_LIMIT) seenSet = new Set(seenKeys.slice(0, seenCount));
    }
    foundRanks[foundCount] = rank;
    foundGrades[foundCount++] = grade;
  }
  scratch.foundCount = foundCount;
  measureGradedRanking(scratch, retrievedCount, judgedCount, settings, plan, precisionOverRetrieved);
  const values: Record<string, number> = { ...plan.template };
  const names = plan.names;
  for (let index = 0; index < names.length; index++) values[names[index] as string] = scratch.values[index] as number;
  return values;
}
