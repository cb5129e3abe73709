// Whether a rag-matchers reporter will judge what the matchers record. The reporters (and the Vitest
// config helper, for a run whose blob reports a later merge judges) say so in the environment before
// the test workers start; a worker whose matchers record with no such word, beside a baseline file
// where the docs put it, says that nothing compares them with it — and fails in CI, unless the run is
// declared ungated (RAG_UNGATED=1). Test workers see neither the runner's reporter list (Vitest's
// worker config holds none) nor its command line, only the environment they inherit.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Set by a reporter before the workers start: `vitest`, `jest`, or `deferred` (blob reports merged later). */
const GATE_ENV = 'RAG_MATCHERS_GATE';
/** `RAG_UNGATED=1`: the run is deliberately ungated (no reporter on purpose). */
const UNGATED_ENV = 'RAG_UNGATED';
/** The baseline's file name where the docs put it. */
const BASELINE_FILE = 'rag-baseline.json';

type GateKind = 'vitest' | 'jest' | 'deferred';

/** Tells the workers a reporter (or a later merge) judges this run; call before they start. */
export function publishGate(kind: GateKind, env: Record<string, string | undefined> = process.env): void {
  env[GATE_ENV] = kind;
}

/** `CI` set to anything but `false`/`0`: the one rule for whether a run is in CI. */
export function isCiEnvironment(env: Record<string, string | undefined>): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * The baseline file a gate would read: `rag-baseline.json` in `start` or a folder above it, up to the
 * repository root (the folder holding `.git`); only `start` when there is no repository.
 */
export function baselineNearby(start: string): string | undefined {
  let root: string | undefined;
  for (let folder = start; root === undefined; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) root = folder;
    else if (dirname(folder) === folder) break;
  }
  const folders = [start];
  if (root !== undefined)
    for (let folder = start; folder !== root; folder = dirname(folder)) folders.push(dirname(folder));
  return folders.map((folder) => join(folder, BASELINE_FILE)).find((file) => existsSync(file));
}

/** The message for matchers that record with no reporter beside a baseline. */
function ungatedMessage(runner: 'vitest' | 'jest', baseline: string, ci: boolean): string {
  const add =
    runner === 'vitest'
      ? `add ragVitestReporter({ baseline: '${baseline}' }) (from 'rag-matchers') to test.reporters in the Vitest config that ran these tests — in a monorepo, the package's own config; a command-line --reporter replaces the configured list, so add --reporter=rag-matchers/vitest-reporter to it (named there, it takes its default options: keep measures and other options by leaving the configured list in place)`
      : `add ragJestReporter({ baseline: '${baseline}' }) (from 'rag-matchers') to reporters in the Jest config that ran these tests — in a monorepo, the package's own config; a command-line --reporters replaces the configured list, so add --reporters=rag-matchers/jest-reporter to it (named there, it takes its default options: keep measures and other options by leaving the configured list in place)`;
  return (
    `rag-matchers: these tests record retrieval measures, but no rag-matchers reporter is in this run: nothing compares them with ${baseline}${ci ? ', and in CI that fails the run' : ''}. ` +
    `To gate them, ${add}. If this run is deliberately ungated, set ${UNGATED_ENV}=1.`
  );
}

/**
 * The runner's command line as a worker can read it: its own (a thread shares the main process's) and,
 * on Linux, its parent's (a forked worker's parent is the runner). Empty where neither says more.
 */
function runnerArguments(): string[] {
  const own = [...process.argv];
  try {
    return [...own, ...readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0')];
  } catch {
    return own;
  }
}

/** Blob reports carry the samples to a later `--merge-reports`, which judges them (`--reporter=blob`, `--reporter blob`). */
export function blobReporterInArguments(argv: readonly string[]): boolean {
  return argv.some(
    (argument, position) =>
      argument === '--reporter=blob' || (argument === '--reporter' && argv[position + 1] === 'blob'),
  );
}

let checked = false;
/**
 * Set once a worker has said it: the environment outlives the module instances Vitest's isolation
 * gives each test file, so a worker says it once rather than once per file.
 */
const SAID_ENV = 'RAG_MATCHERS_UNGATED_SAID';

/**
 * Once per worker, on its first sample: when no reporter judges this run and a baseline sits where the
 * docs put it, warns (outside CI) or throws (in CI, failing the asserting test) with what to add.
 */
export function checkGate(
  runner: 'vitest' | 'jest',
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
  argv: () => readonly string[] = runnerArguments,
): void {
  if (checked) return;
  checked = true;
  if ((env[GATE_ENV] ?? '') !== '' || env[SAID_ENV] === '1') return;
  const ungated = env[UNGATED_ENV]?.trim().toLowerCase();
  if (ungated === '1' || ungated === 'true') return;
  if (runner === 'vitest' && blobReporterInArguments(argv())) return;
  const baseline = baselineNearby(cwd);
  if (baseline === undefined) return;
  const shown = relative(cwd, baseline).split('\\').join('/') || BASELINE_FILE;
  const ci = isCiEnvironment(env);
  const message = ungatedMessage(runner, shown, ci);
  env[SAID_ENV] = '1';
  if (ci) throw new Error(message);
  console.warn(message);
}

/** For tests: the next sample checks again. */
export function resetGateCheck(): void {
  checked = false;
}
