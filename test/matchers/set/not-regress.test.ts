import { describe, expect, it } from 'vitest';
import { evaluateRun } from '../../../src/dataset/evaluate-run.js';
import type { EvalSet } from '../../../src/dataset/jsonl.js';
import { TASK_META_KEY, type MetricSample } from '../../../src/recording/sample.js';
import { toNotRegressFrom } from '../../../matchers/toNotRegressFrom.js';
import { failureOf } from '../helpers.js';

// Twelve questions, one relevant chunk each. BM25 finds it at rank 1 for q1–q8 and rank 2 for the
// rest; the "reranker" moves five of the rank-1 answers down to rank 3.
const set: EvalSet = Array.from({ length: 12 }, (_, index) => ({
  id: `q${index + 1}`,
  query: `question ${index + 1}`,
  relevant: ['gold'],
}));
const bm25Run = Object.fromEntries(
  set.map((query, index) => [query.id, index < 8 ? ['gold', 'x', 'y'] : ['x', 'gold', 'y']]),
);
const rerankedRun = Object.fromEntries(
  set.map((query, index) => [query.id, index < 5 ? ['x', 'y', 'gold'] : bm25Run[query.id]!]),
);
const measures = ['ndcg@10', 'hit@3'];
const bm25 = evaluateRun(set, bm25Run, { measures });
const reranked = evaluateRun(set, rerankedRun, { measures });

describe('toNotRegressFrom', () => {
  it('passes when nothing got worse, fails when a mean fell beyond the tolerance', () => {
    expect(bm25).toNotRegressFrom(bm25);
    expect(reranked).not.toNotRegressFrom(bm25);
    // hit@3 is unchanged: it passes on its own.
    expect(reranked).toNotRegressFrom(bm25, { measures: ['Success@3'] });
    // A tolerance wider than the drop lets it through.
    const drop = (bm25.mean['ndcg@10'] as number) - (reranked.mean['ndcg@10'] as number);
    expect(reranked).toNotRegressFrom(bm25, { tolerance: { 'ndcg@10': drop + 0.001 } });
    expect(reranked).not.toNotRegressFrom(bm25, { tolerance: drop - 0.001 });
  });

  it('with significance, a drop must also be significant: 5 losses of 5 give an exact sign-test p of 0.0625', () => {
    expect(reranked).not.toNotRegressFrom(bm25, { measures: ['ndcg@10'], test: 'sign', significance: 0.07 });
    expect(reranked).toNotRegressFrom(bm25, { measures: ['ndcg@10'], test: 'sign', significance: 0.05 });
  });

  it('shows the per-measure table and the questions that got worse', () => {
    expect(failureOf(() => expect(reranked).toNotRegressFrom(bm25, { test: 'sign' }))).toMatchInlineSnapshot(`
      "expect(result).toNotRegressFrom(baseline, options)

      ndcg@10 regressed: 0.877 → 0.6686 (-0.2083; tolerance 0.01)

      measure  baseline     now   change  wins/losses/ties       p  p (Holm)
      ndcg@10    0.8770  0.6686  -0.2083             0/5/7  0.0625    0.0625  ✗ regressed
      hit@3      1.0000  1.0000  +0.0000            0/0/12  1.0000    1.0000  ✓

      Questions that got worse on ndcg@10 (5, worst first):
        q1  1.00 → 0.50
        q2  1.00 → 0.50
        q3  1.00 → 0.50
        q4  1.00 → 0.50
        q5  1.00 → 0.50

      Paired on 12 queries.
      p: exact sign test; a regression is a drop of the mean beyond the tolerance."
    `);
  });

  it('with .not, says no measure fell', () => {
    expect(failureOf(() => expect(bm25).not.toNotRegressFrom(bm25))).toMatch(
      /^Expected a regression, but no measure fell beyond its tolerance \(ndcg@10 \+0\.00, hit@3 \+0\.00\)\.$/m,
    );
  });

  it('pairs on the queries both evaluated and says which were left out', () => {
    const fewer = evaluateRun(set.slice(0, 10), rerankedRun, { measures });
    const message = failureOf(() => expect(fewer).toNotRegressFrom(bm25));
    expect(message).toMatch(/^Paired on 10 queries; 2 only in the baseline \(q11, q12\)\.$/m);
  });

  it("takes the reporters' tolerance grammar: a default and per-measure overrides", () => {
    // nDCG@10 fell by 0.2083.
    expect(() => expect(reranked).toNotRegressFrom(bm25, { tolerance: { default: 0.3 } })).not.toThrow();
    expect(() => expect(reranked).toNotRegressFrom(bm25, { tolerance: { default: 0.3, 'hit@3': 0 } })).not.toThrow();
    expect(
      failureOf(() => expect(reranked).toNotRegressFrom(bm25, { tolerance: { default: 0.3, 'nDCG@10': 0 } })),
    ).toMatch(/ndcg@10 regressed: .*tolerance 0\.00\)/);
    expect(() => expect(reranked).toNotRegressFrom(bm25, { tolerance: { recal: 0 } })).toThrow(/tolerance\["recal"\]/);
  });

  it('rejects a baseline that is not an evaluation, unknown options and measures not in both', () => {
    expect(() => expect(reranked).toNotRegressFrom({ mean: 0.5 } as never)).toThrow(
      /baseline must be the result of evaluateRun/,
    );
    expect(() => expect(reranked).toNotRegressFrom(bm25, { tolerence: 0.1 } as never)).toThrow(
      /unknown option "tolerence"/,
    );
    expect(() => expect(reranked).toNotRegressFrom(bm25, { measures: ['mrr'] })).toThrow(
      /mrr is not in both evaluations/,
    );
    expect(() => expect(reranked).not.toNotRegressFrom(bm25, { significance: 5 })).toThrow(
      /significance must be a number strictly between 0 and 1/,
    );
  });

  it("records the received result's per-query values of the compared measures", () => {
    const meta: Record<string, unknown> = {};
    const result = toNotRegressFrom.call({ task: { meta } }, reranked, bm25, { measures: ['hit@3'] });
    expect(result.pass).toBe(true);
    const samples = meta[TASK_META_KEY] as MetricSample[];
    expect(samples).toHaveLength(12);
    expect(samples[0]).toEqual({ measure: 'hit@3', value: 1, pass: true, queryId: 'q1' });
  });
});
