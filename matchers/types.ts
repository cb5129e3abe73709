import type { Relevance } from '../src/index.js';
import type { RankingOptions } from './support/id-matcher.js';
import type { CutoffMatcherOptions, MatcherOptions } from './support/usage.js';
import type { RetrieveOptions } from './toRetrieve.js';
import type { RetrievalTargets } from './toMeetRetrievalTargets.js';

/**
 * The matchers as users call them, shared by every runner's type augmentation.
 * `R` is what the runner's assertion returns (void, or a Promise with `.resolves`).
 */
export interface RagMatchers<R = unknown> {
  /** A relevant hit is in the top k. */
  toHaveHitAtK(relevant: Relevance, k: number, options?: MatcherOptions): R;
  /** precision@k ≥ min. */
  toHavePrecisionAtK(relevant: Relevance, k: number, min: number, options?: MatcherOptions): R;
  /** recall@k ≥ min. */
  toHaveRecallAtK(relevant: Relevance, k: number, min: number, options?: MatcherOptions): R;
  /** F1@k ≥ min. */
  toHaveF1AtK(relevant: Relevance, k: number, min: number, options?: MatcherOptions): R;
  /** nDCG@k ≥ min. */
  toHaveNdcgAtK(relevant: Relevance, k: number, min: number, options?: MatcherOptions): R;
  /** nDCG (at options.k, default the whole list) ≥ min. */
  toHaveNdcgAbove(relevant: Relevance, min: number, options?: CutoffMatcherOptions): R;
  /** 1 / rank of the first relevant hit (within options.k) ≥ min. */
  toHaveReciprocalRankAbove(relevant: Relevance, min: number, options?: CutoffMatcherOptions): R;
  /** Average precision (at options.k) ≥ min. */
  toHaveAveragePrecisionAbove(relevant: Relevance, min: number, options?: CutoffMatcherOptions): R;
  /** R-precision ≥ min. */
  toHaveRPrecisionAbove(relevant: Relevance, min: number, options?: MatcherOptions): R;
  /** Every id is among the hits (within options.within). */
  toRetrieve(idOrIds: string | readonly string[], options?: RetrieveOptions): R;
  /** The first hit's key is id. */
  toRankFirst(id: string, options?: RankingOptions): R;
  /** idA is retrieved and ranks above idB (or idB is absent). */
  toRankBefore(idA: string, idB: string, options?: RankingOptions): R;
  /** Every `{ 'recall@5': 0.8, 'ndcg@10': 0.7 }` target holds. */
  toMeetRetrievalTargets(relevant: Relevance, targets: RetrievalTargets, options?: MatcherOptions): R;
}

/** The same matchers in asymmetric form: `expect.toHaveRecallAtK(relevant, 5, 0.8)` inside `toEqual`. */
export type RagAsymmetricMatchers = RagMatchers<unknown>;
