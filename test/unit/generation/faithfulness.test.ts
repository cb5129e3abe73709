import { describe, expect, it } from 'vitest';
import { faithfulness } from '../../../src/generation/faithfulness.js';

// Seed 001 (RAG-metrics article), "Example: Retrieval Metrics and Faithfulness in Python".
const SEED_PASSAGE =
  'Each API key may send 100 requests per minute. Extra requests return status 429 with a Retry-After header.';
const SEED_ANSWER =
  'You can send 100 requests per minute per API key. Extra requests return status 429. Limits reset every hour.';

describe('faithfulness: the seed example', () => {
  const result = faithfulness(SEED_ANSWER, SEED_PASSAGE);

  it('gives the seed shares 1.00, 1.00, 0.00 and 2/3 sentences supported', () => {
    expect(result.sentences.map((sentence) => sentence.share.toFixed(2))).toEqual(['1.00', '1.00', '0.00']);
    expect(result.sentences.map((sentence) => sentence.share)).toEqual([1, 1, 0]);
    expect(result.sentences.map((sentence) => sentence.supported)).toEqual([true, true, false]);
    expect(result.supportedCount).toBe(2);
    expect(result.sentenceCount).toBe(3);
    expect(result.score).toBe(2 / 3);
    expect(result.minOverlap).toBe(0.75);
    expect(result.skipped).toEqual([]);
  });

  it('lists the terms the seed tokeniser finds, and what the unsupported sentence added', () => {
    const [first, , last] = result.sentences;
    expect(first?.terms).toEqual(['send', '100', 'requests', 'minute', 'api', 'key']);
    expect(first?.missingTerms).toEqual([]);
    expect(last).toMatchObject({
      text: 'Limits reset every hour.',
      position: 2,
      terms: ['limits', 'reset', 'hour'],
      supportedTerms: [],
      missingTerms: ['limits', 'reset', 'hour'],
    });
  });

  it('pools the terms of several passages, given as strings or hit objects', () => {
    const split = [
      'Each API key may send 100 requests per minute.',
      'Extra requests return status 429 with a Retry-After header.',
    ];
    expect(faithfulness(SEED_ANSWER, split).sentences.map((sentence) => sentence.share)).toEqual([1, 1, 0]);
    const hits = [{ content: split[0] }, { pageContent: split[1] }];
    expect(faithfulness(SEED_ANSWER, hits).score).toBe(2 / 3);
    // Only the first passage: "Extra requests return status 429." keeps just "requests" (1 of 5).
    expect(faithfulness(SEED_ANSWER, [{ text: split[0] }]).sentences.map((sentence) => sentence.share)).toEqual([
      1,
      1 / 5,
      0,
    ]);
  });
});

describe('faithfulness: threshold and skipped sentences', () => {
  it('supports a sentence at exactly minOverlap and not above it (3 of 4 terms = 0.75)', () => {
    const answer = 'Alpha beta gamma delta.';
    expect(faithfulness(answer, 'alpha beta gamma').sentences[0]).toMatchObject({
      share: 0.75,
      supported: true,
      missingTerms: ['delta'],
    });
    expect(faithfulness(answer, 'alpha beta gamma', { minOverlap: 0.8 }).sentences[0]?.supported).toBe(false);
    expect(faithfulness(answer, 'omega', { minOverlap: 0 }).score).toBe(1);
  });

  it('skips sentences with no content terms and says so', () => {
    const result = faithfulness('OK. Extra requests return status 429.', SEED_PASSAGE);
    expect(result.skipped).toEqual([
      { text: 'OK.', position: 0, reason: 'no content terms: every word is a stop word' },
    ]);
    expect(result.sentenceCount).toBe(1);
    expect(result.sentences[0]?.position).toBe(1);
    expect(result.score).toBe(1);
  });

  it('scores NaN when no sentence can be checked', () => {
    const result = faithfulness('OK. Sure, thanks!', SEED_PASSAGE);
    expect(result.sentenceCount).toBe(0);
    expect(result.skipped).toHaveLength(2);
    expect(result.score).toBeNaN();
  });
});

