import { stripVTControlCharacters } from 'node:util';
import { expect } from 'vitest';
import { matchers } from '../../src/index.js';

expect.extend(matchers);

/** The failure message of an assertion, without colours; fails the test if the assertion passed. */
export function failureOf(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return stripVTControlCharacters((error as Error).message);
  }
  throw new Error('expected the assertion to fail, but it passed');
}
