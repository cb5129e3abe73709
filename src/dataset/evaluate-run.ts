// A whole set of queries against a run: per-query values, means and counts, with trec_eval's query
// rules (docs/datasets.md, Evaluating a run). Pure: no files, no runner.
import { describeValue } from '../core/describe.js';
import { evaluateMeasures, planMeasures } from '../core/evaluate.js';
import { compareByTrecRank } from '../core/ranking.js';
import { formatMeasure, parseMeasure, type Measure } from '../core/measures.js';
import { listUpTo, plural } from '../core/present.js';
import type { EvaluateOptions, Hit, Relevance } from '../core/types.js';
import type { EvalQuery, EvalSet } from './jsonl.js';
import type { Qrels, TrecRun } from '../trec/index.js';

/**
 * A run: query id → hits in rank order (rank 1 first), as a Map or a plain object. Hits are what
 * the core takes (ids, hit objects, LangChain/LlamaIndex documents); JSONL runs fit as they are.
 */
export type Run = ReadonlyMap<string, readonly unknown[]> | Readonly<Record<string, readonly unknown[]>>;

/** The queries with their judgments: an eval set (`{ id, query, relevant }[]`) or TREC qrels. */
export type QuerySet = readonly EvalQuery[] | EvalSet | Qrels;

/** What happens to a judged query the run has no entry for. */
export type MissingQueryPolicy = 'zero' | 'skip' | 'error';

export interface EvaluateRunOptions extends Omit<EvaluateOptions, 'k'> {
  /** Measures in any accepted spelling (`recall@5`, `nDCG@10`, `P_5`, `map`) or as `{ name, k }`. */
  measures: readonly (string | Measure)[];
  /**
   * A judged query missing from the run: `'zero'` (default, trec_eval -c) scores 0 on every measure
   * and counts in the means; `'skip'` leaves it out of the means; `'error'` throws. Either way it is
   * listed in `queries.missing`.
   */
  missing?: MissingQueryPolicy;
  /** Called after each evaluated query with the number done and the number of set queries (for a progress bar). */
  onProgress?: (done: number, total: number) => void;
}

export interface RunQueryCounts {
  /** Queries with a value for every measure (the means' denominator). */
  evaluated: number;
  /** Set queries with no judgments at all: not evaluated (in RAG: the no-answer questions). */
  unjudged: string[];
  /** Judged queries the run has no entry for (scored 0 unless missing: 'skip'). */
  missing: string[];
  /** Run queries that are not in the set: ignored. */
  runOnly: string[];
}

/** The result of evaluateRun: what the set-level matchers and the CLI read. */
export interface RunEvaluation {
  /** Canonical measure names (`recall@5`, `ndcg@10`, `mrr`), in the order asked for. */
  measures: string[];
  /** Mean of each measure over the evaluated queries (NaN when none was evaluated). */
  mean: Record<string, number>;
  /** Evaluated query id → measure → value. Iterate in `queryIds` order. */
  perQuery: Record<string, Record<string, number>>;
  /** The evaluated queries, in set order. */
  queryIds: string[];
  queries: RunQueryCounts;
}

const OWN_OPTIONS = new Set(['measures', 'missing', 'onProgress']);

function fail(message: string): never {
  throw new TypeError(`evaluateRun: ${message}`);
}

/** The measures asked for, parsed and without repeats, in order. */
export function readMeasures(measures: unknown, caller = 'evaluateRun'): Measure[] {
  if (!Array.isArray(measures) || measures.length === 0) {
    throw new TypeError(
      `${caller}: options.measures must be a non-empty array such as ['recall@5', 'ndcg@10', 'mrr'], received ${describeValue(measures)}.`,
    );
  }
  const seen = new Set<string>();
  const parsed: Measure[] = [];
  for (const entry of measures as unknown[]) {
    let measure: Measure;
    if (typeof entry === 'string') {
      measure = parseMeasure(entry);
    } else if (entry !== null && typeof entry === 'object' && typeof (entry as Measure).name === 'string') {
      measure = parseMeasure(formatMeasure(entry as Measure));
    } else {
      throw new TypeError(
        `${caller}: each measure must be a name such as 'ndcg@10' or { name, k }, received ${describeValue(entry)}.`,
      );
    }
    const name = formatMeasure(measure);
    if (!seen.has(name)) {
      seen.add(name);
      parsed.push(measure);
    }
  }
  return parsed;
}

