// Spawns a command (a test runner, tsc, npm) the way a user's shell would, with a clean environment,
// colours off and a hard timeout, and captures what it printed and how it ended.
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

export interface RunOptions {
  cwd: string;
  /** Killed (the whole process group) after this long; the result then has timedOut: true. */
  timeoutMs?: number;
  /** Added to the cleaned environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
}

export interface RunResult {
  command: string;
  /** null when killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Without ANSI escapes. */
  stdout: string;
  stderr: string;
  durationMs: number;
}

/**
 * Variables the parent test run sets that would change how a nested runner behaves: Vitest marks its
 * workers (a nested vitest would think it is a worker), Jest marks its workers, and a reporter's
 * sidecar directory would receive the nested run's samples.
 */
const INHERITED_PREFIXES = [
  'VITEST',
  'JEST_',
  'RAG_MATCHERS_',
  'npm_',
  'NODE_OPTIONS',
  'NODE_ENV',
  'TEST',
  'FORCE_COLOR',
  'NO_COLOR',
  'COLORTERM',
  'TS_NODE_',
  'TSX_',
];

/** process.env without the test-runner and colour variables, colours off, plus `overrides`. */
export function cleanEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!INHERITED_PREFIXES.some((prefix) => name === prefix || name.startsWith(prefix))) env[name] = value;
  }
  env.NO_COLOR = '1';
  env.FORCE_COLOR = '0';
  env.TERM = 'dumb';
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export function runCommand(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const shown = [command, ...args].join(' ');
  return new Promise((resolve, reject) => {
    // detached: the child leads its own process group, so a timeout ends its workers too.
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${shown}: ${error.message}`));
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({
        command: shown,
        exitCode,
        signal,
        timedOut,
        stdout: stripVTControlCharacters(Buffer.concat(stdout).toString('utf8')),
        stderr: stripVTControlCharacters(Buffer.concat(stderr).toString('utf8')),
        durationMs: Date.now() - started,
      });
    });
  });
}

/** Everything about a run, for an assertion message when it did not end as expected. */
export function describeRun(result: RunResult): string {
  const status = result.timedOut
    ? `timed out after ${result.durationMs} ms`
    : `exit ${result.exitCode ?? result.signal} in ${result.durationMs} ms`;
  return `$ ${result.command}\n(${status})\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`;
}
