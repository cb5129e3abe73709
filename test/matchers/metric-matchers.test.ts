import { describe, expect, it } from 'vitest';
import { failureOf } from './helpers.js';

const hits = ['doc-3', 'doc-9', 'doc-1', 'doc-4', 'doc-8', 'doc-2', 'doc-7'];
const relevant = ['doc-1', 'doc-2', 'doc-3', 'doc-5', 'doc-6'];

describe('threshold matchers pass and fail on hand-computed values', () => {
  it('toHaveRecallAtK: recall@5 = 2/5', () => {
    expect(hits).toHaveRecallAtK(relevant, 5, 0.4);
    expect(hits).not.toHaveRecallAtK(relevant, 5, 0.41);
  });

  it('≥ compares with an epsilon, so 4/5 meets 0.8', () => {
    // 0.1 + 0.7 = 0.7999999999999999 in floating point
    expect(['a', 'b', 'c', 'd', 'x']).toHaveRecallAtK(['a', 'b', 'c', 'd', 'e'], 5, 0.1 + 0.7);
    expect(['a', 'b', 'c', 'd', 'x']).toHavePrecisionAtK(['a', 'b', 'c', 'd', 'e'], 5, 0.8);
  });

  it('toHavePrecisionAtK, toHaveF1AtK, toHaveNdcgAtK on the AI4J example', () => {
    expect(['a', 'b', 'c', 'd']).toHavePrecisionAtK(['b', 'd'], 4, 0.5);
    expect(['a', 'b', 'c', 'd']).toHaveF1AtK(['b', 'd'], 4, 0.6666);
    expect(['a', 'b', 'c', 'd']).not.toHaveF1AtK(['b', 'd'], 4, 0.6668);
    expect(['a', 'b', 'c', 'd']).toHaveNdcgAtK(['b', 'd'], 4, 0.65);
    expect(['a', 'b', 'c', 'd']).not.toHaveNdcgAtK(['b', 'd'], 4, 0.652);
  });

  it('toHaveNdcgAbove with graded relevance (Orders API, nDCG@3 = 0.760)', () => {
    const ranked = ['error-codes', 'pagination', 'rate-limits', 'webhooks'];
    const graded = { 'rate-limits': 2, 'error-codes': 1 };
    expect(ranked).toHaveNdcgAbove(graded, 0.76, { k: 3 });
    expect(ranked).not.toHaveNdcgAbove(graded, 0.761, { k: 3 });
  });

  it('toHaveHitAtK, toHaveReciprocalRankAbove, toHaveAveragePrecisionAbove, toHaveRPrecisionAbove', () => {
    expect(hits).toHaveHitAtK(relevant, 1);
    expect(hits).not.toHaveHitAtK(['doc-7'], 3);
    expect(['x', 'a']).toHaveReciprocalRankAbove(['a'], 0.5);
    expect(['x', 'a']).not.toHaveReciprocalRankAbove(['a'], 0.5, { k: 1 });
    // AP = (1/2 + 2/4) / 3 = 1/3
    expect(['x', 'a', 'y', 'b']).toHaveAveragePrecisionAbove(['a', 'b', 'c'], 0.333);
    expect(['x', 'a', 'y', 'b']).not.toHaveAveragePrecisionAbove(['a', 'b', 'c'], 0.334);
    // top R = 3: x a y → 1/3
    expect(['x', 'a', 'y', 'b']).toHaveRPrecisionAbove(['a', 'b', 'c'], 0.333);
  });

  it('take the core options (granularity, key, minGrade)', () => {
    const chunks = [
      { documentId: 'doc-2', chunkIndex: 0 },
      { documentId: 'doc-1', chunkIndex: 4 },
    ];
    expect(chunks).toHaveRecallAtK(['doc-1'], 2, 1, { granularity: 'document' });
    expect([{ uid: 'u1' }]).toHaveHitAtK(['u1'], 1, { key: 'uid' });
    expect(['a', 'b']).not.toHaveHitAtK({ a: 1, b: 2 }, 1, { minGrade: 2 });
  });
});

