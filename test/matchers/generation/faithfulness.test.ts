import { describe, expect, it } from 'vitest';
import { toBeFaithfulTo } from '../../../matchers/toBeFaithfulTo.js';
import { faithfulness } from '../../../src/index.js';
import { failureOf, recordingContext, SEED_ANSWER, SEED_PASSAGE } from './helpers.js';

describe('toBeFaithfulTo on the seed 001 example (shares 1, 1, 0: 2 of 3 sentences supported)', () => {
  it('fails at the default min of 1 and passes at 0.66', () => {
    expect(() => expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE)).toThrow();
    expect(SEED_ANSWER).not.toBeFaithfulTo(SEED_PASSAGE);
    expect(SEED_ANSWER).not.toBeFaithfulTo(SEED_PASSAGE, { min: 1 });
    expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { min: 0.66 });
    expect(SEED_ANSWER).not.toBeFaithfulTo(SEED_PASSAGE, { min: 0.67 });
  });

  it('compares with the retrieval matchers’ epsilon, so 2/3 meets 1 - 1/3 (one ulp above it)', () => {
    expect(2 / 3 >= 1 - 1 / 3).toBe(false);
    expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { min: 1 - 1 / 3 });
  });

  it('passes the core options through (minOverlap, stopWords, extendStopWords, contexts as hits)', () => {
    // With every word counted, sentence 1 has 9 terms and the passage lacks "you" and "can": 7/9 ≈ 0.78,
    // supported at the default minOverlap 0.75 but not at 0.8, which leaves 1 of 3.
    expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { min: 0.66, stopWords: [] });
    expect(SEED_ANSWER).not.toBeFaithfulTo(SEED_PASSAGE, { min: 0.34, stopWords: [], minOverlap: 0.8 });
    expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { min: 0.33, stopWords: [], minOverlap: 0.8 });
    const message = failureOf(() =>
      expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { stopWords: [], minOverlap: 0.8 }),
    );
    expect(message).toContain(
      '1 of 3 sentences supported (a sentence is supported when ≥ 0.80 of its content terms are in the contexts)',
    );
    expect(message).toContain('share 0.7778 (7 of 9 terms), not in the contexts: you, can');
    // minOverlap 0 counts every sentence as supported.
    expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { minOverlap: 0 });
    // Dropping the three invented words leaves sentence 3 with nothing to check: 2 of 2.
    expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { extendStopWords: ['limits', 'reset', 'hour'] });
    expect(SEED_ANSWER).toBeFaithfulTo(
      [
        { pageContent: 'Each API key may send 100 requests per minute.' },
        { content: 'Extra requests return status 429.' },
      ],
      { min: 0.66 },
    );
  });

  it('names every unsupported sentence with its share and missing terms, and dims the supported ones', () => {
    const message = failureOf(() => expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { queryId: 'rate-limits' }));
    expect(message).toMatchInlineSnapshot(`
      "expect(answer).toBeFaithfulTo(contexts, options)

      faithfulness = 0.6667, needs ≥ 1.00  (query rate-limits)
      2 of 3 sentences supported (a sentence is supported when ≥ 0.75 of its content terms are in the contexts)

      Unsupported (1):
        ✗ "Limits reset every hour."
            share 0.00 (0 of 3 terms), not in the contexts: limits, reset, hour

      Supported (2):
        ✓ "You can send 100 requests per minute per API key."  share 1.00
        ✓ "Extra requests return status 429."  share 1.00"
    `);
  });

  it('with .not, says the answer was faithful when the test expected otherwise', () => {
    const message = failureOf(() => expect(SEED_ANSWER).not.toBeFaithfulTo(SEED_PASSAGE, { min: 0.5 }));
    expect(message).toMatchInlineSnapshot(`
      "expect(answer).not.toBeFaithfulTo(contexts, options)

      faithfulness = 0.6667, expected < 0.50
      2 of 3 sentences supported (a sentence is supported when ≥ 0.75 of its content terms are in the contexts)

      Expected the answer not to be faithful to the contexts (faithfulness < 0.50), but 2 of 3 checked sentences are supported.

      Unsupported (1):
        ✗ "Limits reset every hour."
            share 0.00 (0 of 3 terms), not in the contexts: limits, reset, hour

      Supported (2):
        ✓ "You can send 100 requests per minute per API key."  share 1.00
        ✓ "Extra requests return status 429."  share 1.00"
    `);
  });

  it('lists several unsupported sentences and the sentences it did not check', () => {
    const answer = 'OK. Limits reset every hour. Each API key expires after 90 days. Extra requests return status 429.';
    const message = failureOf(() => expect(answer).toBeFaithfulTo(SEED_PASSAGE));
    expect(message).toContain('1 of 3 sentences supported');
    expect(message).toContain(
      '"Limits reset every hour."\n      share 0.00 (0 of 3 terms), not in the contexts: limits, reset, hour',
    );
    // api and key are in the passage; expires, 90, days are not: 2 of 5.
    expect(message).toContain(
      '"Each API key expires after 90 days."\n      share 0.40 (2 of 5 terms), not in the contexts: expires, 90, days',
    );
    expect(message).toContain('Not checked (no content words): "OK."');
  });
});

