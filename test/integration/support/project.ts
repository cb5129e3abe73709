// A fixture project copied to a fresh temporary directory, with a node_modules/ that holds what a user
// would have installed: the package under test and the few tools the fixture names.
//
// How the linking works. node_modules/ is a real directory (Vite writes its config bundles and caches
// there, Jest's cache may go there, and nothing may be written into the repository's node_modules).
// In it, `rag-matchers` is a symlink to the repository root (the default) or to a snapshot of the
// built package (snapshotPackage, what the tests use), so the package resolves through its own
// package.json "exports" to dist/, as after `npm install`; every other package the fixture needs
// (vitest, jest, ts-jest, @jest/globals, typescript, @types/jest, …) is a symlink to the repository's
// installed copy. Only the named packages are linked, never the whole node_modules: a type test must
// see only the type packages its user would have (TypeScript includes every node_modules/@types/*
// when "types" is not set, so @types/jest would leak into an @jest/globals project).
// Transitive dependencies still resolve: Node, Vite, Jest and TypeScript follow a symlink to its real
// path (none of them preserves symlinks by default) and continue their lookup from there, i.e. from
// the repository's node_modules. For the same reason the runner a fixture loads and the one
// rag-matchers' dist files import are one and the same module instance. (The flip side: the
// package's own imports resolve from the repository's node_modules, so these projects do not check
// that package.json declares every dependency; a real install from the packed tarball would.)
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { exportTargets, REPO_ROOT } from './build.js';

export interface FixtureProjectOptions {
  /** The fixture directory to copy (its node_modules, if any, is not copied). */
  fixture: string;
  /** Packages to link from `from` (default the repository's node_modules), e.g. ['vitest', '@jest/globals']. */
  packages?: readonly string[];
  /** Extra links: package name → directory. Default `{ 'rag-matchers': REPO_ROOT }`. */
  links?: Readonly<Record<string, string>>;
  /** The node_modules the packages are linked from. */
  from?: string;
  /** Prefix of the temporary directory's name. */
  name?: string;
  /** Files to add: path in the project → file to copy (shared between fixtures). */
  files?: Readonly<Record<string, string>>;
}

export interface FixtureProject {
  /** The project's directory (a fresh directory under os.tmpdir()). */
  dir: string;
  /** Path of a file in the project. */
  path: (...segments: string[]) => string;
  /** Path of an installed package's file, e.g. bin('vitest', 'vitest.mjs'). */
  bin: (packageName: string, ...segments: string[]) => string;
  /** Removes the directory. Idempotent. */
  remove: () => void;
}

/** Links `packageName` (scoped or not) in `nodeModules` to `target`. */
export function linkPackage(nodeModules: string, packageName: string, target: string): void {
  if (!existsSync(join(target, 'package.json')))
    throw new Error(`cannot link ${packageName}: ${target} has no package.json (is it installed?)`);
  const link = join(nodeModules, packageName);
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(target, link, 'dir');
}

export interface PackageSnapshot {
  /** The snapshot's root: package.json, the "files" entries, and node_modules → the original's. */
  dir: string;
  remove: () => void;
}

function newestMtimeOf(paths: readonly string[]): number {
  return Math.max(0, ...paths.filter((path) => existsSync(path)).map((path) => statSync(path).mtimeMs));
}

/**
 * A copy of the built package as `npm pack` would ship it (package.json plus its "files"), taken
 * between two identical views of dist/ so that a build started by someone else in the same working
 * tree while the tests run cannot change or delete the files under the runners' feet. Its
 * node_modules is a symlink to the original's, so its dependencies and peer dependencies (vitest,
 * expect, …) resolve to the very copies the fixture projects link: one module instance each.
 */
export async function snapshotPackage(root: string = REPO_ROOT, attempts = 5): Promise<PackageSnapshot> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files?: string[] };
  const entries = ['package.json', ...(manifest.files ?? [])];
  const targets = exportTargets(root);
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const before = newestMtimeOf(targets);
    const missing = targets.filter((target) => !existsSync(target));
    const dir = mkdtempSync(join(tmpdir(), 'package-snapshot-'));
    const remove = () => rmSync(dir, { recursive: true, force: true });
    if (missing.length === 0) {
      try {
        for (const entry of entries)
          if (existsSync(join(root, entry))) cpSync(join(root, entry), join(dir, entry), { recursive: true });
        const complete = exportTargets(dir).every((target) => existsSync(target));
        if (complete && newestMtimeOf(targets) === before) {
          symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
          return { dir, remove };
        }
      } catch {
        // a file vanished mid-copy: a build is running; try again
      }
    }
    remove();
    await new Promise((resolve) => setTimeout(resolve, 2_000 * attempt));
  }
  throw new Error(
    `could not take a consistent snapshot of ${root}/dist: it kept changing (a build running elsewhere?)`,
  );
}

export function createFixtureProject(options: FixtureProjectOptions): FixtureProject {
  const from = options.from ?? join(REPO_ROOT, 'node_modules');
  const dir = mkdtempSync(join(tmpdir(), `${options.name ?? basename(options.fixture)}-`));
  cpSync(options.fixture, dir, {
    recursive: true,
    filter: (source) => basename(source) !== 'node_modules',
  });
  for (const [destination, source] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(dir, destination)), { recursive: true });
    cpSync(source, join(dir, destination));
  }
  const nodeModules = join(dir, 'node_modules');
  mkdirSync(nodeModules, { recursive: true });
  const links = { 'rag-matchers': REPO_ROOT, ...options.links };
  for (const [name, target] of Object.entries(links)) linkPackage(nodeModules, name, target);
  for (const name of options.packages ?? []) linkPackage(nodeModules, name, join(from, name));
  return {
    dir,
    path: (...segments) => join(dir, ...segments),
    bin: (packageName, ...segments) => join(nodeModules, packageName, ...segments),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
