// describeRetrieval(name, { questions, retrieve, measures }): a labelled file is the suite. One describe block
// named `name`, one test per question named by its text; each test runs the retriever on its question (timed,
// its calls counted), records the retrieval cost, and asserts the measures' floors with toMeetRetrievalTargets,
// so that recording, messages, known misses, -t, shards and the gate are those of hand-written tests.
import { describeValue } from '../core/describe.js';
import { formatMeasure, parseMeasure, type MeasureSpelling } from '../core/measures.js';
import type { EvalQuery, EvalQueryRecord } from '../dataset/jsonl.js';
import type { MatcherOptions } from '../../matchers/support/hits.js';
import { questionTestNames } from './names.js';
import { readSuiteQuestions, type QuestionSource, type SuiteQuestion } from './questions.js';
import { suiteRuntime, type QuestionPlace, type SuiteRuntime } from './runtime.js';

/** The second argument of `retrieve`: counts the calls the retrieval of one question makes. */
export interface RetrievalContext {
  /** Adds `n` (default 1) calls of `kind` (`'embed'`, `'rerank'`, …) to this question's count. */
  count(kind: string, n?: number): void;
}

/** Measure names (recorded only), or measure name → the floor each question must reach (0: recorded only). */
export type RetrievalMeasures = readonly MeasureSpelling[] | { readonly [Name in MeasureSpelling]?: number };

/** The options of describeRetrieval; the matcher options (`granularity`, `key`, `minGrade`, …) apply to every question. */
export interface DescribeRetrievalOptions<Question extends EvalQuery = EvalQueryRecord> extends Omit<
  MatcherOptions,
  'queryId'
> {
  /**
   * The questions: the path of a JSON Lines eval set (one `{ "id", "query", "relevant" }` per line, as
   * readEvalSetFile reads) or of a `.json` file holding an array of them, relative to the working
   * directory, or a file URL; or the questions themselves. `"expect": "miss"` marks a question the
   * retriever is known to miss; other fields (`kind`, `tags`, …) are kept and passed to `retrieve`.
   */
  questions: QuestionSource<Question>;
  /** Your retriever: the question (its text is `question.query`) in, its ranked hits out, rank 1 first. */
  retrieve(question: Question, context: RetrievalContext): readonly unknown[] | Promise<readonly unknown[]>;
  /** What each question records: `['hit@5', 'ndcg@10']`, or floors `{ 'hit@5': 1, 'ndcg@10': 0.4 }`. */
  measures: RetrievalMeasures;
  /** Keeps only the questions it returns true for (`(question) => question.kind === 'single'`). */
  filter?(question: Question): boolean;
  /** Milliseconds each question's test may take (default: the runner's test timeout). */
  timeout?: number;
  /** How many questions run at once (default 1: one after another; above 1 the tests are test.concurrent). */
  concurrency?: number;
}

/** The keys describeRetrieval reads itself; every other key is a matcher option. */
const OWN_KEYS = new Set(['questions', 'retrieve', 'measures', 'filter', 'timeout', 'concurrency']);

/** Everything one question's test needs, worked out once per suite. */
interface SuiteSettings<Question> {
  where: string;
  runtime: SuiteRuntime;
  retrieve: DescribeRetrievalOptions<EvalQuery>['retrieve'];
  targets: Readonly<Record<string, number>>;
  matcherOptions: Readonly<Record<string, unknown>>;
  /** The stack of the describeRetrieval call: the test file's line for questions given in an array. */
  declaredAt: string;
  question: SuiteQuestion<Question>;
}

/**
 * Declares one suite: a describe block `name` with one test per question. Call it at the top level of a
 * test file (or inside a describe), as you would `describe`. Needs the runner's setup file
 * (`rag-matchers/vitest` or `rag-matchers/jest`).
 */
