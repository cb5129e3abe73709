import { describe, expect, it } from 'vitest';
import { evaluate, stableKey } from '../../../src/index.js';

describe('stableKey priority (docs/metrics.md, Inputs)', () => {
  it('id first', () => {
    expect(stableKey({ id: 'x', documentId: 'doc', chunkIndex: 1, content: 'text' }, 0)).toBe('x');
    expect(stableKey({ id: 42 }, 0)).toBe('42');
  });

  it('documentId, sourcePath, sourceUri with #chunk-<n>', () => {
    expect(stableKey({ documentId: 'doc-1', chunkIndex: 0, sourcePath: 'a.md' }, 0)).toBe('doc-1#chunk-0');
    expect(stableKey({ sourcePath: 'docs/a.md', chunkIndex: 2, sourceUri: 'u' }, 0)).toBe('docs/a.md#chunk-2');
    expect(stableKey({ sourceUri: 'https://x/y', chunkIndex: 3, content: 'c' }, 0)).toBe('https://x/y#chunk-3');
  });

  it('a document without chunkIndex is keyed by the document alone', () => {
    expect(stableKey({ documentId: 'doc-1' }, 0)).toBe('doc-1');
  });

  it("sourceName + '/' + sectionTitle + '#chunk-' + chunkIndex, then content", () => {
    expect(stableKey({ sourceName: 'guide', sectionTitle: 'Limits', chunkIndex: 1, content: 'c' }, 0)).toBe(
      'guide/Limits#chunk-1',
    );
    expect(stableKey({ content: 'Each key may send 100 requests.' }, 0)).toBe('Each key may send 100 requests.');
  });

  it('blank fields are skipped', () => {
    expect(stableKey({ id: '  ', documentId: 'd', chunkIndex: 0 }, 0)).toBe('d#chunk-0');
  });

  it('reads LangChain.js Documents', () => {
    expect(stableKey({ pageContent: 'text', metadata: { id: 'lc-1', source: 's.md' } }, 0)).toBe('lc-1');
    expect(stableKey({ pageContent: 'text', metadata: { source: 's.md' } }, 0)).toBe('s.md');
    expect(stableKey({ pageContent: 'only text', metadata: {} }, 0)).toBe('only text');
    expect(stableKey({ id: 'doc-id', pageContent: 't', metadata: { id: 'meta' } }, 0)).toBe('doc-id');
  });

  it('reads LlamaIndex.TS NodeWithScore and TextNode', () => {
    expect(stableKey({ node: { id_: 'node-7', text: 't' }, score: 0.4 }, 0)).toBe('node-7');
    expect(stableKey({ id_: 'node-8', text: 't' }, 0)).toBe('node-8');
  });

  it('a key option (property path or function) overrides the rules', () => {
    expect(stableKey({ id: 'x', meta: { uid: 'u-1' } }, 0, { key: 'meta.uid' })).toBe('u-1');
    expect(stableKey({ id: 'x' }, 3, { key: (_hit, index) => `rank-${index}` })).toBe('rank-3');
  });

  it('a hit with no key is an error naming its index and the fields tried', () => {
    expect(() => evaluate(['a', { score: 1 }], ['a'])).toThrow(TypeError);
    expect(() => evaluate(['a', { score: 1 }], ['a'])).toThrow(/hits\[1\] has no usable key.*Tried id, documentId/);
    expect(() => stableKey('   ', 4)).toThrow(/hits\[4\]/);
  });

  it('a key function that returns nothing is an error', () => {
    expect(() => stableKey({ id: 'x' }, 2, { key: () => undefined })).toThrow(
      /hits\[2\]: the key function returned undefined/,
    );
  });
});

describe("granularity: 'document' — the seeds' number-one pitfall", () => {
  it('annotations doc-1 never match hits doc-1#chunk-0 at chunk level', () => {
    const hits = ['doc-1#chunk-0', 'doc-2#chunk-4'];
    const result = evaluate(hits, ['doc-1'], 2);
    expect(result.truePositiveCount).toBe(0);
    expect(result.unmatchedRelevantIds).toEqual(['doc-1']);
  });

  it('collapses chunks to documents; the first chunk rank counts', () => {
    const hits = [
      { documentId: 'doc-2', chunkIndex: 0 },
      { documentId: 'doc-2', chunkIndex: 3 },
      { documentId: 'doc-1', chunkIndex: 1 },
    ];
    const result = evaluate(hits, ['doc-1'], { k: 2, granularity: 'document' });
    // documents ranked: doc-2, doc-1 → doc-1 at rank 2.
    expect(result).toMatchObject({
      retrievedCount: 2,
      truePositiveCount: 1,
      reciprocalRankAtK: 0.5,
      duplicateCount: 0,
    });
  });

  it('chunk-level annotations collapse too, keeping the best grade', () => {
    const result = evaluate(
      ['doc-1#chunk-9'],
      { 'doc-1#chunk-0': 1, 'doc-1#chunk-2': 2 },
      { granularity: 'document', minGrade: 2 },
    );
    expect(result).toMatchObject({ relevantCount: 1, truePositiveCount: 1 });
  });
});

describe('object hits keyed once per call', () => {
  it('a shorter list after a longer one keeps none of the longer list’s keys', () => {
    const long = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id, score: 1 }));
    const short = [{ id: 'x' }, { id: 'y' }];
    expect(evaluate(long, ['f'], 10).truePositiveCount).toBe(1);
    // By hand: 'y' at rank 2 is the one relevant hit found; 'f' (rank 6 of the longer list) is not retrieved.
    const result = evaluate(short, ['f', 'y'], 10);
    expect(result.retrievedCount).toBe(2);
    expect(result.truePositiveCount).toBe(1);
    expect(result.reciprocalRankAtK).toBe(0.5);
    expect(result.unmatchedRelevantIds).toEqual(['f']);
  });

  it('a string among objects (or an object among strings) is keyed like the rest', () => {
    const mixed = [{ id: 'a' }, 'b', { id: 'c' }];
    expect(evaluate(mixed, ['b', 'c'], 3).values.map).toBeCloseTo((1 / 2 + 2 / 3) / 2, 12);
    expect(evaluate(['a', { id: 'b' }], ['b'], 2).reciprocalRankAtK).toBe(0.5);
  });

  it('an id of white space only is no key, whatever its first character', () => {
    expect(stableKey({ id: '\u00a0', documentId: 'd' }, 0)).toBe('d');
    expect(stableKey({ id: '\u2003 ', content: 'c' }, 0)).toBe('c');
    expect(stableKey({ id: ' a' }, 0)).toBe(' a');
    expect(() => stableKey({ id: '\u00a0' }, 3)).toThrow(/hits\[3\] has no usable key/);
  });
});
