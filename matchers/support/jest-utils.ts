// jest-matcher-utils, loaded the first time a message needs it. Importing it (with jest-diff,
// pretty-format and chalk) costs every test file about 60 ms, and a passing matcher prints nothing.
// eslint-disable-next-line no-restricted-imports -- only to load jest-matcher-utils on first use; no user file is read
import { createRequire } from 'node:module';

type JestMatcherUtils = typeof import('jest-matcher-utils');

// Node's own require, in both builds (the CommonJS build is given import.meta.url). Under Jest the
// package is then loaded once per worker rather than once per test file.
const requireHere = createRequire(import.meta.url);

let loaded: JestMatcherUtils | undefined;

export function jestMatcherUtils(): JestMatcherUtils {
  return (loaded ??= requireHere('jest-matcher-utils') as JestMatcherUtils);
}

export const printExpected: JestMatcherUtils['printExpected'] = (value) => jestMatcherUtils().printExpected(value);

export const printWithType: JestMatcherUtils['printWithType'] = (name, value, print) =>
  jestMatcherUtils().printWithType(name, value, print);

export const matcherErrorMessage: JestMatcherUtils['matcherErrorMessage'] = (hint, generic, specific) =>
  jestMatcherUtils().matcherErrorMessage(hint, generic, specific);
