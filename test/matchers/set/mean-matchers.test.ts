import { describe, expect, it } from 'vitest';
import { evaluateRun, type RunEvaluation } from '../../../src/dataset/evaluate-run.js';
import type { EvalSet } from '../../../src/dataset/jsonl.js';
import { TASK_META_KEY, type MetricSample } from '../../../src/recording/sample.js';
import { toHaveMeanAbove } from '../../../matchers/toHaveMeanAbove.js';
import { failureOf } from '../helpers.js';
import type { MeasureSpelling } from '../../../src/core/measures.js';

// The Orders API example (seed 001): hit@1 0.50, hit@3 0.75, MRR 0.625.
const ordersSet: EvalSet = [
  { id: 'auth', query: 'How do I authenticate to the Orders API?', relevant: ['authentication'] },
  { id: 'limits', query: 'How many requests per minute are allowed?', relevant: ['rate-limits'] },
  { id: 'paging', query: 'How do I get the next page of orders?', relevant: ['pagination'] },
  { id: '404', query: 'What does error 404 mean?', relevant: ['error-codes'] },
];
const ordersRun = {
  auth: ['authentication', 'error-codes', 'rate-limits'],
  limits: ['pagination', 'rate-limits', 'webhooks'],
  paging: ['pagination', 'webhooks', 'authentication'],
  '404': ['webhooks', 'authentication', 'pagination'],
};
const orders = evaluateRun(ordersSet, ordersRun, { measures: ['hit@1', 'hit@3', 'mrr', 'recall@3', 'ndcg', 'ndcg@3'] });

/** Ten questions, five answered at rank 1: hit@1 = 0.5 (Wilson 95%: [0.237, 0.763]). */
function halfHits(count = 10, hits = 5): RunEvaluation {
  const set: EvalSet = Array.from({ length: count }, (_, index) => ({
    id: `q${index + 1}`,
    query: '',
    relevant: ['a'],
  }));
  const run = Object.fromEntries(set.map((query, index) => [query.id, index < hits ? ['a'] : ['b']]));
  return evaluateRun(set, run, { measures: ['hit@1'] });
}

describe('set-level mean matchers pass and fail on the example values', () => {
  it('toHaveHitRateAtK, toHaveMrrAbove, toHaveMeanAbove on the four-question set', () => {
    expect(orders).toHaveHitRateAtK(1, 0.5);
    expect(orders).not.toHaveHitRateAtK(1, 0.51);
    expect(orders).toHaveHitRateAtK(3, 0.75);
    expect(orders).toHaveMrrAbove(0.625);
    expect(orders).not.toHaveMrrAbove(0.626);
    expect(orders).toHaveMeanAbove('RR', 0.625);
    expect(orders).toHaveMeanAbove('Success@3', 0.75);
    expect(orders).toHaveMeanRecallAtK(3, 0.75);
    expect(orders).not.toHaveMeanRecallAtK(3, 0.76);
  });

  it('toHaveMeanNdcgAbove uses the uncut nDCG, or ndcg@k with options.k', () => {
    const ndcg = orders.mean['ndcg'] as number;
    expect(orders).toHaveMeanNdcgAbove(ndcg);
    expect(orders).not.toHaveMeanNdcgAbove(ndcg + 0.001);
    expect(orders).toHaveMeanNdcgAbove(orders.mean['ndcg@3'] as number, { k: 3 });
  });

  it('with confidence, the lower bound must clear min: 5 of 10 has a Wilson 95% interval [0.237, 0.763]', () => {
    const result = halfHits();
    expect(result).toHaveHitRateAtK(1, 0.5);
    expect(result).toHaveHitRateAtK(1, 0.236, { confidence: 0.95 });
    expect(result).not.toHaveHitRateAtK(1, 0.238, { confidence: 0.95 });
    // 10 of 10 → [0.722, 1]: a perfect small set still cannot claim 0.8 at 95%.
    const perfect = halfHits(10, 10);
    expect(perfect).toHaveHitRateAtK(1, 0.72, { confidence: 0.95 });
    expect(perfect).not.toHaveHitRateAtK(1, 0.8, { confidence: 0.95 });
  });

  it('uses a Wilson interval when every value is 0 or 1, even for a graded measure', () => {
    // Two queries, both rr = 1: a bootstrap would say [1, 1]; Wilson for 2 of 2 says [0.34, 1].
    const result = evaluateRun(
      [
        { id: 'a', query: '', relevant: ['x'] },
        { id: 'b', query: '', relevant: ['x'] },
      ],
      { a: ['x'], b: ['x'] },
      { measures: ['mrr'] },
    );
    expect(result).toHaveMrrAbove(0.9);
    expect(result).not.toHaveMrrAbove(0.9, { confidence: 0.95 });
  });
});

