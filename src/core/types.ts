import type { MeasureName } from './measure-table.js';

/**
 * A retrieved hit: a bare id, or an object the key rules of `stableKey` understand
 * (plain hit objects, LangChain.js `Document` and `[Document, score]` pairs, LlamaIndex.TS `NodeWithScore`).
 */
export type Hit = string | number | object;

/** What the user annotated as relevant: ids (grade 1) or ids with graded relevance. */
export type Relevance =
  | readonly (string | number | null | undefined)[]
  | ReadonlySet<string | number>
  | Readonly<Record<string, number>>
  | ReadonlyMap<string, number>;

/** How a hit's key is found: a property name (dotted paths allowed) or a function. */
export type KeySelector = string | ((hit: Hit, index: number) => string | number | null | undefined);

export interface KeyOptions {
  /** Overrides the built-in key rules. */
  key?: KeySelector;
  /** `'document'` collapses chunks (`doc-1#chunk-3`) to their document (`doc-1`); the first chunk's rank counts. */
  granularity?: 'chunk' | 'document';
  /** With `granularity: 'document'`: how a key maps to its document. Default: strip a trailing `#chunk-<n>`. */
  documentKey?: (key: string) => string;
  /**
   * Compare ids in this Unicode normalisation form (hit keys and annotations alike): `'NFC'` makes
   * `café` typed as e + U+0301 (NFD, as macOS file names are) meet `café` with U+00E9. Default: as written.
   */
  normalize?: 'NFC' | 'NFD' | 'NFKC' | 'NFKD';
}

export interface EvaluateOptions extends KeyOptions {
  /** Cutoff. Omitted or ≤ 0: the whole list (k = number of hits). */
  k?: number;
  /** Grade at or above which a judged id counts as relevant for the binary measures (trec_eval `-l`). Default 1. */
  minGrade?: number;
  /** nDCG gain: the grade itself (trec_eval) or 2^grade − 1. Default `'linear'`. */
  gain?: 'linear' | 'exponential';
  /** Apply `minGrade` to nDCG too (ranx); by default nDCG uses every positive grade (trec_eval). */
  applyMinGradeToNdcg?: boolean;
  /** Precision divides by k (trec_eval, default) or by the hits actually evaluated (AI4J, LlamaIndex). */
  precisionDenominator?: 'k' | 'retrieved';
  /** A repeated key gains nothing and takes its slot (`'count'`, default) or throws (`'error'`, trec_eval). */
  duplicates?: 'count' | 'error';
  /** Rank by array order (default) or by `score` descending with trec_eval's tie-break (key descending, byte order). */
  sortBy?: 'rank' | 'score';
}

/** The counts of one evaluation, besides its measures. */
export interface EvaluationCounts {
  /** The cutoff asked for (the number of hits when k was omitted). */
  k: number;
  /** min(k, number of ranked hits). */
  evaluatedAtK: number;
  /** Hits ranked (after document collapsing, if any). */
  retrievedCount: number;
  /** Annotated ids with grade ≥ minGrade. */
  relevantCount: number;
  /** Relevant ids found in the top k. */
  truePositiveCount: number;
  /** Hits whose key was already seen higher in the ranking. */
  duplicateCount: number;
}

/**
 * The measures evaluate() also returns under a field name of their own, each the value of one measure
 * of `values` (measure-fields.ts reads them from it).
 */
interface NamedMeasureFields {
  /** `values.precision`: relevant hits in the top k ÷ k. */
  precisionAtK: number;
  /** `values.recall`: relevant hits in the top k ÷ relevant count. */
  recallAtK: number;
  /** `values.f1`: harmonic mean of precision@k and recall@k. */
  f1AtK: number;
  /** `values.hit`: 1 when a relevant hit is in the top k, else 0. */
  hitAtK: number;
  /** `values.mrr`: reciprocal rank of the first relevant hit within k (its mean over queries is MRR). */
  reciprocalRankAtK: number;
  /** `values.ndcg`: nDCG at k; with k omitted, trec_eval's uncut `ndcg` (ideal over every judged grade). */
  ndcgAtK: number;
  /** `values.map`: average precision at k (divided by the relevant count, as trec_eval's map_cut). */
  averagePrecisionAtK: number;
  /**
   * `values.judged`: judged hits in the top k ÷ the hits there, min(k, retrievedCount) (ir_measures'
   * `Judged@k`): a judged hit has a judgment of any grade, 0 included; a repeated hit is not judged
   * again. 0 with no hits.
   */
  judgedAtK: number;
  /** `values.rprec`: precision at rank R, R = relevantCount. Independent of k. */
  rPrecision: number;
  /**
   * `values.bpref`: trec_eval's bpref over the whole list (independent of k): for each relevant id, the
   * share of judged non-relevant ids (0 ≤ grade < minGrade) ranked above it, counting at most R of them.
   * Unjudged hits are ignored, which makes it robust to incomplete judgments.
   */
  bpref: number;
}

/**
 * Every measure of the measure table by its canonical name (`values.recall`, `values.ndcg`,
 * `values.rprec`): at k, or over the whole list for the measures that take no cutoff (rprec, bpref).
 */
export type MeasureValues = Readonly<Record<MeasureName, number>>;

export interface RetrievalEvaluation extends EvaluationCounts, NamedMeasureFields {
  /**
   * Every measure of the measure table by its canonical name (`values.recall`, `values.ndcg`,
   * `values.rprec`): at k, or over the whole list for the measures that take no cutoff (rprec, bpref).
   */
  values: MeasureValues;
  /** Relevant ids no hit matched anywhere in the list: the alignment diagnostic. */
  unmatchedRelevantIds: string[];
}
