// What `npm run demo` and `npm run demo:regression` share: where things are, building the package when
// dist/ is missing or older than its sources, and running the example's Vitest suite. Plain Node, no
// dependencies: these scripts must run on a fresh clone right after `npm ci`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** examples/orders-api */
export const exampleDir = fileURLToPath(new URL('..', import.meta.url));
/** The rag-matchers package this example lives in (the repository root). */
export const packageRoot = resolve(exampleDir, '../..');

/** A path as the user should type it from where they ran the script. */
export const shown = (path) => relative(process.cwd(), path) || '.';

/** What makes dist/ stale when it changes (as in the repository's own integration tests). */
const BUILD_INPUTS = ['src', 'matchers', 'package.json', 'tsup.config.ts', 'scripts'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Every ESM file package.json "exports" points at ("import" → "default"): all the demo runs. */
function exportTargets() {
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
  const targets = new Set();
  for (const target of Object.values(manifest.exports)) {
    if (typeof target === 'string') targets.add(target);
    else if (typeof target?.import === 'string') targets.add(target.import);
    else if (typeof target?.import?.default === 'string') targets.add(target.import.default);
  }
  return [...targets].filter((target) => !target.endsWith('package.json')).map((target) => join(packageRoot, target));
}

/** Whether dist/ holds every exported file, none older than the newest source. */
export function buildState() {
  const targets = exportTargets();
  const missing = targets.filter((target) => !existsSync(target));
  if (missing.length > 0) return { fresh: false, reason: `${shown(missing[0])} is missing` };
  // A copy of the built package without its sources (nothing to build from): use dist/ as it is.
  if (!existsSync(join(packageRoot, 'src'))) return { fresh: true, reason: 'built package' };
  const oldestOutput = Math.min(...targets.map((target) => statSync(target).mtimeMs));
  const newestInput = Math.max(...BUILD_INPUTS.map((input) => newestMtime(join(packageRoot, input))));
  return newestInput > oldestOutput
    ? { fresh: false, reason: 'the sources changed since the last build' }
    : { fresh: true, reason: 'up to date' };
}

/**
 * Runs `npm run build:js` in the package root when dist/ is missing or stale. The example imports the
 * package by its name, `rag-matchers`, which resolves (package self-reference) to dist/ as after an
 * install, so it needs a build — of the JavaScript only: the type declarations took most of the first
 * demo's two minutes, and Vitest does not read them. Returns false when the build failed.
 */
export function buildIfNeeded() {
  const state = buildState();
  if (state.fresh) {
    console.log(`rag-matchers: using the built package in ${shown(join(packageRoot, 'dist'))} (${state.reason}).`);
    return true;
  }
  console.log(
    `rag-matchers: building the package first, ${state.reason}: npm run build:js (ESM JavaScript only, a few seconds)`,
  );
  const result = spawnSync('npm', ['run', 'build:js'], {
    cwd: packageRoot,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    console.error(
      `rag-matchers: npm run build:js failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}); the demo cannot run without dist/.`,
    );
    return false;
  }
  return true;
}

/**
 * `vitest run` on the example's config, from the example's directory, output passed through.
 * Resolves with Vitest's exit code (1 when it was killed by a signal).
 */
export function runExampleTests(args = [], env = process.env) {
  const vitestPackage = createRequire(join(exampleDir, 'package.json')).resolve('vitest/package.json');
  const vitestBin = join(dirname(vitestPackage), JSON.parse(readFileSync(vitestPackage, 'utf8')).bin.vitest);
  console.log(`\n$ npx vitest run   (in ${shown(exampleDir)}, config vitest.config.ts)\n`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [vitestBin, 'run', '--config', join(exampleDir, 'vitest.config.ts'), ...args],
      {
        cwd: exampleDir,
        env,
        stdio: 'inherit',
      },
    );
    child.on('error', reject);
    child.on('close', (code) => resolvePromise(code ?? 1));
  });
}

/** The reports the example's vitest.config.ts asks for, in `dir` (relative to the example). */
export function reportPaths(dir) {
  return ['rag-report.json', 'rag-report.md', 'rag-report.html'].map((file) => join(exampleDir, dir, file));
}
