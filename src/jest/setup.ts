/// <reference types="expect" />
// `setupFilesAfterEnv: ['rag-matchers/jest']`: registers the matchers on Jest's global expect and
// sends recorded samples to the reporter through sidecar files.
import { matchers } from '../../matchers/index.js';
import type { RagMatchers } from '../../matchers/types.js';
import { setSampleRecorder, type RecordingContext } from '../recording/sample.js';
import { setRecordingContextSource } from '../recording/timing.js';
import { recordToSidecar } from './recorder.js';

interface JestExpect {
  extend(matchers: object): void;
  getState(): RecordingContext;
}

const jestExpect = (globalThis as { expect?: JestExpect }).expect;
if (jestExpect === undefined) {
  throw new Error(
    "rag-matchers/jest must be loaded by Jest (setupFilesAfterEnv: ['rag-matchers/jest']); no global expect was found.",
  );
}
jestExpect.extend(matchers);
setSampleRecorder(recordToSidecar);
// timeRetrieval records for the running test, as the matchers do (expect's state names it).
setRecordingContextSource(() => {
  const state = jestExpect.getState();
  return state.currentTestName === undefined ? undefined : state;
});

/* eslint-disable @typescript-eslint/no-empty-object-type, @typescript-eslint/no-namespace */
declare module 'expect' {
  // `import { expect } from '@jest/globals'`
  interface Matchers<R extends void | Promise<void>, T = unknown> extends RagMatchers<R, T> {}
  interface AsymmetricMatchers extends RagMatchers<void> {}
}

declare global {
  // `@types/jest` globals
  namespace jest {
    interface Matchers<R, T = {}> extends RagMatchers<R, T> {}
    interface Expect extends RagMatchers<void> {}
    interface InverseAsymmetricMatchers extends RagMatchers<void> {}
  }
}
