import { describe, expect, it } from 'vitest';
import { checkCitations, extractCitations } from '../../../src/generation/citations.js';

const HIT_KEYS = ['doc-1#chunk-0', 'doc-2#chunk-0', 'doc-3#chunk-2'];

describe('extractCitations: default patterns', () => {
  it('reads [n] as a 1-based position with its character offset', () => {
    expect(extractCitations('Limits are 100 per minute [2].')).toEqual([
      { raw: '[2]', ref: '2', kind: 'position', index: 26, position: 2 },
    ]);
  });

  it('reads [doc-1#chunk-0] as a key', () => {
    expect(extractCitations('See [doc-1#chunk-0].')).toEqual([
      { raw: '[doc-1#chunk-0]', ref: 'doc-1#chunk-0', kind: 'key', index: 4 },
    ]);
  });

  it('reads footnotes [^id]: a numeric label is a position, any other label a key', () => {
    expect(extractCitations('A[^1] B[^rate-limits]')).toEqual([
      { raw: '[^1]', ref: '1', kind: 'position', index: 1, position: 1 },
      { raw: '[^rate-limits]', ref: 'rate-limits', kind: 'key', index: 7 },
    ]);
  });

  it('reads a comma list as several citations sharing the raw text and offset', () => {
    expect(extractCitations('Both [1, 2].')).toEqual([
      { raw: '[1, 2]', ref: '1', kind: 'position', index: 5, position: 1 },
      { raw: '[1, 2]', ref: '2', kind: 'position', index: 5, position: 2 },
    ]);
    expect(extractCitations('[a, b]').map((citation) => [citation.ref, citation.kind])).toEqual([
      ['a', 'key'],
      ['b', 'key'],
    ]);
    expect(extractCitations('【1，3】').map((citation) => citation.ref)).toEqual(['1', '3']);
  });

  it('expands a position range [1-3] into 1, 2, 3', () => {
    expect(extractCitations('[1-3]').map((citation) => citation.position)).toEqual([1, 2, 3]);
  });

  it('reads [0] as position 0 (judged invalid by checkCitations)', () => {
    expect(extractCitations('x [0]')).toEqual([{ raw: '[0]', ref: '0', kind: 'position', index: 2, position: 0 }]);
  });

  it('ignores links, footnote definitions, task boxes, prose in brackets and code', () => {
    const answer = [
      'Read [the guide](https://example.com) and [see above].',
      '- [x] done',
      '`items[0]` is the first item.',
      '```ts',
      'const first = hits[1];',
      '```',
      '[^1]: Orders API guide',
    ].join('\n');
    expect(extractCitations(answer)).toEqual([]);
  });

  it('keeps a citation followed by a colon inside a sentence', () => {
    expect(extractCitations('As [1]: limits apply.').map((citation) => citation.ref)).toEqual(['1']);
  });
});

describe('extractCitations: custom extractors', () => {
  it('uses the one capture group of a RegExp as the ref, with or without the g flag', () => {
    const answer = 'Limits apply (source: doc-2#chunk-0). Retries too (source: 3).';
    expect(extractCitations(answer, /\(source: ([^)]+)\)/)).toEqual([
      { raw: '(source: doc-2#chunk-0)', ref: 'doc-2#chunk-0', kind: 'key', index: 13 },
      { raw: '(source: 3)', ref: '3', kind: 'position', index: 50, position: 3 },
    ]);
    expect(extractCitations(answer, /\(source: ([^)]+)\)/g)).toHaveLength(2);
  });

  it('rejects a RegExp without exactly one capture group', () => {
    expect(() => extractCitations('x', /\[\d+\]/)).toThrow(TypeError);
    expect(() => extractCitations('x', /\[\d+\]/)).toThrow(/exactly one capture group.*with 0/);
    expect(() => extractCitations('x', /(a)(b)/)).toThrow(/with 2/);
  });

  it('takes the refs a function returns, locating each in the answer', () => {
    const answer = 'Per doc-2: 100 per minute. Per doc-2 again.';
    const refs = () => ['doc-2', 'doc-2', 'missing'];
    expect(extractCitations(answer, refs)).toEqual([
      { raw: 'doc-2', ref: 'doc-2', kind: 'key', index: 4 },
      { raw: 'doc-2', ref: 'doc-2', kind: 'key', index: 31 },
      { raw: 'missing', ref: 'missing', kind: 'key', index: -1 },
    ]);
  });

  it('rejects a function that does not return strings, and an extractor of the wrong type', () => {
    expect(() => extractCitations('x', () => 'doc-1' as unknown as string[])).toThrow(
      /extractor must return an array of refs, got "doc-1"/,
    );
    expect(() => extractCitations('x', () => [1] as unknown as string[])).toThrow(/non-blank strings, got 1/);
    expect(() => extractCitations('x', '[1]' as never)).toThrow(
      /extractor must be a RegExp with one capture group or a function/,
    );
    expect(() => extractCitations(undefined as unknown as string)).toThrow(/answer must be a string, got undefined/);
  });
});

