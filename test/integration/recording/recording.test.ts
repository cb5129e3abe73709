// Declared measures on real runners: the reporter declares ['hit@1', 'recall@3', 'mrr@10'] and every
// question records all three whichever matcher runs first and whether it passes (judged@k, declared in
// any spelling, as well); the baseline an update writes holds the new values of a question whose first
// assertion fails. Plus the runner corners: a Jest retry keeps only the attempt that counted,
// test.concurrent attributes each sample to its own test, an empty Jest shard still writes its shard
// report, and one Vitest file run by two projects records each project's samples apart, naming the project.
// And a run whose matchers were never registered (a project the root's setupFiles do not reach, a Jest
// config without the setup file) says what to add and where; the printed fix clears it.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';
import {
  createFixtureProject,
  snapshotPackage,
  type FixtureProject,
  type PackageSnapshot,
} from '../support/project.js';
import { describeRun, runCommand, type RunResult } from '../support/run.js';
import { parseBaseline } from '../../../src/baseline/file/read.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const MRR_RANK_3 = 1 / 3;

type Runner = 'vitest' | 'jest';

function createProject(runner: Runner, pkg: PackageSnapshot): FixtureProject {
  return createFixtureProject({
    fixture: join(FIXTURES, `${runner}-project`),
    name: `rag-recording-${runner}`,
    packages: [runner],
    links: { 'rag-matchers': pkg.dir },
  });
}

function run(
  project: FixtureProject,
  runner: Runner,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<RunResult> {
  const command =
    runner === 'vitest'
      ? [project.bin('vitest', 'vitest.mjs'), 'run', ...args]
      : [project.bin('jest', 'bin', 'jest.js'), ...args];
  return runCommand(process.execPath, command, {
    cwd: project.dir,
    timeoutMs: 90_000,
    env: {
      CI: undefined,
      RAG_BASELINE: undefined,
      GITHUB_ACTIONS: undefined,
      GITHUB_STEP_SUMMARY: undefined,
      RETRIEVER: 'baseline',
      SUITES: undefined,
      MEASURES: undefined,
      ...env,
    },
  });
}

/**
 * Every number in the baseline file with the keys that lead to it. The checks below name a question
 * and a measure, not the file's layout: the file is read as the reporters read it.
 */
function leaves(value: unknown, path: string[] = []): { path: string[]; value: number }[] {
  if (typeof value === 'number') return [{ path, value }];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, [...path, key]));
}

/** The values the baseline holds for this question and measure (one per recorded sample). */
function baselineValues(project: FixtureProject, question: string, measure: string): number[] {
  const baseline = parseBaseline(readFileSync(project.path('rag-baseline.json'), 'utf8'), 'rag-baseline.json');
  return leaves(baseline.suites)
    .filter(
      (leaf) =>
        leaf.path.includes(measure) && leaf.path.some((key) => key === question || key.startsWith(`${question}#`)),
    )
    .map((leaf) => leaf.value);
}

function expectQuestion(project: FixtureProject, question: string, expected: Record<string, number>): void {
  for (const [measure, value] of Object.entries(expected)) {
    const values = baselineValues(project, question, measure);
    expect(values, `${question} ${measure}`).toHaveLength(1);
    expect(values[0], `${question} ${measure}`).toBeCloseTo(value, 12);
  }
}

let pkg: PackageSnapshot;

beforeAll(async () => {
  await ensureBuilt();
  pkg = await snapshotPackage();
}, 240_000);

afterAll(() => pkg?.remove());

