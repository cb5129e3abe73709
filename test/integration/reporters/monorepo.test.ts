// A monorepo set up as docs/getting-started.md ("Monorepos and Vitest projects") says, run through a shell
// as a user runs it: Vitest's `projects: ['packages/*']` from the root (one reporter, one baseline, each
// package's config naming the setup file), then npm workspaces running each package on its own (the
// reporter and a baseline per package). The gate judges each package's baseline, and a package whose
// config has no reporter fails the CI run loudly instead of passing ungated.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureProject, type FixtureProject, type PackageSnapshot } from '../support/project.js';
import { describeRun, runCommand, type RunResult } from '../support/run.js';
import { preparePackage } from './support.js';

const FIXTURE = fileURLToPath(new URL('fixtures/monorepo', import.meta.url));

let pkg: PackageSnapshot;
let project: FixtureProject;

/** A command line run by sh at the repository's root, as a user types it (no CI unless the line sets it). */
function sh(command: string): Promise<RunResult> {
  return runCommand('sh', ['-c', command], {
    cwd: project.dir,
    timeoutMs: 120_000,
    env: {
      CI: undefined,
      RAG_BASELINE: undefined,
      RAG_PARTIAL: undefined,
      RAG_UNGATED: undefined,
      GITHUB_ACTIONS: undefined,
      GITHUB_STEP_SUMMARY: undefined,
      WORSE: undefined,
      // What a reporter of the run that started this test may have set for its own workers.
      RAG_MATCHERS_GATE: undefined,
      RAG_MATCHERS_UNGATED_SAID: undefined,
      TMPDIR: project.path('.tmp'),
    },
  });
}

beforeAll(async () => {
  pkg = await preparePackage();
  project = createFixtureProject({
    fixture: FIXTURE,
    name: 'rag-monorepo',
    packages: ['vitest'],
    links: { 'rag-matchers': pkg.dir },
  });
  mkdirSync(project.path('.tmp'));
  // What npm install adds: vitest's command in the root's node_modules/.bin, which npx and npm scripts run.
  mkdirSync(project.path('node_modules', '.bin'));
  symlinkSync('../vitest/vitest.mjs', project.path('node_modules', '.bin', 'vitest'));
}, 240_000);

afterAll(() => {
  project?.remove();
  pkg?.remove();
});

/** A package's config when each package runs on its own (`npm test --workspaces`): the reporter and its own baseline. */
const PACKAGE_CONFIG_WITH_REPORTER = `import { defineConfig } from 'vitest/config';
import { ragVitestReporter } from 'rag-matchers';

export default defineConfig({
  test: {
    setupFiles: ['rag-matchers/vitest'],
    reporters: ['default', ragVitestReporter({ baseline: 'rag-baseline.json', measures: ['hit@3', 'recall@5'] })],
  },
});
`;

describe('a monorepo', { timeout: 240_000 }, () => {
  it('projects from the root, then workspaces per package: each baseline gated, a missing gate fails CI', async () => {
    // Vitest projects from the root, as the docs write it: one baseline, suites told apart by project.
    const recorded = await sh('git init -q && RAG_BASELINE=update npx vitest run');
    expect(recorded.exitCode, describeRun(recorded)).toBe(0);
    expect(recorded.stdout).toContain('Updated rag-baseline.json: 8 samples added.');
    const rootBaseline = readFileSync(project.path('rag-baseline.json'), 'utf8');
    for (const name of ['api', 'web'])
      expect(rootBaseline).toContain(`["packages/${name}/test/search.test.ts", [], "${name}-q1", "hit@3", 1`);
    const worse = await sh('CI=true WORSE=api npx vitest run');
    expect(worse.exitCode, describeRun(worse)).toBe(1);
    expect(worse.stdout).toMatch(/\[api\] packages\/api\/test\/search\.test\.ts +hit@3 .* ▼ regressed\n/);
    expect(worse.stdout).toMatch(/\[web\] packages\/web\/test\/search\.test\.ts +hit@3 .* unchanged\n/);
    // Started with npx, the accept command is npx's (before: `RAG_BASELINE=update npm run npx -- --run`).
    expect(worse.stdout).toContain('accept it with: RAG_BASELINE=update npx vitest run\n');

    // npm workspaces, each package on its own: a reporter and a baseline per package.
    for (const name of ['api', 'web'])
      writeFileSync(project.path('packages', name, 'vitest.config.ts'), PACKAGE_CONFIG_WITH_REPORTER);
    const perPackage = await sh('RAG_BASELINE=update npm test --workspaces');
    expect(perPackage.exitCode, describeRun(perPackage)).toBe(0);
    expect(perPackage.stdout.match(/Updated rag-baseline\.json: 4 samples added\./g)).toHaveLength(2);
    for (const name of ['api', 'web'])
      expect(readFileSync(project.path('packages', name, 'rag-baseline.json'), 'utf8')).toContain(
        `["test/search.test.ts", [], "${name}-q1", "hit@3", 1`,
      );

    // web's config loses its reporter (back to the setup file alone): its CI run must not pass ungated.
    writeFileSync(
      project.path('packages', 'web', 'vitest.config.ts'),
      readFileSync(join(FIXTURE, 'packages', 'web', 'vitest.config.ts')),
    );
    const ci = await sh('CI=true WORSE=api npm test --workspaces');
    expect(ci.exitCode, describeRun(ci)).not.toBe(0);
    const output = ci.stdout + ci.stderr;
    // api's gate judges api's own baseline (npm runs each package's script in its folder: `npm test` there).
    expect(output).toMatch(/test\/search\.test\.ts +hit@3 .* ▼ regressed\n/);
    expect(output).toContain('accept it with: RAG_BASELINE=update npm test\n');
    expect(output).toContain(
      'rag-matchers: these tests record retrieval measures, but no rag-matchers reporter is in this run: nothing compares them with rag-baseline.json, and in CI that fails the run.',
    );
    expect(output).toMatch(/workspace web\n/);
  });
});
