import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { circusDescribePath, jestTestOf } from '../recording/question.js';
import type { MetricSample, RecordingContext } from '../recording/sample.js';

/**
 * Set by the Jest reporter at the start of each run, before Jest starts its workers (they inherit the
 * environment; with --runInBand the tests run in the reporter's own process): the directory this
 * run's samples go to. Every run gets a fresh directory, so two Jest runs at once in one project
 * never see each other's samples.
 */
export const RUN_DIRECTORY_ENV = 'RAG_MATCHERS_RUN_DIR';

/** Sidecar files are `samples-<pid>-<thread>.jsonl` in the run directory. */
export const SIDECAR_PREFIX = 'samples-';
export const SIDECAR_SUFFIX = '.jsonl';

/** One line of a sidecar file: a sample and the test it belongs to. */
export interface SidecarRecord {
  /** Absolute path of the test file (expect.getState().testPath). */
  testPath: string;
  /** Jest's current test name: describe titles and the test title joined by spaces. */
  testName: string;
  /**
   * The describe titles and the test's own title, when the recorder could read them from the running
   * test (jest-circus). Without them the reporter matches `testName` against the file's results.
   */
  describePath?: string[];
  test?: string;
  /**
   * Which run of the test recorded it (jest-circus counts from 1; a `retryTimes` retry is the next):
   * the reporter keeps only the last attempt of each test, the one that counted.
   */
  attempt?: number;
  sample: MetricSample;
}

interface CircusBlock {
  name: string;
  parent?: CircusBlock;
  concurrent?: boolean;
}

/**
 * jest-circus keeps its state on the test environment's global under a symbol it does not export;
 * the running test knows its describe blocks. Returns undefined whenever anything is not as expected
 * (another test runner, a future layout), and the reporter falls back to matching names.
 */
function runningTestPath(expectedName: string): { describePath: string[]; test: string } | undefined {
  try {
    const global = globalThis as Record<symbol, unknown>;
    const symbol = Object.getOwnPropertySymbols(global).find(
      (candidate) => candidate.description === 'JEST_STATE_SYMBOL',
    );
    if (symbol === undefined) return undefined;
    const running = (global[symbol] as { currentlyRunningTest?: CircusBlock | null } | undefined)?.currentlyRunningTest;
    if (running === undefined || running === null || typeof running.name !== 'string') return undefined;
    if (running.concurrent === true) throw new ConcurrentTestError(expectedName);
    const describePath: string[] = [];
    // The root block (no parent) is jest-circus's own ROOT_DESCRIBE_BLOCK.
    for (let block = running.parent; block?.parent !== undefined; block = block.parent)
      describePath.unshift(block.name);
    // Concurrent tests share one "currently running" slot: trust it only when it is the asserting test.
    if ([...describePath, running.name].join(' ') !== expectedName) return undefined;
    return { describePath, test: running.name };
  } catch (error) {
    if (error instanceof ConcurrentTestError) throw error;
    return undefined;
  }
}

/** A sample that cannot be attributed to its test: thrown, so the assertion fails instead of filing it under another test. */
class ConcurrentTestError extends Error {
  constructor(testName: string) {
    super(
      `rag-matchers: cannot tell which test.concurrent test recorded this sample (in "${testName}"): this Jest does not say which ` +
        'concurrent test is asserting. Use test() instead of test.concurrent() for measured tests, or Jest ≥ 30.1.',
    );
    this.name = 'ConcurrentTestError';
  }
}

let warnedMissingDirectory = false;

/**
 * The most characters held before they are appended anyway: a test file that records a great deal
 * writes every megabyte or so rather than keeping it all.
 */
const HELD_CHARACTERS = 1 << 20;

/** Lines recorded and not yet appended, and the run directory they go to. */
let held = '';
let heldFor: string | undefined;
let holding = false;

/**
 * From now on a test's lines are held and appended together (see HELD_CHARACTERS), until
 * releaseSidecarLines: the setup file holds them for its test file, whose last hook releases them. One
 * append per test file rather than one per matcher call, each an open, a write and a close.
 */
export function holdSidecarLines(): void {
  holding = true;
}

/** Appends the lines held and stops holding: what is recorded later is appended at once, as without holding. */
export function releaseSidecarLines(): void {
  holding = false;
  appendHeld();
}

function appendHeld(): void {
  if (heldFor !== undefined) appendLines(heldFor, held);
  held = '';
  heldFor = undefined;
}

/**
 * Jest 30 has no channel from a test to the reporter, so each worker appends JSON lines to its own
 * file in the run directory the reporter owns (one file per process and thread: appends never
 * interleave). Without a reporter (no directory), samples are dropped: the assertions still work.
 */
export function recordToSidecar(sample: MetricSample, context: RecordingContext): void {
  recordSamplesToSidecar([sample], context);
}

/** recordToSidecar for what one matcher call recorded: a line each, in one append (or held, see holdSidecarLines). */
export function recordSamplesToSidecar(samples: readonly MetricSample[], context: RecordingContext): void {
  const directory = process.env[RUN_DIRECTORY_ENV];
  if (directory === undefined || directory === '') return;
  const test = jestTestOf(context);
  let place: Omit<SidecarRecord, 'sample'>;
  if (test !== undefined) {
    // Jest 30's expect state names the asserting test exactly, inside test.concurrent too.
    const describePath = circusDescribePath(test);
    const testName = [...describePath, test.name].join(' ');
    place = {
      testPath: context.testPath ?? '',
      testName,
      describePath,
      test: test.name,
      ...(test.invocations === undefined ? {} : { attempt: test.invocations }),
    };
  } else {
    const testName = context.currentTestName ?? '';
    place = { testPath: context.testPath ?? '', testName, ...runningTestPath(testName) };
  }
  // Each line is JSON.stringify({ ...place, sample }), the place written out once for all of them.
  const placeText = JSON.stringify(place);
  const linePrefix = `${placeText.slice(0, -1)}${placeText === '{}' ? '' : ','}"sample":`;
  let lines = '';
  for (const sample of samples) lines += `${linePrefix}${JSON.stringify(sample)}}\n`;
  // Only a test's lines are held: jest-circus runs no afterAll in a file whose every test is skipped,
  // where a call outside the tests still records.
  if (!holding || (test === undefined && context.currentTestName === undefined)) {
    appendHeld();
    appendLines(directory, lines);
    return;
  }
  if (heldFor !== directory) appendHeld();
  heldFor = directory;
  held += lines;
  if (held.length >= HELD_CHARACTERS) appendHeld();
}

function appendLines(directory: string, lines: string): void {
  try {
    appendFileSync(join(directory, `${SIDECAR_PREFIX}${process.pid}-${threadId}${SIDECAR_SUFFIX}`), lines);
  } catch (error) {
    // The directory of a run that already ended (a variable inherited by a nested Jest, say): the
    // assertion itself must not fail because a report cannot be fed.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (!warnedMissingDirectory) {
      warnedMissingDirectory = true;
      process.stderr.write(
        `rag-matchers: samples are not recorded: the run directory ${directory} (${RUN_DIRECTORY_ENV}) does not exist.\n`,
      );
    }
  }
}
