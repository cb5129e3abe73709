import { describe, expect, it } from 'vitest';
import { failureOf } from './helpers.js';
import type { RetrievalTargets } from '../../matchers/index.js';

const hits = [{ id: 'rate-limits' }, { id: 'errors' }, { id: 'webhooks' }];

describe('toRetrieve', () => {
  it('passes when every id is retrieved (within the cutoff)', () => {
    expect(hits).toRetrieve('webhooks');
    expect(hits).toRetrieve(['errors', 'rate-limits'], { within: 2 });
    expect(hits).not.toRetrieve('webhooks', { within: 2 });
    expect(hits).not.toRetrieve(['errors', 'refunds']);
  });

  it('names what is missing and where it is', () => {
    expect(failureOf(() => expect(hits).toRetrieve(['webhooks', 'refunds'], { within: 2 }))).toMatchInlineSnapshot(`
      "expect(hits).toRetrieve(idOrIds)

      Expected in the top 2: webhooks, refunds
      Missing: webhooks (rank 3), refunds

      Top 2 of 3 hits:
        1    rate-limits
        2    errors"
    `);
  });
});

describe('toRankFirst', () => {
  it('passes when the first hit is the id', () => {
    expect(hits).toRankFirst('rate-limits');
    expect(hits).not.toRankFirst('errors');
  });

  it('says where the id is instead', () => {
    expect(failureOf(() => expect(hits).toRankFirst('webhooks'))).toMatchInlineSnapshot(`
      "expect(hits).toRankFirst(id)

      Expected first: webhooks
      Received first: rate-limits
      webhooks is at rank 3

      Ranked hits (3):
        1    rate-limits
        2    errors
        3  ✓ webhooks"
    `);
  });
});

describe('toRankBefore', () => {
  it('passes when idA ranks above idB, or idB is absent', () => {
    expect(hits).toRankBefore('rate-limits', 'webhooks');
    expect(hits).toRankBefore('errors', 'refunds');
    expect(hits).not.toRankBefore('webhooks', 'errors');
    expect(hits).not.toRankBefore('refunds', 'errors');
  });

  it('shows both ranks', () => {
    expect(failureOf(() => expect(hits).toRankBefore('webhooks', 'errors'))).toMatchInlineSnapshot(`
      "expect(hits).toRankBefore(idA, idB)

      Expected webhooks to rank before errors
      webhooks: rank 3
      errors: rank 2

      Ranked hits (3):
        1    rate-limits
        2  ✓ errors
        3  ✓ webhooks"
    `);
  });

  it('rejects a missing id as a usage error', () => {
    expect(failureOf(() => expect(hits).toRankBefore('errors', ''))).toMatch(/idB must be a non-empty id string/);
  });
});

describe('toMeetRetrievalTargets', () => {
  const ranked = ['a', 'x', 'b', 'y', 'c'];
  const relevant = ['a', 'b', 'c', 'd'];

  it('passes when every target holds', () => {
    // recall@5 = 3/4, P@1 = 1, MRR = 1
    expect(ranked).toMeetRetrievalTargets(relevant, { 'recall@5': 0.75, P_1: 1, mrr: 1 });
    expect(ranked).not.toMeetRetrievalTargets(relevant, { 'recall@5': 0.8, mrr: 1 });
  });

  it('lists every target, met and unmet', () => {
    expect(failureOf(() => expect(ranked).toMeetRetrievalTargets(relevant, { 'recall@5': 0.8, 'nDCG@3': 0.5, mrr: 1 })))
      .toMatchInlineSnapshot(`
      "expect(hits).toMeetRetrievalTargets(relevant, targets)

      2 of 3 targets met:
        ✗ recall@5  0.75    needs ≥ 0.80
        ✓ ndcg@3    0.7039  needs ≥ 0.50
        ✓ mrr       1.00    needs ≥ 1.00

      Ranked hits (5):
        1  ✓ a
        2    x
        3  ✓ b
        4    y
        5  ✓ c

      Relevant not in the top 5: d"
    `);
  });

  it('rejects unknown measures and bad targets', () => {
    expect(failureOf(() => expect(ranked).toMeetRetrievalTargets(relevant, { bleu: 0.5 } as RetrievalTargets))).toMatch(
      /measure "bleu" is not valid/,
    );
    expect(failureOf(() => expect(ranked).toMeetRetrievalTargets(relevant, {}))).toMatch(
      /targets must be a non-empty object/,
    );
    // The bad target is named by its key: the matcher has no argument called min.
    expect(failureOf(() => expect(ranked).toMeetRetrievalTargets(relevant, { 'recall@5': 2 }))).toMatch(
      /"targets\['recall@5'\]" must be a number from 0 to 1.*\n\ntargets\['recall@5'\] has type: {2}number/s,
    );
  });
});

describe('ids in failure messages', () => {
  it('shows terminal escape sequences, bidirectional and invisible characters as escapes, not raw', () => {
    // Before, an id such as ESC ] 0;pwned BEL ESC [2J reached the terminal raw: it retitled and cleared it.
    const hostile = '\u001b]0;pwned\u0007\u001b[2J';
    const lookAlike = 'q\u200b1';
    const reversed = 'doc\u202eexe.txt';
    const ranked = [{ id: hostile }, { id: lookAlike }, { id: reversed }, { id: 'q1 ' }];
    const messages = [
      failureOf(() => expect(ranked).toRankFirst(reversed)),
      failureOf(() => expect(ranked).toRankBefore('q1 ', hostile)),
      failureOf(() => expect(ranked).toRetrieve(['q1', lookAlike], { within: 1 })),
    ].join('\n');
    for (const raw of ['\u001b', '\u0007', '\u200b', '\u202e']) expect(messages).not.toContain(raw);
    expect(messages).toContain('Expected first: doc\\u202eexe.txt');
    expect(messages).toContain('Received first: \\x1b]0;pwned\\x07\\x1b[2J');
    expect(messages).toContain('Expected q1\\x20 to rank before \\x1b]0;pwned\\x07\\x1b[2J');
    expect(messages).toContain('Missing: q1, q\\u200b1 (rank 2)');
  });
});
