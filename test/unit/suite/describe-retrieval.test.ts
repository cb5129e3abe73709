// describeRetrieval against a fake runner: what it declares (names, known misses, timeout, concurrency),
// what each question's test hands to the cost recording (latency, calls by kind; also when the floor
// fails; nothing when retrieve throws), what it asserts, and its option errors.
import { afterEach, describe, expect, it } from 'vitest';
import { describeRetrieval } from '../../../src/suite/describe-retrieval.js';
import {
  registerSuiteRuntime,
  type QuestionPlace,
  type QuestionTestOptions,
  type SuiteRuntime,
} from '../../../src/suite/runtime.js';
import type { RetrievalCost } from '../../../src/recording/cost.js';

interface Declared {
  name: string;
  options: QuestionTestOptions;
  body: (testContext: unknown) => Promise<void>;
}

interface FakeRunner {
  suites: string[];
  tests: Declared[];
  costs: { cost: RetrievalCost; queryId: string }[];
  assertions: { hits: unknown; relevant: unknown; targets: unknown; options: unknown }[];
  places: QuestionPlace[];
}

/** Registers a runner that records what describeRetrieval declares; `fail` makes the assertion throw for those ids. */
function fakeRunner(fail: readonly string[] = []): FakeRunner {
  const runner: FakeRunner = { suites: [], tests: [], costs: [], assertions: [], places: [] };
  const runtime: SuiteRuntime = {
    runner: 'vitest',
    describe(name, body) {
      runner.suites.push(name);
      body();
    },
    test(name, body, options) {
      runner.tests.push({ name, body, options });
    },
    running: () => ({
      assertTargets(hits, relevant, targets, options) {
        runner.assertions.push({ hits, relevant, targets, options });
        if (fail.includes((options as { queryId: string }).queryId)) throw new Error('below the floor');
      },
      recording: {},
    }),
    recordCost(cost, _context, queryId) {
      runner.costs.push({ cost, queryId });
    },
    placeQuestion(_context, place) {
      runner.places.push(place);
    },
  };
  registerSuiteRuntime(runtime);
  return runner;
}

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('rag-matchers.suite-runtime')];
});

const QUESTIONS = [
  { id: 'q1', query: 'refund window?', relevant: ['refunds'], tags: ['billing'] },
  { id: 'q2', query: 'rate limit?', relevant: { 'rate-limits': 2 }, expect: 'miss' },
  { id: 'q3', query: 'refund window?', relevant: ['refunds'] },
];