describe('citation markers are not words of the claim', () => {
  const cited =
    'You can send 100 requests per minute per API key [1]. Extra requests return status 429 [doc-1#chunk-0].';

  it('faithfulness leaves [1] and [doc-1#chunk-0] out of the terms, so a cited answer scores like an uncited one', () => {
    const result = faithfulness(cited, SEED_PASSAGE);
    expect(result.sentences.map((sentence) => sentence.terms)).toEqual([
      ['send', '100', 'requests', 'minute', 'api', 'key'],
      ['extra', 'requests', 'return', 'status', '429'],
    ]);
    expect(result.score).toBe(1);
    // Counted as words, the key citation adds doc, 1, chunk, 0: 5 of 9 = 0.56, below 0.75.
    const counted = faithfulness(cited, SEED_PASSAGE, { citations: false });
    expect(counted.sentences[1]?.missingTerms).toEqual(['doc', '1', 'chunk', '0']);
    expect(counted.score).toBe(1 / 2);
  });

  it('a marker after the full stop is not a sentence of its own to fail', () => {
    const result = faithfulness('Extra requests return status 429. [1]', SEED_PASSAGE);
    expect([result.supportedCount, result.sentenceCount]).toEqual([1, 1]);
    expect(result.skipped).toEqual([
      { text: '[1]', position: 1, reason: 'no content terms: only stop words and citation markers' },
    ]);
  });

  it('the matcher takes the same citations option as toCiteOnlyRetrieved', () => {
    expect(cited).toBeFaithfulTo(SEED_PASSAGE);
    expect(cited).not.toBeFaithfulTo(SEED_PASSAGE, { citations: false });
    expect('Extra requests return status 429 (source: rate-limits).').toBeFaithfulTo(SEED_PASSAGE, {
      citations: /\(source: ([^)]+)\)/g,
    });
    expect('Extra requests return status 429 (source: rate-limits).').not.toBeFaithfulTo(SEED_PASSAGE);
  });
});

describe('toBeFaithfulTo on Chinese', () => {
  const passage = '退款需要在30天内申请。运费不退。';
  const answer = '退款需要在30天内申请。退款会在三个工作日内到账。';

  it('checks word by word: the first sentence is supported, the second shares only 退款 (1 of 2)', () => {
    expect(answer).toBeFaithfulTo(passage, { min: 0.5, locale: 'zh-CN' });
    const message = failureOf(() => expect(answer).toBeFaithfulTo(passage, { locale: 'zh-CN' }));
    expect(message).toContain('faithfulness = 0.50, needs ≥ 1.00');
    expect(message).toContain('1 of 2 sentences supported');
    expect(message).toMatch(
      /✗ "退款会在三个工作日内到账。"\n {6}share 0\.\d+ \(1 of \d terms\), not in the contexts: .*工作/,
    );
    expect(message).toContain('✓ "退款需要在30天内申请。"  share 1.00');
  });
});

