// Bad input: one test each; the message names the argument, the bad value and the fix. Never NaN.
import { describe, expect, it } from 'vitest';
import { evaluate, recallAtK } from '../../../src/index.js';

describe('bad input', () => {
  it('hits not an array', () => {
    expect(() => evaluate('doc-1' as never, ['doc-1'])).toThrow(TypeError);
    expect(() => evaluate('doc-1' as never, ['doc-1'])).toThrow(
      /hits must be an array of hits in rank order, received "doc-1"/,
    );
    expect(() => evaluate(undefined as never, ['doc-1'])).toThrow(/hits must be an array.*received undefined/);
  });

  it('a hit with no usable key names its index and the fields tried', () => {
    expect(() => evaluate([{ id: 'a' }, {}], ['a'])).toThrow(
      /hits\[1\] has no usable key: \{\}\. Tried id, documentId \+ '#chunk-' \+ chunkIndex/,
    );
  });

  it('k NaN, fractional or not a number', () => {
    expect(() => evaluate(['a'], ['a'], Number.NaN)).toThrow(RangeError);
    expect(() => evaluate(['a'], ['a'], Number.NaN)).toThrow(/k must be a whole number, received NaN/);
    expect(() => evaluate(['a'], ['a'], 2.5)).toThrow(/k must be a whole number, received 2\.5/);
    expect(() => evaluate(['a'], ['a'], { k: '5' as never })).toThrow(TypeError);
    expect(() => evaluate(['a'], ['a'], { k: '5' as never })).toThrow(/k must be a number, received "5"/);
    expect(() => recallAtK(['a'], ['a'], 0)).toThrow(/k must be a positive whole number, received 0/);
  });

  it('relevant of the wrong type', () => {
    expect(() => evaluate(['a'], 'a' as never)).toThrow(TypeError);
    expect(() => evaluate(['a'], 'a' as never)).toThrow(
      /relevant must be an array of ids.*received "a"\. Wrap a single id in an array: \["a"\]/,
    );
    expect(() => evaluate(['a'], null as never)).toThrow(/relevant must be .*received null/);
    expect(() => evaluate(['a'], [{ id: 'a' }] as never)).toThrow(/relevant\[0\] must be a string id/);
    expect(() => evaluate(['a'], { a: 'high' } as never)).toThrow(
      /relevant\["a"\] must be a number grade, received "high"/,
    );
  });

  it('a NaN or infinite grade', () => {
    expect(() => evaluate(['a'], { a: Number.NaN })).toThrow(RangeError);
    expect(() => evaluate(['a'], { a: Number.NaN })).toThrow(/relevant\["a"\] must be a finite grade, received NaN/);
    expect(() => evaluate(['a'], new Map([['a', Number.POSITIVE_INFINITY]]))).toThrow(
      /must be a finite grade, received Infinity/,
    );
  });

  it("duplicates: 'error' with a repeat", () => {
    expect(() => evaluate(['a', 'a'], ['a'], { duplicates: 'error' })).toThrow(RangeError);
    expect(() => evaluate(['a', 'a'], ['a'], { duplicates: 'error' })).toThrow(
      /hits\[1\] repeats the key "a".*De-duplicate the hits/,
    );
  });

  it('unknown and invalid options', () => {
    expect(() => evaluate(['a'], ['a'], { kk: 3 } as never)).toThrow(/unknown option "kk"/);
    expect(() => evaluate(['a'], ['a'], { granularity: 'page' } as never)).toThrow(
      /granularity must be 'chunk' or 'document', received "page"/,
    );
    expect(() => evaluate(['a'], ['a'], { minGrade: 0 })).toThrow(/minGrade must be a finite number > 0, received 0/);
    expect(() => evaluate(['a'], ['a'], { gain: 'log' } as never)).toThrow(/gain must be 'linear' or 'exponential'/);
    expect(() => evaluate(['a'], ['a'], { sortBy: 'date' } as never)).toThrow(/sortBy must be 'rank' or 'score'/);
    expect(() => evaluate([{ id: 'a' }], ['a'], { sortBy: 'score' })).toThrow(
      /hits\[0\]\.score must be a number when sortBy is 'score', received undefined/,
    );
  });
});
