// judged@k, ir_measures' Judged@k: the judged hits in the top k ÷ the hits there, min(k, retrieved).
// Every expected value is worked out by hand in the comment beside it.
import { describe, expect, it } from 'vitest';
import { evaluate, evaluateMeasures, evaluateRun, isBinaryMeasure, parseMeasure } from '../../../src/index.js';

const measuresOf = (...names: string[]) => names.map(parseMeasure);

describe('judged@k on hand-worked rankings', () => {
  it("ir_measures' own case (its tests/test_judged.py), each query's run in score order", () => {
    // Query 0: D0 D2 D3 D1 D4, all five judged (D0 and D4 with grade 0): 1 at every cutoff.
    const query0 = { D0: 0, D1: 1, D2: 1, D3: 2, D4: 0 };
    expect(
      evaluateMeasures(['D0', 'D2', 'D3', 'D1', 'D4'], query0, measuresOf('judged', 'judged@1000', 'judged@3')),
    ).toEqual({ judged: 1, 'judged@1000': 1, 'judged@3': 1 });
    // Query 1: D1 D3 D2 D4, only D3 judged. Whole list and @1000, @10: 1 ÷ min(k, 4) = 1/4;
    // @3 (D1 D3 D2): 1/3; @1 (D1): 0/1.
    const query1 = { D0: 1, D3: 2, D5: 2 };
    expect(
      evaluateMeasures(
        ['D1', 'D3', 'D2', 'D4'],
        query1,
        measuresOf('Judged', 'Judged@1000', 'Judged@10', 'Judged@3', 'Judged@1'),
      ),
    ).toEqual({ judged: 1 / 4, 'judged@1000': 1 / 4, 'judged@10': 1 / 4, 'judged@3': 1 / 3, 'judged@1': 0 });
  });

  it('fewer hits than k: divides by the hits returned, not by k', () => {
    // a judged (grade 0), u not: 1 ÷ min(10, 2) = 1/2, where precision@10 is 0 ÷ 10.
    expect(evaluateMeasures(['a', 'u'], { a: 0 }, measuresOf('judged@10', 'precision@10'))).toEqual({
      'judged@10': 0.5,
      'precision@10': 0,
    });
  });

  it('no hits: 0 at every cutoff and uncut, never NaN', () => {
    expect(evaluateMeasures([], { a: 1 }, measuresOf('judged@5', 'judged'))).toEqual({ 'judged@5': 0, judged: 0 });
    expect(evaluate([], { a: 1 }, 5).judgedAtK).toBe(0);
    expect(evaluate([], [], 5).judgedAtK).toBe(0);
  });

  it('a judgment of any grade makes a hit judged: 0 and negative grades too', () => {
    // n (0), m (−1) and r (2) are judged, u is not: 3/4; only r is relevant: precision@4 = 1/4.
    const relevant = { r: 2, n: 0, m: -1 };
    expect(evaluateMeasures(['n', 'm', 'u', 'r'], relevant, measuresOf('judged@4', 'precision@4'))).toEqual({
      'judged@4': 3 / 4,
      'precision@4': 1 / 4,
    });
  });

  it('arrays and Sets of ids judge only their ids; Maps and objects judge their grade-0 ids as well', () => {
    const hits = ['n', 'r', 'u'];
    // Ids only: r is judged, n and u are not: 1/3.
    expect(evaluate(hits, ['r'], 3).judgedAtK).toBeCloseTo(1 / 3, 15);
    expect(evaluate(hits, new Set(['r']), 3).judgedAtK).toBeCloseTo(1 / 3, 15);
    // n judged with grade 0, r with 1: 2/3.
    expect(evaluate(hits, { r: 1, n: 0 }, 3).judgedAtK).toBeCloseTo(2 / 3, 15);
    expect(
      evaluate(
        hits,
        new Map([
          ['r', 1],
          ['n', 0],
        ]),
        3,
      ).judgedAtK,
    ).toBeCloseTo(2 / 3, 15);
  });

  it('a repeated hit takes its slot and is not judged again', () => {
    // a, a (repeat), u, b: a and b are judged first sightings: 2/4; at 2 (a, a): 1/2.
    const values = evaluateMeasures(['a', 'a', 'u', 'b'], { a: 1, b: 0 }, measuresOf('judged@4', 'judged@2'));
    expect(values).toEqual({ 'judged@4': 0.5, 'judged@2': 0.5 });
    expect(() => evaluateMeasures(['a', 'a'], { a: 1 }, measuresOf('judged@2'), { duplicates: 'error' })).toThrow(
      /hits\[1\] repeats the key "a"/,
    );
  });

  it("granularity 'document': chunks collapse to their document first, and documents are what is counted", () => {
    const hits = [
      { documentId: 'doc-1', chunkIndex: 0 },
      { documentId: 'doc-1', chunkIndex: 3 },
      { documentId: 'doc-2', chunkIndex: 0 },
    ];
    // Documents doc-1 (judged, grade 0) and doc-2: 1 ÷ min(3, 2) = 1/2.
    expect(evaluate(hits, { 'doc-1': 0 }, { k: 3, granularity: 'document' }).judgedAtK).toBe(0.5);
    // At chunk level no key (doc-1#chunk-0, …) is judged: 0/3.
    expect(evaluate(hits, { 'doc-1': 0 }, 3).judgedAtK).toBe(0);
  });

  it('evaluate(): judgedAtK at k, and over the whole list when k is omitted', () => {
    // a (judged), u, v, b (judged): at 2, 1/2; whole list, 2/4.
    expect(evaluate(['a', 'u', 'v', 'b'], ['a', 'b'], 2).judgedAtK).toBe(0.5);
    expect(evaluate(['a', 'u', 'v', 'b'], ['a', 'b']).judgedAtK).toBe(0.5);
    // a, b, u: at 2 both judged (1), whole list 2/3.
    expect(evaluate(['a', 'b', 'u'], ['a', 'b'], 2).judgedAtK).toBe(1);
    expect(evaluate(['a', 'b', 'u'], ['a', 'b']).judgedAtK).toBeCloseTo(2 / 3, 15);
  });

  it('evaluateRun: a judged query missing from the run scores 0 and counts in the mean', () => {
    const set = [
      { id: 'q1', query: '', relevant: { a: 1, b: 0 } },
      { id: 'q2', query: '', relevant: ['x'] },
    ];
    // q1: a, b both judged → 1; q2 has no hits → 0. Mean (1 + 0) / 2 = 0.5.
    const result = evaluateRun(set, { q1: ['a', 'b'] }, { measures: ['judged@2'] });
    expect(result.perQuery).toEqual({ q1: { 'judged@2': 1 }, q2: { 'judged@2': 0 } });
    expect(result.mean).toEqual({ 'judged@2': 0.5 });
  });
});

describe('judged@k names (its spellings are in measures.test.ts)', () => {
  it('a cutoff that is not a positive whole number is an error naming the measure', () => {
    expect(() => parseMeasure('judged@0')).toThrow(
      'measure "judged@0" is not valid: the cutoff "0" must be a positive whole number.',
    );
    expect(() => parseMeasure('judged@ten')).toThrow('the cutoff "ten" must be a positive whole number');
  });

  it('is not binary (its mean is no proportion), and the list of valid forms shows it', () => {
    expect(isBinaryMeasure(parseMeasure('judged@5'))).toBe(false);
    expect(() => parseMeasure('judgd@5')).toThrow(
      /unknown measure "judgd" \(did you mean "judged@5"\?\)\. Valid forms: .*judged, judged@k/,
    );
    expect(() => parseMeasure('judgd@5')).toThrow(/ir_measures .*Judged@10/);
  });
});
