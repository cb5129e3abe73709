// Every matcher, for expect.extend(matchers). One implementation serves Vitest and Jest.
import { toHaveAveragePrecisionAbove } from './toHaveAveragePrecisionAbove.js';
import { toHaveF1AtK } from './toHaveF1AtK.js';
import { toHaveHitAtK } from './toHaveHitAtK.js';
import { toHaveNdcgAbove } from './toHaveNdcgAbove.js';
import { toHaveNdcgAtK } from './toHaveNdcgAtK.js';
import { toHavePrecisionAtK } from './toHavePrecisionAtK.js';
import { toHaveRecallAtK } from './toHaveRecallAtK.js';
import { toHaveReciprocalRankAbove } from './toHaveReciprocalRankAbove.js';
import { toHaveRPrecisionAbove } from './toHaveRPrecisionAbove.js';
import { toMeetRetrievalTargets } from './toMeetRetrievalTargets.js';
import { toRankBefore } from './toRankBefore.js';
import { toRankFirst } from './toRankFirst.js';
import { toRetrieve } from './toRetrieve.js';
import { toBeFaithfulTo } from './toBeFaithfulTo.js';
import { toCiteOnlyRetrieved } from './toCiteOnlyRetrieved.js';
import { toAbstain } from './toAbstain.js';
import { toPassJudge } from './toPassJudge.js';
import { toHaveMeanAbove } from './toHaveMeanAbove.js';
import { toHaveHitRateAtK } from './toHaveHitRateAtK.js';
import { toHaveMeanRecallAtK } from './toHaveMeanRecallAtK.js';
import { toHaveMrrAbove } from './toHaveMrrAbove.js';
import { toHaveMeanNdcgAbove } from './toHaveMeanNdcgAbove.js';
import { toNotRegressFrom } from './toNotRegressFrom.js';

export const matchers = {
  toHaveHitAtK,
  toHavePrecisionAtK,
  toHaveRecallAtK,
  toHaveF1AtK,
  toHaveNdcgAtK,
  toHaveNdcgAbove,
  toHaveReciprocalRankAbove,
  toHaveAveragePrecisionAbove,
  toHaveRPrecisionAbove,
  toRetrieve,
  toRankFirst,
  toRankBefore,
  toMeetRetrievalTargets,
  toBeFaithfulTo,
  toCiteOnlyRetrieved,
  toAbstain,
  toPassJudge,
  toHaveMeanAbove,
  toHaveHitRateAtK,
  toHaveMeanRecallAtK,
  toHaveMrrAbove,
  toHaveMeanNdcgAbove,
  toNotRegressFrom,
};

export type { RagMatchers, RagAsymmetricMatchers } from './types.js';
export type { MatcherOptions, CutoffMatcherOptions } from './support/hits.js';
export type { RetrieveOptions } from './toRetrieve.js';
export type { RankingOptions } from './support/id-matcher.js';
export type { RetrievalTargets } from './toMeetRetrievalTargets.js';
export type { MatcherContext, MatcherResult } from './support/context.js';
export type { FaithfulnessMatcherOptions } from './toBeFaithfulTo.js';
export type { CiteOnlyRetrievedOptions } from './toCiteOnlyRetrieved.js';
export type { PassJudgeOptions } from './toPassJudge.js';
export type { MeanMatcherOptions, CutoffMeanMatcherOptions } from './support/set-matcher.js';
export type { NotRegressOptions } from './toNotRegressFrom.js';
