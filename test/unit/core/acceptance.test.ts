// The worked examples of the seed documents (../shared/seeds), exact to their printed digits.
import { describe, expect, it } from 'vitest';
import { evaluate, ndcgAtK, reciprocalRank } from '../../../src/index.js';

const round = (value: number, digits: number) => Number(value.toFixed(digits));

describe('AI4J RagEvaluator example (seed 000): hits a,b,c,d, relevant b,d, k=4', () => {
  const result = evaluate(['a', 'b', 'c', 'd'], ['b', 'd'], 4);

  it('precision@4 = 0.5, recall@4 = 1.0, F1 = 0.6667', () => {
    expect(result.precisionAtK).toBe(0.5);
    expect(result.recallAtK).toBe(1);
    expect(round(result.f1AtK, 4)).toBe(0.6667);
  });

  it('MRR = 0.5 and nDCG = 0.6509', () => {
    expect(result.reciprocalRankAtK).toBe(0.5);
    expect(round(result.ndcgAtK, 4)).toBe(0.6509);
  });

  it('reports the counts', () => {
    expect(result).toMatchObject({
      k: 4,
      evaluatedAtK: 4,
      retrievedCount: 4,
      relevantCount: 2,
      truePositiveCount: 2,
      duplicateCount: 0,
    });
    expect(result.unmatchedRelevantIds).toEqual([]);
  });
});

describe('Orders API example (seed 002): graded rate-limits 2, error-codes 1, k=3', () => {
  const ranked = ['error-codes', 'pagination', 'rate-limits', 'webhooks'];
  const relevant = { 'rate-limits': 2, 'error-codes': 1 };
  const result = evaluate(ranked, relevant, 3);

  it('P@3 = 0.667, recall@3 = 1.000, RR = 1.000', () => {
    expect(round(result.precisionAtK, 3)).toBe(0.667);
    expect(result.recallAtK).toBe(1);
    expect(result.reciprocalRankAtK).toBe(1);
  });

  it('DCG 2.000 / IDCG 2.631 = nDCG@3 0.760', () => {
    // DCG@3 = 1/log2(2) + 0/log2(3) + 2/log2(4) = 2.000; IDCG@3 = 2/log2(2) + 1/log2(3) = 2.631.
    expect(round(result.ndcgAtK, 3)).toBe(0.76);
    expect(round(2 / result.ndcgAtK, 3)).toBe(2.631);
  });
});

describe('four labelled questions of the RAG-metrics article (seed 001)', () => {
  const tests = [
    { relevant: ['authentication'], ranked: ['authentication', 'error-codes', 'rate-limits'] },
    { relevant: ['rate-limits'], ranked: ['pagination', 'rate-limits', 'webhooks'] },
    { relevant: ['pagination'], ranked: ['pagination', 'webhooks', 'authentication'] },
    { relevant: ['error-codes'], ranked: ['webhooks', 'authentication', 'pagination'] },
  ];
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

  it('hit rate@1 0.50, hit rate@3 0.75, MRR 0.625', () => {
    expect(mean(tests.map((q) => evaluate(q.ranked, q.relevant, 1).hitAtK))).toBe(0.5);
    expect(mean(tests.map((q) => evaluate(q.ranked, q.relevant, 3).hitAtK))).toBe(0.75);
    expect(mean(tests.map((q) => reciprocalRank(q.ranked, q.relevant)))).toBe(0.625);
  });

  it('with one relevant chunk per question, recall@k equals hit rate@k', () => {
    for (const k of [1, 2, 3]) {
      for (const q of tests)
        expect(evaluate(q.ranked, q.relevant, k).recallAtK).toBe(evaluate(q.ranked, q.relevant, k).hitAtK);
    }
  });
});

describe('textbook chapter (seed 003)', () => {
  it('relevance 0 1 0 1 0 with 3 relevant: DCG@5 1.062, IDCG 2.131, nDCG@5 0.498', () => {
    const ranked = ['d1', 'd2', 'd3', 'd4', 'd5'];
    const relevant = ['d2', 'd4', 'd9'];
    const ndcg = ndcgAtK(ranked, relevant, 5);
    expect(round(ndcg, 3)).toBe(0.498);
    // DCG@5 = 1/log2(3) + 1/log2(5) = 1.062 and IDCG@5 = 1 + 1/log2(3) + 1/log2(4) = 2.131.
    expect(round(ndcg * 2.1309297535714578, 3)).toBe(1.062);
  });

  it('first relevant at ranks 1, 3, none, 2 → MRR 0.458', () => {
    const lists = [
      { hits: ['r', 'a', 'b'], relevant: ['r'] },
      { hits: ['a', 'b', 'r'], relevant: ['r'] },
      { hits: ['a', 'b', 'c'], relevant: ['r'] },
      { hits: ['a', 'r', 'b'], relevant: ['r'] },
    ];
    const mrr =
      lists.map((q) => reciprocalRank(q.hits, q.relevant)).reduce((sum, value) => sum + value, 0) / lists.length;
    expect(round(mrr, 3)).toBe(0.458);
  });
});
