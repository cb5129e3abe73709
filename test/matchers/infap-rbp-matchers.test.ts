// infap and rbp@p through the matchers that take measure names, as a test file uses them.
import { describe, expect, it } from 'vitest';
import { evaluateRun } from '../../src/index.js';
import { failureOf } from './helpers.js';

describe('infap and rbp@p in toMeetRetrievalTargets', () => {
  // a and c relevant at ranks 1 and 3, x has no judgment.
  // rbp@0.5 = 0.5 × (1 + 0.25) = 0.625; infap = (1 + 1/3 + (2/3)(1/2)(1.00001/1.00002)) / 2 = 0.83333.
  const hits = ['a', 'x', 'c'];

  it('passes and fails on their values', () => {
    expect(hits).toMeetRetrievalTargets(['a', 'c'], { 'rbp@0.5': 0.625, infap: 0.833 });
    expect(hits).toMeetRetrievalTargets(['a', 'c'], { 'rbp@0.5': 0.62, infAP: 0.83 });
    expect(hits).not.toMeetRetrievalTargets(['a', 'c'], { 'rbp@0.5': 0.63 });
    expect(hits).not.toMeetRetrievalTargets(['a', 'c'], { infap: 0.834 });
  });

  it('names them in the failure and shows the whole ranking (p is no cutoff)', () => {
    const message = failureOf(() => expect(hits).toMeetRetrievalTargets(['a', 'c'], { 'rbp@0.5': 0.7 }));
    expect(message).toMatch(/✗ rbp@0\.5 +0\.625 +needs ≥ 0\.70/);
    expect(message).not.toContain('top 0.5');
  });

  it('a persistence outside (0, 1) is a usage error naming the range', () => {
    expect(failureOf(() => expect(hits).toMeetRetrievalTargets(['a', 'c'], { 'rbp@2': 0.1 }))).toContain(
      'rbp\'s persistence p "2" must be a number between 0 and 1 (exclusive)',
    );
  });
});

describe('rbp@p in toHaveMeanAbove', () => {
  const set = [
    { id: 'q1', query: '', relevant: ['a', 'c'] },
    { id: 'q2', query: '', relevant: ['d'] },
  ];
  // q1: 0.625; q2 (d at rank 2): 0.5 × 0.5 = 0.25. Mean 0.4375.
  const result = evaluateRun(set, { q1: ['a', 'x', 'c'], q2: ['y', 'd'] }, { measures: ['rbp@0.5', 'infap'] });

  it('passes at the mean and fails above it', () => {
    expect(result).toHaveMeanAbove('rbp@0.5', 0.4375);
    expect(result).not.toHaveMeanAbove('rbp@0.5', 0.44);
  });
});
