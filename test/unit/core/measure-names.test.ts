// Measure names are looked up in Maps: names of Object.prototype are unknown measures, with the
// usual error, wherever a measure name is read (`constructor` used to be read as "function Object()").
import { describe, expect, it } from 'vitest';
import { evaluateMeasures, evaluateRun, isBinaryMeasure, parseMeasure, planMeasures } from '../../../src/index.js';

const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
];

describe('measure names that are Object.prototype keys', () => {
  it.each(PROTOTYPE_NAMES)('parseMeasure(%j) is an unknown measure', (name) => {
    expect(() => parseMeasure(name)).toThrow(RangeError);
    expect(() => parseMeasure(name)).toThrow(`measure "${name}" is not valid: unknown measure "${name}". Valid forms:`);
    expect(() => parseMeasure(`${name}@5`)).toThrow(`unknown measure "${name}"`);
  });

  it.each(PROTOTYPE_NAMES)('evaluateRun with measure %j throws the same clear error', (name) => {
    const set = [{ id: 'q1', query: 'q', relevant: ['a'] }];
    expect(() => evaluateRun(set, { q1: ['a'] }, { measures: [name] })).toThrow(`unknown measure "${name}"`);
    expect(() => evaluateRun(set, { q1: ['a'] }, { measures: [{ name } as never] })).toThrow(
      `unknown measure "${name}"`,
    );
  });

  it('evaluateMeasures and planMeasures reject a measure object with such a name', () => {
    expect(() => evaluateMeasures(['a'], ['a'], [{ name: 'constructor' } as never])).toThrow(
      /unknown measure "constructor"/,
    );
    expect(() => planMeasures([{ name: 'toString' } as never])).toThrow(/unknown measure "toString"/);
    expect(isBinaryMeasure({ name: 'constructor' } as never)).toBe(false);
  });
});
