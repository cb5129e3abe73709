import { jestMatcherUtils } from './jest-utils.js';
import type { RecordingContext } from '../../src/recording/sample.js';

type Colour = (text: string) => string;

/** The message helpers both runners hand to matchers as `this.utils` (jest-matcher-utils' API). */
export interface MatcherUtils {
  matcherHint: (
    name: string,
    received?: string,
    expected?: string,
    options?: { isNot?: boolean; secondArgument?: string; promise?: string },
  ) => string;
  printReceived: (value: unknown) => string;
  printExpected: (value: unknown) => string;
  EXPECTED_COLOR: Colour;
  RECEIVED_COLOR: Colour;
  DIM_COLOR: Colour;
}

/** `this` inside a matcher, as Vitest 4 and Jest 30 provide it. */
export interface MatcherContext extends RecordingContext {
  isNot?: boolean;
  promise?: string;
  utils?: Partial<MatcherUtils>;
}

export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** The runner's own utils (its colours), completed from jest-matcher-utils when called outside a runner. */
export function utilsOf(context: MatcherContext | undefined): MatcherUtils {
  const own = context?.utils ?? {};
  // Both runners give all of these: jest-matcher-utils is loaded only for a call outside a runner.
  const fallback = (): MatcherUtils => jestMatcherUtils();
  return {
    matcherHint: own.matcherHint ?? fallback().matcherHint,
    printReceived: own.printReceived ?? fallback().printReceived,
    printExpected: own.printExpected ?? fallback().printExpected,
    EXPECTED_COLOR: own.EXPECTED_COLOR ?? fallback().EXPECTED_COLOR,
    RECEIVED_COLOR: own.RECEIVED_COLOR ?? fallback().RECEIVED_COLOR,
    DIM_COLOR: own.DIM_COLOR ?? fallback().DIM_COLOR,
  };
}
