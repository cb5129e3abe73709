import { describeValue } from './describe.js';
import { auditJudgedQuery, type JudgmentAudit } from './judgment-audit.js';
import type { Measure } from './measures.js';
import { evaluationOf } from './measure-fields.js';
import { MEASURE_NAMES, MEASURE_TABLE, type MeasureName, type RankingState } from './measure-table.js';
import {
  judgedIdAt,
  judgeKeys,
  unmatchedJudgedIds,
  judgmentName,
  loadGrades,
  type GradeSource,
  type GradeSourceKind,
  type JudgeKeysOptions,
} from './judge-keys.js';
import { planMeasures, ranksNeeded, type MeasurePlan } from './measure-plan.js';
import { advanceTo, gradeTooLargeError, measureGradedRanking, prepareRanking } from './measure-ranking.js';
import { createMeasureScratch, reserveScratch, type MeasureScratch } from './measure-scratch.js';
import { hitKeys, isPlainKey, isPromiseLike, readNormalization } from './keys.js';
import { collapseToDocuments, judgeRanking, rankedKeys, type JudgedRanking } from './ranking.js';
import { readJudgedGrades, readJudgmentSettings, type JudgmentSettings, type Judgments } from './relevance.js';
import type { EvaluateOptions, Hit, Relevance, RetrievalEvaluation } from './types.js';

export { planMeasures, type MeasurePlan } from './measure-plan.js';
const KNOWN_OPTIONS = new Set([
  'k',
  'key',
  'granularity',
  'documentKey',
  'minGrade',
  'gain',
  'applyMinGradeToNdcg',
  'precisionDenominator',
  'duplicates',
  'sortBy',
  'normalize',
]);

/** Validates a cutoff: a whole number, or undefined / ≤ 0 for "the whole list". */
function validateK(k: unknown, argumentName = 'k'): number | undefined {
  if (k === undefined) return undefined;
  if (typeof k !== 'number') {
    throw new TypeError(
      `${argumentName} must be a number, received ${describeValue(k)}. Pass a whole number such as 5, or omit it to evaluate the whole list.`,
    );
  }
  if (!Number.isInteger(k)) {
    throw new RangeError(`${argumentName} must be a whole number, received ${k}. Pass a cutoff such as 5 or 10.`);
  }
  return k <= 0 ? undefined : k;
}

/** No options: nothing to check, nothing to allocate (evaluateMeasures runs once per query). */
const NO_OPTIONS: EvaluateOptions = Object.freeze({});

function keysOf(hits: readonly Hit[], options: EvaluateOptions): readonly string[] {
  const keys = rankedKeys(hits, options);
  return options.granularity === 'document' ? collapseToDocuments(keys, options.documentKey) : keys;
}

/** A cutoff given as a number: its options object, made once per cutoff seen (small ones only). */
const CUTOFF_OPTIONS: EvaluateOptions[] = [];

