import { describe, expect, it } from 'vitest';
import { contentTerms, splitSentences } from '../../../src/generation/text.js';

describe('splitSentences', () => {
  it('splits the seed answer into its three sentences', () => {
    const answer =
      'You can send 100 requests per minute per API key. Extra requests return status 429. Limits reset every hour.';
    expect(splitSentences(answer)).toEqual([
      'You can send 100 requests per minute per API key.',
      'Extra requests return status 429.',
      'Limits reset every hour.',
    ]);
  });

  it('splits Chinese on 。 into two sentences', () => {
    expect(splitSentences('退款需要在30天内申请。运费不退。')).toEqual(['退款需要在30天内申请。', '运费不退。']);
  });

  it('splits on ? ! and line breaks, trims and drops blank pieces', () => {
    expect(splitSentences('Is it free? Yes!\n\n- Refunds take 5 days\n- Shipping is paid  ')).toEqual([
      'Is it free?',
      'Yes!',
      '- Refunds take 5 days',
      '- Shipping is paid',
    ]);
  });

  it('does not end a sentence at a title such as "Dr." or at a decimal point', () => {
    expect(splitSentences('Dr. Smith approved version 3.5 on Monday. It ships today.')).toEqual([
      'Dr. Smith approved version 3.5 on Monday.',
      'It ships today.',
    ]);
  });

  it('returns no sentences for blank text', () => {
    expect(splitSentences('   \n ')).toEqual([]);
  });

  it('rejects a non-string and a bad locale, naming the argument', () => {
    expect(() => splitSentences(42 as unknown as string)).toThrow(TypeError);
    expect(() => splitSentences(42 as unknown as string)).toThrow(/text must be a string, got 42/);
    expect(() => splitSentences('a', 'not a locale!!')).toThrow(RangeError);
    expect(() => splitSentences('a', 'not a locale!!')).toThrow(
      /locale must be a BCP 47 language tag.*"not a locale!!"/,
    );
  });
});

describe('contentTerms', () => {
  it('lower-cases, removes the seed stop words and keeps each term once', () => {
    expect(contentTerms('You can send 100 requests per minute per API key.')).toEqual([
      'send',
      '100',
      'requests',
      'minute',
      'api',
      'key',
    ]);
    expect(contentTerms('The API key, the API KEY!')).toEqual(['api', 'key']);
  });

  it('splits Chinese into words rather than keeping the sentence whole', () => {
    const terms = contentTerms('退款需要在30天内申请。');
    expect(terms).toContain('退款');
    expect(terms).toContain('申请');
    expect(terms).toContain('30');
    expect(terms).not.toContain('退款需要在30天内申请');
    expect(terms).not.toContain('在'); // a Chinese stop word
    expect(terms.length).toBeGreaterThanOrEqual(4);
  });

  it('keeps negations as content terms', () => {
    expect(contentTerms('Refunds are not possible.')).toEqual(['refunds', 'not', 'possible']);
    expect(contentTerms('运费不退。')).not.toEqual([]);
  });

  it('treats curly and straight apostrophes alike, and full-width forms as ASCII', () => {
    expect(contentTerms('don’t')).toEqual(["don't"]);
    expect(contentTerms('ＡＰＩ ３０')).toEqual(['api', '30']);
  });

  it('splits hyphenated words as the Unicode word rules do', () => {
    expect(contentTerms('a Retry-After header')).toEqual(['retry', 'header']); // "after" is a stop word
  });

  it('replaces the stop words with stopWords and adds to them with extendStopWords', () => {
    expect(contentTerms('The API', { stopWords: [] })).toEqual(['the', 'api']);
    expect(contentTerms('The API key', { extendStopWords: ['API'] })).toEqual(['key']);
    expect(contentTerms('The API key', { stopWords: new Set(['key']), extendStopWords: ['api'] })).toEqual(['the']);
  });

  it('rejects a string where a stop-word list belongs, naming the option', () => {
    expect(() => contentTerms('the api', { stopWords: 'the' as unknown as string[] })).toThrow(TypeError);
    expect(() => contentTerms('the api', { stopWords: 'the' as unknown as string[] })).toThrow(
      /options\.stopWords must be an array or Set of words, got "the"/,
    );
    expect(() => contentTerms('the api', { extendStopWords: [3] as unknown as string[] })).toThrow(
      /options\.extendStopWords must hold only strings, got 3/,
    );
  });
});
