// The commands the Vitest reporter prints, copied from its output and run as printed through a shell in
// a project whose tests run with `npm test`: the command that runs the whole suite after a `-t` run (and
// RAG_PARTIAL=1, the other remedy printed beside it), and the prune command after a test file was
// deleted. Each clears the finding it was printed for. (Jest's shard merge command, as printed, is run in
// topologies.test.ts; the re-record commands in rerecord-suite.test.ts and baseline-merge.test.ts.)
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageSnapshot } from '../support/project.js';
import { describeRun, runCommand, type RunResult } from '../support/run.js';
import { createReporterProject, preparePackage, type ReporterProject } from './support.js';

let pkg: PackageSnapshot;
let project: ReporterProject;

/** A command line run by sh in the project, as a user types it (no CI unless the line sets it). */
function sh(command: string): Promise<RunResult> {
  return runCommand('sh', ['-c', command], {
    cwd: project.dir,
    timeoutMs: 120_000,
    env: {
      CI: undefined,
      RAG_BASELINE: undefined,
      RAG_PARTIAL: undefined,
      GITHUB_ACTIONS: undefined,
      GITHUB_STEP_SUMMARY: undefined,
      RETRIEVER: 'baseline',
      TMPDIR: project.tmp,
    },
  });
}

/** The one command in `output` that the text before it introduces (`… the whole suite, ` → `npm test`). */
function printedCommand(output: string, pattern: RegExp): string {
  const match = pattern.exec(output);
  if (match === null) throw new Error(`no command matching ${pattern} in:\n${output}`);
  return match[1]!;
}

beforeAll(async () => {
  pkg = await preparePackage();
  project = createReporterProject('vitest', pkg);
  writeFileSync(
    project.path('package.json'),
    '{ "name": "rag-printed-commands", "private": true, "type": "module", "scripts": { "test": "vitest run" } }\n',
  );
  // What npm install adds: vitest's command in node_modules/.bin, which the npm script runs.
  mkdirSync(project.path('node_modules', '.bin'));
  symlinkSync('../vitest/vitest.mjs', project.path('node_modules', '.bin', 'vitest'));
}, 240_000);

afterAll(() => {
  project?.remove();
  pkg?.remove();
});

describe('printed commands, run as printed', { timeout: 240_000 }, () => {
  it('the whole-suite command after a -t run, RAG_PARTIAL=1, and the prune command each clear their finding', async () => {
    const recorded = await sh('RAG_BASELINE=update npm test');
    expect(recorded.exitCode, describeRun(recorded)).toBe(0);

    // A -t run in CI judges the account questions only: the orders questions are not judged.
    const filter = "-t 'resets a forgotten password|changes the e-mail address'";
    const filtered = await sh(`CI=true npm test -- ${filter}`);
    expect(filtered.exitCode, describeRun(filtered)).toBe(1);
    expect(filtered.stdout).toContain('filtered out of this run');
    const wholeSuite = printedCommand(filtered.stdout, /run the whole suite, (.+?), or set RAG_PARTIAL=1 on a job/);
    expect(wholeSuite).toBe('npm test');

    // The other remedy printed beside it: the same subset declared deliberate passes.
    const partial = await sh(`CI=true RAG_PARTIAL=1 npm test -- ${filter}`);
    expect(partial.exitCode, describeRun(partial)).toBe(0);

    // A deleted test file: the whole-suite command, as printed, judges every question that still has a
    // test (no "not judged" finding), and fails on the gone suite, printing the prune command.
    rmSync(project.path('test/account.test.ts'));
    const gone = await sh(`CI=true ${wholeSuite}`);
    expect(gone.exitCode, describeRun(gone)).toBe(1);
    expect(gone.stdout).not.toContain('not judged');
    const prune = printedCommand(gone.stdout, /run (RAG_BASELINE=prune .+?) and commit/);
    expect(prune).toBe('RAG_BASELINE=prune npm test');
    const pruned = await sh(prune);
    expect(pruned.exitCode, describeRun(pruned)).toBe(0);
    expect(pruned.stdout).toContain('Updated rag-baseline.json');

    const green = await sh(`CI=true ${wholeSuite}`);
    expect(green.exitCode, describeRun(green)).toBe(0);
    expect(green.stdout).toContain('No retrieval regressions');
  });
});