describe.each(['vitest', 'jest'] as const)('declared measures with %s', { timeout: 180_000 }, (runner) => {
  let project: FixtureProject;
  beforeAll(() => {
    project = createProject(runner, pkg);
  });
  afterAll(() => project?.remove());

  it('every question records all declared measures, and an update writes the new values of a question whose first assertion fails', async () => {
    const files = runner === 'jest' ? ['test/questions.test.js'] : ['test/questions.test.ts'];
    const first = await run(project, runner, files, { RAG_BASELINE: 'update' });
    expect(first.exitCode, describeRun(first)).toBe(0);
    // q-ok only asserted recall@3; the declaration recorded hit@1 and mrr@10 too.
    expectQuestion(project, 'q-ok', { 'hit@1': 1, 'recall@3': 1, 'mrr@10': 1 });
    expectQuestion(project, 'q-first-fails', { 'hit@1': 1, 'recall@3': 1, 'mrr@10': 1 });

    // Worse: q-first-fails gets c, d, a: hit@1 fails first and throws; recall@3 = 1/2, mrr@10 = 1/3 are recorded anyway.
    const worse = await run(project, runner, files, { RAG_BASELINE: 'update', RETRIEVER: 'worse' });
    expect(worse.exitCode, describeRun(worse)).toBe(1);
    expect(worse.stdout + worse.stderr).toMatch(/toHaveHitAtK/);
    expectQuestion(project, 'q-first-fails', { 'hit@1': 0, 'recall@3': 0.5, 'mrr@10': MRR_RANK_3 });
    expectQuestion(project, 'q-ok', { 'hit@1': 1, 'recall@3': 1, 'mrr@10': 1 });
  });

  it("the reporter's measures option takes judged@k in any spelling and records it under its canonical name", async () => {
    const file = runner === 'jest' ? 'test/questions.test.js' : 'test/questions.test.ts';
    const measures = JSON.stringify(['judged@3', 'Judged@1']);
    const result = await run(project, runner, [file], { RAG_BASELINE: 'update', MEASURES: measures });
    expect(result.exitCode, describeRun(result)).toBe(0);
    // Both questions get a, b, c. q-ok judges a only: 1/3 at 3, 1/1 at 1; q-first-fails judges a and b: 2/3 and 1.
    expectQuestion(project, 'q-ok', { 'judged@3': 1 / 3, 'judged@1': 1 });
    expectQuestion(project, 'q-first-fails', { 'judged@3': 2 / 3, 'judged@1': 1 });
    expect(baselineValues(project, 'q-ok', 'Judged@1')).toEqual([]);
  });
});

describe.each(['vitest', 'jest'] as const)('per-suite overrides with %s', { timeout: 180_000 }, (runner) => {
  let project: FixtureProject;
  beforeAll(() => {
    project = createProject(runner, pkg);
  });
  afterAll(() => project?.remove());

  const file = runner === 'jest' ? 'test/questions.test.js' : 'test/questions.test.ts';

  it('an override replaces the declared measures of its suite', async () => {
    const suites = JSON.stringify({ [`${file} > faq`]: { measures: ['ndcg@3'] } });
    const result = await run(project, runner, [file], { RAG_BASELINE: 'update', SUITES: suites });
    expect(result.exitCode, describeRun(result)).toBe(0);
    // q-ok gets a at rank 1 of one relevant id: nDCG@3 = 1; the project's measures are not recorded for this suite.
    expectQuestion(project, 'q-ok', { 'ndcg@3': 1 });
    expect(baselineValues(project, 'q-ok', 'hit@1')).toEqual([]);
  });

  it('an override naming no suite fails the run naming the key and the suites the file has, and leaves the baseline as it was', async () => {
    const before = readFileSync(project.path('rag-baseline.json'));
    const suites = JSON.stringify({
      [`${file} > faq`]: { measures: ['ndcg@3'] },
      [`${file} > fqa`]: { measures: ['recall@10'] },
      'test/missing.test.ts': { measures: ['recall@10'] },
    });
    const result = await run(project, runner, [file], { SUITES: suites });
    expect(result.exitCode, describeRun(result)).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toContain('a per-suite measures override names no suite');
    expect(output).toContain(`suites["${file} > fqa"] names no suite that ran; suites of ${file}: "${file} > faq".`);
    expect(output).toContain('suites["test/missing.test.ts"]: no test file test/missing.test.ts');
    expect(readFileSync(project.path('rag-baseline.json'))).toEqual(before);
  });
});

