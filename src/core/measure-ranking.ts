// The metric kernel: every measure of one ranking in a single pass, from the ranks and grades of the
// judged keys found (first sightings only) and the query's judged grades. The formulas are the measure
// table's (measure-table.ts); this module only keeps the running counts they read. The judged keys
// found come from judge-keys.ts (evaluate() and evaluateMeasures(), keys as strings) or judge-spans.ts
// (trec-eval, keys as spans of the files' text), both through the key table (key-table.ts); the
// buffers are the caller's MeasureScratch (measure-scratch.ts), the measures its MeasurePlan
// (measure-plan.ts).
import type { RankingState } from './measure-table.js';
import type { MeasurePlan } from './measure-plan.js';
import { COUNTED_GAIN_LIMIT, type MeasureScratch } from './measure-scratch.js';
import { gainOf, type JudgmentSettings } from './relevance.js';

/**
 * The largest nDCG gain accepted. Beyond it a sum of gains (the DCG, the ideal DCG) could overflow
 * to Infinity and nDCG become NaN; with gain 'exponential' that is a grade above 996.
 */
const MAX_GAIN = 1e300;

/** The highest grade whose nDCG gain stays within MAX_GAIN (996 with exponential gain). */
function largestGrade(gain: JudgmentSettings['gain']): number {
  return gain === 'exponential' ? Math.floor(Math.log2(MAX_GAIN)) : MAX_GAIN;
}

