// describeRetrieval(name, { questions, retrieve, measures }): a labelled file is the suite. One describe block
// named `name`, one test per question named by its text; each test runs the retriever on its question (timed,
// its calls counted), records the retrieval cost, and asserts the measures' floors with toMeetRetrievalTargets,
// so that recording, messages, known misses, -t, shards and the gate are those of hand-written tests.
import { describeValue } from '../core/describe.js';
import { formatMeasure, parseMeasure, type MeasureSpelling } from '../core/measures.js';
import type { EvalQuery, EvalQueryRecord } from '../dataset/jsonl.js';
import type { MatcherOptions } from '../../matchers/support/hits.js';
import { checkLatencyBudget, type LatencyBudget } from '../recording/cost.js';
import { questionTestNames } from './names.js';
import { readSuiteQuestions, type QuestionSource, type SuiteQuestion } from './questions.js';
import { suiteRuntime, type QuestionPlace, type SuiteRuntime } from './runtime.js';

/** The second argument of `retrieve`. */
export interface RetrievalContext {
  /** Counts `n` (default 1) calls of `kind` (`'embed'`, `'rerank'`, …) for this question. */
  count(kind: string, n?: number): void;
}

/** Measure names, or measure name → floor. */
export type RetrievalMeasures = readonly MeasureSpelling[] | { readonly [Name in MeasureSpelling]?: number };

/** describeRetrieval's options; the matcher options (`granularity`, …) apply to every question. */
export interface DescribeRetrievalOptions<Question extends EvalQuery = EvalQueryRecord> extends Omit<
  MatcherOptions,
  'queryId'
> {
  /** A JSON Lines eval set's path (relative to the working directory) or URL, a `.json` array file's, or the questions. */
  questions: QuestionSource<Question>;
  /** The question (its text: `question.query`) in, its ranked hits out. */
  retrieve(question: Question, context: RetrievalContext): readonly unknown[] | Promise<readonly unknown[]>;
  /** `['hit@5']`, or floors `{ 'hit@5': 1 }` (0: recorded only). */
  measures: RetrievalMeasures;
  /** Keeps the questions it returns true for. */
  filter?(question: Question): boolean;
  /** Milliseconds per question (default: the runner's). */
  timeout?: number;
  /** Questions at once (default 1; above 1: test.concurrent). */
  concurrency?: number;
  /** The suite's latency budget in milliseconds (`{ p95: 300 }`): fails the run once 20 questions are timed. */
  latency?: LatencyBudget;
}

/** The keys describeRetrieval reads itself; every other key is a matcher option. */
const OWN_KEYS = new Set(['questions', 'retrieve', 'measures', 'filter', 'timeout', 'concurrency', 'latency']);

/** Everything one question's test needs, worked out once per suite. */
interface SuiteSettings<Question> {
  where: string;
  runtime: SuiteRuntime;
  retrieve: DescribeRetrievalOptions<Question & EvalQuery>['retrieve'];
  targets: Readonly<Record<string, number>>;
  matcherOptions: Readonly<Record<string, unknown>>;
  /** The stack of the describeRetrieval call: the test file's line for questions given in an array. */
  declaredAt: string;
  latencyBudget: LatencyBudget | undefined;
  question: SuiteQuestion<Question>;
}