function readOptions(kOrOptions: number | EvaluateOptions | undefined): EvaluateOptions {
  if (kOrOptions === undefined) return NO_OPTIONS;
  if (typeof kOrOptions === 'number') {
    if (!Number.isInteger(kOrOptions) || kOrOptions < 0 || kOrOptions > 1024) return { k: kOrOptions };
    return (CUTOFF_OPTIONS[kOrOptions] ??= Object.freeze({ k: kOrOptions }));
  }
  if (kOrOptions === null || typeof kOrOptions !== 'object' || Array.isArray(kOrOptions)) {
    throw new TypeError(
      `the third argument must be a cutoff k or an options object, received ${describeValue(kOrOptions)}.`,
    );
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
  const duplicates = kOrOptions.duplicates;
  if (duplicates !== undefined && duplicates !== 'count' && duplicates !== 'error') {
    throw new RangeError(`duplicates must be 'count' or 'error', received ${describeValue(duplicates)}.`);
  }
  return kOrOptions;
}

function assertHits(hits: unknown): asserts hits is readonly Hit[] {
  if (isPromiseLike(hits)) {
    throw new TypeError(
      'hits is a Promise, not an array of hits: did you forget await? Pass `await retriever.retrieve(query)`.',
    );
  }
  if (!Array.isArray(hits)) {
    throw new TypeError(
      `hits must be an array of hits in rank order, received ${describeValue(hits)}. Pass the retriever's result list (rank 1 first).`,
    );
  }
}

/** Ranks, keys and judges the hits of one query: what explainRanking shows. */
export function judgeHits(
  hits: readonly Hit[],
  judgments: Judgments,
  options: EvaluateOptions = {},
  countEveryDuplicate = true,
): JudgedRanking {
  assertHits(hits);
  return judgeRanking(keysOf(hits, options), judgments, options.duplicates, countEveryDuplicate);
}

/** One query's judgments and ranking, judged into the kernel's scratch. */
interface JudgedQuery {
  keys: readonly unknown[];
  source: GradeSource;
  kind: GradeSourceKind;
  judgedCount: number;
  /** Keys ranked again lower down (every key when every key was tracked, else judged ones only). */
  duplicateCount: number;
}

/** The buffers of one evaluation, reused from call to call: nothing of them is allocated per query. */
interface EvaluationScratch {
  kernel: MeasureScratch;
  query: JudgedQuery;
  /** The keys of hits that are not their own keys (objects), by the key rules. */
  keyBuffer: string[];
}

/** What the shared scratch holds between calls, so that it keeps no user's hits or judgments alive. */
const NO_JUDGMENTS: GradeSource = new Map<string, number>();
const EMPTY_KEYS: readonly unknown[] = [];

function createEvaluationScratch(): EvaluationScratch {
  return {
    kernel: createMeasureScratch(),
    query: { keys: EMPTY_KEYS, source: NO_JUDGMENTS, kind: 'map', judgedCount: 0, duplicateCount: 0 },
    keyBuffer: [],
  };
}

/** The shared buffers. A re-entrant call (a key function calling back) gets its own. */
const sharedScratch = createEvaluationScratch();
let scratchInUse = false;

/** The scratch to use; release it with releaseScratch (no closure: evaluate runs once per query). */
function acquireScratch(): EvaluationScratch {
  if (scratchInUse) return createEvaluationScratch();
  scratchInUse = true;
  return sharedScratch;
}

function releaseScratch(scratch: EvaluationScratch): void {
  if (scratch === sharedScratch) {
    scratch.query.keys = EMPTY_KEYS;
    scratch.query.source = NO_JUDGMENTS;
    scratchInUse = false;
  }
}

function isPlainRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The kind of judgments the kernel may read as they are (it checks their ids and grades), if any. */
function directKindOf(relevant: Relevance): GradeSourceKind | undefined {
  if (relevant instanceof Map) return 'map';
  if (Array.isArray(relevant)) return 'ids';
  if (relevant instanceof Set) return 'idSet';
  return isPlainRecord(relevant) ? 'record' : undefined;
}

/**
 * Reads the judgments into the kernel's judgedGrades (a clean Map, plain object, array or Set of ids
 * as it is, anything else through readJudgedGrades, which also gives bad input its error), then finds
 * the judged keys of the ranking (hits that are non-blank strings are their own keys) into
 * scratch.query. `plan` limits the ranks read.
 */
function judgeQuery(
  scratch: EvaluationScratch,
  hits: readonly Hit[],
  relevant: Relevance,
  options: EvaluateOptions,
  plan: MeasurePlan | undefined,
  trackEveryKey: boolean,
): JudgedQuery {
  const kernel = scratch.kernel;
  // Document granularity and Unicode normalisation rewrite keys, so neither side can be read as it is.
  const rewritesKeys = options.granularity === 'document' || options.normalize !== undefined;
  let source: GradeSource = NO_JUDGMENTS;
  let kind: GradeSourceKind = 'map';
  let loaded = false;
  if (!rewritesKeys) {
    const direct = directKindOf(relevant);
    if (direct !== undefined) {
      source = relevant as GradeSource;
      kind = direct;
      loaded = loadGrades(kernel, source, kind) === 'done';
    }
  }
  if (!loaded) {
    source = readJudgedGrades(relevant, options);
    kind = 'map';
    loadGrades(kernel, source, kind); // a Map readJudgedGrades made: clean
  }
  const judgedCount = kernel.keys.count;
  assertHits(hits);
  const hitsAreKeys =
    options.key === undefined && (options.sortBy === undefined || options.sortBy === 'rank') && !rewritesKeys;
  // Hits that are objects are keyed before judging (into the scratch's buffer), not found out at rank 0.
  const keyedByRules = hitsAreKeys && hits.length > 0 && !isPlainKey(hits[0]);
  let keys: readonly unknown[] = !hitsAreKeys
    ? keysOf(hits, options)
    : keyedByRules
      ? hitKeys(hits, options, scratch.keyBuffer)
      : hits;
  const judging: JudgeKeysOptions = {
    checkKeys: hitsAreKeys && !keyedByRules,
    trackEveryKey,
    duplicatesError: options.duplicates === 'error',
  };
  for (;;) {
    const outcome = judgeKeys(kernel, keys, rankCountOf(plan, trackEveryKey, keys.length), judging);
    if (outcome === 'done') break;
    // Each happens once at most: hits that are not their own keys are keyed, a long probe makes the
    // table hash every character. The table holds the hits seen so far: start it again.
    if (outcome === 'notPlainKeys') {
      keys = hitKeys(hits, options, scratch.keyBuffer);
      judging.checkKeys = false;
    }
    loadGrades(kernel, source, kind);
  }
  const duplicateCount = kernel.duplicateCount;
  const query = scratch.query;
  query.keys = keys;
  query.source = source;
  query.kind = kind;
  query.judgedCount = judgedCount;
  query.duplicateCount = duplicateCount;
  return query;
}

/** How many top ranks to judge: all of them unless a plan needs fewer (and repeats need not be found). */
function rankCountOf(plan: MeasurePlan | undefined, trackEveryKey: boolean, retrievedCount: number): number {
  return plan === undefined || trackEveryKey ? retrievedCount : ranksNeeded(plan, retrievedCount);
}

/** Starts the kernel on a judged query; a grade whose gain could overflow nDCG is an error naming it. */
function prepare(
  scratch: MeasureScratch,
  query: JudgedQuery,
  relevant: Relevance,
  settings: JudgmentSettings,
  options: EvaluateOptions,
): void {
  const overflowing = prepareRanking(
    scratch,
    query.keys.length,
    query.judgedCount,
    settings,
    options.precisionDenominator === 'retrieved',
  );
  if (overflowing !== -1) throw overflowError(scratch, relevant, settings, overflowing);
}

function overflowError(
  scratch: MeasureScratch,
  relevant: Relevance,
  settings: JudgmentSettings,
  index: number,
): RangeError {
  const id = judgedIdAt(scratch, index);
  return gradeTooLargeError(
    // Only graded judgments can overflow: a Map's or an object's (ids in an array or a Set have grade 1).
    judgmentName(relevant instanceof Map, id),
    scratch.judgedGrades[index] as number,
    settings.gain,
  );
}

/** Some measures of the table: their names and, index for index, their formulas. */
interface TableMeasures {
  names: readonly MeasureName[];
  formulas: readonly ((state: RankingState) => number)[];
}

/**
 * The table's measures read at evaluate()'s k, and those that take no cutoff (read over the whole
 * list; `rbp` with its default persistence).
 */
const AT_K = measuresWhere((cutoff) => cutoff !== 'none' && cutoff !== 'parameter');
const WHOLE_LIST = measuresWhere((cutoff) => cutoff === 'none' || cutoff === 'parameter');

function measuresWhere(test: (cutoff: string) => boolean): TableMeasures {
  const names = MEASURE_NAMES.filter((name) => test(MEASURE_TABLE[name].cutoff));
  return { names, formulas: names.map((name) => MEASURE_TABLE[name].formula) };
}

/** Every measure name, in table order: copied per evaluation so that each `values` has the same shape. */
const VALUES_TEMPLATE = Object.fromEntries(MEASURE_NAMES.map((name) => [name, Number.NaN])) as Record<
  MeasureName,
  number
>;

function measureInto(values: Record<MeasureName, number>, measures: TableMeasures, state: RankingState): void {
  const { names, formulas } = measures;
  for (let index = 0; index < names.length; index++) {
    values[names[index] as MeasureName] = (formulas[index] as TableMeasures['formulas'][number])(state);
  }
}

/**
 * Evaluates one ranked list against its annotations: every measure and count at once.
 * `kOrOptions` is a cutoff, or `{ k, ...options }`. Never throws for empty hits or empty annotations.
 */
export function evaluate(
  hits: readonly Hit[],
  relevant: Relevance,
  kOrOptions?: number | EvaluateOptions,
): RetrievalEvaluation {
  return evaluateWithPlan(hits, relevant, kOrOptions, undefined, undefined);
}

/**
 * evaluate() and, from the same judging of the hits, the measures of `plan` as evaluateMeasures gives
 * them (each at its own cutoff; `kOrOptions`' k is evaluate()'s only): for a matcher that records the
 * declared measures of its question besides its own.
 */
export function evaluateWithMeasures(
  hits: readonly Hit[],
  relevant: Relevance,
  kOrOptions: number | EvaluateOptions | undefined,
  plan: MeasurePlan,
): { evaluation: RetrievalEvaluation; values: Record<string, number> } {
  const { evaluation, values } = evaluateAndAudit(hits, relevant, kOrOptions, plan, false);
  return { evaluation, values: values as Record<string, number> };
}

/**
 * evaluate(), with a plan its measures (as evaluateWithMeasures), and when `audited` the audit of the
 * judgments (as auditJudgments), all from one judging of the hits: what a recording matcher needs.
 */
export function evaluateAndAudit(
  hits: readonly Hit[],
  relevant: Relevance,
  kOrOptions: number | EvaluateOptions | undefined,
  plan: MeasurePlan | undefined,
  audited: boolean,
): { evaluation: RetrievalEvaluation; values: Record<string, number> | undefined; audit: JudgmentAudit | undefined } {
  const measured: Measured = { values: undefined, audit: undefined };
  const evaluation = evaluateWithPlan(hits, relevant, kOrOptions, plan, measured, audited);
  return { evaluation, values: measured.values, audit: measured.audit };
}

/** What evaluateWithPlan measures besides evaluate()'s result. */
interface Measured {
  values: Record<string, number> | undefined;
  audit: JudgmentAudit | undefined;
}

/**
 * The audit of one query's judgments and ranking (its fingerprint, unjudged hits, top ranked keys),
 * from the judging evaluate() does.
 */
export function auditJudgments(
  hits: readonly Hit[],
  relevant: Relevance,
  options: EvaluateOptions = {},
): JudgmentAudit {
  return evaluateAndAudit(hits, relevant, options, undefined, true).audit as JudgmentAudit;
}

/**
 * evaluate(); with a plan, the plan's measures into `measured`; when `audited`, the audit of the
 * judgments into `measured` (evaluate itself allocates nothing more).
 */
function evaluateWithPlan(
  hits: readonly Hit[],
  relevant: Relevance,
  kOrOptions: number | EvaluateOptions | undefined,
  plan: MeasurePlan | undefined,
  measured: Measured | undefined,
  audited = false,
): RetrievalEvaluation {
  assertHits(hits);
  const options = readOptions(kOrOptions);
  const requestedK = validateK(options.k);
  const settings = readJudgmentSettings(options);
  const scratch = acquireScratch();
  try {
    const query = judgeQuery(scratch, hits, relevant, options, undefined, true);
    const kernel = scratch.kernel;
    prepare(kernel, query, relevant, settings, options);
    // Every rank was judged, every key tracked: the audit reads that judging.
    if (audited && measured !== undefined)
      measured.audit = auditJudgedQuery(kernel, query.keys as readonly string[], settings.minGrade);
    const retrievedCount = query.keys.length;
    const k = requestedK ?? retrievedCount;
    const uncut = requestedK === undefined;
    const atK = advanceTo(kernel, k, uncut);
    const evaluatedAtK = atK.evaluatedAtK;
    const relevantCount = atK.relevantCount;
    const truePositiveCount = atK.truePositiveCount;
    const values = { ...VALUES_TEMPLATE };
    measureInto(values, AT_K, atK);
    // R-precision and bpref have no cutoff: they read the whole list.
    const whole = advanceTo(kernel, Math.max(k, retrievedCount), uncut);
    measureInto(values, WHOLE_LIST, whole);
    const evaluation = evaluationOf(
      { k, evaluatedAtK, retrievedCount, relevantCount, truePositiveCount, duplicateCount: query.duplicateCount },
      values,
      unmatchedJudgedIds(kernel, settings.minGrade, relevantCount - whole.truePositiveCount),
    );
    if (plan !== undefined && measured !== undefined) {
      // Every rank was judged above, so each of the plan's cutoffs reads the same found keys; a grade
      // whose gain would overflow was refused by prepare.
      reserveScratch(kernel, 0, plan.measures.length);
      measureGradedRanking(
        kernel,
        retrievedCount,
        query.judgedCount,
        settings,
        plan,
        options.precisionDenominator === 'retrieved',
      );
      measured.values = valuesByName(kernel, plan);
    }
    return evaluation;
  } finally {
    releaseScratch(scratch);
  }
}

/** The plan's values the kernel measured last, by name (`{ 'recall@5': 0.8, … }`). */
function valuesByName(kernel: MeasureScratch, plan: MeasurePlan): Record<string, number> {
  const values: Record<string, number> = { ...plan.template };
  const names = plan.names;
  for (let index = 0; index < names.length; index++) values[names[index] as string] = kernel.values[index] as number;
  return values;
}

/** Several measures of one query in one pass over the ranking: `{ 'recall@5': 0.8, 'ndcg@10': 0.71 }`. */
export function evaluateMeasures(
  hits: readonly Hit[],
  relevant: Relevance,
  measures: readonly Measure[] | MeasurePlan,
  options?: Omit<EvaluateOptions, 'k'>,
): Record<string, number> {
  const checked = options === undefined ? NO_OPTIONS : readOptions(options);
  const plan = Array.isArray(measures) ? planMeasures(measures) : (measures as MeasurePlan);
  const settings = readJudgmentSettings(checked);
  const scratch = acquireScratch();
  try {
    const query = judgeQuery(scratch, hits, relevant, checked, plan, checked.duplicates === 'error');
    const kernel = scratch.kernel;
    reserveScratch(kernel, 0, plan.measures.length);
    const overflowing = measureGradedRanking(
      kernel,
      query.keys.length,
      query.judgedCount,
      settings,
      plan,
      checked.precisionDenominator === 'retrieved',
    );
    if (overflowing !== -1) throw overflowError(kernel, relevant, settings, overflowing);
    return valuesByName(kernel, plan);
  } finally {
    releaseScratch(scratch);
  }
}

function evaluateAt(
  hits: readonly Hit[],
  relevant: Relevance,
  k: unknown,
  options: EvaluateOptions | undefined,
  argumentName: string,
): RetrievalEvaluation {
  const cutoff = validateK(k, argumentName);
  if (cutoff === undefined) {
    throw new RangeError(
      `${argumentName} must be a positive whole number, received ${describeValue(k)}. Pass a cutoff such as 5.`,
    );
  }
  return evaluate(hits, relevant, { ...options, k: cutoff });
}

/** Relevant hits in the top k ÷ k (trec_eval P_k). */
export function precisionAtK(hits: readonly Hit[], relevant: Relevance, k: number, options?: EvaluateOptions): number {
  return evaluateAt(hits, relevant, k, options, 'k').values.precision;
}

/** Relevant hits in the top k ÷ relevant count (trec_eval recall_k). */
export function recallAtK(hits: readonly Hit[], relevant: Relevance, k: number, options?: EvaluateOptions): number {
  return evaluateAt(hits, relevant, k, options, 'k').values.recall;
}

/** Harmonic mean of precision@k and recall@k. */
export function f1AtK(hits: readonly Hit[], relevant: Relevance, k: number, options?: EvaluateOptions): number {
  return evaluateAt(hits, relevant, k, options, 'k').values.f1;
}

/** 1 when a relevant hit is in the top k, else 0 (trec_eval success_k). */
export function hitAtK(hits: readonly Hit[], relevant: Relevance, k: number, options?: EvaluateOptions): number {
  return evaluateAt(hits, relevant, k, options, 'k').values.hit;
}

/** nDCG at k with graded gains (trec_eval ndcg_cut_k). */
export function ndcgAtK(hits: readonly Hit[], relevant: Relevance, k: number, options?: EvaluateOptions): number {
  return evaluateAt(hits, relevant, k, options, 'k').values.ndcg;
}

/** 1 / rank of the first relevant hit (within `options.k` if given). */
export function reciprocalRank(hits: readonly Hit[], relevant: Relevance, options?: EvaluateOptions): number {
  return evaluate(hits, relevant, { ...options }).values.mrr;
}

/** Average precision (at `options.k` if given), divided by the relevant count (trec_eval map / map_cut). */
export function averagePrecision(hits: readonly Hit[], relevant: Relevance, options?: EvaluateOptions): number {
  return evaluate(hits, relevant, { ...options }).values.map;
}

/** Precision at rank R where R is the number of relevant ids (trec_eval Rprec). */
export function rPrecision(hits: readonly Hit[], relevant: Relevance, options?: Omit<EvaluateOptions, 'k'>): number {
  return evaluate(hits, relevant, { ...options }).values.rprec;
}
