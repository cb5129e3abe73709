// Turns the sidecar files a Jest run's workers wrote, plus the test results Jest reported, into the
// runner-agnostic CollectedRun.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  cleanSample,
  splitCosts,
  toPosixPath,
  type CollectedRun,
  type CollectedSample,
} from '../recording/collected.js';
import type { FileOutcome, NotJudgedReason, RunOutcomes } from '../recording/outcomes.js';
import { applyTestQuestion } from '../recording/question.js';
import type { MetricSample } from '../recording/sample.js';
import { SIDECAR_PREFIX, SIDECAR_SUFFIX, type SidecarRecord } from './recorder.js';

/** What Jest reports per test (AssertionResult), as far as matching needs it. */
interface JestTestOutcome {
  ancestorTitles: readonly string[];
  title: string;
  fullName: string;
  /** 'passed' | 'failed' | 'pending' | 'skipped' | 'todo' | 'disabled' | 'focused'. */
  status?: string;
  /** How many times the test ran (retries included): its last run is the one that counted. */
  invocations?: number;
  /** Why it failed (the first line tells a timeout). */
  failureMessages?: readonly string[];
  /** Where the test is defined (Jest reports it with `testLocationInResults`). */
  location?: { line: number } | null;
}

/** A test file's results (TestResult), as far as matching needs it. */
export interface JestFileOutcome {
  testFilePath: string;
  testResults: readonly JestTestOutcome[];
  /** The whole file was skipped (every test filtered out). */
  skipped?: boolean;
  /** The file failed outside its tests (did not load, say). */
  testExecError?: unknown;
}

/** What the collector needs to know of the run to say why a test did not run to the end. */
export interface JestRunContext {
  /** A `-t` pattern was given: a skipped test was filtered out rather than skipped in the code. */
  testNamePattern?: boolean;
}

/** Why a test did not run to the end; undefined for one that did. */
function incompleteReason(test: JestTestOutcome, context: JestRunContext): NotJudgedReason | undefined {
  const status = test.status ?? 'passed';
  if (status === 'passed' || status === 'focused') return undefined;
  if (status === 'failed') return /Exceeded timeout/.test(test.failureMessages?.[0] ?? '') ? 'timed-out' : 'failed';
  // 'pending' (.skip, or -t), 'todo', 'skipped', 'disabled'.
  return context.testNamePattern === true ? 'filtered' : 'skipped';
}

/** The file's outcome: whether it loaded, and the tests that did not run to the end. */
function outcomeOfFile(file: JestFileOutcome, relativePath: string, context: JestRunContext = {}): FileOutcome {
  const outcome: FileOutcome = { file: relativePath, incomplete: [] };
  if (file.testExecError !== undefined && file.testExecError !== null) {
    const message = (file.testExecError as { message?: unknown }).message;
    outcome.notJudged = {
      reason: 'load-failed',
      ...(typeof message === 'string' ? { detail: message.split('\n')[0]! } : {}),
    };
  }
  // A file Jest skipped whole (every test filtered out) may list no test at all.
  if (file.skipped === true && file.testResults.length === 0)
    outcome.notJudged ??= { reason: context.testNamePattern === true ? 'filtered' : 'skipped' };
  for (const test of file.testResults) {
    const reason = incompleteReason(test, context);
    if (reason !== undefined)
      outcome.incomplete.push({ describePath: [...test.ancestorTitles], test: test.title, reason });
  }
  return outcome;
}

export interface SidecarContents {
  records: SidecarRecord[];
  /** Lines that were not a record (a worker killed in the middle of an append, say). */
  skippedLines: number;
}

/** A fresh run directory under the system temp directory. */
export function createRunDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'rag-matchers-jest-'));
}

/** Removes a run directory; never throws (a clean-up must not hide the run's outcome). */
export function removeRunDirectory(directory: string): void {
  try {
    rmSync(directory, { recursive: true, force: true });
  } catch {
    // left for the OS to clean with the rest of the temp directory
  }
}

function recordOf(raw: unknown): SidecarRecord | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const { testPath, testName, describePath, test, attempt } = raw as Record<string, unknown>;
  const sample = cleanSample((raw as Record<string, unknown>).sample);
  if (typeof testPath !== 'string' || typeof testName !== 'string' || sample === undefined) return undefined;
  const record: SidecarRecord = { testPath, testName, sample };
  if (
    Array.isArray(describePath) &&
    describePath.every((title) => typeof title === 'string') &&
    typeof test === 'string'
  ) {
    record.describePath = describePath as string[];
    record.test = test;
  }
  if (typeof attempt === 'number' && Number.isInteger(attempt)) record.attempt = attempt;
  return record;
}

const SAMPLE_KEY = ',"sample":';

/**
 * Reads a sidecar's lines in order. The lines of one matcher call repeat its test's place word for word
 * before the sample (`{"testPath":…,"sample":{…}}`, the sample last): a line whose text before the sample
 * is the previous line's takes that line's place and has only its sample parsed.
 */
