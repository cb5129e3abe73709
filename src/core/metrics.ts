import type { JudgedRanking } from './ranking.js';
import type { Judgments } from './relevance.js';
import type { EvaluateOptions } from './types.js';

/** Every measure of one query at one cutoff (DESIGN §3), computed in one pass. */
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
function discount(rank: number): number {
  let value = discounts[rank];
  if (value === undefined) {
    value = Math.log2(rank + 1);
    discounts[rank] = value;
  }
  return value;
}

/** Ideal DCG over the first `cutoff` ideal gains (all of them when cutoff is Infinity). */
export function idealDcg(idealGains: Float64Array, cutoff: number): number {
  const length = Math.min(idealGains.length, cutoff);
  let dcg = 0;
  for (let index = 0; index < length; index++) dcg += (idealGains[index] as number) / discount(index + 1);
  return dcg;
}

/**
 * All measures at cutoff `k` (a positive integer). `cutIdeal: false` gives trec_eval's uncut `ndcg`,
 * whose ideal ranking uses every judged grade rather than the first k.
 */
export function measureAtCutoff(
  judged: JudgedRanking,
  judgments: Judgments,
  k: number,
  cutIdeal: boolean,
  precisionDenominator: EvaluateOptions['precisionDenominator'] = 'k',
): MeasuresAtCutoff {
  const retrievedCount = judged.keys.length;
  const relevantCount = judgments.relevantIds.length;
  const evaluatedAtK = Math.min(k, retrievedCount);
  const { relevantAtRank, gainAtRank } = judged;

  let truePositiveCount = 0;
  let firstRelevantRank = 0;
  let precisionSum = 0;
  let dcg = 0;
  for (let index = 0; index < evaluatedAtK; index++) {
    const gain = gainAtRank[index] as number;
    if (gain !== 0) dcg += gain / discount(index + 1);
    if (relevantAtRank[index] === 1) {
      truePositiveCount++;
      precisionSum += truePositiveCount / (index + 1);
      if (firstRelevantRank === 0) firstRelevantRank = index + 1;
    }
  }

  const precisionBase = precisionDenominator === 'retrieved' ? evaluatedAtK : k;
  const precisionAtK = precisionBase === 0 ? 0 : truePositiveCount / precisionBase;
  const recallAtK = relevantCount === 0 ? 0 : truePositiveCount / relevantCount;
  const precisionPlusRecall = precisionAtK + recallAtK;
  const ideal = idealDcg(judgments.idealGains, cutIdeal ? k : Infinity);

  return {
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
    rPrecision: rPrecisionOfJudged(judged, relevantCount),
  };
}

/** Relevant hits among the first R ranks, divided by R (R = relevant count). */
export function rPrecisionOfJudged(judged: JudgedRanking, relevantCount: number): number {
  if (relevantCount === 0) return 0;
  const end = Math.min(relevantCount, judged.keys.length);
  let relevantInTopR = 0;
  for (let index = 0; index < end; index++) relevantInTopR += judged.relevantAtRank[index] as number;
  return relevantInTopR / relevantCount;
}
