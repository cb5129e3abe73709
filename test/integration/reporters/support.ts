// Fixture projects for the reporter integration tests: a Vitest and a Jest project with the reporter
// configured as users configure it, a canned retriever (RETRIEVER=baseline|worse|better), and helpers
// that run the real runners (and the `rag-matchers` CLI) in them.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { ensureBuilt } from '../support/build.js';
import {
  createFixtureProject,
  snapshotPackage,
  type FixtureProject,
  type PackageSnapshot,
} from '../support/project.js';
import { describeRun, runCommand, type RunResult } from '../support/run.js';
import { parseBaseline } from '../../../src/baseline/file/read.js';
import { parseSuiteKey, suiteNameOf } from '../../../src/recording/collected.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(HERE, 'fixtures');

export type Runner = 'vitest' | 'jest';

export interface ReporterProject extends FixtureProject {
  runner: Runner;
  /** The project's own temp directory (TMPDIR of every run): where the Jest reporter's run directories go. */
  tmp: string;
}

export interface RunOptions {
  args?: readonly string[];
  /** Added to the base environment (no CI, no RAG_BASELINE, no GitHub variables, RETRIEVER=baseline). */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/** The built package, copied once per test file so that a build elsewhere cannot change it mid-run. */
export async function preparePackage(): Promise<PackageSnapshot> {
  await ensureBuilt();
  return snapshotPackage();
}

/**
 * The built package for this test file: copied before its first test (preparePackage), removed after its
 * last. The returned object reads the copy, so tests pass it where a PackageSnapshot is wanted.
 */
export function usePackage(): PackageSnapshot {
  let snapshot: PackageSnapshot | undefined;
  beforeAll(async () => {
    snapshot = await preparePackage();
  }, 240_000);
  afterAll(() => {
    snapshot?.remove();
  });
  const current = (): PackageSnapshot => {
    if (snapshot === undefined)
      throw new Error('usePackage: the package is copied in beforeAll; read it in a test or hook.');
    return snapshot;
  };
  return {
    get dir() {
      return current().dir;
    },
    remove: () => current().remove(),
  };
}

export function createReporterProject(runner: Runner, pkg: PackageSnapshot): ReporterProject {
  const project = createFixtureProject({
    fixture: join(FIXTURES, `${runner}-project`),
    name: `rag-reporter-${runner}`,
    packages: [runner],
    links: { 'rag-matchers': pkg.dir },
    files: { 'retrieval.json': join(FIXTURES, 'shared', 'retrieval.json') },
  });
  const tmp = project.path('.tmp');
  mkdirSync(tmp);
  return { ...project, runner, tmp };
}

function baseEnv(
  project: ReporterProject,
  env: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    CI: undefined,
    RAG_BASELINE: undefined,
    UPDATE_SNAPSHOT: undefined,
    GITHUB_ACTIONS: undefined,
    GITHUB_STEP_SUMMARY: undefined,
    RETRIEVER: 'baseline',
    TMPDIR: project.tmp,
    ...env,
  };
}

/** `vitest run` or `jest` in the project, with the configured reporters. */
export function runTests(project: ReporterProject, options: RunOptions = {}): Promise<RunResult> {
  const args =
    project.runner === 'vitest'
      ? [project.bin('vitest', 'vitest.mjs'), 'run', ...(options.args ?? [])]
      : // Workers by default (2 files, 2 workers): the env var must reach them. Scenarios pass --runInBand too.
        [project.bin('jest', 'bin', 'jest.js'), ...(options.args ?? ['--maxWorkers=2'])];
  return runCommand(process.execPath, args, {
    cwd: project.dir,
    timeoutMs: options.timeoutMs ?? 90_000,
    env: baseEnv(project, options.env),
  });
}

/** `rag-matchers <args>` as installed in the project. */
export function runCli(
  project: ReporterProject,
  args: readonly string[],
  options: Omit<RunOptions, 'args'> = {},
): Promise<RunResult> {
  return runCommand(process.execPath, [project.bin('rag-matchers', 'dist', 'cli.js'), ...args], {
    cwd: project.dir,
    timeoutMs: options.timeoutMs ?? 30_000,
    env: baseEnv(project, options.env),
  });
}

/** NODE_OPTIONS that make the process SIGKILL itself at the moment it would rename a file over `target` (basename). */
export function killOnRenameEnv(target: string): Record<string, string> {
  const hook = pathToFileURL(join(HERE, 'kill-on-rename.mjs')).href;
  return { NODE_OPTIONS: `--import=${hook}`, RAG_TEST_KILL_ON_RENAME: target };
}

/** What the reporter printed: Vitest's reporters write to stdout, Jest's to stderr. */
export function reporterOutput(project: ReporterProject, result: RunResult): string {
  return project.runner === 'vitest' ? result.stdout : result.stderr;
}

/** The last non-blank line of a text. */
export function lastLine(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.at(-1) ?? '';
}