describe('toBeFaithfulTo records its sample like the metric matchers', () => {
  it('records { measure: faithfulness, value, threshold: min, pass, queryId }', () => {
    const { context, samples } = recordingContext();
    const result = toBeFaithfulTo.call(context, SEED_ANSWER, SEED_PASSAGE, { queryId: 'rate-limits' });
    expect(result.pass).toBe(false);
    expect(samples()).toEqual([
      { measure: 'faithfulness', value: 2 / 3, threshold: 1, pass: false, queryId: 'rate-limits' },
    ]);
  });

  it('under .not, pass is the negated assertion’s outcome and negated is set', () => {
    const { context, samples } = recordingContext(true);
    toBeFaithfulTo.call(context, SEED_ANSWER, SEED_PASSAGE, { min: 0.5 });
    expect(samples()).toEqual([{ measure: 'faithfulness', value: 2 / 3, threshold: 0.5, pass: false, negated: true }]);
  });

  it('records nothing when there is nothing to check', () => {
    const { context, samples } = recordingContext();
    expect(() => toBeFaithfulTo.call(context, 'OK. Thanks!', SEED_PASSAGE)).toThrow(/nothing to check/);
    expect(samples()).toBeUndefined();
  });
});

describe('toBeFaithfulTo usage errors fail with and without .not, naming the argument', () => {
  it.each([
    ['answer not a string', () => expect(42).toBeFaithfulTo(SEED_PASSAGE), /received value must be the answer text/],
    [
      'answer not a string under .not',
      () => expect({ text: 'x' }).not.toBeFaithfulTo(SEED_PASSAGE),
      /received value must be the answer text/,
    ],
    ['blank answer', () => expect('  ').toBeFaithfulTo(SEED_PASSAGE), /received answer is empty/],
    [
      'empty contexts',
      () => expect(SEED_ANSWER).toBeFaithfulTo([]),
      /contexts must hold at least one non-blank passage/,
    ],
    [
      'blank contexts under .not',
      () => expect(SEED_ANSWER).not.toBeFaithfulTo(['', ' ']),
      /contexts must hold at least one non-blank passage/,
    ],
    [
      'min above 1',
      () => expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { min: 80 }),
      /options\.min.*must be a number from 0 to 1/,
    ],
    [
      'min negative under .not',
      () => expect(SEED_ANSWER).not.toBeFaithfulTo(SEED_PASSAGE, { min: -0.1 }),
      /options\.min.*must be a number from 0 to 1/,
    ],
    [
      'minOverlap outside 0..1',
      () => expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { minOverlap: 2 }),
      /options\.minOverlap must be a number from 0 to 1/,
    ],
    [
      'bad locale',
      () => expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { locale: 'not a tag!' }),
      /options\.locale must be a BCP 47 language tag/,
    ],
    [
      'citations of the wrong type',
      () => expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { citations: 'brackets' as never }),
      /options\.citations must be a RegExp/,
    ],
    [
      'queryId not a string',
      () => expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { queryId: 7 as unknown as string }),
      /options\.queryId.*must be a string/,
    ],
    [
      'nothing to check',
      () => expect('OK. Thanks!').toBeFaithfulTo(SEED_PASSAGE),
      /nothing to check: the answer has no sentence with content words/,
    ],
    [
      'nothing to check under .not',
      () => expect('Sure.').not.toBeFaithfulTo(SEED_PASSAGE),
      /nothing to check: the answer has no sentence with content words/,
    ],
  ])('%s', (_name, assertion, pattern) => {
    const message = failureOf(assertion);
    expect(message).toMatch(/Matcher error/);
    expect(message).toMatch(pattern);
  });
});
