// The argument checks every matcher shares (matchers/support): what each accepts, and the exact
// usage error it throws otherwise, hint line included.
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkCutoff, checkOptionalCutoff } from '../../../matchers/support/cutoff.js';
import { listUpTo } from '../../../src/core/present.js';
import { hintOf, matcherCall, type MatcherSubject } from '../../../matchers/support/hint.js';
import { checkKnownOptions, checkOptions, checkQueryId } from '../../../matchers/support/options.js';
import { checkThreshold, describeRequirement, meetsThreshold } from '../../../matchers/support/threshold.js';
import { argumentError, usageError, withUsageErrors } from '../../../matchers/support/usage-error.js';
import { failureOf } from '../helpers.js';

function callOf(subject: MatcherSubject = 'hits', isNot = false) {
  return matcherCall({ isNot }, 'toDoThing', 'a, b', subject);
}

describe('hintOf', () => {
  it('names the subject, the matcher and its arguments, with .not when negated', () => {
    expect(stripVTControlCharacters(hintOf(callOf('hits')))).toBe('expect(hits).toDoThing(a, b)');
    expect(stripVTControlCharacters(hintOf(callOf('result', true)))).toBe('expect(result).not.toDoThing(a, b)');
    expect(stripVTControlCharacters(hintOf(callOf('answer')))).toBe('expect(answer).toDoThing(a, b)');
  });

  it('reads .not when the message is built, not when the call is made', () => {
    const context = { isNot: false };
    const call = matcherCall(context, 'toDoThing', 'a', 'hits');
    context.isNot = true;
    expect(stripVTControlCharacters(hintOf(call))).toBe('expect(hits).not.toDoThing(a)');
  });
});