interface SetEntry {
  id: string;
  relevant: Relevance;
  judged: boolean;
}

function isQrels(set: QuerySet): set is Qrels {
  return set instanceof Map;
}

function readSet(set: QuerySet): SetEntry[] {
  const entries: SetEntry[] = [];
  if (isQrels(set)) {
    for (const [id, judgments] of set) {
      if (!(judgments instanceof Map))
        fail(`qrels query '${id}' must map to a Map of doc id → grade, received ${describeValue(judgments)}.`);
      entries.push({ id, relevant: judgments, judged: judgments.size > 0 });
    }
    return entries;
  }
  if (!Array.isArray(set)) {
    fail(
      `set must be an eval set ({ id, query, relevant }[]) or qrels (Map of query id → Map of doc id → grade), received ${describeValue(set)}.`,
    );
  }
  const seen = new Set<string>();
  set.forEach((query: unknown, index: number) => {
    if (query === null || typeof query !== 'object')
      fail(`set[${index}] must be an object { id, query, relevant }, received ${describeValue(query)}.`);
    const { id, relevant } = query as { id?: unknown; relevant?: unknown };
    if ((typeof id !== 'string' || id === '') && !(typeof id === 'number' && Number.isSafeInteger(id))) {
      fail(`set[${index}].id must be a non-empty string, received ${describeValue(id)}.`);
    }
    const queryId = String(id);
    if (seen.has(queryId)) fail(`set[${index}] repeats the query id '${queryId}'; give each query a unique id.`);
    seen.add(queryId);
    if (relevant === null || typeof relevant !== 'object') {
      fail(
        `set[${index}].relevant (query '${queryId}') must be a list of ids or an object of id → grade, received ${describeValue(relevant)}.`,
      );
    }
    entries.push({ id: queryId, relevant: relevant as Relevance, judged: judgmentCount(relevant as Relevance) > 0 });
  });
  return entries;
}

function judgmentCount(relevant: Relevance): number {
  if (Array.isArray(relevant))
    return relevant.filter((id) => id !== null && id !== undefined && String(id).trim() !== '').length;
  if (relevant instanceof Set || relevant instanceof Map) return relevant.size;
  return Object.keys(relevant).length;
}

/** Run entries as a Map, whatever the run's shape. */
export function runEntries(run: Run, caller = 'evaluateRun'): ReadonlyMap<string, readonly Hit[]> {
  if (run instanceof Map) return run as ReadonlyMap<string, readonly Hit[]>;
  if (run === null || typeof run !== 'object' || Array.isArray(run)) {
    throw new TypeError(
      `${caller}: run must be a Map or an object of query id → hits in rank order, received ${describeValue(run)}.`,
    );
  }
  return new Map(Object.entries(run as Record<string, readonly Hit[]>));
}

/**
 * Evaluates every query of `set` against `run`. trec_eval's query rules: a query with no judgments
 * at all is not evaluated (listed in `queries.unjudged`); a judged query with no relevant id scores 0
 * and counts; a judged query missing from the run scores 0 (`missing: 'zero'`, default), is left out
 * (`'skip'`) or throws (`'error'`), and is listed in `queries.missing`; run queries not in the set are
 * ignored and listed in `queries.runOnly`. Core options (minGrade, granularity, key, sortBy, …)
 * apply to every query.
 */
