// Matchers that record with no rag-matchers reporter beside a baseline say that nothing compares them
// (and fail in CI), unless a reporter or a later merge judges the run, or the run is declared ungated.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  baselineNearby,
  blobReporterInArguments,
  checkGate,
  resetGateCheck,
} from '../../../src/recording/gate-presence.js';

const repository = mkdtempSync(join(tmpdir(), 'rag-gate-presence-'));
const pkg = join(repository, 'packages', 'api');
mkdirSync(join(repository, '.git'), { recursive: true });
mkdirSync(pkg, { recursive: true });
writeFileSync(join(repository, 'rag-baseline.json'), '{}');
const outside = mkdtempSync(join(tmpdir(), 'rag-gate-presence-plain-'));
mkdirSync(join(outside, 'sub'));
writeFileSync(join(outside, 'rag-baseline.json'), '{}');

afterAll(() => {
  rmSync(repository, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
afterEach(() => {
  resetGateCheck();
  vi.restoreAllMocks();
});

const WARNING =
  "rag-matchers: these tests record retrieval measures, but no rag-matchers reporter is in this run: nothing compares them with ../../rag-baseline.json. To gate them, add ragVitestReporter({ baseline: '../../rag-baseline.json' }) (from 'rag-matchers') to test.reporters in the Vitest config that ran these tests — in a monorepo, the package's own config; a command-line --reporter replaces the configured list, so add --reporter=rag-matchers/vitest-reporter to it (named there, it takes its default options: keep measures and other options by leaving the configured list in place). If this run is deliberately ungated, set RAG_UNGATED=1.";

describe('baselineNearby', () => {
  it('the package folder, then each folder up to the repository root', () => {
    expect(baselineNearby(pkg)).toBe(join(repository, 'rag-baseline.json'));
  });
  it('outside a repository, only the folder itself', () => {
    expect(baselineNearby(join(outside, 'sub'))).toBeUndefined();
    expect(baselineNearby(outside)).toBe(join(outside, 'rag-baseline.json'));
  });
});

describe('checkGate', () => {
  it('no reporter, a baseline at the repository root: one warning per worker naming the reporter and the config', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const env: Record<string, string | undefined> = {};
    checkGate('vitest', env, pkg, () => []);
    checkGate('vitest', env, pkg, () => []);
    // The next test file of the same worker (a fresh module instance under Vitest's isolation) is silent.
    resetGateCheck();
    checkGate('vitest', env, pkg, () => []);
    expect(warn.mock.calls).toEqual([[WARNING]]);
  });

  it('in CI it throws, failing the asserting test; Jest names its reporter', () => {
    expect(() => checkGate('jest', { CI: 'true' }, pkg, () => [])).toThrow(
      "rag-matchers: these tests record retrieval measures, but no rag-matchers reporter is in this run: nothing compares them with ../../rag-baseline.json, and in CI that fails the run. To gate them, add ragJestReporter({ baseline: '../../rag-baseline.json' }) (from 'rag-matchers') to reporters in the Jest config that ran these tests — in a monorepo, the package's own config; a command-line --reporters replaces the configured list, so add --reporters=rag-matchers/jest-reporter to it (named there, it takes its default options: keep measures and other options by leaving the configured list in place). If this run is deliberately ungated, set RAG_UNGATED=1.",
    );
  });

  it('silent with a reporter (or a later merge, blob reports), with RAG_UNGATED=1, or with no baseline nearby', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const env of [{ RAG_MATCHERS_GATE: 'vitest' }, { RAG_MATCHERS_GATE: 'deferred' }, { RAG_UNGATED: '1' }]) {
      resetGateCheck();
      expect(() => checkGate('vitest', { CI: 'true', ...env }, pkg, () => [])).not.toThrow();
    }
    // A Vitest run with the blob reporter on its command line, which the worker reads (without the config helper).
    resetGateCheck();
    expect(() =>
      checkGate('vitest', { CI: 'true' }, pkg, () => ['node', 'vitest.mjs', 'run', '--shard=1/2', '--reporter=blob']),
    ).not.toThrow();
    resetGateCheck();
    checkGate('vitest', { CI: 'true' }, join(outside, 'sub'), () => []);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('blobReporterInArguments', () => {
  it('reads both spellings of the blob reporter and nothing else', () => {
    expect(blobReporterInArguments(['node', 'vitest', 'run', '--reporter=blob'])).toBe(true);
    expect(blobReporterInArguments(['node', 'vitest', 'run', '--reporter', 'blob'])).toBe(true);
    expect(blobReporterInArguments(['node', 'vitest', 'run', '--reporter=dot'])).toBe(false);
  });
});