/** The error for a grade whose gain could overflow nDCG (`where` names the judgment). */
export function gradeTooLargeError(where: string, grade: number, gain: JudgmentSettings['gain']): RangeError {
  return new RangeError(
    `${where} has the grade ${grade}, too large for nDCG with gain '${gain}' (at most ${largestGrade(gain)}: a larger gain could overflow the DCG sum). ` +
      `Use grades on a small scale such as 0–3${gain === 'exponential' ? ", or gain: 'linear'" : ''}.`,
  );
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
 * Starts a ranking of `retrievedCount` keys: reads scratch.judgedGrades[0, judgedCount) (relevant and
 * judged non-relevant counts, the ideal gains) and resets the running counts to rank 0. The judged
 * keys found must be in scratch.foundRanks/foundGrades/foundCount (at least those the cutoffs reach).
 * Returns the index of a judgment whose gain exceeds MAX_GAIN, else -1 (the caller names it).
 */
export function prepareRanking(
  scratch: MeasureScratch,
  retrievedCount: number,
  judgedCount: number,
  settings: JudgmentSettings,
  precisionOverRetrieved: boolean,
): number {
  const { minGrade, gain } = settings;
  // nDCG gains come from every positive grade (trec_eval), or from relevant ones only (applyMinGradeToNdcg).
  const gainFloor = settings.applyMinGradeToNdcg ? minGrade : Number.MIN_VALUE;
  const { judgedGrades, idealGains, gainCounts } = scratch;
  let relevantCount = 0;
  let judgedNonRelevantCount = 0;
  let gainCount = 0;
  let highestCounted = 0; // the highest gain counted so far; -1 once some gain cannot be counted
  let overflowing = -1;
  const highestGrade = largestGrade(gain);
  let highestJudged = 0;
  for (let index = 0; index < judgedCount; index++) {
    const grade = judgedGrades[index] as number;
    if (grade > highestJudged) highestJudged = grade;
    if (grade >= minGrade) relevantCount++;
    else if (grade >= 0) judgedNonRelevantCount++;
    if (grade >= gainFloor) {
      const value = gainOf(grade, gain);
      if (grade > highestGrade && overflowing === -1) overflowing = index;
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
  scratch.gainCount = gainCount;
  scratch.settings = settings;
  const state = scratch.state;
  state.k = 0;
  state.evaluatedAtK = 0;
  state.retrievedCount = retrievedCount;
  state.relevantCount = relevantCount;
  state.judgedNonRelevantCount = judgedNonRelevantCount;
  state.truePositiveCount = 0;
  state.judgedInTopK = 0;
  state.firstRelevantRank = 0;
  state.precisionSum = 0;
  state.relevantInTopR = 0;
  state.bprefSum = 0;
  state.dcg = 0;
  state.idealDcg = 0;
  state.precisionOverRetrieved = precisionOverRetrieved;
  state.foundRanks = scratch.foundRanks;
  state.foundGrades = scratch.foundGrades;
  state.foundCount = scratch.foundCount;
  state.minGrade = minGrade;
  state.highestGrade = highestJudged;
  state.idealRank = 0;
  state.nonRelevantSoFar = 0;
  return overflowing;
}

/** log2(rank + 1) for ranks 1…, cached: the nDCG discount. */
const discounts: number[] = [];
function discount(rank: number): number {
  let value = discounts[rank];
  if (value === undefined) {
    value = Math.log2(rank + 1);
    discounts[rank] = value;
  }
  return value;
}

/**
 * Moves the running counts on to cutoff `k` (never back: cutoffs come ascending); `uncut` divides
 * nDCG by the ideal over every judged gain (trec_eval's `ndcg`), else by the ideal's top k.
 */
export function advanceTo(scratch: MeasureScratch, k: number, uncut: boolean): RankingState {
  const state = scratch.state;
  const { foundRanks, foundGrades, foundCount, idealGains, gainCount } = scratch;
  const { minGrade, gain } = scratch.settings;
  const gainFloor = scratch.settings.applyMinGradeToNdcg ? minGrade : Number.MIN_VALUE;
  const relevantCount = state.relevantCount;
  const bprefBase = Math.min(state.judgedNonRelevantCount, relevantCount);
  const evaluatedAtK = k < state.retrievedCount ? k : state.retrievedCount;
  // The found keys are judged, in rank order: those before the cursor are the judged ones in the top k.
  let found = state.judgedInTopK;
  let { truePositiveCount, precisionSum, firstRelevantRank, relevantInTopR, bprefSum, dcg, nonRelevantSoFar } = state;
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
      // bpref (trec_eval): the share of the top min(R, N) judged non-relevant ids ranked below this one.
      bprefSum += nonRelevantSoFar === 0 ? 1 : 1 - Math.min(nonRelevantSoFar, relevantCount) / bprefBase;
    } else if (grade >= 0) {
      nonRelevantSoFar++;
    }
  }
  const idealEnd = uncut || k > gainCount ? gainCount : k;
  let { idealRank, idealDcg } = state;
  for (; idealRank < idealEnd; idealRank++) idealDcg += (idealGains[idealRank] as number) / discount(idealRank + 1);
  state.k = k;
  state.evaluatedAtK = evaluatedAtK;
  state.judgedInTopK = found;
  state.truePositiveCount = truePositiveCount;
  state.precisionSum = precisionSum;
  state.firstRelevantRank = firstRelevantRank;
  state.relevantInTopR = relevantInTopR;
  state.bprefSum = bprefSum;
  state.dcg = dcg;
  state.nonRelevantSoFar = nonRelevantSoFar;
  state.idealRank = idealRank;
  state.idealDcg = idealDcg;
  return state;
}

/**
 * Every measure of `plan` for one ranking of `retrievedCount` keys, into scratch.values (by measure
 * index), from the judged keys found (scratch.foundRanks/foundGrades/foundCount, at least those among
 * the first ranksNeeded(plan, retrievedCount) ranks) and scratch.judgedGrades[0, judgedCount). Sets
 * scratch.relevantCount. Returns prepareRanking's overflowing judgment index (-1: none).
 */
export function measureGradedRanking(
  scratch: MeasureScratch,
  retrievedCount: number,
  judgedCount: number,
  settings: JudgmentSettings,
  plan: MeasurePlan,
  precisionOverRetrieved: boolean,
): number {
  const overflowing = prepareRanking(scratch, retrievedCount, judgedCount, settings, precisionOverRetrieved);
  if (overflowing !== -1) return overflowing;
  const { cutoffs, formulas } = plan;
  const values = scratch.values;
  // Cutoffs ascending, then the whole list (group cutoffs.length) when an uncut measure needs it.
  for (let group = 0; group <= cutoffs.length; group++) {
    const uncut = group === cutoffs.length;
    if (uncut && !plan.needsUncut) break;
    const state = advanceTo(scratch, uncut ? retrievedCount : (cutoffs[group] as number), uncut);
    const members = plan.cutoffMembers[group] as readonly number[];
    for (let member = 0; member < members.length; member++) {
      const measureIndex = members[member] as number;
      values[measureIndex] = (formulas[measureIndex] as MeasurePlan['formulas'][number])(
        state,
        plan.parameters[measureIndex],
      );
    }
  }
  return -1;
}

/**
 * trec_eval's iprec_at_recall at `level` (0–1) for the ranking prepared last (every judged key found
 * must be in the found list): the highest precision at or below the rank where recall reaches
 * level × R (rounded to a whole number of relevant ids, half up); 0 when the ranking never gets there.
 */
export function interpolatedPrecision(scratch: MeasureScratch, level: number): number {
  const { foundRanks, foundGrades, foundCount } = scratch;
  const minGrade = scratch.settings.minGrade;
  const retrievedCount = scratch.state.retrievedCount;
  const target = Math.round(level * scratch.relevantCount);
  let relevantFound = 0;
  for (let index = 0; index < foundCount; index++) if ((foundGrades[index] as number) >= minGrade) relevantFound++;
  if (target > relevantFound || retrievedCount === 0) return 0;
  // From the bottom up: precision at each relevant rank, the running maximum reaching up to the target.
  let best = relevantFound / retrievedCount;
  let relevantSoFar = relevantFound;
  for (let index = foundCount - 1; index >= 0 && relevantSoFar >= Math.max(target, 1); index--) {
    if ((foundGrades[index] as number) < minGrade) continue;
    const precision = relevantSoFar / ((foundRanks[index] as number) + 1);
    if (precision > best) best = precision;
    relevantSoFar--;
  }
  return best;
}