describe('faithfulness: Chinese', () => {
  it('checks Chinese sentences word by word', () => {
    const context = '退款需要在30天内申请。运费不退。';
    const result = faithfulness('退款需要在30天内申请。退款会在三个工作日内到账。', context);
    expect(result.sentences).toHaveLength(2);
    expect(result.sentences[0]).toMatchObject({ share: 1, supported: true });
    expect(result.sentences[1]?.supported).toBe(false);
    // 退款 is the only word the second sentence shares with the context.
    expect(result.sentences[1]?.supportedTerms).toEqual(['退款']);
    expect(result.sentences[1]?.missingTerms.length).toBeGreaterThanOrEqual(3);
    expect(result.score).toBe(1 / 2);
  });
});

describe('faithfulness: what lexical overlap cannot tell (seed 001, "Lexical limitations")', () => {
  it('accepts a sentence that reuses the words to say something else', () => {
    expect(faithfulness('Status 429 requests return extra.', SEED_PASSAGE).score).toBe(1);
  });

  it('counts a negation as one missing term, which a long sentence survives (5 of 6 = 0.83)', () => {
    const sentence = faithfulness('Extra requests do not return status 429.', SEED_PASSAGE).sentences[0];
    expect(sentence?.missingTerms).toEqual(['not']);
    expect(sentence?.share).toBe(5 / 6);
    expect(sentence?.supported).toBe(true);
  });

  it('misses a paraphrase (only "429" of going, quota, gets, http, 429 is found)', () => {
    const result = faithfulness('Going over the quota gets you an HTTP 429.', SEED_PASSAGE);
    expect(result.sentences[0]?.share).toBe(1 / 5);
    expect(result.score).toBe(0);
  });
});

describe('faithfulness: usage errors', () => {
  it('rejects an answer that is not a string or is empty', () => {
    expect(() => faithfulness(42 as unknown as string, SEED_PASSAGE)).toThrow(TypeError);
    expect(() => faithfulness(42 as unknown as string, SEED_PASSAGE)).toThrow(/answer must be a string, got 42/);
    expect(() => faithfulness('  ', SEED_PASSAGE)).toThrow(RangeError);
    expect(() => faithfulness('  ', SEED_PASSAGE)).toThrow(/answer must not be empty/);
  });

  it('rejects empty or unreadable contexts, naming them', () => {
    expect(() => faithfulness(SEED_ANSWER, [])).toThrow(RangeError);
    expect(() => faithfulness(SEED_ANSWER, [])).toThrow(
      /contexts must hold at least one non-blank passage, got an array of 0/,
    );
    expect(() => faithfulness(SEED_ANSWER, ['', ' '])).toThrow(RangeError);
    expect(() => faithfulness(SEED_ANSWER, '')).toThrow(/contexts must hold at least one non-blank passage, got ""/);
    expect(() => faithfulness(SEED_ANSWER, [{ body: 'x' }] as never)).toThrow(TypeError);
    expect(() => faithfulness(SEED_ANSWER, [{ body: 'x' }] as never)).toThrow(
      /contexts\[0\] must be a string or an object with a string content, pageContent or text field/,
    );
    expect(() => faithfulness(SEED_ANSWER, 7 as never)).toThrow(/contexts must be a string or an array of passages/);
  });

  it('rejects a minOverlap outside 0..1', () => {
    expect(() => faithfulness(SEED_ANSWER, SEED_PASSAGE, { minOverlap: 75 })).toThrow(RangeError);
    expect(() => faithfulness(SEED_ANSWER, SEED_PASSAGE, { minOverlap: 75 })).toThrow(
      /options\.minOverlap must be a number from 0 to 1, got 75/,
    );
    expect(() => faithfulness(SEED_ANSWER, SEED_PASSAGE, { minOverlap: Number.NaN })).toThrow(/got NaN/);
  });
});