describe('failure messages', () => {
  it('show the mean, the requirement, the lowest queries and the coverage', () => {
    const set: EvalSet = [
      ...ordersSet,
      { id: 'no-answer', query: 'Is there a GraphQL API?', relevant: [] },
      { id: 'webhooks', query: '', relevant: ['webhooks'] },
    ];
    const result = evaluateRun(set, { ...ordersRun, stale: ['x'] }, { measures: ['mrr'] });
    expect(failureOf(() => expect(result).toHaveMrrAbove(0.8))).toMatchInlineSnapshot(`
      "expect(result).toHaveMrrAbove(min, options)

      mean mrr = 0.50 over 5 queries, needs the mean ≥ 0.80

      Queries, lowest first:
        404       0.00
        webhooks  0.00
        limits    0.50
        auth      1.00
        paging    1.00

      Queries: 1 unjudged query not evaluated (no-answer); 1 missing from the run, scored 0 (webhooks); 1 run-only query ignored (stale)."
    `);
  });

  it('explain a mean that clears min while its lower bound does not', () => {
    expect(failureOf(() => expect(halfHits(10, 9)).toHaveHitRateAtK(1, 0.8, { confidence: 0.95 })))
      .toMatchInlineSnapshot(`
      "expect(result).toHaveHitRateAtK(k, min, options)

      mean hit@1 = 0.90 over 10 queries, needs the 95% lower bound ≥ 0.80

      95% interval [0.5958, 0.9821] (Wilson, 9 of 10): lower bound 0.5958
      The mean clears 0.80 but the lower bound does not: 10 queries are too few to tell. Add queries, or lower the bar.

      Queries, lowest first:
        q10  0.00
        q1   1.00
        q2   1.00
        q3   1.00
        q4   1.00
        q5   1.00
        q6   1.00
        q7   1.00
        q8   1.00
        q9   1.00"
    `);
  });

  it('name the bootstrap, its resamples and seed for graded measures', () => {
    const message = failureOf(() =>
      expect(orders).toHaveMeanNdcgAbove(0.9, { confidence: 0.9, resamples: 2000, seed: 7 }),
    );
    expect(message).toMatch(
      /^90% interval \[0\.\d+, [01]\.\d+\] \(bootstrap percentile, 2000 resamples, seed 7\): lower bound 0\.\d+$/m,
    );
  });

  it('with .not, say what was expected instead', () => {
    expect(failureOf(() => expect(orders).not.toHaveMrrAbove(0.6))).toMatch(
      /^mean mrr = 0\.625 over 4 queries, expected the mean < 0\.60$/m,
    );
  });

  it('list at most ten lowest queries', () => {
    const message = failureOf(() => expect(halfHits(30, 0)).toHaveHitRateAtK(1, 0.5));
    expect(message).toContain('Lowest 10 of 30 queries:');
    expect(message.match(/^ {2}q\d+ +0\.00$/gm)).toHaveLength(10);
  });
});

describe('usage errors fail the test with or without .not', () => {
  it.each([
    [
      'a measure that was not evaluated',
      () => expect(orders).toHaveMeanAbove('ndcg@10', 0.5),
      /ndcg@10 was not evaluated: the result has hit@1, hit@3, mrr, recall@3, ndcg, ndcg@3/,
    ],
    [
      'a received value that is not an evaluation',
      () => expect(['a', 'b']).toHaveMrrAbove(0.5),
      /received value must be the result of evaluateRun/,
    ],
    ['a threshold outside 0..1', () => expect(orders).not.toHaveMrrAbove(80), /min.*must be a number from 0 to 1/],
    [
      'a bad confidence',
      () => expect(orders).toHaveMrrAbove(0.5, { confidence: 95 }),
      /confidence.*between 0 and 1, e\.g\. 0\.95/,
    ],
    [
      'an unknown option',
      () => expect(orders).toHaveMrrAbove(0.5, { confidense: 0.95 } as never),
      /unknown option "confidense"/,
    ],
    ['a bad k', () => expect(orders).toHaveHitRateAtK(0, 0.5), /k.*must be a positive whole number/],
    [
      'a bad measure name',
      () => expect(orders).toHaveMeanAbove('recall' as MeasureSpelling, 0.5),
      /recall needs a cutoff/,
    ],
    [
      'an evaluation with no query',
      () => expect(evaluateRun([], {}, { measures: ['mrr'] })).toHaveMrrAbove(0.5),
      /no query was evaluated/,
    ],
  ])('%s', (_, assertion, pattern) => {
    expect(assertion).toThrow(pattern);
  });
});

describe('recording', () => {
  it('records every evaluated query as a sample, so the suite average equals the set mean', () => {
    const meta: Record<string, unknown> = {};
    const result = toHaveMeanAbove.call({ task: { meta } }, orders, 'mrr', 0.5);
    expect(result.pass).toBe(true);
    const samples = meta[TASK_META_KEY] as MetricSample[];
    expect(samples).toEqual([
      { measure: 'mrr', value: 1, threshold: 0.5, pass: true, queryId: 'auth' },
      { measure: 'mrr', value: 0.5, threshold: 0.5, pass: true, queryId: 'limits' },
      { measure: 'mrr', value: 1, threshold: 0.5, pass: true, queryId: 'paging' },
      { measure: 'mrr', value: 0, threshold: 0.5, pass: true, queryId: '404' },
    ]);
    const average = samples.reduce((sum, sample) => sum + sample.value, 0) / samples.length;
    expect(average).toBe(orders.mean['mrr']);
  });

  it('records pass as the assertion outcome under .not', () => {
    const meta: Record<string, unknown> = {};
    toHaveMeanAbove.call({ task: { meta }, isNot: true }, orders, 'mrr', 0.9);
    expect((meta[TASK_META_KEY] as MetricSample[]).every((sample) => sample.pass && sample.negated)).toBe(true);
  });
});
