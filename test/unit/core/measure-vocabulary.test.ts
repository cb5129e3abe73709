// One measure vocabulary: evaluate() returns every measure of the table under its canonical name in
// `values`, and its named fields (the former names included, deprecated) are read from `values`
// (src/core/measure-fields.ts). Numbers worked by hand on the AI4J example: hits a, b, c, d; relevant b, d; k = 4.
import { describe, expect, it } from 'vitest';
import { evaluate, MEASURE_NAMES } from '../../../src/core/index.js';

const HITS = ['a', 'b', 'c', 'd'];
const RELEVANT = ['b', 'd'];

describe('evaluate().values', () => {
  it('holds every measure of the table by its canonical name, in table order', () => {
    expect(Object.keys(evaluate(HITS, RELEVANT, 4).values)).toEqual([...MEASURE_NAMES]);
  });

  it('gives the hand-worked values at k', () => {
    const { values } = evaluate(HITS, RELEVANT, 4);
    expect(values.hit).toBe(1);
    expect(values.precision).toBe(0.5); // 2 relevant in the top 4 ÷ 4
    expect(values.recall).toBe(1); // 2 ÷ R = 2
    expect(values.f1).toBeCloseTo(2 / 3, 12);
    expect(values.mrr).toBe(0.5); // first relevant at rank 2
    // DCG = 1/log2(3) + 1/log2(5) = 1.0616; IDCG = 1 + 1/log2(3) = 1.6309
    expect(values.ndcg).toBeCloseTo(0.6509209298, 9);
    expect(values.map).toBe(0.5); // (1/2 + 2/4) ÷ 2
    expect(values.judged).toBe(0.5); // 2 judged of the 4 hits
    expect(values.rprec).toBe(0.5); // 1 relevant in the top R = 2
    expect(values.bpref).toBe(1); // no judged non-relevant id ranks above either relevant one
  });

  it('reads the measures that take no cutoff over the whole list, whatever k', () => {
    const { values } = evaluate(HITS, RELEVANT, 1);
    expect(values.recall).toBe(0); // a alone in the top 1
    expect(values.rprec).toBe(0.5);
    expect(values.bpref).toBe(1);
  });
});

describe('the named fields', () => {
  const result = evaluate(HITS, RELEVANT, 4);

  it('hold the value of their measure in values', () => {
    const measureOfField = {
      hitAtK: 'hit',
      precisionAtK: 'precision',
      recallAtK: 'recall',
      f1AtK: 'f1',
      reciprocalRankAtK: 'mrr',
      ndcgAtK: 'ndcg',
      averagePrecisionAtK: 'map',
      judgedAtK: 'judged',
      rPrecision: 'rprec',
      bpref: 'bpref',
    } as const;
    // Graded judgments, a cutoff, a repeated hit and an unjudged one.
    const graded = evaluate(['n', 'a', 'x', 'a', 'b'], { a: 2, b: 1, c: 1, n: 0 }, 3);
    const record = graded as unknown as Record<string, unknown>;
    for (const [field, measure] of Object.entries(measureOfField)) {
      expect(record[field], field).toBe(graded.values[measure]);
    }
    const numberFields = Object.keys(graded).filter((key) => typeof record[key] === 'number');
    const counts = ['k', 'evaluatedAtK', 'retrievedCount', 'relevantCount', 'truePositiveCount', 'duplicateCount'];
    expect(numberFields.sort()).toEqual([...counts, ...Object.keys(measureOfField)].sort());
  });

  it('end in AtK for every measure read at k; the former names are gone', () => {
    expect(result.ndcgAtK).toBeCloseTo(0.6509209298, 9);
    expect(result.reciprocalRankAtK).toBe(0.5);
    expect(result.averagePrecisionAtK).toBe(0.5);
    // The former names (mrr, ndcg, averagePrecision) went before 0.1.0.
    const record = result as unknown as Record<string, unknown>;
    expect([record.mrr, record.ndcg, record.averagePrecision]).toEqual([undefined, undefined, undefined]);
  });
});