class SidecarLineReader {
  private placeText = '';
  private place: Omit<SidecarRecord, 'sample'> | undefined;

  read(line: string): SidecarRecord | undefined {
    const sampleAt = line.indexOf(SAMPLE_KEY);
    if (sampleAt > 0 && this.place !== undefined && line.endsWith('}') && line.startsWith(this.placeText)) {
      if (sampleAt === this.placeText.length) {
        const sample = cleanSample(parsedOrUndefined(line.slice(sampleAt + SAMPLE_KEY.length, -1)));
        if (sample !== undefined) return { ...this.place, sample };
      }
    }
    const raw = parsedOrUndefined(line);
    const record = recordOf(raw);
    this.place = undefined;
    // Only a line whose sample is its last member has its whole place before the sample.
    if (record !== undefined && sampleAt > 0 && Object.keys(raw as object).at(-1) === 'sample') {
      const { sample: _sample, ...place } = record;
      this.place = place;
      this.placeText = line.slice(0, sampleAt);
    }
    return record;
  }
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every record in the run directory's sidecar files, files in name order, lines in write order. */
export function readSidecars(directory: string): SidecarContents {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => name.startsWith(SIDECAR_PREFIX) && name.endsWith(SIDECAR_SUFFIX));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], skippedLines: 0 };
    throw error;
  }
  const records: SidecarRecord[] = [];
  let skippedLines = 0;
  for (const name of names.sort()) {
    const reader = new SidecarLineReader();
    for (const line of readFileSync(join(directory, name), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const record = reader.read(line);
      if (record === undefined) skippedLines += 1;
      else records.push(record);
    }
  }
  return { records, skippedLines };
}

/**
 * The tests Jest reported, looked up by a record's test key (testKeyOf), or by file and full name. As a
 * scan of a file's results in order: the first test of a name, and of two results for one path the last.
 */
class ReportedTests {
  private readonly files: Map<string, readonly JestTestOutcome[]>;
  private byKey: Map<string, JestTestOutcome> | undefined;
  private readonly byFullName = new Map<string, Map<string, JestTestOutcome[]>>();

  constructor(files: readonly JestFileOutcome[]) {
    this.files = new Map(files.map((file) => [file.testFilePath, file.testResults]));
  }

  /** The test with that key (testKeyOf of a record that has a describe path), indexed on first use. */
  test(key: string): JestTestOutcome | undefined {
    if (this.byKey === undefined) {
      this.byKey = new Map();
      for (const [path, outcomes] of this.files) {
        for (const outcome of outcomes) {
          const outcomeKey = outcomeKeyOf(path, outcome);
          if (!this.byKey.has(outcomeKey)) this.byKey.set(outcomeKey, outcome);
        }
      }
    }
    return this.byKey.get(key);
  }

  /** Every test of that file whose full name is `fullName`, in the file's order; each file indexed on first use. */
  named(path: string, fullName: string): readonly JestTestOutcome[] {
    let byFullName = this.byFullName.get(path);
    if (byFullName === undefined) {
      byFullName = new Map();
      for (const outcome of this.files.get(path) ?? []) {
        const named = byFullName.get(outcome.fullName);
        if (named === undefined) byFullName.set(outcome.fullName, [outcome]);
        else named.push(outcome);
      }
      this.byFullName.set(path, byFullName);
    }
    return byFullName.get(fullName) ?? [];
  }
}

/**
 * The describe path and title of the test a record came from: as the recorder read them from the
 * running test when it could, else the one test of that file whose full name matches, else (a name
 * Jest never reported, or two tests whose titles join to the same full name) the whole name as the
 * test's title at the file's top level.
 */
function locate(
  { record, key }: KeyedRecord,
  reported: ReportedTests,
): { describePath: string[]; test: string; line?: number } {
  if (record.describePath !== undefined && record.test !== undefined) {
    const located = { describePath: record.describePath, test: record.test };
    const line = reported.test(key)?.location?.line;
    return line === undefined ? located : { ...located, line };
  }
  const matches = reported.named(record.testPath, record.testName);
  const first = matches[0];
  if (first !== undefined && matches.every((match) => sameTest(match, first)))
    return { describePath: [...first.ancestorTitles], test: first.title };
  return { describePath: [], test: record.testName };
}

function sameTest(a: JestTestOutcome, b: JestTestOutcome): boolean {
  return (
    a.title === b.title &&
    a.ancestorTitles.length === b.ancestorTitles.length &&
    a.ancestorTitles.every((title, index) => title === b.ancestorTitles[index])
  );
}

/** A record's test as one key (JSON: no two different tests share one), as outcomeKeyOf keys Jest's results. */
function testKeyOf(record: SidecarRecord): string {
  return JSON.stringify(
    record.describePath === undefined
      ? [record.testPath, null, record.testName]
      : [record.testPath, record.describePath, record.test],
  );
}

