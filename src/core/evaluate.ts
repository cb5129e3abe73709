import { describeValue } from './describe.js';
import { isPromiseLike, readNormalization } from './keys.js';
import { formatMeasure, type Measure } from './measures.js';
import { measureAtCutoff, measureAtCutoffs, type CutoffRequest, type MeasuresAtCutoff } from './metrics.js';
import { collapseToDocuments, judgeRanking, rankedKeys, type JudgedRanking } from './ranking.js';
import { measureRanking } from './measure-ranking.js';
import { prepareJudgments, readJudgedGrades, readJudgmentSettings, type Judgments } from './relevance.js';
import type { EvaluateOptions, Hit, Relevance, RetrievalEvaluation } from './types.js';

const KNOWN_OPTIONS = new Set([
  'k', 'key', 'granularity', 'documentKey', 'minGrade', 'gain', 'applyMinGradeToNdcg',
  'precisionDenominator', 'duplicates', 'sortBy', 'normalize',
]);

/** Validates a cutoff: a whole number, or undefined / ≤ 0 for "the whole list". */
export function validateK(k: unknown, argumentName = 'k'): number | undefined {
  if (k === undefined) return undefined;
  if (typeof k !== 'number') {
    throw new TypeError(`${argumentName} must be a number, received ${describeValue(k)}. Pass a whole number such as 5, or omit it to evaluate the whole list.`);
  }
  if (!Number.isInteger(k)) {
    throw new RangeError(`${argumentName} must be a whole number, received ${k}. Pass a cutoff such as 5 or 10.`);
  }
  return k <= 0 ? undefined : k;
}

/** No options: nothing to check, nothing to allocate (evaluateMeasures runs once per query). */
const NO_OPTIONS: EvaluateOptions = Object.freeze({});

function readOptions(kOrOptions: number | EvaluateOptions | undefined): EvaluateOptions {
  if (kOrOptions === undefined || typeof kOrOptions === 'number') return { k: kOrOptions };
  if (kOrOptions === null || typeof kOrOptions !== 'object' || Array.isArray(kOrOptions)) {
    throw new TypeError(`the third argument must be a cutoff k or an options object, received ${describeValue(kOrOptions)}.`);
  }
  for (const name of Object.keys(kOrOptions)) {
    if (!KNOWN_OPTIONS.has(name)) {
      throw new TypeError(`unknown option ${JSON.stringify(name)}. Known options: ${[...KNOWN_OPTIONS].join(', ')}.`);
    }
  }
  const granularity = kOrOptions.granularity;
  if (granularity !== undefined && granularity !== 'chunk' && granularity !== 'document') {
    throw new RangeError(`granularity must be 'chunk' or 'document', received ${describeValue(granularity)}.`);
  }
  readNormalization(kOrOptions.normalize);
  const denominator = kOrOptions.precisionDenominator;
  if (denominator !== undefined && denominator !== 'k' && denominator !== 'retrieved') {
    throw new RangeError(`precisionDenominator must be 'k' or 'retrieved', received ${describeValue(denominator)}.`);
  }
  return kOrOptions;
}

function assertHits(hits: unknown): asserts hits is readonly Hit[] {
  if (isPromiseLike(hits)) {
    throw new TypeError('hits is a Promise, not an array of hits: did you forget await? Pass `await retriever.retrieve(query)`.');
  }
  if (!Array.isArray(hits)) {
    throw new TypeError(`hits must be an array of hits in rank order, received ${describeValue(hits)}. Pass the retriever's result list (rank 1 first).`);
  }
}

/** Ranks, keys and judges the hits of one query: the shared first step of every measure. */
export function judgeHits(hits: readonly Hit[], judgments: Judgments, options: EvaluateOptions = {}, countEveryDuplicate = true): JudgedRanking {
  assertHits(hits);
  let keys = rankedKeys(hits, options);
  if (options.granularity === 'document') keys = collapseToDocuments(keys, options.documentKey);
  return judgeRanking(keys, judgments, options.duplicates, countEveryDuplicate);
}

function unmatchedRelevantIds(judged: JudgedRanking, judgments: Judgments): string[] {
  if (judgments.relevantIds.length === 0) return [];
  const retrieved = new Set(judged.keys);
  return judgments.relevantIds.filter((id) => !retrieved.has(id));
}

/**
 * Evaluates one ranked list against its annotations: every measure and count at once.
 * `kOrOptions` is a cutoff, or `{ k, ...options }`. Never throws for empty hits or empty annotations.
 */