describe('failure messages', () => {
  it('show the value, the requirement, the counts, the top k and what is missing', () => {
    expect(failureOf(() => expect(hits).toHaveRecallAtK(relevant, 5, 0.8, { queryId: 'q7' }))).toMatchInlineSnapshot(`
      "expect(hits).toHaveRecallAtK(relevant, k, min)

      recall@5 = 0.40, needs ≥ 0.80  (query q7)
      2 of 5 relevant retrieved in the top 5

      Top 5 of 7 hits:
        1  ✓ doc-3
        2    doc-9
        3  ✓ doc-1
        4    doc-4
        5    doc-8

      Relevant not in the top 5: doc-2 (rank 6), doc-5, doc-6"
    `);
  });

  it('with .not, say what was expected instead', () => {
    expect(failureOf(() => expect(hits).not.toHaveRecallAtK(relevant, 5, 0.4))).toMatchInlineSnapshot(`
      "expect(hits).not.toHaveRecallAtK(relevant, k, min)

      recall@5 = 0.40, expected < 0.40
      2 of 5 relevant retrieved in the top 5

      Top 5 of 7 hits:
        1  ✓ doc-3
        2    doc-9
        3  ✓ doc-1
        4    doc-4
        5    doc-8

      Relevant not in the top 5: doc-2 (rank 6), doc-5, doc-6"
    `);
  });

  it('show grades and duplicates', () => {
    expect(failureOf(() => expect(['b', 'b', 'a']).toHaveNdcgAtK({ a: 2, b: 1 }, 3, 0.99))).toMatchInlineSnapshot(`
      "expect(hits).toHaveNdcgAtK(relevant, k, min)

      ndcg@3 = 0.7602, needs ≥ 0.99
      2 of 2 relevant retrieved in the top 3 (1 duplicate hit)

      Ranked hits (3):
        1  ✓ b  grade 1
        2    b  grade 1  (duplicate: gains nothing)
        3  ✓ a  grade 2"
    `);
  });

  it('diagnose the document-vs-chunk key mismatch', () => {
    const chunkHits = ['doc-1#chunk-0', 'doc-2#chunk-3'];
    expect(failureOf(() => expect(chunkHits).toHaveHitAtK(['doc-1'], 2))).toMatchInlineSnapshot(`
      "expect(hits).toHaveHitAtK(relevant, k)

      hit@2 = 0.00, needs ≥ 1.00
      0 of 1 relevant retrieved in the top 2

      Ranked hits (2):
        1    doc-1#chunk-0
        2    doc-2#chunk-3

      Relevant not in the top 2: doc-1

      No hit matched any annotation. The two sides use different ids:
        annotation ids: doc-1
        hit keys:       doc-1#chunk-0, doc-2#chunk-3
      Your annotations name documents and your hits are chunks: pass { granularity: 'document' }."
    `);
  });

  it('suggest a key function when the ids share nothing', () => {
    const message = failureOf(() => expect([{ id: 'chunk-17' }]).toHaveHitAtK(['faq.md'], 1));
    expect(message).toContain('pass { key: (hit) => … } returning the id your annotations use');
  });

  it('say nothing of ids on a genuine miss: both sides are plain document ids of one corpus', () => {
    const message = failureOf(() =>
      expect(['invoices', 'reset-password', 'two-factor']).toHaveHitAtK(['refund-policy', 'cancel-subscription'], 3),
    );
    expect(message).toContain('Relevant not in the top 3: refund-policy, cancel-subscription');
    expect(message).not.toContain('No hit matched any annotation');
    expect(message).not.toContain('different ids');
  });

  it('say the ids differ when their shapes do: a prefix, a separator, a path, a chunk by number vs by hash', () => {
    const cases: [string[], string[]][] = [
      [['kb:refunds'], ['refunds', 'returns']],
      [['docs/refunds.md'], ['refunds', 'returns']],
      [['refunds.md#chunk-1'], ['refunds.md#chunk-0a1b2c3d', 'returns.md#chunk-9f8e7d6c']],
      [['doc-1'], ['1', '2']],
    ];
    for (const [annotations, ranked] of cases) {
      expect(failureOf(() => expect(ranked).toHaveHitAtK(annotations, 2))).toContain(
        'No hit matched any annotation. The two sides use different ids:',
      );
    }
  });

  it('name the fields of LangChain hits keyed by metadata.source + metadata.chunk, and the key function that uses them', () => {
    // Without metadata.loc or chunkIndex, every chunk of a file keys as its source: reset-password.md.
    const documents = [0, 1, 2].map((chunk) => ({
      pageContent: `part ${chunk} of the password page`,
      metadata: { source: 'reset-password.md', chunk },
    }));
    const message = failureOf(() => expect(documents).toHaveHitAtK(['reset-password.md#chunk-1'], 3));
    expect(message).toContain(
      [
        'No hit matched any annotation. The two sides use different ids:',
        '  annotation ids: reset-password.md#chunk-1',
        '  hit keys:       reset-password.md, reset-password.md, reset-password.md',
        'The hits carry pageContent, metadata.source, metadata.chunk.',
        'These fields would have matched: pass { key: (hit) => `${hit.metadata.source}#chunk-${hit.metadata.chunk}` }.',
      ].join('\n'),
    );
    // The suggested option, as printed, makes the annotation meet its hit (rank 2).
    const printed = /pass (\{ key: .* \})\.$/m.exec(message)![1]!;
    const options = new Function(`return ${printed}`)() as { key: (hit: unknown) => string };
    expect(documents).toHaveHitAtK(['reset-password.md#chunk-1'], 2, options);
    expect(documents).not.toHaveHitAtK(['reset-password.md#chunk-1'], 1, options);
  });

  it('cut long lists with a count', () => {
    const many = Array.from({ length: 50 }, (_, index) => `d${index}`);
    const message = failureOf(() => expect(many).toHaveRecallAtK(['zz'], 30, 1));
    expect(message).toContain('Top 30 of 50 hits:');
    expect(message).toContain('  20    d19');
    expect(message).not.toContain('d20');
    expect(message).toContain('… 10 more in the top 30 not shown');
  });
});

