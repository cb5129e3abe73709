// judged@k through the matchers that take measure names, as a test file uses them.
import { describe, expect, it } from 'vitest';
import { evaluateRun } from '../../src/index.js';
import { failureOf } from './helpers.js';

describe('judged@k in toMeetRetrievalTargets', () => {
  // a (relevant), n (judged, grade 0), u (unjudged): judged@3 = 2/3, recall@3 = 1.
  const hits = ['a', 'n', 'u'];
  const relevant = { a: 1, n: 0 };

  it('passes and fails on its value, under any spelling', () => {
    expect(hits).toMeetRetrievalTargets(relevant, { 'judged@3': 0.66, 'recall@3': 1 });
    expect(hits).toMeetRetrievalTargets(relevant, { 'Judged@3': 0.66 });
    expect(hits).not.toMeetRetrievalTargets(relevant, { 'judged@3': 0.67 });
  });

  it('names it in the failure, with its value', () => {
    const message = failureOf(() => expect(hits).toMeetRetrievalTargets(relevant, { 'judged@3': 0.9, 'recall@3': 1 }));
    expect(message).toContain('1 of 2 targets met:');
    expect(message).toMatch(/✗ judged@3 +0\.6667 +needs ≥ 0\.90/);
  });
});

describe('judged@k in toHaveMeanAbove', () => {
  const set = [
    { id: 'q1', query: '', relevant: ['a', 'b'] },
    { id: 'q2', query: '', relevant: { c: 0 } },
  ];
  // q1: a, x → 1/2; q2: c, y, z → 1/3. Mean (1/2 + 1/3) / 2 = 5/12 = 0.41667.
  const result = evaluateRun(set, { q1: ['a', 'x'], q2: ['c', 'y', 'z'] }, { measures: ['judged@3'] });

  it('passes at the mean and fails above it', () => {
    expect(result).toHaveMeanAbove('judged@3', 5 / 12);
    expect(result).toHaveMeanAbove('Judged@3', 0.41);
    expect(result).not.toHaveMeanAbove('judged@3', 0.42);
  });

  it('a cutoff the run did not evaluate is a usage error naming it', () => {
    expect(failureOf(() => expect(result).toHaveMeanAbove('judged@5', 0.1))).toContain(
      'judged@5 was not evaluated: the result has judged@3',
    );
  });
});