/** The file's bytes, or undefined when there is none. */
export function bytesOf(project: ReporterProject, file: string): Buffer | undefined {
  const path = project.path(file);
  return existsSync(path) ? readFileSync(path) : undefined;
}

export function readJson<T = unknown>(project: ReporterProject, file: string): T {
  return JSON.parse(readFileSync(project.path(file), 'utf8')) as T;
}

/** Entries the Jest reporter left in the project's temp directory (its run directories are rag-matchers-jest-*). */
export function leftoverRunDirectories(project: ReporterProject): string[] {
  return readdirSync(project.tmp).filter((name) => name.startsWith('rag-matchers-'));
}

/** Files next to the baseline that an interrupted atomic write may leave (.rag-baseline.json.<pid>.<random>.tmp). */
export function baselineTempFiles(project: ReporterProject): string[] {
  return readdirSync(project.dir).filter((name) => name.startsWith('.rag-baseline.json.') && name.endsWith('.tmp'));
}

/** A failed expectation's message, with the whole run for diagnosis. */
export function explain(result: RunResult): string {
  return describeRun(result);
}

/** The JSON report's parts that must not depend on how the run was split (runner name aside). */
export interface JsonReportLike {
  runner: string;
  passed: boolean;
  counts: Record<string, number>;
  rows: {
    suite: string;
    measure: string;
    count: number;
    mean: number;
    status: string;
    samples: { id: string; value: number }[];
  }[];
}

/** A written baseline's suites by display name (`file > describe > …`), for checks; read as the reporters read it. */
export function suitesByName(text: string): Record<string, Record<string, Record<string, number>>> {
  const baseline = parseBaseline(text, 'rag-baseline.json');
  return Object.fromEntries(
    Object.entries(baseline.suites).map(([key, measures]) => [suiteNameOf(parseSuiteKey(key)), { ...measures }]),
  );
}

/**
 * Checks the baseline a run of the baseline retriever records, with values worked out by hand from
 * retrieval.json. `orders` and `account` are the two test files.
 */
export function expectBaselineOfTheBaselineRetriever(text: string, orders: string, account: string): void {
  const refunds = `${orders} > orders API > refunds`;
  const shipping = `${orders} > orders API > shipping`;
  const baseline = JSON.parse(text) as { generatedBy: string; schemaVersion: number; rows: unknown[][] };
  expect(baseline.generatedBy).toBe('rag-matchers');
  // Schema 7: each question's compact ranking row ([question, [text, ...hits]]) comes ahead of its
  // measures' rows ([file, describe path, question, measure, value, cells]).
  expect(baseline.schemaVersion).toBe(7);
  const valueRows = baseline.rows.slice(1).filter((row) => row.length >= 5);
  expect(baseline.rows.slice(1).filter((row) => row.length < 5)).toHaveLength(7);
  // Structured identities, sorted by file then describe path.
  expect([...new Set(valueRows.map((row) => JSON.stringify(row.slice(0, 2))))]).toEqual([
    JSON.stringify([account, []]),
    JSON.stringify([orders, ['orders API', 'refunds']]),
    JSON.stringify([orders, ['orders API', 'shipping']]),
  ]);
  const suites = suitesByName(text);
  // Top-level tests without queryId: the test name identifies the question.
  expect(suites[account]).toEqual({
    'recall@3': { 'changes the e-mail address': 1, 'resets a forgotten password': 1 },
  });
  expect(suites[refunds]!['recall@3']).toEqual({ 'refund-partial': 1, 'refund-status': 0.5, 'refund-window': 1 });
  expect(suites[shipping]!['recall@3']).toEqual({ 'ship-delay': 0.5, 'ship-international': 1 });
  // nDCG@3 with binary gains: 1/log2(rank + 1) over the ideal ranking's.
  const refundsNdcg = suites[refunds]!['ndcg@3']!;
  expect(Object.keys(refundsNdcg)).toEqual(['refund-partial', 'refund-status', 'refund-window']);
  expect(refundsNdcg['refund-window']).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 12);
  expect(refundsNdcg['refund-partial']).toBeCloseTo(1 / Math.log2(3), 12);
  expect(refundsNdcg['refund-status']).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
  expect(suites[shipping]!['ndcg@3']!['ship-delay']).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
  // One sample per line, sorted by question then measure, a final newline: diffable in review.
  // Each retrieval row ends with what it was measured against (schema version 4's judgments cell); the
  // labels are positive-only (arrays of ids), so no unjudged count.
  expect(text).toMatch(
    new RegExp(
      escapeRegExp(`\n    ,["${orders}", ["orders API", "refunds"], "refund-partial", "recall@3", 1, {"labels": "`) +
        '[0-9a-f]{8}"\\}\\]' +
        escapeRegExp(`\n    ,["refund-status",["`) +
        '[^"\\n]+"(?:,[^\\n]*)?\\]\\]' +
        escapeRegExp(`\n    ,["${orders}", ["orders API", "refunds"], "refund-status", "ndcg@3", `),
    ),
  );
  expect(text.endsWith('}\n')).toBe(true);
}

/** `text` matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
