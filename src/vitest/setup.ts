// `setupFiles: ['rag-matchers/vitest']`: registers the matchers on Vitest's expect.
// Samples are recorded on `this.task.meta`, which reaches reporters (and survives --merge-reports).
import { describe, expect, test, TestRunner, type TestContext } from 'vitest';
import { matchers } from '../../matchers/index.js';
import type { RagMatchers } from '../../matchers/types.js';
import { recordRetrievalCost } from '../recording/cost.js';
import { placeQuestion } from '../recording/question.js';
import { setRecordingContextSource } from '../recording/timing.js';
import { registerSuiteRuntime, type SuiteRuntime } from '../suite/index.js';

expect.extend(matchers);
// timeRetrieval records on the running test, as the matchers do on theirs.
setRecordingContextSource(() => {
  // TestRunner.getCurrentTest, not vitest/suite's: that entry warns that it is deprecated since Vitest 4.1.
  const task = TestRunner.getCurrentTest();
  return task === undefined ? undefined : { task, currentTestName: expect.getState().currentTestName };
});

// describeRetrieval's runner: a test beside others (test.concurrent) asserts with its own context's expect.
const runtime: SuiteRuntime = {
  runner: 'vitest',
  describe: (name, body) => describe(name, body),
  test(name, body, { knownMiss, concurrent, timeout }) {
    const declare = concurrent ? (knownMiss ? test.concurrent.fails : test.concurrent) : knownMiss ? test.fails : test;
    declare(name, (context) => body(context), timeout);
  },
  running(testContext) {
    const context = testContext as TestContext;
    // The context's own expect only where it is needed, beside other questions' tests (test.concurrent):
    // Vitest builds it anew for each test that reads it, which costs more than the question's matchers.
    const questionExpect = context.task.concurrent === true ? context.expect : expect;
    return {
      assertTargets: (hits, relevant, targets, options) =>
        questionExpect(hits).toMeetRetrievalTargets(relevant as never, targets, options),
      recording: { task: context.task },
    };
  },
  recordCost: recordRetrievalCost,
  placeQuestion,
};
registerSuiteRuntime(runtime);

declare module 'vitest' {
  // One interface types expect(x).matcher, expect.matcher (asymmetric) and expect.extend. Vitest 4
  // declares it Matchers<T = any>, Vitest 5 Matchers<R = …, T = unknown>: every parameter has a default,
  // so a declaration with no type parameters merges with either (any other list is TS2428 on one of them).
  // The cost: under Vitest 5 a matcher after `.resolves` is typed void rather than Promise<void>.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers extends RagMatchers<void> {}
}
