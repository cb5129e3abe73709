// The command the merge driver prints to re-record one suite, for Jest: run as written through a shell
// (`npx jest` from the project's node_modules/.bin), it re-runs that suite's tests and no other, and
// updates that suite's rows only. (Vitest's form is checked in baseline-merge.test.ts.)
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { suiteUpdateCommand } from '../../../src/report/wording.js';
import type { PackageSnapshot } from '../support/project.js';
import { describeRun, runCommand } from '../support/run.js';
import { createReporterProject, preparePackage, suitesByName, type ReporterProject } from './support.js';

let pkg: PackageSnapshot;
let project: ReporterProject;

function sh(command: string, env: Record<string, string> = {}) {
  return runCommand('sh', ['-c', command], {
    cwd: project.dir,
    timeoutMs: 120_000,
    env: { CI: undefined, RAG_BASELINE: undefined, TMPDIR: project.tmp, RETRIEVER: 'baseline', ...env },
  });
}

beforeAll(async () => {
  pkg = await preparePackage();
  project = createReporterProject('jest', pkg);
  mkdirSync(project.path('node_modules', '.bin'));
  symlinkSync('../jest/bin/jest.js', project.path('node_modules', '.bin', 'jest'));
}, 120_000);

afterAll(() => {
  project?.remove();
  pkg?.remove();
});

it("re-records just the suite the merge driver names, with Jest's -t filter", { timeout: 240_000 }, async () => {
  const record = await sh('RAG_BASELINE=update npx jest --runInBand');
  expect(record.exitCode, describeRun(record)).toBe(0);
  const before = suitesByName(readFileSync(project.path('rag-baseline.json'), 'utf8'));

  const command = suiteUpdateCommand({ file: 'test/orders.test.js', describe: ['orders API', 'refunds'] }, 'jest');
  expect(command).toBe("RAG_BASELINE=update npx jest test/orders.test.js -t 'orders API refunds '");
  const rerecord = await sh(command, { RETRIEVER: 'worse' });
  expect(rerecord.exitCode, describeRun(rerecord)).toBe(0);
  // Jest ran the 3 refunds questions and skipped the 2 shipping ones; account.test.js did not run.
  expect(rerecord.stderr).toMatch(/Tests: +2 skipped, 3 passed, 5 total/);

  const after = suitesByName(readFileSync(project.path('rag-baseline.json'), 'utf8'));
  const refunds = 'test/orders.test.js > orders API > refunds';
  expect(after[refunds]).not.toEqual(before[refunds]);
  expect({ ...after, [refunds]: undefined }).toEqual({ ...before, [refunds]: undefined });
});
