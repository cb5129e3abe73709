import type { Relevance } from '../src/core/index.js';
import type { RankingOptions } from './support/id-matcher.js';
import type { CutoffMatcherOptions, MatcherOptions } from './support/hits.js';
import type { RetrieveOptions } from './toRetrieve.js';
import type { RetrievalTargets } from './toMeetRetrievalTargets.js';
import type { AbstentionOptions, FaithfulnessContexts, RagJudge } from '../src/generation/index.js';
import type { Hit } from '../src/core/types.js';
import type { FaithfulnessMatcherOptions } from './toBeFaithfulTo.js';
import type { CiteOnlyRetrievedOptions } from './toCiteOnlyRetrieved.js';
import type { PassJudgeOptions } from './toPassJudge.js';
import type { Measure, MeasureSpelling } from '../src/core/measures.js';
import type { CutoffMeanMatcherOptions, MeanMatcherOptions } from './support/set-matcher.js';
import type { NotRegressOptions } from './toNotRegressFrom.js';
import type { RunEvaluation } from '../src/dataset/evaluate-run.js';

/** What a retrieval matcher receives: the hits, or with `.resolves` (Jest types it so) a promise of them. */
type ReceivedHits = readonly unknown[] | PromiseLike<readonly unknown[]>;

/**
 * A retrieval matcher's signature when the received value `T` can be hits, else a type that cannot be
 * called and names the problem (`expect(42).toHaveRecallAtK(…)` does not compile). `T` unknown (the
 * runner does not tell it, as Vitest's Matchers does not, or the value is `any`) lets every call through.
 */
type OnHits<T, Matcher> = unknown extends T
  ? Matcher
  : [T] extends [ReceivedHits]
    ? Matcher
    : { 'rag-matchers: expect(received) must be an array of hits, rank 1 first; received': T };

/**
 * The matchers as users call them, shared by every runner's type augmentation.
 * `R` is what the runner's assertion returns (void, or a Promise with `.resolves`); `T` is the type of
 * the received value where the runner's typing passes it on (Jest's), else unknown.
 */
export interface RagMatchers<R = unknown, T = unknown> {
  /** A relevant hit is in the top k. */
  toHaveHitAtK: OnHits<T, (relevant: Relevance, k: number, options?: MatcherOptions) => R>;
  /** precision@k ≥ min. */
  toHavePrecisionAtK: OnHits<T, (relevant: Relevance, k: number, min: number, options?: MatcherOptions) => R>;
  /** recall@k ≥ min. */
  toHaveRecallAtK: OnHits<T, (relevant: Relevance, k: number, min: number, options?: MatcherOptions) => R>;
  /** F1@k ≥ min. */
  toHaveF1AtK: OnHits<T, (relevant: Relevance, k: number, min: number, options?: MatcherOptions) => R>;
  /** nDCG@k ≥ min. */
  toHaveNdcgAtK: OnHits<T, (relevant: Relevance, k: number, min: number, options?: MatcherOptions) => R>;
  /** nDCG (at options.k, default the whole list) ≥ min. */
  toHaveNdcgAbove: OnHits<T, (relevant: Relevance, min: number, options?: CutoffMatcherOptions) => R>;
  /** 1 / rank of the first relevant hit (within options.k) ≥ min. */
  toHaveReciprocalRankAbove: OnHits<T, (relevant: Relevance, min: number, options?: CutoffMatcherOptions) => R>;
  /** Average precision (at options.k) ≥ min. */
  toHaveAveragePrecisionAbove: OnHits<T, (relevant: Relevance, min: number, options?: CutoffMatcherOptions) => R>;
  /** R-precision ≥ min. */
  toHaveRPrecisionAbove: OnHits<T, (relevant: Relevance, min: number, options?: MatcherOptions) => R>;
  /** Every id is among the hits (within options.within). */
  toRetrieve: OnHits<T, (idOrIds: string | readonly string[], options?: RetrieveOptions) => R>;
  /** The first hit's key is id. */
  toRankFirst: OnHits<T, (id: string, options?: RankingOptions) => R>;
  /** idA is retrieved and ranks above idB (or idB is absent). */
  toRankBefore: OnHits<T, (idA: string, idB: string, options?: RankingOptions) => R>;
  /** Every `{ 'recall@5': 0.8, 'ndcg@10': 0.7 }` target holds. */
  toMeetRetrievalTargets: OnHits<T, (relevant: Relevance, targets: RetrievalTargets, options?: MatcherOptions) => R>;
  /** Lexical faithfulness of the answer to the contexts ≥ options.min (default 1: every checked sentence supported). */
  toBeFaithfulTo(contexts: FaithfulnessContexts, options?: FaithfulnessMatcherOptions): R;
  /** Every citation in the answer ([1], [doc-1#chunk-0], …) refers to one of the retrieved hits. */
  toCiteOnlyRetrieved(hits: readonly Hit[], options?: CiteOnlyRetrievedOptions): R;
  /** The answer declines to answer ("I don't know", "not in the provided context", "无法回答", …). */
  toAbstain(options?: AbstentionOptions): R;
  /** The judge's score ≥ options.min. Asynchronous: always `await` it; not usable in asymmetric form. */
  toPassJudge(judge: RagJudge, options: PassJudgeOptions): Promise<void>;
  /** On evaluateRun's result: the mean of `measure` (with options.confidence, its interval's lower bound) ≥ min. */
  toHaveMeanAbove(measure: MeasureSpelling | Measure, min: number, options?: MeanMatcherOptions): R;
  /** On evaluateRun's result: the hit rate at k ≥ min. */
  toHaveHitRateAtK(k: number, min: number, options?: MeanMatcherOptions): R;
  /** On evaluateRun's result: mean recall@k ≥ min. */
  toHaveMeanRecallAtK(k: number, min: number, options?: MeanMatcherOptions): R;
  /** On evaluateRun's result: MRR (at options.k) ≥ min. */
  toHaveMrrAbove(min: number, options?: CutoffMeanMatcherOptions): R;
  /** On evaluateRun's result: mean nDCG (at options.k) ≥ min. */
  toHaveMeanNdcgAbove(min: number, options?: CutoffMeanMatcherOptions): R;
  /** On evaluateRun's result: no measure's mean fell from the baseline's beyond the tolerance (and significantly, with options.significance). */
  toNotRegressFrom(baseline: RunEvaluation, options?: NotRegressOptions): R;
}

/** The same matchers in asymmetric form: `expect.toHaveRecallAtK(relevant, 5, 0.8)` inside `toEqual`. */
export type RagAsymmetricMatchers = RagMatchers<unknown>;
