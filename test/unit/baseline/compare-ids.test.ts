// compareIds, the natural order of question ids every summary sort uses: checked against its definition
// (split into runs of digits and of other characters with a regular expression) and on hand-ordered ids.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareIds } from '../../../src/baseline/compare.js';

/** The definition, as the regular-expression split it was first written with. */
function compareIdsByDefinition(a: string, b: string): number {
  const chunk = /(\d+|\D+)/g;
  const left = a.match(chunk) ?? [];
  const right = b.match(chunk) ?? [];
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const x = left[i]!;
    const y = right[i]!;
    if (x === y) continue;
    const xDigits = x.charCodeAt(0) >= 48 && x.charCodeAt(0) <= 57;
    const yDigits = y.charCodeAt(0) >= 48 && y.charCodeAt(0) <= 57;
    if (xDigits && yDigits) {
      const byLength = x.replace(/^0+/, '').length - y.replace(/^0+/, '').length;
      if (byLength !== 0) return byLength;
      const byDigits =
        x.replace(/^0+/, '') < y.replace(/^0+/, '') ? -1 : x.replace(/^0+/, '') > y.replace(/^0+/, '') ? 1 : 0;
      if (byDigits !== 0) return byDigits;
    }
    return x < y ? -1 : 1;
  }
  if (left.length !== right.length) return left.length - right.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

describe('compareIds', () => {
  it('orders ids by their numbers, leading zeros aside, then as text', () => {
    const ids = ['q10', 'q2', 'q02', 'q', '', 'q2a', 'q2 #2', 'Q1', 'q1', '7', '007', 'a10b2', 'a10b10', 'a9b99'];
    expect([...ids].sort(compareIds)).toEqual([
      '',
      '007',
      '7',
      'Q1',
      'a9b99',
      'a10b2',
      'a10b10',
      'q',
      'q1',
      'q02',
      'q2',
      'q2 #2',
      'q2a',
      'q10',
    ]);
  });

  it('gives what the definition gives, number for number, on ids of digits, zeros, letters and others', () => {
    const unit = fc.constantFrom('0', '0', '1', '2', '9', 'a', 'b', 'Z', ' ', '#', '-', 'é', '\n', '\uD83D', '\uDE00');
    const id = fc.array(unit, { maxLength: 10 }).map((units) => units.join(''));
    fc.assert(
      fc.property(id, id, (a, b) => {
        expect(compareIds(a, b)).toBe(compareIdsByDefinition(a, b));
      }),
      { numRuns: 5_000 },
    );
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(compareIds(a, b)).toBe(compareIdsByDefinition(a, b));
        expect(compareIds(a, a)).toBe(0);
      }),
      { numRuns: 2_000 },
    );
  });
});
