import type { JudgedRanking } from './ranking.js';
import type { Judgments } from './relevance.js';
import type { EvaluateOptions } from './types.js';

/** Every measure of one query at one cutoff (docs/metrics.md), computed in one pass. */
export interface MeasuresAtCutoff {
  k: number;
  evaluatedAtK: number;
  retrievedCount: number;
  relevantCount: number;
  truePositiveCount: number;
  precisionAtK: number;
  recallAtK: number;
  f1AtK: number;
  hitAtK: number;
  reciprocalRank: number;
  ndcg: number;
  averagePrecision: number;
  rPrecision: number;
}

/** log2(rank + 1) for ranks 1…, cached: the nDCG discount. */
const discounts: number[] = [];
export function discount(rank: number): number {
  let value = discounts[rank];
  if (value === undefined) {
    value = Math.log2(rank + 1);
    discounts[rank] = value;
  }
  return value;
}

/** Ideal DCG over the first `cutoff` ideal gains (all of them when cutoff is Infinity). */
export function idealDcg(idealGains: ArrayLike<number>, cutoff: number): number {
  const length = Math.min(idealGains.length, cutoff);
  let dcg = 0;
  for (let index = 0; index < length; index++) dcg += (idealGains[index] as number) / discount(index + 1);
  return dcg;
}

/** A cutoff to measure at; `cutIdeal: false` is trec_eval's uncut `ndcg` (ideal over every judged grade). */
export interface CutoffRequest {
  k: number;
  cutIdeal: boolean;
}

/**
 * All measures at several cutoffs in ONE pass over the ranking: running counts are snapshotted as
 * the pass reaches each cutoff. Results are in the order of `requests`.
 */
export function measureAtCutoffs(
  judged: JudgedRanking,
  judgments: Judgments,
  requests: readonly CutoffRequest[],
  precisionDenominator: EvaluateOptions['precisionDenominator'] = 'k',
): MeasuresAtCutoff[] {
  const retrievedCount = judged.keys.length;
  const relevantCount = judgments.relevantIds.length;
  const { relevantAtRank, gainAtRank } = judged;
  const order = ascendingOrder(requests);
  const results = new Array<MeasuresAtCutoff>(requests.length);
  const rPrecisionValue = rPrecisionOfJudged(judged, relevantCount);
  const idealAll = idealDcg(judgments.idealGains, Infinity);

  let rank = 0;
  let truePositiveCount = 0;
  let firstRelevantRank = 0;
  let precisionSum = 0;
  let dcg = 0;
  for (const requestIndex of order) {
    const { k, cutIdeal } = requests[requestIndex] as CutoffRequest;
    const evaluatedAtK = Math.min(k, retrievedCount);
    for (; rank < evaluatedAtK; rank++) {
      const gain = gainAtRank[rank] as number;
      if (gain !== 0) dcg += gain / discount(rank + 1);
      if (relevantAtRank[rank] === 1) {
        truePositiveCount++;
        precisionSum += truePositiveCount / (rank + 1);
        if (firstRelevantRank === 0) firstRelevantRank = rank + 1;
      }
    }
    const precisionBase = precisionDenominator === 'retrieved' ? evaluatedAtK : k;
    const precisionAtK = precisionBase === 0 ? 0 : truePositiveCount / precisionBase;
    const recallAtK = relevantCount === 0 ? 0 : truePositiveCount / relevantCount;
    const precisionPlusRecall = precisionAtK + recallAtK;
    const ideal = cutIdeal ? idealDcg(judgments.idealGains, k) : idealAll;
    results[requestIndex] = {
      k,
      evaluatedAtK,
      retrievedCount,
      relevantCount,
      truePositiveCount,
      precisionAtK,
      recallAtK,
      f1AtK: precisionPlusRecall === 0 ? 0 : (2 * precisionAtK * recallAtK) / precisionPlusRecall,
      hitAtK: truePositiveCount > 0 ? 1 : 0,
      reciprocalRank: firstRelevantRank === 0 ? 0 : 1 / firstRelevantRank,
      ndcg: ideal === 0 ? 0 : dcg / ideal,
      averagePrecision: relevantCount === 0 ? 0 : precisionSum / relevantCount,
      rPrecision: rPrecisionValue,
    };
  }
  return results;
}

/** Indices of the requests by ascending k (usually already in order: then no sort). */
function ascendingOrder(requests: readonly CutoffRequest[]): number[] {
  const order = requests.map((_, index) => index);
  for (let index = 1; index < requests.length; index++) {
    if ((requests[index] as CutoffRequest).k < (requests[index - 1] as CutoffRequest).k) {
      return order.sort((a, b) => (requests[a] as CutoffRequest).k - (requests[b] as CutoffRequest).k);
    }
  }
  return order;
}

/** All measures at one cutoff `k` (a positive integer). */
export function measureAtCutoff(
  judged: JudgedRanking,
  judgments: Judgments,
  k: number,
  cutIdeal: boolean,
  precisionDenominator: EvaluateOptions['precisionDenominator'] = 'k',
): MeasuresAtCutoff {
  return measureAtCutoffs(judged, judgments, [{ k, cutIdeal }], precisionDenominator)[0] as MeasuresAtCutoff;
}

/** Relevant hits among the first R ranks, divided by R (R = relevant count). */
export function rPrecisionOfJudged(judged: JudgedRanking, relevantCount: number): number {
  if (relevantCount === 0) return 0;
  const end = Math.min(relevantCount, judged.keys.length);
  let relevantInTopR = 0;
  for (let index = 0; index < end; index++) relevantInTopR += judged.relevantAtRank[index] as number;
  return relevantInTopR / relevantCount;
}