export function evaluate(hits: readonly Hit[], relevant: Relevance, kOrOptions?: number | EvaluateOptions): RetrievalEvaluation {
  assertHits(hits);
  const options = readOptions(kOrOptions);
  const requestedK = validateK(options.k);
  const judgments = prepareJudgments(relevant, options);
  const judged = judgeHits(hits, judgments, options);
  const k = requestedK ?? judged.keys.length;
  const measures = measureAtCutoff(judged, judgments, k, requestedK !== undefined, options.precisionDenominator);
  return {
    k,
    evaluatedAtK: measures.evaluatedAtK,
    retrievedCount: measures.retrievedCount,
    relevantCount: measures.relevantCount,
    truePositiveCount: measures.truePositiveCount,
    duplicateCount: judged.duplicateCount,
    precisionAtK: measures.precisionAtK,
    recallAtK: measures.recallAtK,
    f1AtK: measures.f1AtK,
    hitAtK: measures.hitAtK,
    mrr: measures.reciprocalRank,
    ndcg: measures.ndcg,
    averagePrecision: measures.averagePrecision,
    rPrecision: measures.rPrecision,
    unmatchedRelevantIds: unmatchedRelevantIds(judged, judgments),
  };
}

/** The value of one measure from the measures at its cutoff. */
export function pickMeasure(measure: Measure, values: MeasuresAtCutoff): number {
  switch (measure.name) {
    case 'hit': return values.hitAtK;
    case 'precision': return values.precisionAtK;
    case 'recall': return values.recallAtK;
    case 'f1': return values.f1AtK;
    case 'mrr': return values.reciprocalRank;
    case 'ndcg': return values.ndcg;
    case 'map': return values.averagePrecision;
    case 'rprec': return values.rPrecision;
  }
}

/** Measures with their canonical names and the distinct cutoffs they need: computed once, reused per query. */
export interface MeasurePlan {
  measures: readonly Measure[];
  names: readonly string[];
  /** Per measure: index into `cutoffs`, or -1 for an uncut measure (rprec is always uncut: its cutoff is R). */
  cutoffIndex: Int32Array;
  /** Distinct cutoffs, ascending. */
  cutoffs: readonly number[];
  /** Some measure is uncut (whole list, trec_eval's uncut ideal). */
  needsUncut: boolean;
  /** Per cutoff, then one more for the uncut measures: the indices of the measures measured there. */
  cutoffMembers: readonly (readonly number[])[];
  /** Every name set to 0, in measure order: copied per query, so each result has the same shape. */
  template: Readonly<Record<string, number>>;
}

export function planMeasures(measures: readonly Measure[]): MeasurePlan {
  const cutOf = (measure: Measure) => (measure.name === 'rprec' ? undefined : measure.k);
  const cutoffs = [...new Set(measures.flatMap((measure) => (cutOf(measure) === undefined ? [] : [cutOf(measure) as number])))].sort((a, b) => a - b);
  const cutoffIndex = Int32Array.from(measures, (measure) => {
    const k = cutOf(measure);
    return k === undefined ? -1 : cutoffs.indexOf(k);
  });
  const cutoffMembers = Array.from({ length: cutoffs.length + 1 }, () => [] as number[]);
  cutoffIndex.forEach((cutoff, measureIndex) => (cutoffMembers[cutoff === -1 ? cutoffs.length : cutoff] as number[]).push(measureIndex));
  const names = measures.map(formatMeasure);
  const template: Record<string, number> = {};
  for (const name of names) template[name] = Number.NaN; // a double, not a small integer: the fields hold doubles from the start
  return { measures, names, cutoffIndex, cutoffs, needsUncut: cutoffIndex.includes(-1), cutoffMembers, template };
}

/**
 * Several measures of one judged ranking, each at its own cutoff, keyed by canonical name
 * (`recall@5`, `ndcg`, …). One pass over the ranking serves every cutoff.
 */
export function measureJudged(
  judged: JudgedRanking,
  judgments: Judgments,
  measuresOrPlan: readonly Measure[] | MeasurePlan,
  precisionDenominator: EvaluateOptions['precisionDenominator'] = 'k',
): Record<string, number> {
  const plan = Array.isArray(measuresOrPlan) ? planMeasures(measuresOrPlan) : (measuresOrPlan as MeasurePlan);
  const requests: CutoffRequest[] = plan.cutoffs.map((k) => ({ k, cutIdeal: true }));
  const needsUncut = plan.needsUncut;
  if (needsUncut) requests.push({ k: judged.keys.length, cutIdeal: false });
  const atCutoffs = measureAtCutoffs(judged, judgments, requests, precisionDenominator);
  const uncut = needsUncut ? atCutoffs[atCutoffs.length - 1] : undefined;
  const values: Record<string, number> = {};
  for (let index = 0; index < plan.measures.length; index++) {
    const cutoff = plan.cutoffIndex[index] as number;
    const atCutoff = (cutoff === -1 ? uncut : atCutoffs[cutoff]) as MeasuresAtCutoff;
    values[plan.names[index] as string] = pickMeasure(plan.measures[index] as Measure, atCutoff);
  }
  return values;
}