export function evaluateRun(set: QuerySet, run: Run, options: EvaluateRunOptions): RunEvaluation {
  if (options === null || typeof options !== 'object')
    fail(`options must be an object with measures, received ${describeValue(options)}.`);
  const measures = readMeasures(options.measures);
  const missingPolicy = options.missing ?? 'zero';
  if (missingPolicy !== 'zero' && missingPolicy !== 'skip' && missingPolicy !== 'error') {
    throw new RangeError(
      `evaluateRun: options.missing must be 'zero', 'skip' or 'error', received ${describeValue(missingPolicy)}.`,
    );
  }
  const coreOptions: Omit<EvaluateOptions, 'k'> = {};
  for (const [name, value] of Object.entries(options)) {
    if (!OWN_OPTIONS.has(name)) (coreOptions as Record<string, unknown>)[name] = value;
  }
  const entries = readSet(set);
  const runMap = runEntries(run);
  const plan = planMeasures(measures);
  const names = plan.names as string[];

  const missing = entries.filter((entry) => entry.judged && !runMap.has(entry.id)).map((entry) => entry.id);
  if (missing.length > 0 && missingPolicy === 'error') {
    const shown = listUpTo(missing, 10);
    throw new RangeError(
      `evaluateRun: ${plural(missing.length, 'judged query is', 'judged queries are')} missing from the run (${shown}) and options.missing is 'error'. ` +
        `Retrieve them, or use missing: 'zero' (score 0, trec_eval -c) or 'skip'.`,
    );
  }

  const perQuery: Record<string, Record<string, number>> = Object.create(null) as Record<
    string,
    Record<string, number>
  >;
  const queryIds: string[] = [];
  const unjudged: string[] = [];
  const sums = new Float64Array(names.length);
  const noHits: readonly Hit[] = [];
  for (const entry of entries) {
    if (!entry.judged) {
      unjudged.push(entry.id);
      continue;
    }
    const hits = runMap.get(entry.id);
    if (hits === undefined && missingPolicy === 'skip') continue;
    let values: Record<string, number>;
    try {
      values = evaluateMeasures(hits ?? noHits, entry.relevant, plan, coreOptions);
    } catch (error) {
      if (error instanceof Error) error.message = `evaluateRun: query '${entry.id}': ${error.message}`;
      throw error;
    }
    perQuery[entry.id] = values;
    queryIds.push(entry.id);
    names.forEach((name, index) => (sums[index] = (sums[index] as number) + (values[name] as number)));
    options.onProgress?.(queryIds.length, entries.length);
  }

  const setIds = new Set(entries.map((entry) => entry.id));
  const runOnly = [...runMap.keys()].filter((id) => !setIds.has(id));
  const mean: Record<string, number> = {};
  names.forEach(
    (name, index) => (mean[name] = queryIds.length === 0 ? Number.NaN : (sums[index] as number) / queryIds.length),
  );
  return {
    measures: [...names],
    mean,
    perQuery,
    queryIds,
    queries: { evaluated: queryIds.length, unjudged, missing, runOnly },
  };
}

/** The values of one measure over the evaluated queries, in `queryIds` order. */
export function measureValues(result: RunEvaluation, measure: string | Measure): number[] {
  const name = formatMeasure(typeof measure === 'string' ? parseMeasure(measure) : measure);
  if (!result.measures.includes(name)) {
    throw new RangeError(
      `measureValues: '${name}' was not evaluated; the result has ${result.measures.join(', ')}. Add it to evaluateRun's measures.`,
    );
  }
  return result.queryIds.map((queryId) => (result.perQuery[queryId] as Record<string, number>)[name] as number);
}

/**
 * A TREC run (from readRunFile/parseRun) as a Run in trec_eval's ranking: score descending, ties
 * by doc id descending in byte order; hits are `{ id, score }`.
 */
export function rankTrecRun(run: TrecRun): Map<string, { id: string; score: number }[]> {
  const ranked = new Map<string, { id: string; score: number }[]>();
  for (const [queryId, entries] of run) {
    const hits = entries.map((entry) => ({ id: entry.docId, score: entry.score }));
    hits.sort((a, b) => compareByTrecRank(a.score, a.id, b.score, b.id));
    ranked.set(queryId, hits);
  }
  return ranked;
}

/** Whether a value has the shape evaluateRun returns (what set-level matchers and comparisons accept). */
export function isRunEvaluation(value: unknown): value is RunEvaluation {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as Partial<Record<keyof RunEvaluation, unknown>>;
  const isObject = (field: unknown) => field !== null && typeof field === 'object';
  return (
    Array.isArray(candidate.measures) &&
    Array.isArray(candidate.queryIds) &&
    isObject(candidate.perQuery) &&
    isObject(candidate.mean) &&
    isObject(candidate.queries)
  );
}