describe('jest runner corners', { timeout: 180_000 }, () => {
  let project: FixtureProject;
  beforeAll(() => {
    project = createProject('jest', pkg);
  });
  afterAll(() => project?.remove());

  it('a retried test keeps only the attempt that counted; test.concurrent files each sample under its own test', async () => {
    const result = await run(project, 'jest', ['--maxWorkers=2', 'test/retry.test.js', 'test/concurrent.test.js'], {
      RAG_BASELINE: 'update',
    });
    expect(result.exitCode, describeRun(result)).toBe(0);
    // The first attempt (x, y, a: hit@1 0, mrr@10 1/3) is gone: one sample per measure, the retry's.
    expectQuestion(project, 'flaky', { 'hit@1': 1, 'recall@3': 1, 'mrr@10': 1 });
    // The slow test asserts after the fast one started: its sample is still its own.
    expectQuestion(project, 'slow question', { 'hit@1': 1, 'mrr@10': 1 });
    expectQuestion(project, 'fast question', { 'hit@1': 0, 'mrr@10': 0.5 });
  });

  it('an empty shard writes an empty shard report, and merge accepts the set', async () => {
    rmSync(project.path('rag-baseline.json'), { force: true });
    // Three test files over four shards: at least one shard runs nothing, and Jest stops it ("No tests found") before any reporter starts.
    const shards = [1, 2, 3, 4];
    const results = [];
    for (const index of shards) results.push(await run(project, 'jest', [`--shard=${index}/4`]));
    const reports = shards.map(
      (index) =>
        JSON.parse(readFileSync(project.path(`rag-shard-${index}-of-4.json`), 'utf8')) as {
          samples: unknown[];
          files: string[];
        },
    );
    const empty = shards.filter((_, position) => reports[position]!.files.length === 0);
    expect(empty.length, results.map((result) => describeRun(result)).join('\n')).toBeGreaterThan(0);
    for (const index of empty) {
      expect(reports[index - 1]!.samples).toEqual([]);
      expect(results[index - 1]!.stderr).toContain(
        `shard ${index}/4 ran no test file; wrote the empty rag-shard-${index}-of-4.json`,
      );
    }
    const merged = await runCommand(
      process.execPath,
      [
        project.bin('rag-matchers', 'dist', 'cli.js'),
        'merge',
        ...shards.map((index) => `rag-shard-${index}-of-4.json`),
      ],
      {
        cwd: project.dir,
        timeoutMs: 30_000,
        env: { CI: undefined, RAG_BASELINE: undefined },
      },
    );
    expect(merged.exitCode, describeRun(merged)).toBe(0);
  });
});

describe('one vitest file in two projects', { timeout: 180_000 }, () => {
  let project: FixtureProject;
  beforeAll(() => {
    project = createProject('vitest', pkg);
  });
  afterAll(() => project?.remove());

  it('each project records its own samples, and its module names the project', async () => {
    const result = await run(project, 'vitest', ['--config', 'vitest.projects.config.ts']);
    expect(result.exitCode, describeRun(result)).toBe(1); // the worse project's q-first-fails fails
    const rows = JSON.parse(readFileSync(project.path('projects.json'), 'utf8')) as {
      project: string;
      test: string;
      samples: { measure: string; value: number }[];
    }[];
    const recall = (projectName: string, test: string) =>
      rows
        .filter((row) => row.project === projectName && row.test === test)
        .flatMap((row) => row.samples.filter((sample) => sample.measure === 'recall@3').map((sample) => sample.value));
    expect(recall('baseline', 'q-first-fails')).toEqual([1]);
    expect(recall('worse', 'q-first-fails')).toEqual([0.5]);
    expect(recall('baseline', 'q-ok')).toEqual([1]);
    expect(recall('worse', 'q-ok')).toEqual([1]);
  });
});

describe('a Vitest project the root setupFiles do not reach', { timeout: 180_000 }, () => {
  let project: FixtureProject;
  beforeAll(() => {
    project = createProject('vitest', pkg);
  });
  afterAll(() => project?.remove());

  it('the reporter says what to add and where, names the known miss, and the printed fix clears it', async () => {
    const config = ['--config', 'vitest.setup-missing.config.ts'];
    const missing = await run(project, 'vitest', config);
    expect(missing.exitCode, describeRun(missing)).toBe(1);
    expect(missing.stdout).toContain(
      "2 tests failed because the rag-matchers matchers are not registered (Invalid Chai property: toHaveRecallAtK), in [api] test/questions.test.ts. The root config's setupFiles do not reach its projects. Add setupFiles: ['rag-matchers/vitest'] to the test options of project api (inline in vitest.setup-missing.config.ts; or give it extends: true).\n" +
        'These known misses (test.fails) passed only because the matcher did not exist: [api] setup/known-miss.test.ts > q-known-miss.',
    );
    const fixed = await run(project, 'vitest', config, { EXTENDS: '1' });
    expect(fixed.exitCode, describeRun(fixed)).toBe(0);
    expect(fixed.stdout).not.toContain('not registered');
    expect(fixed.stdout).toContain('No baseline yet');
  });
});