/** A describe block `name` with one test per question (needs the setup file rag-matchers/vitest or /jest). */
export function describeRetrieval<Question extends EvalQuery = EvalQueryRecord>(
  name: string,
  options: DescribeRetrievalOptions<Question>,
): void {
  const where = `describeRetrieval(${JSON.stringify(name)})`;
  const refuse = (problem: string, value: unknown): never => {
    throw new TypeError(`${where}: ${problem}, got ${describeValue(value)}.`);
  };
  if (typeof name !== 'string' || name.trim() === '') refuse("name must be the suite's title", name);
  if (options === null || typeof options !== 'object')
    refuse('options must be { questions, retrieve, measures }', options);
  const runtime = suiteRuntime(where);
  const { retrieve, filter, timeout, concurrency = 1 } = options;
  if (typeof retrieve !== 'function') refuse('retrieve must be a function (question, context) => hits', retrieve);
  if (filter !== undefined && typeof filter !== 'function')
    refuse('filter must be a function (question) => boolean', filter);
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0 && timeout < Infinity))
    refuse('timeout must be a number of milliseconds above 0', timeout);
  if (!Number.isInteger(concurrency) || concurrency < 1) refuse('concurrency must be a whole number ≥ 1', concurrency);
  const targets = readMeasures(options.measures, refuse);
  const latencyBudget =
    options.latency === undefined ? undefined : checkLatencyBudget(options.latency, `${where}: options.latency`);
  const matcherOptions = Object.fromEntries(Object.entries(options).filter(([key]) => !OWN_KEYS.has(key)));

  let questions = readSuiteQuestions(options.questions, where);
  if (filter !== undefined) questions = questions.filter((entry) => filter(entry.question));
  if (questions.length === 0) refuse('filter must keep some question', filter);
  const names = questionTestNames(questions);
  const declaredAt = questions.some((entry) => entry.source === undefined) ? (new Error().stack ?? '') : '';
  const limit = limiter(concurrency);
  runtime.describe(name, () => {
    questions.forEach((question, index) => {
      const settings = { where, runtime, retrieve, targets, matcherOptions, declaredAt, latencyBudget, question };
      runtime.test(names[index]!, (testContext) => limit(() => runQuestion(settings, testContext)), {
        knownMiss: question.knownMiss,
        concurrent: concurrency > 1,
        timeout,
      });
    });
  });
}

/** One question's test: retrieve (timed, calls counted), record the cost, assert the floors. */
async function runQuestion<Question>(settings: SuiteSettings<Question>, testContext: unknown): Promise<void> {
  const { runtime, question } = settings;
  const { assertTargets, recording } = runtime.running(testContext);
  const place: QuestionPlace = question.source ?? { declaredAt: settings.declaredAt };
  runtime.placeQuestion(recording, place);
  const calls = new Map<string, number>();
  const context: RetrievalContext = {
    count(kind: string, n = 1) {
      if (typeof kind !== 'string' || kind === '' || !Number.isInteger(n) || n < 0)
        throw new TypeError(
          `${settings.where}: context.count(kind, n) takes a kind such as 'rerank' and a whole n ≥ 0.`,
        );
      calls.set(kind, (calls.get(kind) ?? 0) + n);
    },
  };
  const started = performance.now();
  const hits = await settings.retrieve(question.question as Question & EvalQuery, context);
  const latencyMs = performance.now() - started;
  if (!Array.isArray(hits))
    throw new TypeError(
      `${settings.where}: retrieve must return an array of hits for ${question.id}, got ${describeValue(hits)}.`,
    );
  const cost = { latencyMs, calls: Object.fromEntries(calls) };
  runtime.recordCost(
    settings.latencyBudget === undefined ? cost : { ...cost, latencyBudget: settings.latencyBudget },
    recording,
    question.id,
  );
  // The file's tags reach the reports through the matchers' one entry point for them.
  const { tags } = question.question as { tags?: unknown };
  const options = { ...settings.matcherOptions, queryId: question.id, ...(tags !== undefined ? { tags } : {}) };
  assertTargets(hits, question.relevant, settings.targets, options);
}

/** Canonical measure name → floor; an array records every measure with floor 0. */
function readMeasures(measures: unknown, refuse: (problem: string, value: unknown) => never): Record<string, number> {
  const entries: [unknown, unknown][] = Array.isArray(measures)
    ? measures.map((name: unknown) => [name, 0])
    : Object.entries(typeof measures === 'object' && measures !== null ? measures : {});
  if (entries.length === 0) refuse(`measures must name some, as ['hit@5'] or { 'hit@5': 1 }`, measures);
  const targets: Record<string, number> = {};
  for (const [name, floor] of entries) {
    let canonical = '';
    try {
      canonical = formatMeasure(parseMeasure(name as string));
    } catch (error) {
      refuse(`measures: ${(error as Error).message}`, name);
    }
    if (!(typeof floor === 'number' && floor >= 0 && floor <= 1))
      refuse(`measures['${canonical}'] must be a floor from 0 to 1`, floor);
    if (Object.hasOwn(targets, canonical)) refuse(`measures name ${canonical} twice`, name);
    targets[canonical] = floor as number;
  }
  return targets;
}

/** Runs at most `concurrency` of the given tasks at once, the others waiting their turn in order. */
type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

function limiter(concurrency: number): Limiter {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A finished task hands its slot to the next waiting one, so no newcomer can take it in between.
    if (running >= concurrency) await new Promise<void>((resolveTurn) => waiting.push(resolveTurn));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}
