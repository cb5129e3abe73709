import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanJsonText } from '../../../src/files/json-text.js';

describe('scanJsonText', () => {
  it('finds no repeat and no nesting beyond the limit in a plain file', () => {
    expect(scanJsonText('{"a":[1,{"b":2,"c":[3]}],"d":{"a":1}}', 4)).toEqual({ tooDeep: undefined, repeatsKey: false });
  });

  it('sees a key repeated in one object, after a nested value', () => {
    expect(scanJsonText('{"a":{"x":1},"b":2,"a":3}', 4).repeatsKey).toBe(true);
  });

  it('does not take the same key in two sibling or nested objects for a repeat', () => {
    expect(scanJsonText('[{"k":1},{"k":2},{"k":{"k":3}}]', 4).repeatsKey).toBe(false);
  });

  it('does not take string values, or strings in arrays, for keys', () => {
    expect(scanJsonText('{"a":"a","b":["a","b"],"c":"b"}', 4).repeatsKey).toBe(false);
  });

  it('reads escaped keys as JSON does ("\\u0061" is "a")', () => {
    expect(scanJsonText('{"a":1,"\\u0061":2}', 4).repeatsKey).toBe(true);
  });

  it("sees a repeat of an object's first key, escaped or not, and of a later one", () => {
    expect(scanJsonText('{"a":1,"a":2}', 4).repeatsKey).toBe(true);
    expect(scanJsonText('{"\\u0061":1,"a":2}', 4).repeatsKey).toBe(true);
    expect(scanJsonText('{"a":1,"b":2,"b":3}', 4).repeatsKey).toBe(true);
    expect(scanJsonText('{"a":{"b":1,"c":2},"a":3}', 4).repeatsKey).toBe(true);
  });

  it('starts each object of a depth with no keys, whatever the one before it held', () => {
    expect(scanJsonText('[{"a":1,"c":0},{"b":1,"a":2}]', 4).repeatsKey).toBe(false);
    expect(scanJsonText('[{"a":1},{"b":1,"a":2},{"a":3}]', 4).repeatsKey).toBe(false);
    expect(scanJsonText('[{"a":1,"c":0},{"b":1,"b":2}]', 4).repeatsKey).toBe(true);
  });

  it('skips brackets inside strings', () => {
    expect(scanJsonText('{"a":"[[[[{{{{\\"]]"}', 1)).toEqual({ tooDeep: undefined, repeatsKey: false });
  });

  it('gives the offset of the first bracket that opens level limit + 1', () => {
    // Levels: { at 0 is 1, [ at 5 is 2, [ at 6 is 3.
    expect(scanJsonText('{"a":[[1]]}', 2).tooDeep).toBe(6);
  });

  it('finds where each string ends past escaped quotes and runs of backslashes', () => {
    // "x\\" ends after its escaped backslash, so the "a" after it is a key again: a repeat.
    expect(scanJsonText('{"a":"x\\\\","a":1}', 4).repeatsKey).toBe(true);
    // "\"" holds an escaped quote: the brackets after it are inside the string.
    expect(scanJsonText('{"a":"\\"[[[[","b":1}', 2)).toEqual({ tooDeep: undefined, repeatsKey: false });
    // "\\\"[[": an escaped backslash, then an escaped quote: still inside the string.
    expect(scanJsonText('{"a":"\\\\\\"[[","b":1}', 1)).toEqual({ tooDeep: undefined, repeatsKey: false });
  });

  it('on any JSON.stringify output: no repeat, and too deep exactly where the value nests beyond the limit', () => {
    const depthOf = (value: unknown): number =>
      value !== null && typeof value === 'object'
        ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf))
        : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 1, max: 6 }), (value, limit) => {
        const scan = scanJsonText(JSON.stringify(value), limit);
        expect(scan.repeatsKey).toBe(false);
        expect(scan.tooDeep !== undefined).toBe(depthOf(value) > limit);
      }),
    );
  });
});