describe('describeRetrieval', () => {
  it('declares one describe and one test per question, by text, known misses marked, options passed on', () => {
    const runner = fakeRunner();
    describeRetrieval('faq', {
      questions: QUESTIONS,
      retrieve: () => [],
      measures: ['hit@5'],
      timeout: 2000,
      concurrency: 3,
    });
    expect(runner.suites).toEqual(['faq']);
    expect(runner.tests.map((test) => [test.name, test.options])).toEqual([
      ['refund window? (q1)', { knownMiss: false, concurrent: true, timeout: 2000 }],
      ['rate limit?', { knownMiss: true, concurrent: true, timeout: 2000 }],
      ['refund window? (q3)', { knownMiss: false, concurrent: true, timeout: 2000 }],
    ]);
  });

  it('times retrieve, counts its calls by kind, records the cost under the question id, then asserts the floors', async () => {
    const runner = fakeRunner(['q1']);
    const seen: unknown[] = [];
    describeRetrieval('faq', {
      questions: QUESTIONS,
      retrieve: async (question, context) => {
        seen.push(question);
        context.count('embed');
        context.count('rerank', 2);
        context.count('rerank');
        await new Promise((resolve) => setTimeout(resolve, 30));
        return ['refunds', 'returns'];
      },
      measures: { 'hit@5': 1, ndcg_cut_10: 0 },
      granularity: 'document',
      latency: { p95: 300 },
    });
    // q1 fails its floor: the cost is recorded all the same, before the assertion throws.
    await expect(runner.tests[0]!.body({})).rejects.toThrow('below the floor');
    await runner.tests[2]!.body({});
    expect(seen).toEqual([QUESTIONS[0], QUESTIONS[2]]);
    expect(runner.costs.map(({ queryId, cost }) => [queryId, cost.calls])).toEqual([
      ['q1', { embed: 1, rerank: 3 }],
      ['q3', { embed: 1, rerank: 3 }],
    ]);
    for (const { cost } of runner.costs) {
      expect(cost.latencyBudget).toEqual({ p95: 300 });
      expect(cost.latencyMs).toBeGreaterThanOrEqual(25);
      expect(cost.latencyMs).toBeLessThan(5000);
    }
    expect(runner.assertions[0]).toEqual({
      hits: ['refunds', 'returns'],
      relevant: ['refunds'],
      targets: { 'hit@5': 1, 'ndcg@10': 0 },
      // q1's tags from the file are passed as the matchers' tags option; the suite's latency budget is not a matcher option.
      options: { granularity: 'document', queryId: 'q1', tags: ['billing'] },
    });
    expect(runner.assertions[1]!.options).toEqual({ granularity: 'document', queryId: 'q3' });
  });

  it('a retrieve that throws fails its question and records no cost; one that returns no array says so', async () => {
    const runner = fakeRunner();
    describeRetrieval('faq', {
      questions: QUESTIONS,
      retrieve: (question) => {
        if (question.id === 'q1') throw new Error('index offline');
        return 'not hits' as never;
      },
      measures: ['hit@5'],
    });
    await expect(runner.tests[0]!.body({})).rejects.toThrow('index offline');
    await expect(runner.tests[1]!.body({})).rejects.toThrow(
      `describeRetrieval("faq"): retrieve must return an array of hits for q2, got "not hits".`,
    );
    expect(runner.costs).toEqual([]);
    expect(runner.assertions).toEqual([]);
  });

  it('places a question given in an array at the stack of its describeRetrieval call', async () => {
    const runner = fakeRunner();
    describeRetrieval('faq', { questions: QUESTIONS.slice(0, 1), retrieve: () => [], measures: ['hit@5'] });
    await runner.tests[0]!.body({});
    expect(runner.places).toHaveLength(1);
    expect((runner.places[0] as { declaredAt: string }).declaredAt).toContain('describe-retrieval.test.ts');
  });

  it('runs at most `concurrency` questions at once', async () => {
    const runner = fakeRunner();
    let running = 0;
    let most = 0;
    const questions = Array.from({ length: 6 }, (_, index) => ({
      id: `q${index}`,
      query: `q${index}`,
      relevant: ['d'],
    }));
    describeRetrieval('faq', {
      questions,
      retrieve: async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running--;
        return [];
      },
      measures: ['hit@5'],
      concurrency: 2,
    });
    await Promise.all(runner.tests.map((test) => test.body({})));
    expect(most).toBe(2);
  });

  it('refuses a latency budget that is not one, naming the suite and the option', () => {
    fakeRunner();
    expect(() =>
      describeRetrieval('faq', {
        questions: QUESTIONS,
        retrieve: () => [],
        measures: ['hit@5'],
        latency: 300 as never,
      }),
    ).toThrow('describeRetrieval("faq"): options.latency must be an object of milliseconds such as { p95: 300 }');
  });

  it('refuses bad options, naming the suite and the option', () => {
    fakeRunner();
    const base = { questions: QUESTIONS, retrieve: () => [], measures: ['hit@5'] as const };
    const refused = (name: string, options: object) => () => describeRetrieval(name, options as typeof base);
    expect(refused('', base)).toThrow(`describeRetrieval(""): name must be the suite's title, got "".`);
    expect(refused('faq', { ...base, retrieve: 'x' })).toThrow(
      'describeRetrieval("faq"): retrieve must be a function (question, context) => hits, got "x".',
    );
    expect(refused('faq', { ...base, measures: [] })).toThrow(
      `describeRetrieval("faq"): measures must name some, as ['hit@5'] or { 'hit@5': 1 }, got an array of 0.`,
    );
    expect(refused('faq', { ...base, measures: 'hit@5' })).toThrow(`describeRetrieval("faq"): measures must name some`);
    expect(refused('faq', { ...base, measures: ['hit@'] })).toThrow(
      /^describeRetrieval\("faq"\): measures: .*, got "hit@"\.$/,
    );
    expect(refused('faq', { ...base, measures: { 'hit@5': 2 } })).toThrow(
      `describeRetrieval("faq"): measures['hit@5'] must be a floor from 0 to 1, got 2.`,
    );
    expect(refused('faq', { ...base, measures: { 'ndcg@10': 0, ndcg_cut_10: 0 } })).toThrow(
      'describeRetrieval("faq"): measures name ndcg@10 twice, got "ndcg_cut_10".',
    );
    expect(refused('faq', { ...base, concurrency: 1.5 })).toThrow(
      'describeRetrieval("faq"): concurrency must be a whole number ≥ 1, got 1.5.',
    );
    expect(refused('faq', { ...base, timeout: 0 })).toThrow(
      'describeRetrieval("faq"): timeout must be a number of milliseconds above 0, got 0.',
    );
    expect(refused('faq', { ...base, filter: () => false })).toThrow(
      'describeRetrieval("faq"): filter must keep some question, got',
    );
  });

  it('says which setup file is missing when no runner registered', () => {
    expect(() => describeRetrieval('faq', { questions: QUESTIONS, retrieve: () => [], measures: ['hit@5'] })).toThrow(
      `describeRetrieval("faq"): no test runner set up for rag-matchers. Load its setup file: Vitest setupFiles: ['rag-matchers/vitest'], Jest setupFilesAfterEnv: ['rag-matchers/jest'].`,
    );
  });
});