/** Several measures of one query in one judged pass: `{ 'recall@5': 0.8, 'ndcg@10': 0.71 }`. */
export function evaluateMeasures(
  hits: readonly Hit[],
  relevant: Relevance,
  measures: readonly Measure[] | MeasurePlan,
  options?: Omit<EvaluateOptions, 'k'>,
): Record<string, number> {
  const checked = options === undefined ? NO_OPTIONS : readOptions(options);
  if (checked.duplicates !== undefined && checked.duplicates !== 'count') {
    // 'error' must look at every key, unjudged ones too: the general path does (and rejects bad values).
    const judgments = prepareJudgments(relevant, checked);
    return measureJudged(judgeHits(hits, judgments, checked, false), judgments, measures, checked.precisionDenominator);
  }
  const plan = Array.isArray(measures) ? planMeasures(measures) : (measures as MeasurePlan);
  const settings = readJudgmentSettings(checked);
  const byDocument = checked.granularity === 'document';
  // A Map is measured as it is when clean, and string hits as their own keys: measureRanking checks
  // both on the way and says which must be read first (which also gives the errors bad input deserves).
  let grades: ReadonlyMap<unknown, unknown> = relevant instanceof Map && !byDocument && checked.normalize === undefined ? relevant : readJudgedGrades(relevant, checked);
  assertHits(hits);
  const hitsAreKeys = checked.key === undefined && (checked.sortBy === undefined || checked.sortBy === 'rank') && !byDocument && checked.normalize === undefined;
  let keys: readonly unknown[] = hitsAreKeys ? hits : keysOf(hits, checked);
  let checkKeys = hitsAreKeys;
  // At most one re-read of each: what readJudgedGrades and rankedKeys return is clean.
  for (let attempt = 0; attempt < 3; attempt++) {
    const values = measureRanking(keys, grades, settings, plan, checked.precisionDenominator, checkKeys);
    if (values === 'grades') grades = readJudgedGrades(relevant, checked);
    else if (values === 'keys') {
      keys = keysOf(hits, checked);
      checkKeys = false;
    } else return values;
  }
  throw new Error('rag-matchers: evaluateMeasures could not read its input (a bug: please report it with the input).');
}

function keysOf(hits: readonly Hit[], options: EvaluateOptions): readonly string[] {
  const keys = rankedKeys(hits, options);
  return options.granularity === 'document' ? collapseToDocuments(keys, options.documentKey) : keys;
}

function evaluateAt(hits: readonly Hit[], relevant: Relevance, k: unknown, options: EvaluateOptions | undefined, argumentName: string): RetrievalEvaluation {
  const cutoff = validateK(k, argumentName);
  if (cutoff === undefined) {
    throw new RangeError(`${argumentName} must be a positive whole number, received ${describeValue(k)}. Pass a cutoff such as 5.`);
  }
  return evaluate(hits, relevant, { ...options, k: cutoff });
}

/** Relevant hits in the top k ÷ k (trec_eval P_k). */
export function precisionAtK(hits: readonly Hit[], relevant: Relevance, k: number, options?: EvaluateOptions): number {
  return evaluateAt(hits, relevant, k, options, 'k').precisionAtK;
}

/** Relevant hits in the top k ÷ relevant count (trec_eval recall_k). */
export function recallAtK(hits: readonly Hit[], relevant: Relevance, k: number, options?: EvaluateOptions): number {
  return evaluateAt(hits, relevant, k, options, 'k').recallAtK;
}

/** Harmonic mean of precision@k and recall@k. */
export function f1AtK(hits: readonly Hit[], relevant: Relevance, k: number, options?: EvaluateOptions): number {
  return evaluateAt(hits, relevant, k, options, 'k').f1AtK;
}

/** 1 when a relevant hit is in the top k, else 0 (trec_eval success_k). */
export function hitAtK(hits: readonly Hit[], relevant: Relevance, k: number, options?: EvaluateOptions): number {
  return evaluateAt(hits, relevant, k, options, 'k').hitAtK;
}

/** nDCG at k with graded gains (trec_eval ndcg_cut_k). */
export function ndcgAtK(hits: readonly Hit[], relevant: Relevance, k: number, options?: EvaluateOptions): number {
  return evaluateAt(hits, relevant, k, options, 'k').ndcg;
}

/** 1 / rank of the first relevant hit (within `options.k` if given). */
export function reciprocalRank(hits: readonly Hit[], relevant: Relevance, options?: EvaluateOptions): number {
  return evaluate(hits, relevant, { ...options }).mrr;
}

/** Average precision (at `options.k` if given), divided by the relevant count (trec_eval map / map_cut). */
export function averagePrecision(hits: readonly Hit[], relevant: Relevance, options?: EvaluateOptions): number {
  return evaluate(hits, relevant, { ...options }).averagePrecision;
}

/** Precision at rank R where R is the number of relevant ids (trec_eval Rprec). */
export function rPrecision(hits: readonly Hit[], relevant: Relevance, options?: Omit<EvaluateOptions, 'k'>): number {
  return evaluate(hits, relevant, { ...options }).rPrecision;
}
