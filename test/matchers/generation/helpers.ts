import { stripVTControlCharacters } from 'node:util';
import { TASK_META_KEY, type MetricSample } from '../../../src/recording/sample.js';
import type { MatcherContext } from '../../../matchers/index.js';

// Registers every matcher (expect.extend) as the retrieval-matcher tests do.
export { failureOf } from '../helpers.js';

/** The seed 001 example: one passage and an answer whose third sentence is not in it. */
export const SEED_PASSAGE =
  'Each API key may send 100 requests per minute. Extra requests return status 429 with a Retry-After header.';
export const SEED_ANSWER =
  'You can send 100 requests per minute per API key. Extra requests return status 429. Limits reset every hour.';

/** The failure message of an awaited assertion, without colours; fails the test if the assertion passed. */
export async function asyncFailureOf(assertion: () => Promise<unknown>): Promise<string> {
  try {
    await assertion();
  } catch (error) {
    return stripVTControlCharacters((error as Error).message);
  }
  throw new Error('expected the assertion to fail, but it passed');
}

/** A matcher `this` as Vitest ≥ 4.1 gives it: the running test's `meta`, where samples are recorded. */
export function recordingContext(isNot = false): {
  context: MatcherContext;
  samples: () => MetricSample[] | undefined;
} {
  const meta: Record<string, unknown> = {};
  return {
    context: { isNot, task: { meta } },
    samples: () => meta[TASK_META_KEY] as MetricSample[] | undefined,
  };
}
