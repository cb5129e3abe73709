// Vitest awaits a reporter's onTestModuleEnd before it answers the worker's last report, and the worker
// waits for that answer before the next file can start: the reporter must only note the module there,
// and collect it once the next file has started (or at the end of the run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { TestModule, Vitest } from 'vitest/node';
import type { ReportedModuleLike, ReportedTestLike } from '../../../src/vitest/collect.js';
import RagMatchersVitestReporter from '../../../src/vitest/reporter.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-vitest-hooks-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A module whose tests count how often they are read. */
function countingModule(name: string): { module: TestModule; reads: () => number } {
  let reads = 0;
  const tests: ReportedTestLike[] = [];
  const module: ReportedModuleLike = {
    type: 'module',
    moduleId: join(dir, name),
    relativeModuleId: name,
    children: {
      allTests: () => {
        reads++;
        return tests;
      },
    },
  };
  tests.push({ type: 'test', name: 'q1', parent: module, meta: () => ({}) });
  return { module: module as unknown as TestModule, reads: () => reads };
}

function startedReporter(): RagMatchersVitestReporter {
  const reporter = new RagMatchersVitestReporter({ baseline: join(dir, 'rag-baseline.json') });
  const vitest = { config: { root: dir, snapshotOptions: {} }, logger: { log() {}, error() {} } };
  reporter.onInit(vitest as unknown as Vitest);
  reporter.onTestRunStart();
  return reporter;
}

it('only notes a module when it ends, and collects it when the next module starts', () => {
  const reporter = startedReporter();
  const first = countingModule('a.test.ts');
  reporter.onTestModuleEnd(first.module);
  expect(first.reads()).toBe(0);

  reporter.onTestModuleStart();
  const readsWhenCollected = first.reads();
  expect(readsWhenCollected).toBeGreaterThan(0);

  // Collected once: a later module start does not read it again.
  const second = countingModule('b.test.ts');
  reporter.onTestModuleEnd(second.module);
  reporter.onTestModuleStart();
  expect(first.reads()).toBe(readsWhenCollected);
  expect(second.reads()).toBeGreaterThan(0);
});

it('forgets the modules noted in a run that starts again (watch mode)', () => {
  const reporter = startedReporter();
  const stale = countingModule('a.test.ts');
  reporter.onTestModuleEnd(stale.module);
  reporter.onTestRunStart();
  reporter.onTestModuleStart();
  expect(stale.reads()).toBe(0);
});