function outcomeKeyOf(path: string, outcome: JestTestOutcome): string {
  return JSON.stringify([path, outcome.ancestorTitles, outcome.title]);
}

/**
 * A test retried by `jest.retryTimes` recorded once per attempt: only its last attempt counted (it
 * passed, or it was the last try), so only that attempt's samples are kept.
 */
export function lastAttempts(
  records: readonly SidecarRecord[],
  files: readonly JestFileOutcome[] = [],
): SidecarRecord[] {
  return lastAttemptsKeyed(
    records.map((record) => ({ record, key: testKeyOf(record) })),
    files,
  ).map((entry) => entry.record);
}

/** A record with its test's key (testKeyOf), worked out once. */
interface KeyedRecord {
  record: SidecarRecord;
  key: string;
}

function lastAttemptsKeyed(records: readonly KeyedRecord[], files: readonly JestFileOutcome[]): KeyedRecord[] {
  const last = new Map<string, number>();
  for (const file of files) {
    for (const outcome of file.testResults) {
      if (outcome.invocations !== undefined) last.set(outcomeKeyOf(file.testFilePath, outcome), outcome.invocations);
    }
  }
  const reported = new Set(last.keys());
  for (const { record, key } of records) {
    if (record.attempt === undefined) continue;
    // Jest's count wins: a last attempt that threw before any matcher ran recorded nothing, and keeps nothing.
    if (!reported.has(key) && record.attempt > (last.get(key) ?? -Infinity)) last.set(key, record.attempt);
  }
  if (last.size === 0) return [...records];
  return records.filter(({ record, key }) => record.attempt === undefined || record.attempt === last.get(key));
}

/**
 * The samples sorted by file path, each file's in the order given (one file's samples come from one
 * worker's file, in write order): a stable sort, without comparing the samples of one file.
 */
function inFileOrder(samples: readonly CollectedSample[]): CollectedSample[] {
  const byFile = new Map<string, CollectedSample[]>();
  for (const sample of samples) {
    const ofFile = byFile.get(sample.file);
    if (ofFile === undefined) byFile.set(sample.file, [sample]);
    else ofFile.push(sample);
  }
  const paths = [...byFile.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return paths.flatMap((path) => byFile.get(path) ?? []);
}

/** A path relative to `rootDir`, '/'-separated; each path worked out once (a run's samples share a few files). */
function projectPathOf(rootDir: string): (path: string) => string {
  const known = new Map<string, string>();
  return (path) => {
    let projectPath = known.get(path);
    if (projectPath === undefined) {
      projectPath = toPosixPath(relative(rootDir, path));
      known.set(path, projectPath);
    }
    return projectPath;
  };
}

/** A counted record as the run keeps it: its sample, its file and test, and the line its matcher was called at. */
function collectedSample(
  keyed: KeyedRecord,
  reported: ReportedTests,
  projectPath: (path: string) => string,
): CollectedSample {
  const { sample, testPath } = keyed.record;
  return {
    ...sample,
    file: projectPath(testPath),
    ...locate(keyed, reported),
    // The matcher's call site, when it was found, over the test's definition.
    ...(sample.line !== undefined ? { line: sample.line } : {}),
    ...(sample.lineFile !== undefined ? { lineFile: projectPath(sample.lineFile) } : {}),
  };
}

/**
 * The run's samples, files in path order, each file's samples in the order its tests recorded them.
 * `rootDir` makes file paths relative ('/'-separated).
 */
export function collectJestRun(
  records: readonly SidecarRecord[],
  files: readonly JestFileOutcome[],
  rootDir: string,
  context: JestRunContext & { absent?: RunOutcomes['absent'] } = {},
): CollectedRun {
  const reported = new ReportedTests(files);
  const counted = lastAttemptsKeyed(
    records.map((record) => ({ record, key: testKeyOf(record) })),
    files,
  );
  const byTest = new Map<string, MetricSample[]>();
  for (const { record, key } of counted) {
    const samples = byTest.get(key);
    if (samples === undefined) byTest.set(key, [record.sample]);
    else samples.push(record.sample);
  }
  for (const samples of byTest.values()) applyTestQuestion(samples);
  const projectPath = projectPathOf(rootDir);
  const samples = inFileOrder(counted.map((keyed) => collectedSample(keyed, reported, projectPath)));
  const outcomes = files
    .map((file) => outcomeOfFile(file, toPosixPath(relative(rootDir, file.testFilePath)), context))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const ranFiles = outcomes
    .filter((outcome) => outcome.notJudged === undefined && outcome.incomplete.length === 0)
    .map((outcome) => outcome.file);
  const costs = splitCosts(samples);
  return {
    samples,
    runner: 'jest',
    files: [...new Set(ranFiles)],
    outcomes: { files: outcomes, ...(context.absent !== undefined ? { absent: context.absent } : {}) },
    ...(costs.length > 0 ? { costs } : {}),
  };
}
