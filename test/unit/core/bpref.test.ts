// bpref (trec_eval's definition), worked by hand and checked against trec_eval 10 on the same
// judgments and rankings (`trec_eval -q -m bpref [-l2]`: q1 0.3333, q2 0.0000, q3 0.6667; -l2 q3 0.2500).
import { describe, expect, it } from 'vitest';
import { evaluate, evaluateMeasures, parseMeasure } from '../../../src/index.js';

const bprefOf = (hits: string[], relevant: Record<string, number>, minGrade = 1) => {
  const viaEvaluate = evaluate(hits, relevant, { minGrade }).bpref;
  const viaMeasures = evaluateMeasures(hits, relevant, [parseMeasure('bpref')], { minGrade }).bpref;
  expect(viaMeasures).toBe(viaEvaluate);
  return viaEvaluate;
};

describe('bpref', () => {
  it('counts the judged non-relevant ids ranked above each relevant one, out of min(R, N)', () => {
    // R = 3, N = 3. r1 has 1 non-relevant above: 1 − 1/3; r2 has 2: 1 − 2/3; r3 is not retrieved: 0.
    // Unjudged u1 changes nothing. (2/3 + 1/3) / 3 = 1/3.
    const relevant = { r1: 1, r2: 1, r3: 1, n1: 0, n2: 0, n3: 0 };
    expect(bprefOf(['n1', 'r1', 'u1', 'n2', 'r2'], relevant)).toBeCloseTo(1 / 3, 15);
  });

  it('divides by min(R, N): with fewer non-relevant than relevant ids, one above a relevant id takes all its credit', () => {
    // R = 3, N = 1: r1 and r2 each have n1 above them: 1 − min(1, 3) / min(1, 3) = 0.
    expect(bprefOf(['n1', 'r1', 'r2'], { r1: 1, r2: 1, r3: 1, n1: 0 })).toBe(0);
  });

  it('ignores negative grades (trec_eval: in the pool but unjudged); minGrade decides what is non-relevant', () => {
    const relevant = { r1: 2, m1: 1, n1: 0, x1: -1, r2: 2 };
    const hits = ['x1', 'm1', 'r1', 'n1', 'r2'];
    // minGrade 1: R = 3 (r1, m1, r2), N = 1 (n1). m1: 1, r1: 1, r2: 1 − 1/1 = 0 → 2/3.
    expect(bprefOf(hits, relevant)).toBeCloseTo(2 / 3, 15);
    // minGrade 2 (trec_eval -l2): R = 2, N = 2 (m1, n1). r1: 1 − 1/2; r2: 1 − 2/2 → 0.5 / 2.
    expect(bprefOf(hits, relevant, 2)).toBe(0.25);
  });

  it('is 1 when every relevant id is ranked above every judged non-relevant one, whatever the unjudged ones do', () => {
    expect(bprefOf(['u1', 'r1', 'u2', 'r2', 'n1'], { r1: 1, r2: 1, n1: 0 })).toBe(1);
  });

  it('is 0 with no relevant id; a repeated non-relevant hit counts once', () => {
    expect(bprefOf(['n1', 'u1'], { n1: 0 })).toBe(0);
    // n1 twice above r1: still one non-relevant id above it. R = 1, N = 2: 1 − 1/1.
    expect(bprefOf(['n1', 'n1', 'r1'], { r1: 1, n1: 0, n2: 0 })).toBe(0);
    expect(bprefOf(['n1', 'n1', 'r1'], { r1: 1, r2: 1, n1: 0, n2: 0 })).toBeCloseTo((1 - 1 / 2) / 2, 15);
  });

  it('has no cutoff: evaluate() reports it over the whole list, and bpref@k is rejected', () => {
    const relevant = { r1: 1, n1: 0 };
    expect(evaluate(['n1', 'r1'], relevant, 1).bpref).toBe(0);
    expect(evaluate(['u1', 'r1'], relevant, 1).bpref).toBe(1);
    expect(() => parseMeasure('bpref@10')).toThrow(/bpref takes no cutoff/);
    expect(parseMeasure('Bpref')).toEqual({ name: 'bpref' });
  });
});