describe('checkCitations', () => {
  it('accepts positions 1..hits and keys that were retrieved, resolving positions to keys', () => {
    const result = checkCitations('Limits [1]. Retries [3][doc-2#chunk-0].', HIT_KEYS);
    expect(result.pass).toBe(true);
    expect(result.hasCitations).toBe(true);
    expect(result.invalid).toEqual([]);
    expect(result.citations.map((citation) => citation.resolvedKey)).toEqual([
      'doc-1#chunk-0',
      'doc-3#chunk-2',
      undefined,
    ]);
  });

  it('rejects [0], a position past the last hit and a key never retrieved, each with why', () => {
    const result = checkCitations('A [0]. B [4]. C [doc-9#chunk-0].', HIT_KEYS);
    expect(result.pass).toBe(false);
    expect(result.invalid.map((citation) => [citation.raw, citation.reason])).toEqual([
      ['[0]', 'positions are 1-based: [0] names no hit; the first hit is [1]'],
      ['[4]', 'position 4 is out of range: only 3 hits were retrieved'],
      ['[doc-9#chunk-0]', '"doc-9#chunk-0" was never retrieved: it is not one of the 3 retrieved keys'],
    ]);
  });

  it('points out a document id cited where chunk keys were retrieved, and a case mismatch', () => {
    const [documentId, upperCase] = checkCitations('[doc-1] [DOC-2#chunk-0]', HIT_KEYS).invalid;
    expect(documentId?.reason).toMatch(/a chunk of that document was retrieved as "doc-1#chunk-0"/);
    expect(upperCase?.reason).toMatch(/keys are case-sensitive and "doc-2#chunk-0" was retrieved/);
  });

  it('judges each citation of a list on its own', () => {
    const result = checkCitations('Both [1, 5].', HIT_KEYS);
    expect(result.citations.map((citation) => citation.valid)).toEqual([true, false]);
  });

  it('says so when nothing was retrieved', () => {
    expect(checkCitations('[1]', []).invalid[0]?.reason).toBe('position 1 is out of range: no hits were retrieved');
  });

  it('passes an answer without citations unless requireCitation is on', () => {
    expect(checkCitations('No sources here.', HIT_KEYS)).toMatchObject({
      hasCitations: false,
      pass: true,
      requireCitation: false,
    });
    expect(checkCitations('No sources here.', HIT_KEYS, { requireCitation: true })).toMatchObject({
      hasCitations: false,
      pass: false,
      requireCitation: true,
    });
  });

  it('uses a custom extractor', () => {
    const result = checkCitations('Limits (source: doc-2#chunk-0).', HIT_KEYS, { citations: /\(source: ([^)]+)\)/ });
    expect(result.citations.map((citation) => [citation.ref, citation.valid])).toEqual([['doc-2#chunk-0', true]]);
  });

  it('rejects hitKeys that are not an array of strings, naming the argument', () => {
    expect(() => checkCitations('[1]', 'doc-1' as never)).toThrow(TypeError);
    expect(() => checkCitations('[1]', 'doc-1' as never)).toThrow(
      /hitKeys must be an array of the retrieved hits' keys/,
    );
    expect(() => checkCitations('[1]', [{ id: 'doc-1' }] as never)).toThrow(/hitKeys\[0\] must be a string key/);
    expect(() => checkCitations('[1]', HIT_KEYS, { requireCitation: 'yes' as never })).toThrow(
      /options\.requireCitation must be true or false, got "yes"/,
    );
  });
});
