// What describeRetrieval needs from the runner, registered by the runner's setup file (rag-matchers/vitest,
// rag-matchers/jest), so that the root entry imports no runner. It sits on globalThis under a registered
// symbol rather than in a module variable: the setup file and the test file may load two copies of this
// module (Jest's ESM mode requires the CommonJS setup entry while the test imports the ES module).
import type { RetrievalCost } from '../recording/cost.js';
import type { RecordingContext } from '../recording/sample.js';

/** How one question's test is declared. */
export interface QuestionTestOptions {
  /** A known miss: the test must fail (Vitest test.fails, Jest test.failing). */
  knownMiss: boolean;
  /** Run beside the suite's other questions (test.concurrent). */
  concurrent: boolean;
  /** Milliseconds; undefined: the runner's own timeout. */
  timeout: number | undefined;
}

/** The assertion a question's test makes: the matcher toMeetRetrievalTargets on the runner's expect. */
type TargetsAssertion = (
  hits: unknown,
  relevant: unknown,
  targets: Readonly<Record<string, number>>,
  options: Readonly<Record<string, unknown>>,
) => void;

/** Where a question's measurements point annotations: its line in the labelled file, else a test-file frame of a stack. */
export type QuestionPlace = { file: string; line: number } | { declaredAt: string };

/** The running question's test, as the runtime gives it to describeRetrieval. */
interface RunningQuestion {
  assertTargets: TargetsAssertion;
  /** What the recording functions read to know the running test. */
  recording: RecordingContext;
}

export interface SuiteRuntime {
  runner: 'vitest' | 'jest';
  describe(name: string, body: () => void): void;
  test(name: string, body: (testContext: unknown) => Promise<void>, options: QuestionTestOptions): void;
  /** The running test, from the context the runner passed its body. */
  running(testContext: unknown): RunningQuestion;
  /** src/recording/cost.ts's recordRetrievalCost, from the setup entry's copy of it. */
  recordCost(cost: RetrievalCost, context: RecordingContext, queryId: string): void;
  /** Points the running test's measurements at `place` (src/recording/question.ts, placeQuestion). */
  placeQuestion(context: RecordingContext, place: QuestionPlace): void;
}

const RUNTIME_KEY = Symbol.for('rag-matchers.suite-runtime');

/** Called by a runner's setup file. */
export function registerSuiteRuntime(runtime: SuiteRuntime): void {
  (globalThis as Record<symbol, unknown>)[RUNTIME_KEY] = runtime;
}

/** The runtime the setup file registered; `where` starts the error when none did. */
export function suiteRuntime(where: string): SuiteRuntime {
  const runtime = (globalThis as Record<symbol, unknown>)[RUNTIME_KEY] as SuiteRuntime | undefined;
  if (runtime === undefined)
    throw new Error(
      `${where}: no test runner set up for rag-matchers. Load its setup file: Vitest setupFiles: ['rag-matchers/vitest'], Jest setupFilesAfterEnv: ['rag-matchers/jest'].`,
    );
  return runtime;
}