describe('usage errors fail with and without .not, naming the argument', () => {
  it.each([
    ['min above 1', () => expect(hits).toHaveRecallAtK(relevant, 5, 80), /min.*must be a number from 0 to 1/],
    [
      'min negative under .not',
      () => expect(hits).not.toHaveRecallAtK(relevant, 5, -0.1),
      /min.*must be a number from 0 to 1/,
    ],
    ['k fractional', () => expect(hits).toHaveRecallAtK(relevant, 2.5, 0.5), /k.*must be a positive whole number/],
    ['k zero under .not', () => expect(hits).not.toHaveHitAtK(relevant, 0), /k.*must be a positive whole number/],
    [
      'options.k not whole',
      () => expect(hits).toHaveNdcgAbove(relevant, 0.5, { k: 1.5 }),
      /options\.k.*must be a positive whole number/,
    ],
    ['empty annotation', () => expect(hits).toHaveRecallAtK([], 5, 0.5), /the annotation is empty/],
    [
      'empty annotation under .not',
      () => expect(hits).not.toHaveRecallAtK({ a: 0 }, 5, 0.5),
      /the annotation is empty/,
    ],
    [
      'received not an array',
      () => expect('doc-1' as unknown).toHaveHitAtK(relevant, 3),
      /received value must be an array of hits/,
    ],
    ['bad grade', () => expect(hits).toHaveHitAtK({ a: Number.NaN }, 3), /relevant\["a"\] must be a finite grade/],
  ])('%s', (_name, assertion, pattern) => {
    const message = failureOf(assertion);
    expect(message).toMatch(/Matcher error/);
    expect(message).toMatch(pattern);
  });
});

describe('asymmetric forms', () => {
  it('work inside toEqual', () => {
    expect({ question: 'q1', hits }).toEqual({ question: 'q1', hits: expect.toHaveRecallAtK(relevant, 5, 0.4) });
    expect({ hits }).not.toEqual({ hits: expect.toHaveRecallAtK(relevant, 5, 0.9) });
  });
});
