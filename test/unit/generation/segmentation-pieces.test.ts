// Long texts are segmented in bounded pieces (Intl.Segmenter slows down superlinearly on long
// strings). These tests check where the cuts fall and that terms and sentences come out as they do
// from one call over the whole text; speed is measured in bench/generation.ts.
import { describe, expect, it } from 'vitest';

import { faithfulness } from '../../../src/generation/faithfulness.js';
import {
  SENTENCE_PIECE_LENGTH,
  segmentationPieces,
  splitSentences,
  termsOf,
  WORD_PIECE_LENGTH,
} from '../../../src/generation/text.js';

describe('segmentationPieces', () => {
  it('returns a short text whole', () => {
    expect(segmentationPieces('Refunds take 30 days.', 64)).toEqual(['Refunds take 30 days.']);
  });

  it('cuts just after the last line break in the second half of the window', () => {
    const text = `${'a'.repeat(30)}\n${'b'.repeat(20)}\n${'c'.repeat(40)}`;
    expect(segmentationPieces(text, 64)).toEqual([`${'a'.repeat(30)}\n${'b'.repeat(20)}\n`, 'c'.repeat(40)]);
  });

  it('ignores a line break in the first half and cuts after a sentence end before a capital instead', () => {
    const text = 'ab\nThe refund window is 30 days. Orders ship on weekdays e.g. monday and friday ok';
    expect(segmentationPieces(text, 60)).toEqual([
      'ab\nThe refund window is 30 days. ',
      'Orders ship on weekdays e.g. monday and friday ok',
    ]);
  });

  it('cuts after whitespace when there is no line break or sentence end, and at maxLength in a run without spaces', () => {
    expect(segmentationPieces('alpha beta gamma delta epsilon zeta eta theta', 20)).toEqual([
      'alpha beta gamma ',
      'delta epsilon zeta ',
      'eta theta',
    ]);
    expect(segmentationPieces('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('never cuts between the two halves of a surrogate pair', () => {
    const text = `${'x'.repeat(9)}😀${'y'.repeat(5)}`;
    const pieces = segmentationPieces(text, 10);
    expect(pieces).toEqual(['x'.repeat(9), `😀${'y'.repeat(5)}`]);
  });

  it('gives back the text when joined, with every piece within maxLength', () => {
    const text = Array.from(
      { length: 400 },
      (_, index) => `Sentence ${index} says a thing${index % 7 === 0 ? '.\n' : '. '}`,
    ).join('');
    const pieces = segmentationPieces(text, 256);
    expect(pieces.join('')).toBe(text);
    expect(pieces.every((piece) => piece.length <= 256 && piece.length > 0)).toBe(true);
    expect(pieces.length).toBeGreaterThan(text.length / 256);
  });

  it('rejects a maxLength below 2', () => {
    expect(() => segmentationPieces('abc', 1)).toThrow(/maxLength must be a whole number ≥ 2, got 1/);
  });
});

describe('segmenting in pieces changes nothing on ordinary text', () => {
  const paragraph =
    'Dr. Smith approved the refund policy. Refunds are accepted within 30 days (see §4.2) and can’t be split. ' +
    'Each API key may send 100 requests per minute; extra requests return status 429. 退款需要在30天内申请。';
  const long = Array.from(
    { length: 40 },
    (_, index) => `${paragraph} Item ${index}.${index % 5 === 4 ? '\n\n' : ' '}`,
  ).join('');

  it('finds the same terms as one Intl.Segmenter pass over a text many pieces long', () => {
    expect(long.length).toBeGreaterThan(8 * WORD_PIECE_LENGTH);
    const whole = new Set<string>();
    for (const { segment, isWordLike } of new Intl.Segmenter('en', { granularity: 'word' }).segment(
      long.normalize('NFKC').replace(/[\u2018\u2019\u02BC\u2032]/g, "'"),
    )) {
      if (isWordLike) whole.add(segment.toLocaleLowerCase('en'));
    }
    expect(termsOf(long, new Set(), 'en')).toEqual([...whole]);
  });

  it('splits a long answer into the same sentences', () => {
    const answer = Array.from({ length: 120 }, () => paragraph).join(' ');
    const reference: string[] = [];
    let pending = '';
    for (const { segment } of new Intl.Segmenter('en', { granularity: 'sentence' }).segment(answer)) {
      const sentence = (pending + segment).trim();
      if (sentence === 'Dr.') {
        pending += segment;
        continue;
      }
      if (sentence !== '') reference.push(sentence);
      pending = '';
    }
    expect(answer.length).toBeGreaterThan(SENTENCE_PIECE_LENGTH);
    const sentences = splitSentences(answer, 'en');
    expect(sentences).toEqual(reference);
    expect(sentences.filter((sentence) => sentence === 'Dr. Smith approved the refund policy.')).toHaveLength(120);
  });

  it('scores a 200 kB passage (minutes before) like the same text in small passages', () => {
    const passage = Array.from({ length: 1000 }, () => `${paragraph} `)
      .join('')
      .slice(0, 200_000);
    const answer =
      'Refunds are accepted within 30 days. Each API key may send 100 requests per minute. The moon is made of cheese.';
    const small = Array.from({ length: 200 }, (_, index) => passage.slice(index * 1000, (index + 1) * 1000));
    const result = faithfulness(answer, [passage]);
    expect(result.score).toBeCloseTo(2 / 3, 12);
    expect(result.sentences.map((sentence) => sentence.missingTerms)).toEqual(
      faithfulness(answer, small).sentences.map((sentence) => sentence.missingTerms),
    );
  });
});
