// Runs the real `vitest run`, `jest` and `tsc` of a fixture project (the copies linked into its
// node_modules, started with the current Node) and reads their results.
import { existsSync } from 'node:fs';
import { describeRun, runCommand, type RunResult } from './run.js';
import type { FixtureProject } from './project.js';
import { readJestReport, readVitestReport, type RunSummary } from './reports.js';

export interface RunnerOptions {
  /** Extra command-line arguments (e.g. a test file filter). */
  args?: readonly string[];
  /** Added to the cleaned environment (see cleanEnv); CI is '1' unless set here (undefined unsets it). */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

export interface RunnerResult {
  run: RunResult;
  summary: RunSummary;
}

const REPORT_FILE = '.runner-report.json';

function withSummary(
  run: RunResult,
  project: FixtureProject,
  read: (file: string, root: string) => RunSummary,
): RunnerResult {
  const file = project.path(REPORT_FILE);
  if (run.timedOut || !existsSync(file)) {
    throw new Error(`the runner wrote no report${run.timedOut ? ' (timed out)' : ''}:\n${describeRun(run)}`);
  }
  return { run, summary: read(file, project.dir) };
}

/**
 * `vitest run` in the project, with the default reporter (its output is in run.stdout/stderr for
 * diagnosis) and the JSON reporter (read into the summary). CI=1 by default: no watch mode, no
 * interactive output, snapshots are not written.
 */
export async function runVitest(project: FixtureProject, options: RunnerOptions = {}): Promise<RunnerResult> {
  const args = [
    project.bin('vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${REPORT_FILE}`,
    ...(options.args ?? []),
  ];
  const run = await runCommand(process.execPath, args, {
    cwd: project.dir,
    timeoutMs: options.timeoutMs ?? 60_000,
    env: { CI: '1', ...options.env },
  });
  return withSummary(run, project, readVitestReport);
}

/** `jest --ci --json` in the project (CI: snapshots are not written). */
export async function runJest(project: FixtureProject, options: RunnerOptions = {}): Promise<RunnerResult> {
  const args = [
    project.bin('jest', 'bin', 'jest.js'),
    '--ci',
    '--json',
    `--outputFile=${REPORT_FILE}`,
    ...(options.args ?? []),
  ];
  const run = await runCommand(process.execPath, args, {
    cwd: project.dir,
    timeoutMs: options.timeoutMs ?? 60_000,
    env: { CI: '1', ...options.env },
  });
  return withSummary(run, project, readJestReport);
}

export interface TscDiagnostic {
  /** Relative to the project, forward slashes. */
  file: string;
  line: number;
  column: number;
  /** `TS2339`. */
  code: string;
  message: string;
}

export interface TscResult {
  run: RunResult;
  diagnostics: TscDiagnostic[];
}

/** Parses `file(line,col): error TS1234: message` lines (tsc --pretty false). */
export function parseTscOutput(output: string): TscDiagnostic[] {
  const diagnostics: TscDiagnostic[] = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (match)
      diagnostics.push({
        file: match[1]!.split('\\').join('/'),
        line: Number(match[2]),
        column: Number(match[3]),
        code: match[4]!,
        message: match[5]!,
      });
  }
  return diagnostics;
}

/** `tsc -p <dir relative to the project> --noEmit --pretty false`, with the project's own TypeScript. */
export async function runTsc(
  project: FixtureProject,
  tsconfigDir = '.',
  options: RunnerOptions = {},
): Promise<TscResult> {
  const args = [
    project.bin('typescript', 'bin', 'tsc'),
    '-p',
    tsconfigDir,
    '--noEmit',
    '--pretty',
    'false',
    ...(options.args ?? []),
  ];
  const run = await runCommand(process.execPath, args, {
    cwd: project.dir,
    timeoutMs: options.timeoutMs ?? 60_000,
    env: options.env ?? {},
  });
  if (run.timedOut) throw new Error(`tsc timed out:\n${describeRun(run)}`);
  return { run, diagnostics: parseTscOutput(run.stdout) };
}
