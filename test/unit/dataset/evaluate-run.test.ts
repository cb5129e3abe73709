import { describe, expect, it } from 'vitest';
import { evaluateRun, measureValues, rankTrecRun } from '../../../src/dataset/evaluate-run.js';
import { parseRun, type Qrels } from '../../../src/trec/index.js';
import type { EvalSet } from '../../../src/dataset/jsonl.js';

// The Orders API example (seed 001): four labelled questions and the retriever's ranked chunks.
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

describe('evaluateRun', () => {
  it('reproduces the four-question example: hit@1 0.50, hit@3 0.75, MRR 0.625', () => {
    const result = evaluateRun(ordersSet, ordersRun, { measures: ['hit@1', 'Success@3', 'RR'] });
    expect(result.measures).toEqual(['hit@1', 'hit@3', 'mrr']);
    expect(result.mean).toEqual({ 'hit@1': 0.5, 'hit@3': 0.75, mrr: 0.625 });
    expect(result.queryIds).toEqual(['auth', 'limits', 'paging', '404']);
    expect(result.perQuery['limits']).toEqual({ 'hit@1': 0, 'hit@3': 1, mrr: 0.5 });
    expect(result.queries).toEqual({ evaluated: 4, unjudged: [], missing: [], runOnly: [] });
    expect(measureValues(result, 'mrr')).toEqual([1, 0.5, 1, 0]);
  });

  it('applies the textbook MRR: first relevant at ranks 1, 3, nowhere, 2 → 0.458', () => {
    const set: EvalSet = ['a', 'b', 'c', 'd'].map((id) => ({ id, query: '', relevant: ['r'] }));
    const run = { a: ['r', 'x'], b: ['x', 'y', 'r'], c: ['x'], d: ['x', 'r'] };
    expect(evaluateRun(set, run, { measures: ['mrr'] }).mean['mrr']).toBeCloseTo(0.4583, 4);
  });

  it('follows trec_eval query rules: unjudged listed, no-relevant scores 0, missing scores 0, run-only listed', () => {
    const set: EvalSet = [
      { id: 'ok', query: '', relevant: { a: 2 } },
      { id: 'no-answer', query: '', relevant: [] },
      { id: 'none-relevant', query: '', relevant: { a: 0, b: 0 } },
      { id: 'not-retrieved', query: '', relevant: ['a'] },
    ];
    const run = { ok: ['a'], 'no-answer': ['a'], 'none-relevant': ['a', 'b'], extra: ['a'] };
    const result = evaluateRun(set, run, { measures: ['recall@5', 'ndcg@5'] });
    expect(result.queryIds).toEqual(['ok', 'none-relevant', 'not-retrieved']);
    expect(result.perQuery['none-relevant']).toEqual({ 'recall@5': 0, 'ndcg@5': 0 });
    expect(result.perQuery['not-retrieved']).toEqual({ 'recall@5': 0, 'ndcg@5': 0 });
    expect(result.mean['recall@5']).toBeCloseTo(1 / 3, 12);
    expect(result.queries).toEqual({
      evaluated: 3,
      unjudged: ['no-answer'],
      missing: ['not-retrieved'],
      runOnly: ['extra'],
    });
  });

  it("missing: 'skip' leaves missing queries out of the means; 'error' names them", () => {
    const set: EvalSet = [
      { id: 'q1', query: '', relevant: ['a'] },
      { id: 'q2', query: '', relevant: ['a'] },
    ];
    const skipped = evaluateRun(set, { q1: ['a'] }, { measures: ['hit@1'], missing: 'skip' });
    expect(skipped.mean['hit@1']).toBe(1);
    expect(skipped.queries).toMatchObject({ evaluated: 1, missing: ['q2'] });
    expect(() => evaluateRun(set, { q1: ['a'] }, { measures: ['hit@1'], missing: 'error' })).toThrow(
      /1 judged query is missing from the run \(q2\)/,
    );
    expect(() => evaluateRun(set, { q1: ['a'] }, { measures: ['hit@1'], missing: 'never' as 'skip' })).toThrow(
      /'zero', 'skip' or 'error'/,
    );
  });

  it('takes TREC qrels, graded judgments and minGrade, as trec_eval -l does', () => {
    const qrels: Qrels = new Map([
      [
        'q1',
        new Map([
          ['d1', 1],
          ['d2', 2],
        ]),
      ],
      ['q2', new Map([['d3', 1]])],
    ]);
    const run = new Map([
      ['q1', ['d1', 'd2']],
      ['q2', ['d3']],
    ]);
    const result = evaluateRun(qrels, run, { measures: ['P_1', 'recall_2'], minGrade: 2 });
    expect(result.perQuery['q1']).toEqual({ 'precision@1': 0, 'recall@2': 1 });
    // q2 is judged but holds no relevant id at level 2: it scores 0 and counts.
    expect(result.perQuery['q2']).toEqual({ 'precision@1': 0, 'recall@2': 0 });
    expect(result.queries.evaluated).toBe(2);
  });

  it('ranks a TREC run as trec_eval does (score descending, ties by doc id descending)', () => {
    const run = parseRun('q1 Q0 b 1 1.0 t\nq1 Q0 a 2 2.0 t\nq1 Q0 c 3 1.0 t\n');
    const ranked = rankTrecRun(run);
    expect(ranked.get('q1')?.map((hit) => hit.id)).toEqual(['a', 'c', 'b']);
    const result = evaluateRun(new Map([['q1', new Map([['c', 1]])]]), ranked, { measures: ['mrr'] });
    expect(result.mean['mrr']).toBe(0.5);
  });

  it('passes core options (granularity) to every query', () => {
    const set: EvalSet = [{ id: 'q', query: '', relevant: ['doc-1'] }];
    const run = { q: ['doc-2#chunk-0', 'doc-1#chunk-3'] };
    expect(evaluateRun(set, run, { measures: ['mrr'] }).mean['mrr']).toBe(0);
    expect(evaluateRun(set, run, { measures: ['mrr'], granularity: 'document' }).mean['mrr']).toBe(0.5);
  });

  it('gives NaN means when no query was evaluated', () => {
    const result = evaluateRun([{ id: 'q', query: '', relevant: [] }], {}, { measures: ['mrr'] });
    expect(result.mean['mrr']).toBeNaN();
    expect(result.queries).toEqual({ evaluated: 0, unjudged: ['q'], missing: [], runOnly: [] });
  });

  it('keeps query ids such as __proto__ and numeric ids as data', () => {
    const set: EvalSet = [
      { id: '__proto__', query: '', relevant: ['a'] },
      { id: '10', query: '', relevant: ['a'] },
      { id: '2', query: '', relevant: ['a'] },
    ];
    const result = evaluateRun(
      set,
      new Map([
        ['__proto__', ['a']],
        ['10', []],
        ['2', ['a']],
      ]),
      { measures: ['hit@1'] },
    );
    expect(result.perQuery['__proto__']).toEqual({ 'hit@1': 1 });
    expect(result.queryIds).toEqual(['__proto__', '10', '2']);
  });

  it('rejects bad input with messages that say what to pass', () => {
    expect(() => evaluateRun(ordersSet, ordersRun, { measures: [] })).toThrow(/non-empty array such as \['recall@5'/);
    expect(() => evaluateRun(ordersSet, ordersRun, { measures: ['recall'] })).toThrow(/recall needs a cutoff/);
    expect(() => evaluateRun(ordersSet, 'run' as never, { measures: ['mrr'] })).toThrow(
      /run must be a Map or an object/,
    );
    expect(() =>
      evaluateRun(
        [
          { id: 'a', query: '', relevant: ['x'] },
          { id: 'a', query: '', relevant: ['y'] },
        ],
        {},
        { measures: ['mrr'] },
      ),
    ).toThrow(/repeats the query id 'a'/);
    expect(() => evaluateRun(ordersSet, { auth: 'authentication' } as never, { measures: ['mrr'] })).toThrow(
      /query 'auth': hits must be an array/,
    );
    expect(() => measureValues(evaluateRun(ordersSet, ordersRun, { measures: ['mrr'] }), 'ndcg@10')).toThrow(
      /'ndcg@10' was not evaluated/,
    );
  });
});
