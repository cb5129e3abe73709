// Reads the machine-readable results of a real test run: Jest's `--json --outputFile` and Vitest's
// `--reporter=json --outputFile`. Both use the same (Jest-born) shape; this turns either into one
// summary so assertions read the same for both runners.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

export type TestStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'todo' | 'disabled' | 'focused';

export interface TestOutcome {
  /** The test file, relative to the project root, with forward slashes. */
  file: string;
  /** describe titles, outermost first. */
  ancestors: string[];
  title: string;
  /** `describe > nested describe > title`: the same for both runners. */
  name: string;
  status: TestStatus;
  /** Each failure's message without the runner's error-name prefix and stack (see cleanFailureMessage). */
  messages: string[];
  /** The failure messages as the runner reported them, ANSI removed. */
  rawMessages: string[];
  /** Vitest only: the test's `task.meta`. */
  meta?: Record<string, unknown>;
}

export interface FileOutcome {
  file: string;
  status: string;
  /**
   * A failure of the file itself, not of a test (does not compile, throws on import, a hook fails);
   * '' when none. (Jest's own file-level `message` repeats the failed tests' messages; not this.)
   */
  error: string;
}

export interface RunSummary {
  runner: 'jest' | 'vitest';
  /** The runner's own verdict. */
  success: boolean;
  tests: TestOutcome[];
  files: FileOutcome[];
  /** Names (see TestOutcome.name) by outcome, sorted. */
  passed: string[];
  failed: string[];
  skipped: string[];
  /** Failure messages by test name, joined by a blank line when a test failed more than once. */
  messages: Record<string, string>;
}

interface JsonAssertion {
  ancestorTitles: string[];
  title: string;
  status: string;
  failureMessages?: string[];
  meta?: Record<string, unknown>;
}

interface JsonFile {
  name: string;
  status: string;
  message?: string;
  testExecError?: { message?: string } | null;
  assertionResults: JsonAssertion[];
}

interface JsonReport {
  success: boolean;
  testResults: JsonFile[];
}

/** Name of a test as both runners' summaries show it: `describe > title`. */
export function testName(ancestors: readonly string[], title: string): string {
  return [...ancestors, title].join(' > ');
}

/**
 * A failure as the user reads it: without the error-name prefix the runner adds (`Error: `,
 * `AssertionError: `, `JestAssertionError: `) and without the stack frames after it.
 */
export function cleanFailureMessage(raw: string): string {
  const lines = stripVTControlCharacters(raw).split('\n');
  const stackStart = lines.findIndex((line) => /^\s+at\s/.test(line));
  const body = (stackStart === -1 ? lines : lines.slice(0, stackStart)).join('\n');
  return body.replace(/^[A-Za-z]*Error(?: \[[^\]]*\])?: /, '').trimEnd();
}

function normaliseStatus(status: string): TestStatus {
  return (
    ['passed', 'failed', 'skipped', 'pending', 'todo', 'disabled', 'focused'].includes(status) ? status : 'skipped'
  ) as TestStatus;
}

export function summarise(report: JsonReport, runner: RunSummary['runner'], projectRoot: string): RunSummary {
  const fileOf = (path: string) => relative(projectRoot, path).split('\\').join('/');
  const tests: TestOutcome[] = [];
  const files: FileOutcome[] = [];
  for (const file of report.testResults) {
    const error = runner === 'jest' ? (file.testExecError?.message ?? '') : (file.message ?? '');
    files.push({ file: fileOf(file.name), status: file.status, error: stripVTControlCharacters(error) });
    for (const assertion of file.assertionResults) {
      const rawMessages = (assertion.failureMessages ?? []).map((message) => stripVTControlCharacters(message));
      tests.push({
        file: fileOf(file.name),
        ancestors: assertion.ancestorTitles,
        title: assertion.title,
        name: testName(assertion.ancestorTitles, assertion.title),
        status: normaliseStatus(assertion.status),
        messages: rawMessages.map(cleanFailureMessage),
        rawMessages,
        ...(assertion.meta === undefined ? {} : { meta: assertion.meta }),
      });
    }
  }
  const names = (status: TestStatus | TestStatus[]) =>
    tests
      .filter((test) => ([] as TestStatus[]).concat(status).includes(test.status))
      .map((test) => test.name)
      .sort();
  const messages: Record<string, string> = {};
  for (const test of tests) if (test.messages.length > 0) messages[test.name] = test.messages.join('\n\n');
  return {
    runner,
    success: report.success,
    tests,
    files,
    passed: names('passed'),
    failed: names('failed'),
    skipped: names(['skipped', 'pending', 'todo', 'disabled']),
    messages,
  };
}

/** Reads a Jest `--json --outputFile=<file>` report. */
export function readJestReport(file: string, projectRoot: string): RunSummary {
  return summarise(JSON.parse(readFileSync(file, 'utf8')) as JsonReport, 'jest', projectRoot);
}

/** Reads a Vitest `--reporter=json --outputFile=<file>` report. */
export function readVitestReport(file: string, projectRoot: string): RunSummary {
  return summarise(JSON.parse(readFileSync(file, 'utf8')) as JsonReport, 'vitest', projectRoot);
}

/** The one test with this name (and file, when given); throws listing the names when there is none. */
export function findTest(summary: RunSummary, name: string, file?: string): TestOutcome {
  const found = summary.tests.filter((test) => test.name === name && (file === undefined || test.file === file));
  if (found.length !== 1) {
    throw new Error(
      `expected one test named ${JSON.stringify(name)}${file ? ` in ${file}` : ''}, found ${found.length}; the run has:\n${summary.tests.map((test) => `  ${test.file}: ${test.name} (${test.status})`).join('\n')}`,
    );
  }
  return found[0]!;
}