describe('usageError and argumentError', () => {
  it('put the hint, "Matcher error:" and the detail in that order', () => {
    expect(
      failureOf(() => {
        throw usageError(callOf('result'), 'something is off', 'Do this instead.');
      }),
    ).toBe('expect(result).toDoThing(a, b)\n\nMatcher error: something is off\n\nDo this instead.');
  });

  it('quote the argument and show the value under its label', () => {
    expect(
      failureOf(() => {
        throw argumentError(callOf(), 'options.queryId', 'must be a string', 7, 'queryId');
      }),
    ).toBe(
      'expect(hits).toDoThing(a, b)\n\nMatcher error: "options.queryId" must be a string\n\n' +
        'queryId has type:  number\nqueryId has value: 7',
    );
  });

  it("keep no stack line in the matchers' own folder, and keep the caller's", () => {
    // From source the matchers' folder is matchers/support/ (dist/ in a build): usageError's frames are there.
    const { stack } = usageError(callOf(), 'something is off');
    const frames = (stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
    const ownFolder = fileURLToPath(new URL('../../../matchers/support/', import.meta.url));
    expect(frames.filter((line) => line.includes(ownFolder))).toEqual([]);
    expect(frames[0]).toMatch(/kit\.test\.ts:\d+:\d+/);
  });
});

describe('withUsageErrors', () => {
  it('returns what the core function returns', () => {
    expect(withUsageErrors(callOf(), () => 42)).toBe(42);
  });

  it("turns the core's error into a usage error, worded by the matcher", () => {
    const message = failureOf(() =>
      withUsageErrors(
        callOf(),
        () => {
          throw new RangeError('k must be 1 or more');
        },
        (text) => `targets key "x": ${text}`,
      ),
    );
    expect(message).toBe('expect(hits).toDoThing(a, b)\n\nMatcher error: targets key "x": k must be 1 or more\n\n');
  });

  it('keeps a thrown non-Error readable', () => {
    expect(
      failureOf(() =>
        withUsageErrors(callOf(), () => {
          throw 'plain text';
        }),
      ),
    ).toContain('Matcher error: plain text');
  });
});

describe('checkCutoff', () => {
  it('accepts a positive whole number', () => {
    expect(checkCutoff(callOf(), 1)).toBe(1);
    expect(checkCutoff(callOf(), 100)).toBe(100);
  });

  it.each([0, -3, 2.5, Number.NaN, Number.POSITIVE_INFINITY, '5', undefined])('rejects %s', (k) => {
    expect(failureOf(() => checkCutoff(callOf(), k))).toMatch(
      /^expect\(hits\)\.toDoThing\(a, b\)\n\nMatcher error: "k" must be a positive whole number \(e\.g\. 5\)\n\nk has /,
    );
  });

  it('names the argument as the call spells it and suggests the given example', () => {
    expect(failureOf(() => checkCutoff(callOf('result'), 0, { argument: 'options.k', example: 10 }))).toBe(
      'expect(result).toDoThing(a, b)\n\nMatcher error: "options.k" must be a positive whole number (e.g. 10)\n\n' +
        'options.k has type:  number\noptions.k has value: 0',
    );
  });
});

describe('checkOptionalCutoff', () => {
  it('is undefined when left out and checks the cutoff otherwise, as options.k by default', () => {
    expect(checkOptionalCutoff(callOf(), undefined)).toBeUndefined();
    expect(checkOptionalCutoff(callOf(), 3)).toBe(3);
    expect(failureOf(() => checkOptionalCutoff(callOf(), 1.5))).toContain(
      '"options.k" must be a positive whole number (e.g. 5)',
    );
    expect(failureOf(() => checkOptionalCutoff(callOf(), 0, { argument: 'options.within' }))).toContain(
      'options.within has value: 0',
    );
  });
});

describe('thresholds', () => {
  it('accept 0 to 1 and reject the rest, naming the argument as spelt', () => {
    expect(checkThreshold(callOf(), 0)).toBe(0);
    expect(checkThreshold(callOf(), 1)).toBe(1);
    expect(failureOf(() => checkThreshold(callOf(), 80))).toBe(
      'expect(hits).toDoThing(a, b)\n\nMatcher error: "min" must be a number from 0 to 1 (e.g. 0.8)\n\n' +
        'min has type:  number\nmin has value: 80',
    );
    expect(failureOf(() => checkThreshold(callOf('answer'), 1.5, 'options.min'))).toBe(
      'expect(answer).toDoThing(a, b)\n\nMatcher error: "options.min" must be a number from 0 to 1 (e.g. 0.8)\n\n' +
        'min has type:  number\nmin has value: 1.5',
    );
    for (const bad of [-0.1, 1.01, Number.NaN, '0.5', undefined]) {
      expect(() => checkThreshold(callOf(), bad)).toThrow(/must be a number from 0 to 1/);
    }
  });

  it('are met despite float noise: 4/5 meets 0.8, 0.7999 does not', () => {
    expect(meetsThreshold(4 / 5, 0.8)).toBe(true);
    expect(meetsThreshold(0.1 + 0.2, 0.3)).toBe(true);
    expect(meetsThreshold(0.7999, 0.8)).toBe(false);
  });

  it('are described as a need, or under .not as an expectation', () => {
    expect(describeRequirement(0.8, false)).toBe('needs ≥ 0.80');
    expect(describeRequirement(0.795, true)).toBe('expected < 0.795');
  });
});

describe('options', () => {
  it('are an object or left out', () => {
    expect(checkOptions(callOf(), undefined)).toEqual({});
    const options = { k: 3 };
    expect(checkOptions(callOf(), options)).toBe(options);
    expect(failureOf(() => checkOptions(callOf(), []))).toBe(
      'expect(hits).toDoThing(a, b)\n\nMatcher error: "options" must be an object\n\n' +
        'options has type:  array\noptions has value: []',
    );
    expect(failureOf(() => checkOptions(callOf('result'), null, '{ confidence: 0.95 }'))).toContain(
      'Matcher error: "options" must be an object such as { confidence: 0.95 }\n\noptions has value: null',
    );
  });

  it('name an unknown option and list the known ones', () => {
    expect(() => checkKnownOptions(callOf(), { seed: 1 }, ['confidence', 'seed'])).not.toThrow();
    expect(failureOf(() => checkKnownOptions(callOf(), { seed: 1, k: 3 }, ['confidence', 'seed']))).toContain(
      'Matcher error: unknown option "k"; known: confidence, seed',
    );
  });

  it('take queryId as a string or not at all', () => {
    expect(checkQueryId(callOf(), undefined)).toBeUndefined();
    expect(checkQueryId(callOf(), 'q1')).toBe('q1');
    expect(failureOf(() => checkQueryId(callOf(), 3))).toContain(
      'Matcher error: "options.queryId" must be a string\n\nqueryId has type:  number\nqueryId has value: 3',
    );
  });
});

describe('listUpTo', () => {
  it('lists up to max items and counts the rest', () => {
    expect(listUpTo(['a', 'b'], 2)).toBe('a, b');
    expect(listUpTo(['a', 'b', 'c', 'd'], 2)).toBe('a, b, … and 2 more');
    expect(listUpTo(['a', 'b', 'c'], 2, (item) => JSON.stringify(item))).toBe('"a", "b", … and 1 more');
    expect(listUpTo([], 3)).toBe('');
  });
});
