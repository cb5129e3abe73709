// The matchers as Jest users use them: a CommonJS TypeScript project (ts-jest) with
// `setupFilesAfterEnv: ['rag-matchers/jest']`, the built package linked into its node_modules, run
// by a real `jest`. Tests use both the globals (@types/jest) and `import { expect } from '@jest/globals'`.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFixtureProject,
  describeRun,
  ensureBuilt,
  findTest,
  runJest,
  runTsc,
  snapshotPackage,
  type FixtureProject,
  type PackageSnapshot,
  type RunnerResult,
  type TscResult,
} from '../support/index.js';
import { documentedMessages } from './docs-samples.js';
import {
  CHUNK_DIAGNOSIS,
  EVERY_MATCHER,
  minUsageError,
  RECALL_FAILURE,
  RECALL_NOT_FAILURE,
  TOP_5,
} from './expected.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');

let snapshot: PackageSnapshot | undefined;
let project: FixtureProject | undefined;
let jest: RunnerResult;
let tsc: TscResult;

beforeAll(async () => {
  await ensureBuilt();
  snapshot = await snapshotPackage();
  project = createFixtureProject({
    fixture: resolve(FIXTURES, 'jest-project'),
    files: { 'test/data.ts': resolve(FIXTURES, 'shared/data.ts') },
    links: { 'rag-matchers': snapshot.dir },
    packages: ['jest', 'ts-jest', '@jest/globals', '@types/jest', 'typescript'],
  });
  [jest, tsc] = await Promise.all([runJest(project), runTsc(project)]);
}, 300_000);

afterAll(() => {
  project?.remove();
  snapshot?.remove();
});

const message = (name: string, file?: string) => findTest(jest.summary, name, file).messages.join('\n\n');
const GLOBALS = 'test/globals.test.ts';
const IMPORTED = 'test/jest-globals.test.ts';

describe('jest on a project with setupFilesAfterEnv: rag-matchers/jest', () => {
  it('exits 1 because tests fail on purpose, with no file-level error', () => {
    expect(jest.run.timedOut, describeRun(jest.run)).toBe(false);
    expect(jest.run.exitCode, describeRun(jest.run)).toBe(1);
    expect(jest.summary.success).toBe(false);
    expect(
      jest.summary.files.map(({ file, error }) => ({ file, error })).sort((a, b) => a.file.localeCompare(b.file)),
    ).toEqual([
      { file: 'test/every-matcher.test.ts', error: '' },
      { file: GLOBALS, error: '' },
      { file: IMPORTED, error: '' },
    ]);
    expect(jest.summary.tests).toHaveLength(31);
    expect(jest.summary.skipped).toEqual([]);
    expect(jest.run.stderr).not.toMatch(/ts-jest\[.*\] \(WARN\)|Test suite failed to run/);
  });

  it('passes exactly the tests meant to pass', () => {
    expect(jest.summary.passed).toEqual(
      [
        'passes > recall@5 meets 0.4',
        'passes > every metric matcher on the AI4J example',
        'passes > id matchers and targets',
        'passes > .not passes when recall@5 is below the minimum',
        'passes > asymmetric matcher inside toEqual',
        'passes > document granularity folds chunks into their document',
        'passes > .resolves',
        'imported expect passes > recall@5 meets 0.4, .not and asymmetric forms',
        'imported expect passes > document granularity folds chunks into their document',
      ].sort(),
    );
  });

  it('fails exactly the tests meant to fail', () => {
    expect(jest.summary.failed).toEqual(
      [
        'fails on purpose > recall@5 below 0.8',
        'fails on purpose > .not fails when recall@5 meets the minimum',
        'fails on purpose > asymmetric matcher inside toEqual',
        'fails on purpose > chunk hits against document annotations',
        'fails on purpose > min given as a percentage',
        'fails on purpose > usage error under .not',
        'fails on purpose > targets missed',
        'imported expect fails on purpose > recall@5 below 0.8',
        'imported expect fails on purpose > chunk hits against document annotations',
        ...EVERY_MATCHER.map((name) => `one failure per matcher > ${name}`),
      ].sort(),
    );
  });

  it('explains a failed threshold (global expect and imported expect alike)', () => {
    expect(message('fails on purpose > recall@5 below 0.8', GLOBALS)).toBe(RECALL_FAILURE);
    expect(message('imported expect fails on purpose > recall@5 below 0.8', IMPORTED)).toBe(
      RECALL_FAILURE.replace('  (query q7)', ''),
    );
  });

  it('says what .not expected instead', () => {
    expect(message('fails on purpose > .not fails when recall@5 meets the minimum')).toBe(RECALL_NOT_FAILURE);
  });

  it('fails an asymmetric matcher inside toEqual, naming it and its arguments in the diff', () => {
    const text = message('fails on purpose > asymmetric matcher inside toEqual');
    expect(text).toContain('expect(received).toEqual(expected) // deep equality');
    expect(text).toContain('-   "hits": toHaveRecallAtK<doc-1,doc-2,doc-3,doc-5,doc-6, 5, 0.8>,');
  });

  it('diagnoses document annotations against chunk hits', () => {
    const text = message('fails on purpose > chunk hits against document annotations', GLOBALS);
    expect(text).toContain('recall@2 = 0.00, needs ≥ 1.00');
    expect(text).toContain('Relevant not in the top 2: doc-1');
    expect(text).toContain(CHUNK_DIAGNOSIS);
    expect(message('imported expect fails on purpose > chunk hits against document annotations', IMPORTED)).toContain(
      CHUNK_DIAGNOSIS,
    );
  });

  it('fails a usage error (min = 80) with and without .not, as a Matcher error', () => {
    expect(message('fails on purpose > min given as a percentage')).toBe(
      minUsageError('expect(hits).toHaveRecallAtK(relevant, k, min)'),
    );
    expect(message('fails on purpose > usage error under .not')).toBe(
      minUsageError('expect(hits).not.toHaveRecallAtK(relevant, k, min)'),
    );
  });

  it('lists every target, met and missed', () => {
    const text = message('fails on purpose > targets missed');
    expect(text).toContain('1 of 2 targets met:\n  ✗ recall@5  0.40  needs ≥ 0.80\n  ✓ hit@1     1.00  needs ≥ 1.00');
    expect(text).toContain(TOP_5);
  });

  it('prints every failure message docs/matchers.md shows, one per matcher and the examples', () => {
    const documented = documentedMessages();
    expect([...documented.keys()].filter((name) => name.startsWith('one failure per matcher > ')).sort()).toEqual(
      EVERY_MATCHER.map((name) => `one failure per matcher > ${name}`).sort(),
    );
    expect(documented.size).toBeGreaterThan(EVERY_MATCHER.length);
    for (const [name, text] of documented) expect(message(name), name).toBe(text);
  });

  it('type-checks the fixture (globals and @jest/globals, "types": ["jest", "rag-matchers/jest"], Node16 CommonJS)', () => {
    expect(tsc.diagnostics).toEqual([]);
    expect(tsc.run.exitCode, describeRun(tsc.run)).toBe(0);
  });
});