export function describeRetrieval<Question extends EvalQuery = EvalQueryRecord>(
  name: string,
  options: DescribeRetrievalOptions<Question>,
): void {
  if (typeof name !== 'string' || name.trim() === '')
    throw new TypeError(
      `describeRetrieval: name must be a non-empty string (the suite's title), got ${describeValue(name)}.`,
    );
  const where = `describeRetrieval(${JSON.stringify(name)})`;
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(
      `${where}: options must be an object { questions, retrieve, measures }, got ${describeValue(options)}.`,
    );
  const runtime = suiteRuntime(where);
  if (typeof options.retrieve !== 'function')
    throw new TypeError(
      `${where}: retrieve must be a function (question, context) => hits, got ${describeValue(options.retrieve)}.`,
    );
  const targets = readMeasures(options.measures, where);
  const timeout = optionalNumber(
    options.timeout,
    `${where}: timeout`,
    'a number of milliseconds above 0',
    (value) => value > 0,
  );
  const concurrency =
    optionalNumber(
      options.concurrency,
      `${where}: concurrency`,
      'a whole number of questions ≥ 1',
      (value) => Number.isInteger(value) && value >= 1,
    ) ?? 1;
  if (options.filter !== undefined && typeof options.filter !== 'function')
    throw new TypeError(
      `${where}: filter must be a function (question) => boolean, got ${describeValue(options.filter)}.`,
    );
  const matcherOptions = Object.fromEntries(Object.entries(options).filter(([key]) => !OWN_KEYS.has(key)));

  let questions = readSuiteQuestions(options.questions, where);
  const filter = options.filter;
  if (filter !== undefined) {
    questions = questions.filter((entry) => filter(entry.question));
    if (questions.length === 0) throw new RangeError(`${where}: filter kept none of the questions.`);
  }
  const names = questionTestNames(questions);
  const declaredAt = questions.some((entry) => entry.source === undefined) ? (new Error().stack ?? '') : '';
  const limit = limiter(concurrency);
  const retrieve = options.retrieve as SuiteSettings<Question>['retrieve'];
  runtime.describe(name, () => {
    questions.forEach((question, index) => {
      const settings: SuiteSettings<Question> = {
        where,
        runtime,
        retrieve,
        targets,
        matcherOptions,
        declaredAt,
        question,
      };
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
      if (typeof kind !== 'string' || kind === '')
        throw new TypeError(
          `${settings.where}: context.count(kind, n): kind must be a non-empty string such as 'rerank', got ${describeValue(kind)}.`,
        );
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
        throw new TypeError(
          `${settings.where}: context.count('${kind}', n): n must be a whole number ≥ 0, got ${describeValue(n)}.`,
        );
      calls.set(kind, (calls.get(kind) ?? 0) + n);
    },
  };
  const started = performance.now();
  const hits = await settings.retrieve(question.question as EvalQuery, context);
  const latencyMs = performance.now() - started;
  if (!Array.isArray(hits))
    throw new TypeError(
      `${settings.where}: retrieve must return the ranked hits (an array, rank 1 first) for question ${question.id}, got ${describeValue(hits)}.`,
    );
  runtime.recordCost({ latencyMs, calls: Object.fromEntries(calls) }, recording, question.id);
  // The tags engineer's matcher option `tags` goes here: `tags: question.tags` from the file's extra fields.
  const options = { ...settings.matcherOptions, queryId: question.id };
  assertTargets(hits, question.relevant, settings.targets, options);
}

/** Canonical measure name → floor; an array records every measure with floor 0. */
function readMeasures(measures: unknown, where: string): Record<string, number> {
  const example = `['hit@5', 'ndcg@10'] or { 'hit@5': 1, 'ndcg@10': 0.4 }`;
  const entries: [string, unknown][] = Array.isArray(measures)
    ? measures.map((name: unknown) => [name as string, 0])
    : measures !== null && typeof measures === 'object'
      ? Object.entries(measures)
      : [];
  if (entries.length === 0)
    throw new TypeError(
      `${where}: measures must name at least one measure: ${example}; got ${describeValue(measures)}.`,
    );
  const targets: Record<string, number> = {};
  for (const [name, floor] of entries) {
    let canonical: string;
    try {
      if (typeof name !== 'string') throw new TypeError(`a measure name must be a string, got ${describeValue(name)}`);
      canonical = formatMeasure(parseMeasure(name));
    } catch (error) {
      throw new RangeError(
        `${where}: measures: ${JSON.stringify(name)} does not name a measure: ${(error as Error).message}`,
      );
    }
    if (typeof floor !== 'number' || !Number.isFinite(floor) || floor < 0 || floor > 1)
      throw new RangeError(
        `${where}: measures[${JSON.stringify(name)}] must be a floor between 0 and 1 (0: recorded only), got ${describeValue(floor)}.`,
      );
    if (Object.hasOwn(targets, canonical))
      throw new RangeError(
        `${where}: measures name ${canonical} twice (${JSON.stringify(name)} is another spelling of it).`,
      );
    targets[canonical] = floor;
  }
  return targets;
}

function optionalNumber(
  value: unknown,
  what: string,
  expected: string,
  valid: (value: number) => boolean,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || !valid(value))
    throw new RangeError(`${what} must be ${expected}, got ${describeValue(value)}.`);
  return value;
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
