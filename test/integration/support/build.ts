// Makes sure the package is built (dist/ fresh) before an integration test uses it as users do.
// Several test files run in parallel workers and each calls ensureBuilt(): a lock directory makes
// one of them build while the others wait, and the freshness check makes the common case (already
// built, e.g. by `npm test`, which builds before vitest runs) cost a few stat calls.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from './run.js';

/** The repository root (this file is test/integration/support/build.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface EnsureBuiltOptions {
  /** Package root; default the repository root. */
  root?: string;
  /** Inputs (files or directories, relative to root) whose change makes dist stale. */
  inputs?: readonly string[];
  /** How long a build may take. */
  timeoutMs?: number;
  /** How long to wait for another process's build before giving up. */
  lockTimeoutMs?: number;
}

export interface BuildState {
  fresh: boolean;
  reason: string;
}

const DEFAULT_INPUTS = ['src', 'matchers', 'package.json', 'tsup.config.ts', 'scripts'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Every file package.json "exports" points at (types and code, all conditions). */
export function exportTargets(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports?: unknown };
  const targets = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') targets.add(value);
    else if (value !== null && typeof value === 'object') for (const nested of Object.values(value)) walk(nested);
  };
  walk(manifest.exports);
  return [...targets].filter((target) => !target.includes('*')).map((target) => join(root, target));
}

/** Whether dist/ holds every exported file and none is older than the newest input. */
export function buildState(options: EnsureBuiltOptions = {}): BuildState {
  const root = options.root ?? REPO_ROOT;
  const targets = exportTargets(root).filter((target) => !target.endsWith('package.json'));
  const missing = targets.filter((target) => !existsSync(target));
  if (missing.length > 0)
    return { fresh: false, reason: `missing ${missing.map((file) => file.slice(root.length + 1)).join(', ')}` };
  const oldestOutput = Math.min(...targets.map((target) => statSync(target).mtimeMs));
  const newestInput = Math.max(...(options.inputs ?? DEFAULT_INPUTS).map((input) => newestMtime(join(root, input))));
  return newestInput > oldestOutput
    ? { fresh: false, reason: 'sources changed since the last build' }
    : { fresh: true, reason: 'fresh' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes a lock shared by every process of this user on this machine for `root`; returns its release. */
async function acquireLock(root: string, timeoutMs: number): Promise<() => void> {
  const lock = join(tmpdir(), `rag-matchers-build-${createHash('sha1').update(root).digest('hex').slice(0, 12)}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a killed run: older than any build can take.
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held !== undefined && Date.now() - held.mtimeMs > timeoutMs) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${lock}`);
      await sleep(250);
    }
  }
}

/**
 * Builds the package (`npm run build`) unless dist/ is fresh. Throws with the build output when the
 * build fails. Returns what it did, for logging.
 */
export async function ensureBuilt(options: EnsureBuiltOptions = {}): Promise<BuildState & { built: boolean }> {
  const root = options.root ?? REPO_ROOT;
  const first = buildState(options);
  if (first.fresh) return { ...first, built: false };
  const release = await acquireLock(root, options.lockTimeoutMs ?? 180_000);
  try {
    const again = buildState(options);
    if (again.fresh) return { ...again, built: false };
    const result = await runCommand('npm', ['run', 'build'], { cwd: root, timeoutMs: options.timeoutMs ?? 180_000 });
    if (result.exitCode !== 0) {
      throw new Error(
        `npm run build failed (${again.reason}), exit ${result.exitCode}:\n${result.stdout}\n${result.stderr}`,
      );
    }
    // Sources edited during the build leave dist a build of slightly older sources: usable. A missing
    // export target is not.
    const after = buildState(options);
    if (after.reason.startsWith('missing'))
      throw new Error(`npm run build succeeded but dist/ is incomplete: ${after.reason}`);
    return { ...again, built: true };
  } finally {
    release();
  }
}