describe('a Jest config without the setup file', { timeout: 180_000 }, () => {
  let project: FixtureProject;
  beforeAll(() => {
    project = createProject('jest', pkg);
  });
  afterAll(() => project?.remove());

  it('a command line whose --reporters drops ours fails in CI naming it; the printed flag keeps the gate', async () => {
    // No declared measures: a reporter named on the command line has its default options.
    const files = ['test/questions.test.js'];
    const undeclared = { MEASURES: '[]' };
    const recorded = await run(project, 'jest', files, { ...undeclared, RAG_BASELINE: 'update' });
    expect(recorded.exitCode, describeRun(recorded)).toBe(0);
    const dropped = await run(project, 'jest', [...files, '--reporters=default'], { ...undeclared, CI: 'true' });
    expect(dropped.exitCode, describeRun(dropped)).toBe(1);
    expect(dropped.stderr).toContain(
      "nothing compares them with rag-baseline.json, and in CI that fails the run. To gate them, add ragJestReporter({ baseline: 'rag-baseline.json' }) (from 'rag-matchers') to reporters in the Jest config that ran these tests — in a monorepo, the package's own config; a command-line --reporters replaces the configured list, so add --reporters=rag-matchers/jest-reporter to it (named there, it takes its default options: keep measures and other options by leaving the configured list in place).",
    );
    const kept = await run(
      project,
      'jest',
      [...files, '--reporters=default', '--reporters=rag-matchers/jest-reporter'],
      { ...undeclared, CI: 'true' },
    );
    expect(kept.exitCode, describeRun(kept)).toBe(0);
    expect(kept.stderr).toContain('No retrieval regressions');
  });

  it('the reporter says to add setupFilesAfterEnv to jest.config.js and names the test.failing known miss', async () => {
    const files = ['--testMatch=<rootDir>/test/questions.test.js', '--testMatch=<rootDir>/setup/known-miss.test.js'];
    const missing = await run(project, 'jest', files, { NO_SETUP: '1' });
    expect(missing.exitCode, describeRun(missing)).toBe(1);
    // As Vitest names a test.fails known miss that passed only because the matcher threw (before: never on Jest).
    expect(missing.stderr).toContain(
      "2 tests failed because the rag-matchers matchers are not registered (expect(...).toHaveRecallAtK is not a function), in test/questions.test.js. Add setupFilesAfterEnv: ['rag-matchers/jest'] to jest.config.js.\n" +
        'These known misses (test.failing) passed only because the matcher did not exist: setup/known-miss.test.js > faq > q-known-miss.',
    );
  });
});

describe('a Vitest run whose command line drops the rag-matchers reporter', { timeout: 180_000 }, () => {
  let project: FixtureProject;
  beforeAll(() => {
    project = createProject('vitest', pkg);
  });
  afterAll(() => project?.remove());

  it('fails in CI naming the reporter to add; the printed flag keeps the gate; blob reports are exempt', async () => {
    const files = ['test/questions.test.ts'];
    const recorded = await run(project, 'vitest', files, { RAG_BASELINE: 'update' });
    expect(recorded.exitCode, describeRun(recorded)).toBe(0);
    const dropped = await run(project, 'vitest', [...files, '--reporter=dot'], { CI: 'true' });
    expect(dropped.exitCode, describeRun(dropped)).toBe(1);
    expect(dropped.stdout + dropped.stderr).toContain(
      'rag-matchers: these tests record retrieval measures, but no rag-matchers reporter is in this run: nothing compares them with rag-baseline.json, and in CI that fails the run.',
    );
    const kept = await run(project, 'vitest', [...files, '--reporter=dot', '--reporter=rag-matchers/vitest-reporter'], {
      CI: 'true',
    });
    expect(kept.exitCode, describeRun(kept)).toBe(0);
    expect(kept.stdout).toContain('No retrieval regressions');
    const blob = await run(
      project,
      'vitest',
      [...files, '--reporter=blob', '--outputFile=.vitest-reports/blob-1-1.json'],
      {
        CI: 'true',
      },
    );
    expect(blob.exitCode, describeRun(blob)).toBe(0);
    expect(blob.stdout + blob.stderr).not.toContain('no rag-matchers reporter');
  });
});
