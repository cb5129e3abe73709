// Arguments swapped in a way their shape tells: the message says so and shows the call that works;
// that call, written as the message says, passes.
import { describe, expect, it } from 'vitest';

import { failureOf } from './helpers.js';

const hits = [
  { id: 'doc-1', score: 0.9 },
  { id: 'doc-2', score: 0.8 },
  { id: 'doc-3', score: 0.7 },
];
const relevant = ['doc-1', 'doc-3'];

describe('swap hints', () => {
  it('the hits given as relevant (and the ids to expect): says they look swapped', () => {
    const message = failureOf(() => expect(relevant).toHaveRecallAtK(hits as never, 3, 0.5));
    expect(message).toBe(
      'expect(hits).toHaveRecallAtK(relevant, k, min)\n\n' +
        'Matcher error: relevant looks like retrieved hits (objects with a score): are the two swapped?\n\n' +
        'Write expect(hits).toHaveRecallAtK(relevant, k, min): the retrieved hits go to expect(), the relevant ids to the matcher.',
    );
    expect(hits).toHaveRecallAtK(relevant, 3, 0.5);
  });

  it('judgments (id → grade) given to expect(): says they look swapped', () => {
    const graded = { 'doc-1': 2, 'doc-3': 1 };
    const message = failureOf(() => expect(graded as unknown as typeof hits).toHaveNdcgAbove(hits as never, 0.5));
    expect(message).toContain(
      'Matcher error: the received value looks like relevance judgments (id → grade): are the two swapped?\n\n' +
        'Write expect(hits).toHaveNdcgAbove(relevant, min',
    );
    expect(hits).toHaveNdcgAbove(graded, 0.5);
  });

  it('k below 1 beside min of 1 or more: says k and min look swapped, with the call that works', () => {
    const message = failureOf(() => expect(hits).toHaveRecallAtK(relevant, 0.5, 3));
    expect(message).toBe(
      'expect(hits).toHaveRecallAtK(relevant, k, min)\n\n' +
        'Matcher error: k and min look swapped: k = 0.5 is below 1 and min = 3 is 1 or more\n\n' +
        'k is a cutoff (a whole number of hits) and min a share from 0 to 1: write toHaveRecallAtK(relevant, 3, 0.5).',
    );
    expect(hits).toHaveRecallAtK(relevant, 3, 0.5);
  });
});
