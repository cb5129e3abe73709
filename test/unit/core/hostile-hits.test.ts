import { describe, expect, it } from 'vitest';
import { evaluate, evaluateMeasures, parseMeasure, stableKey } from '../../../src/index.js';
import { failureOf } from '../../matchers/helpers.js';

const nfc = 'caf\u00e9';
const nfd = 'cafe\u0301';

describe('holes in a sparse hits array', () => {
  it('are refused with the index of the hole, whatever the path', () => {
    // eslint-disable-next-line no-sparse-arrays
    const sparse = ['a', , 'b'] as string[];
    expect(() => evaluate(sparse, ['b'])).toThrow(/hits\[1\] is a hole in a sparse array \(hits has length 3/);
    expect(() => evaluate(sparse, ['b'], { key: (hit) => String(hit) })).toThrow(/hits\[1\] is a hole/);
    expect(() => evaluateMeasures(sparse, ['b'], [parseMeasure('recall@3')])).toThrow(/hits\[1\] is a hole/);
    const objects = new Array<object>(3);
    objects[0] = { id: 'a' };
    objects[2] = { id: 'b' };
    expect(() => evaluate(objects, ['b'], { sortBy: 'score' })).toThrow(/hits\[1\] is a hole/);
  });

  it('an explicit undefined is a hit without a key, not a hole', () => {
    expect(() => evaluate(['a', undefined as unknown as string], ['a'])).toThrow(/hits\[1\] has no usable key/);
  });

  it('fail a matcher with the same message', () => {
    // eslint-disable-next-line no-sparse-arrays
    const message = failureOf(() => expect(['a', , 'b']).toHaveRecallAtK(['b'], 3, 1));
    expect(message).toContain('hits[1] is a hole in a sparse array');
  });
});

describe('a Promise passed as hits', () => {
  it('asks whether await was forgotten', () => {
    const pending = Promise.resolve(['a']);
    const message = failureOf(() => expect(pending).toHaveRecallAtK(['a'], 1, 1));
    expect(message).toContain('received value is a Promise, not an array of hits: did you forget await?');
    expect(failureOf(() => expect(pending).toRetrieve('a'))).toContain('did you forget await?');
    expect(() => evaluate(pending as unknown as string[], ['a'])).toThrow(/hits is a Promise.*did you forget await\?/);
  });
});

describe('NFC and NFD spellings of one id', () => {
  it('never match as written, and the message says they differ in Unicode normalisation', () => {
    expect(nfc).not.toBe(nfd);
    expect(evaluate([nfd], [nfc]).recallAtK).toBe(0);
    const message = failureOf(() => expect([nfd, 'tea']).toHaveRecallAtK([nfc], 2, 1));
    expect(message).toContain('differ in Unicode normalisation');
    expect(message).toContain('U+0065 U+0301');
    expect(message).toContain('U+00E9');
    expect(message).toContain("Pass { normalize: 'NFC' }");
  });

  it("match with normalize: 'NFC' or 'NFD', on both sides, on every path", () => {
    expect(evaluate([nfd], [nfc], { normalize: 'NFC' }).recallAtK).toBe(1);
    expect(evaluate([nfc], new Map([[nfd, 2]]), { normalize: 'NFD' }).ndcgAtK).toBe(1);
    expect(
      evaluateMeasures([nfd], new Map([[nfc, 1]]), [parseMeasure('recall@1')], { normalize: 'NFC' })['recall@1'],
    ).toBe(1);
    expect([{ id: nfd }]).toHaveRecallAtK([nfc], 1, 1, { normalize: 'NFC' });
  });

  it('refuses an unknown form, naming the option', () => {
    expect(() => evaluate(['a'], ['a'], { normalize: 'nfc' as 'NFC' })).toThrow(
      /normalize must be one of 'NFC', 'NFD', 'NFKC', 'NFKD'.*received "nfc"/,
    );
  });
});

describe('[Document, score] pairs', () => {
  it('are keyed by their document and ranked by their score', () => {
    const pairs = [
      [{ pageContent: 'b', metadata: { source: 'b.md' } }, 0.2],
      [{ pageContent: 'a', metadata: { source: 'a.md' } }, 0.9],
    ];
    expect(stableKey(pairs[0] as object, 0)).toBe('b.md');
    expect(evaluate(pairs, ['a.md'], { sortBy: 'score', k: 1 }).recallAtK).toBe(1);
    expect(evaluate(pairs, ['a.md'], { k: 1 }).recallAtK).toBe(0);
    expect(stableKey(pairs[0] as object, 0, { key: 'metadata.source' })).toBe('b.md');
  });

  it('other two-element arrays still have no key', () => {
    expect(() => stableKey(['a', 'b'], 0)).toThrow(/hits\[0\] has no usable key/);
  });
});
