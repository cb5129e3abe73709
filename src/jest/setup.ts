/// <reference types="expect" />
// `setupFilesAfterEnv: ['rag-matchers/jest']`: registers the matchers on Jest's global expect and
// sends recorded samples to the reporter through sidecar files.
import { matchers } from '../../matchers/index.js';
import type { RagMatchers } from '../../matchers/types.js';
import { recordRetrievalCost } from '../recording/cost.js';
import { placeQuestion } from '../recording/question.js';
import { setSampleRecorder, type RecordingContext } from '../recording/sample.js';
import { setRecordingContextSource } from '../recording/timing.js';
import { registerSuiteRuntime, type SuiteRuntime } from '../suite/index.js';
import { holdSidecarLines, recordSamplesToSidecar, releaseSidecarLines } from './recorder.js';

interface JestExpect {
  (value: unknown): { toMeetRetrievalTargets(...args: unknown[]): void };
  extend(matchers: object): void;
  getState(): RecordingContext;
}

type JestTest = (name: string, body: () => Promise<void>, timeout?: number) => void;
interface JestGlobals {
  expect?: JestExpect;
  describe?: (name: string, body: () => void) => void;
  test?: JestTest & { failing: JestTest; concurrent: JestTest & { failing: JestTest } };
  afterAll?: (hook: () => void) => void;
}

const jestGlobals = globalThis as JestGlobals;
const jestExpect = jestGlobals.expect;
if (jestExpect === undefined) {
  throw new Error(
    "rag-matchers/jest must be loaded by Jest (setupFilesAfterEnv: ['rag-matchers/jest']); no global expect was found.",
  );
}
jestExpect.extend(matchers);
setSampleRecorder(recordSamplesToSidecar);
holdSidecarLinesForThisFile();
// timeRetrieval records for the running test, as the matchers do (expect's state names it).
setRecordingContextSource(() => {
  const state = jestExpect.getState();
  return state.currentTestName === undefined ? undefined : state;
});

/**
 * The samples' lines are appended once when this test file ends (its root afterAll, declared here
 * before any of the file's own), not once per matcher call. Without the global afterAll
 * (injectGlobals: false), or where a hook cannot be declared, each call appends its lines as it records.
 */
function holdSidecarLinesForThisFile(): void {
  const { afterAll } = jestGlobals;
  if (typeof afterAll !== 'function') return;
  try {
    afterAll(releaseSidecarLines);
  } catch {
    return;
  }
  holdSidecarLines();
}

/** Jest's global describe/test, read when describeRetrieval declares (injectGlobals: false leaves them out). */
function jestGlobal<Name extends 'describe' | 'test'>(name: Name): NonNullable<JestGlobals[Name]> {
  const value = jestGlobals[name];
  if (value === undefined)
    throw new Error(`describeRetrieval needs Jest's global ${name} (the config sets injectGlobals: false).`);
  return value as NonNullable<JestGlobals[Name]>;
}

// describeRetrieval's runner: Jest's globals; the expect state names the running test (also under test.concurrent).
const runtime: SuiteRuntime = {
  runner: 'jest',
  describe: (name, body) => jestGlobal('describe')(name, body),
  test(name, body, { knownMiss, concurrent, timeout }) {
    const test = jestGlobal('test');
    const declare = concurrent
      ? knownMiss
        ? test.concurrent.failing
        : test.concurrent
      : knownMiss
        ? test.failing
        : test;
    declare(name, () => body(undefined), timeout);
  },
  running: () => ({
    assertTargets: (hits, relevant, targets, options) =>
      jestExpect(hits).toMeetRetrievalTargets(relevant, targets, options),
    recording: jestExpect.getState(),
  }),
  recordCost: recordRetrievalCost,
  placeQuestion,
};
registerSuiteRuntime(runtime);

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
