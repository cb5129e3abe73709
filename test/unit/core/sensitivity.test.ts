// The smallest change that fails a row, worked out by hand from the rule: a drop beyond the tolerance
// (with rounding: exactly the tolerance is not a regression) and, with significance, a two-sided p ≤ α.
import { describe, expect, it } from 'vitest';
import { resolveRegressionRule } from '../../../src/core/regression-rule.js';
import { pairedComparison } from '../../../src/core/stats.js';
import { sensitivityOf } from '../../../src/core/sensitivity.js';

const ones = (count: number): number[] => new Array<number>(count).fill(1);
const zeros = (count: number): number[] => new Array<number>(count).fill(0);

describe('sensitivityOf', () => {
  it('a 5-question suite under the sign test at 0.05 can never fail: 5 losses give p = 2/32 = 0.0625', () => {
    const rule = resolveRegressionRule({ significance: 0.05 });
    expect(sensitivityOf(ones(5), 'hit@3', rule)).toEqual({ canFail: false, limitedBy: 'significance' });
    // With 6 questions, 6 losses give p = 2/64 = 0.03125.
    expect(sensitivityOf(ones(6), 'hit@3', rule)).toEqual({
      canFail: true,
      questions: 6,
      meanDrop: 1,
      limitedBy: 'significance',
    });
  });

  it('40 binary questions (32 hits): the tolerance 0.05 needs 3 flips (2/40 is exactly 0.05), the sign test 6', () => {
    const values = [...ones(16), ...zeros(8), ...ones(16)];
    expect(sensitivityOf(values, 'hit@3', resolveRegressionRule({ tolerance: 0.05 }))).toEqual({
      canFail: true,
      questions: 3,
      meanDrop: 3 / 40,
      limitedBy: 'tolerance',
    });
    // 5 losses: p = 0.0625 > 0.05; 6 losses: 0.03125.
    expect(sensitivityOf(values, 'hit@3', resolveRegressionRule({ tolerance: 0.05, significance: 0.05 }))).toEqual({
      canFail: true,
      questions: 6,
      meanDrop: 6 / 40,
      limitedBy: 'significance',
    });
  });

  it('a graded measure: the highest values drop first, to 0', () => {
    // Tolerance 0.3 over 4 questions: 0.9 alone is 0.225, 0.9 + 0.5 is 0.35.
    const rule = resolveRegressionRule({ tolerance: 0.3 });
    expect(sensitivityOf([0.2, 0.9, 0, 0.5], 'ndcg@10', rule)).toEqual({
      canFail: true,
      questions: 2,
      meanDrop: 1.4 / 4,
      limitedBy: 'tolerance',
    });
  });

  it('the per-measure tolerance of the row applies', () => {
    const rule = resolveRegressionRule({ tolerance: { default: 0.01, 'recall@5': 0.2 } });
    expect(sensitivityOf(ones(10), 'recall@5', rule)).toMatchObject({ questions: 3 });
    expect(sensitivityOf(ones(10), 'hit@5', rule)).toMatchObject({ questions: 1 });
  });

  it('a mean that cannot fall beyond the tolerance can never fail', () => {
    const rule = resolveRegressionRule({ tolerance: 0.02 });
    expect(sensitivityOf(zeros(30), 'recall@5', rule)).toEqual({ canFail: false, limitedBy: 'tolerance' });
    // Mean 0.01: at most a fall of 0.01.
    expect(sensitivityOf([0.04, 0, 0, 0], 'recall@5', rule)).toEqual({ canFail: false, limitedBy: 'tolerance' });
  });

  it('the paired t-test: k flips of 10 give t = √(9k/(10 − k)), over 2.262 (df 9, 0.05) from k = 4', () => {
    // k = 3: √(27/7) = 1.96; k = 4: √(36/6) = 2.45.
    const rule = resolveRegressionRule({ significance: 0.05, test: 't' });
    expect(sensitivityOf(ones(10), 'hit@5', rule)).toMatchObject({ questions: 4, limitedBy: 'significance' });
  });

  it('the randomization test enumerates exactly: k equal drops give p = 2/2^k', () => {
    const rule = resolveRegressionRule({ significance: 0.05, test: 'randomization' });
    expect(sensitivityOf(ones(8), 'hit@5', rule)).toMatchObject({ questions: 6 });
    expect(sensitivityOf(ones(5), 'hit@5', rule)).toEqual({ canFail: false, limitedBy: 'significance' });
  });

  it('unequal drops all of one sign: the exact randomization p is 2/2^k too, so graded values need 6 under it', () => {
    const before = [0.9, 0.5, 0.3, 0.7, 0.2, 1];
    // Only the two assignments of one sign to every difference reach |Σ| = 3.6.
    expect(pairedComparison(before, [0, 0, 0, 0, 0, 0], { test: 'randomization' }).p).toBe(2 / 64);
    const rule = resolveRegressionRule({ significance: 0.05, test: 'randomization' });
    expect(sensitivityOf([...before, 0.4, 0.6], 'ndcg@5', rule)).toMatchObject({ questions: 6 });
  });
});
