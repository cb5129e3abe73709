import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { collectJestRun, readSidecars, type JestFileOutcome } from '../../../src/jest/collect.js';
import {
  holdSidecarLines,
  recordSamplesToSidecar,
  recordToSidecar,
  releaseSidecarLines,
  RUN_DIRECTORY_ENV,
  type SidecarRecord,
} from '../../../src/jest/recorder.js';
import { TASK_META_KEY } from '../../../src/recording/sample.js';
import { cleanSample } from '../../../src/recording/collected.js';
import {
  collectVitestModule,
  collectVitestRun,
  describePathOf,
  moduleFileOf,
  type ReportedModuleLike,
  type ReportedSuiteLike,
  type ReportedTestLike,
} from '../../../src/vitest/collect.js';
import { RUN_META_KEY } from '../../../src/recording/run-stamp.js';

// Plain objects shaped like Vitest's reported tasks.
function vitestModule(
  moduleId: string,
  relativeModuleId: string,
  build: (parent: ReportedModuleLike) => ReportedTestLike[],
  projectRoot = '/repo',
): ReportedModuleLike {
  const tests: ReportedTestLike[] = [];
  const module: ReportedModuleLike = {
    type: 'module',
    moduleId,
    relativeModuleId,
    project: { config: { root: projectRoot } },
    children: { allTests: () => tests },
  };
  tests.push(...build(module));
  return module;
}
const suite = (name: string, parent: ReportedSuiteLike | ReportedModuleLike): ReportedSuiteLike => ({
  type: 'suite',
  name,
  parent,
});
const test = (name: string, parent: ReportedSuiteLike | ReportedModuleLike, meta: object = {}): ReportedTestLike => ({
  type: 'test',
  name,
  parent,
  meta: () => meta,
});

describe('Vitest collection', () => {
  it("adds the test's own tags (Vitest 4.1+, where present) and meta.tags to the tags its matchers recorded", () => {
    const recorded = (tags?: string[]) => [{ measure: 'recall@5', value: 1, queryId: 'q', ...(tags ? { tags } : {}) }];
    const module = vitestModule('/repo/test/a.test.ts', 'test/a.test.ts', (parent) => [
      { ...test('own', parent, { [TASK_META_KEY]: recorded(['refunds']) }), tags: ['eu', 'billing'] },
      test('meta', parent, { [TASK_META_KEY]: recorded(), tags: ['billing', 7] }),
      // An older Vitest: no `tags` on the test; meta.tags that is not a list of strings is not read.
      test('none', parent, { [TASK_META_KEY]: recorded(), tags: 'billing' }),
    ]);
    expect(collectVitestModule(module, '/repo').samples.map((sample) => [sample.test, sample.tags])).toEqual([
      ['own', ['billing', 'eu', 'refunds']],
      ['meta', undefined],
      ['none', undefined],
    ]);
    const tagged = vitestModule('/repo/test/a.test.ts', 'test/a.test.ts', (parent) => [
      test('meta', parent, { [TASK_META_KEY]: recorded(), tags: ['billing'] }),
    ]);
    expect(collectVitestModule(tagged, '/repo').samples[0]!.tags).toEqual(['billing']);
  });

  it('uses the modules the reporter collected as they ended, and collects the others at the end', () => {
    const sampleOf = (queryId: string) => ({ [TASK_META_KEY]: [{ measure: 'recall@5', value: 1, queryId }] });
    const first = vitestModule('/repo/test/b.test.ts', 'test/b.test.ts', (module) => [
      test('t', module, sampleOf('B')),
    ]);
    const second = vitestModule('/repo/test/a.test.ts', 'test/a.test.ts', (module) => [
      test('t', module, sampleOf('A')),
    ]);
    const atTheEnd = collectVitestRun([first, second], '/repo');
    const early = collectVitestModule(first, '/repo');
    expect(collectVitestRun([first, second], '/repo', new Map([[first, early]]))).toEqual(atTheEnd);
    // What was collected when the module ended is what counts (a later change of its tasks is not read).
    early.samples[0]!.value = 0.25;
    const run = collectVitestRun([first, second], '/repo', new Map([[first, early]]));
    expect(run.samples.map((sample) => [sample.queryId, sample.value])).toEqual([
      ['A', 1],
      ['B', 0.25],
    ]);
    expect(run.files).toEqual(['test/a.test.ts', 'test/b.test.ts']);
  });

  it('gives each sample its file relative to the root, describe path and test name, files in path order', () => {
    const orders = vitestModule('/repo/test/orders.test.ts', 'test/orders.test.ts', (module) => {
      const refunds = suite('refunds', suite('orders API', module));
      return [
        test('q1', refunds, {
          [TASK_META_KEY]: [{ measure: 'recall@5', value: 1, threshold: 0.5, pass: true, queryId: 'Q1' }],
        }),
        test('no samples', refunds, { other: 1 }),
      ];
    });
    const account = vitestModule('/repo/test/account.test.ts', 'test/account.test.ts', (module) => [
      test('top', module, {
        [TASK_META_KEY]: [
          { measure: 'ndcg@3', value: 0.5, pass: false, negated: true },
          { measure: 'mrr', value: 1, pass: true },
        ],
      }),
    ]);
    const run = collectVitestRun([orders, account], '/repo');
    expect(run).toEqual({
      runner: 'vitest',
      files: ['test/account.test.ts', 'test/orders.test.ts'],
      outcomes: {
        files: [
          { file: 'test/account.test.ts', incomplete: [] },
          { file: 'test/orders.test.ts', incomplete: [] },
        ],
      },
      samples: [
        {
          measure: 'ndcg@3',
          value: 0.5,
          pass: false,
          negated: true,
          file: 'test/account.test.ts',
          describePath: [],
          test: 'top',
        },
        { measure: 'mrr', value: 1, pass: true, file: 'test/account.test.ts', describePath: [], test: 'top' },
        {
          measure: 'recall@5',
          value: 1,
          threshold: 0.5,
          pass: true,
          queryId: 'Q1',
          file: 'test/orders.test.ts',
          describePath: ['orders API', 'refunds'],
          test: 'q1',
        },
      ],
    });
  });

  it('places a module whose absolute id is outside the root (a blob from another machine) by its project-relative id', () => {
    const module = vitestModule(
      '/ci/runner/work/test/a.test.ts',
      'test/a.test.ts',
      () => [],
      '/ci/runner/work/packages/api',
    );
    expect(moduleFileOf(module, '/repo')).toBe('test/a.test.ts');
    const nested = vitestModule('/elsewhere/test/a.test.ts', 'test/a.test.ts', () => [], '/repo/packages/api');
    expect(moduleFileOf(nested, '/repo')).toBe('packages/api/test/a.test.ts');
    const inside = vitestModule('/repo/packages/api/test/a.test.ts', 'test/a.test.ts', () => [], '/repo/packages/api');
    expect(moduleFileOf(inside, '/repo')).toBe('packages/api/test/a.test.ts');
  });

  it('lists as run in full only the modules that loaded and whose every test passed, and says why each other test did not run to the end', () => {
    const withState = (
      name: string,
      state: string,
      testStates: (string | { state: string; errors: { message: string }[] })[],
      errors: unknown[] = [],
    ): ReportedModuleLike => {
      const module = vitestModule(`/repo/${name}`, name, (parent) =>
        testStates.map((testState, index) => ({
          ...test(`t${index}`, parent),
          result: () => (typeof testState === 'string' ? { state: testState } : testState),
        })),
      );
      return { ...module, state: () => state, errors: () => errors };
    };
    const modules = [
      withState('passed.test.ts', 'passed', ['passed', 'passed']),
      withState('failed.test.ts', 'failed', ['passed', 'failed']),
      withState('filtered.test.ts', 'passed', ['passed', 'skipped']),
      withState('skipped.test.ts', 'skipped', ['skipped']),
      withState('broken.test.ts', 'failed', [], [new Error('SyntaxError: unexpected token\n  at line 3')]),
      withState('empty.test.ts', 'passed', []),
      withState('slow.test.ts', 'failed', [{ state: 'failed', errors: [{ message: 'Test timed out in 100ms.' }] }]),
      withState('cut.test.ts', 'pending', ['passed', 'pending']),
    ];
    const run = collectVitestRun(modules, '/repo');
    expect(run.files).toEqual(['empty.test.ts', 'passed.test.ts']);
    const outcomes = Object.fromEntries(run.outcomes!.files.map((outcome) => [outcome.file, outcome]));
    expect(outcomes['failed.test.ts']!.incomplete).toEqual([{ describePath: [], test: 't1', reason: 'failed' }]);
    expect(outcomes['filtered.test.ts']!.incomplete).toEqual([{ describePath: [], test: 't1', reason: 'skipped' }]);
    expect(outcomes['broken.test.ts']!.notJudged).toEqual({
      reason: 'load-failed',
      detail: 'SyntaxError: unexpected token',
    });
    expect(outcomes['slow.test.ts']!.incomplete).toEqual([{ describePath: [], test: 't0', reason: 'timed-out' }]);
    expect(outcomes['cut.test.ts']).toEqual({
      file: 'cut.test.ts',
      notJudged: { reason: 'crashed' },
      incomplete: [{ describePath: [], test: 't1', reason: 'crashed' }],
    });
    // Under -t a skipped test was filtered out, not skipped in the code.
    const filtered = collectVitestRun(modules, '/repo', new Map(), { testNamePattern: true });
    const byFile = Object.fromEntries(filtered.outcomes!.files.map((outcome) => [outcome.file, outcome]));
    expect(byFile['filtered.test.ts']!.incomplete).toEqual([{ describePath: [], test: 't1', reason: 'filtered' }]);
  });

  it('in a merge, leaves out a file whose samples carry another run stamp, or none while measures are declared, or that two blobs hold', () => {
    const stamped = (name: string, stamp: string | undefined): ReportedModuleLike =>
      vitestModule(`/repo/${name}`, name, (parent) => [
        test('t', parent, {
          [TASK_META_KEY]: [{ measure: 'recall@5', value: 1, queryId: 'q' }],
          ...(stamp === undefined ? {} : { [RUN_META_KEY]: stamp }),
        }),
      ]);
    const expectedStamp = { declaration: 'abc', commit: 'c0ffee' };
    const run = collectVitestRun(
      [
        stamped('same.test.ts', 'abc c0ffee'),
        stamped('old.test.ts', 'abc deadbeef'),
        stamped('bare.test.ts', undefined),
        stamped('twice.test.ts', 'abc c0ffee'),
        stamped('twice.test.ts', 'abc c0ffee'),
      ],
      '/repo',
      new Map(),
      { expectedStamp },
    );
    expect(run.samples.map((sample) => sample.file)).toEqual(['same.test.ts']);
    const reasons = run.outcomes!.files.map((outcome) => [
      outcome.file,
      outcome.notJudged?.reason,
      outcome.notJudged?.detail,
    ]);
    expect(reasons).toEqual([
      [
        'bare.test.ts',
        'shard-stale',
        expect.stringMatching(/^recorded without the declared measures: a blob reporter given on the command line/),
      ],
      [
        'old.test.ts',
        'shard-stale',
        'recorded at commit deadbeef, merged at c0ffee: a shard report from an earlier run',
      ],
      ['same.test.ts', undefined, undefined],
      ['twice.test.ts', 'shard-stale', 'the test file is in two blob reports'],
      ['twice.test.ts', 'shard-stale', 'the test file is in two blob reports'],
    ]);
  });

  it('reads the describe path outermost first', () => {
    let leaf: ReportedTestLike | undefined;
    vitestModule('/repo/a.test.ts', 'a.test.ts', (module) => [
      (leaf = test('t', suite('c', suite('b', suite('a', module))))),
    ]);
    expect(describePathOf(leaf!)).toEqual(['a', 'b', 'c']);
  });

  it('keeps only well-formed samples, reduced to the sample fields', () => {
    expect(
      cleanSample({
        measure: 'recall@5',
        value: 0.5,
        pass: true,
        extra: 1,
        threshold: 0.4,
        queryId: 'q',
        negated: false,
      }),
    ).toEqual({
      measure: 'recall@5',
      value: 0.5,
      pass: true,
      threshold: 0.4,
      queryId: 'q',
    });
    expect(cleanSample({ measure: 'recall@5', value: null, pass: true })).toBeUndefined();
    expect(cleanSample({ measure: 'recall@5', value: Number.NaN, pass: true })).toBeUndefined();
    expect(cleanSample('recall')).toBeUndefined();
    expect(cleanSample(null)).toBeUndefined();
    const module = vitestModule('/repo/a.test.ts', 'a.test.ts', (parent) => [
      test('t', parent, { [TASK_META_KEY]: [{ measure: 'x' }, { measure: 'mrr', value: 1, pass: true }] }),
    ]);
    expect(collectVitestRun([module], '/repo').samples.map((sample) => sample.measure)).toEqual(['mrr']);
  });
});

describe('Jest sidecar protocol', () => {
  let directory: string;
  const previous = process.env[RUN_DIRECTORY_ENV];

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'rag-collect-test-'));
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
    if (previous === undefined) delete process.env[RUN_DIRECTORY_ENV];
    else process.env[RUN_DIRECTORY_ENV] = previous;
    vi.restoreAllMocks();
  });

  it('appends one JSON line per sample to this process’s file in the run directory', () => {
    process.env[RUN_DIRECTORY_ENV] = directory;
    recordToSidecar(
      { measure: 'recall@5', value: 1, pass: true },
      { testPath: '/p/a.test.js', currentTestName: 'orders q1' },
    );
    recordToSidecar(
      { measure: 'mrr', value: 0.5, pass: false, queryId: 'Q' },
      { testPath: '/p/a.test.js', currentTestName: 'orders q2' },
    );
    const files = readdirSync(directory);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^samples-${process.pid}-\\d+\\.jsonl$`));
    const lines = readFileSync(join(directory, files[0]!), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as SidecarRecord);
    expect(lines).toEqual([
      { testPath: '/p/a.test.js', testName: 'orders q1', sample: { measure: 'recall@5', value: 1, pass: true } },
      {
        testPath: '/p/a.test.js',
        testName: 'orders q2',
        sample: { measure: 'mrr', value: 0.5, pass: false, queryId: 'Q' },
      },
    ]);
  });

  it('writes the samples of one matcher call as a line each, in their order, each naming its test', () => {
    process.env[RUN_DIRECTORY_ENV] = directory;
    recordSamplesToSidecar(
      [
        { measure: 'hit@3', value: 1, queryId: 'Q' },
        { measure: 'recall@5', value: 0.5, pass: false, queryId: 'Q' },
      ],
      { testPath: '/p/a.test.js', currentTestName: 'orders q1' },
    );
    recordSamplesToSidecar([], { testPath: '/p/a.test.js', currentTestName: 'orders q2' });
    const [file] = readdirSync(directory);
    const lines = readFileSync(join(directory, file!), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as SidecarRecord);
    expect(lines).toEqual([
      { testPath: '/p/a.test.js', testName: 'orders q1', sample: { measure: 'hit@3', value: 1, queryId: 'Q' } },
      {
        testPath: '/p/a.test.js',
        testName: 'orders q1',
        sample: { measure: 'recall@5', value: 0.5, pass: false, queryId: 'Q' },
      },
    ]);
  });

  it("names the test from Jest 30's expect state: describe path, title and attempt, on every line of it", () => {
    process.env[RUN_DIRECTORY_ENV] = directory;
    const root = { name: 'ROOT_DESCRIBE_BLOCK' };
    const outer = { name: 'orders', parent: root };
    const first = { name: 'q1', parent: outer, invocations: 1 };
    const second = { name: 'q2', parent: root };
    const contextOf = (test: object) => ({ testPath: '/p/a.test.js', currentTestIdentity: () => test });
    recordToSidecar({ measure: 'mrr', value: 1 }, contextOf(first));
    recordToSidecar({ measure: 'hit@3', value: 0 }, contextOf(first));
    first.invocations = 2; // jest.retryTimes: the same test, run again
    recordToSidecar({ measure: 'mrr', value: 0.5 }, contextOf(first));
    recordToSidecar({ measure: 'mrr', value: 0.25 }, contextOf(second));
    const [file] = readdirSync(directory);
    const q1 = '{"testPath":"/p/a.test.js","testName":"orders q1","describePath":["orders"],"test":"q1"';
    expect(readFileSync(join(directory, file!), 'utf8')).toBe(
      `${q1},"attempt":1,"sample":{"measure":"mrr","value":1}}\n` +
        `${q1},"attempt":1,"sample":{"measure":"hit@3","value":0}}\n` +
        `${q1},"attempt":2,"sample":{"measure":"mrr","value":0.5}}\n` +
        '{"testPath":"/p/a.test.js","testName":"q2","describePath":[],"test":"q2","sample":{"measure":"mrr","value":0.25}}\n',
    );
  });

  it('holds the lines of every call until released, then appends them in order, and appends at once after', () => {
    process.env[RUN_DIRECTORY_ENV] = directory;
    const lineOf = (testName: string, value: number): string =>
      JSON.stringify({ testPath: '/p/a.test.js', testName, sample: { measure: 'mrr', value, pass: true } });
    const fileText = (): string | undefined => {
      const [file] = readdirSync(directory);
      return file === undefined ? undefined : readFileSync(join(directory, file), 'utf8');
    };
    holdSidecarLines();
    try {
      recordToSidecar({ measure: 'mrr', value: 1, pass: true }, { testPath: '/p/a.test.js', currentTestName: 'q1' });
      recordSamplesToSidecar(
        [
          { measure: 'mrr', value: 0.5, pass: true },
          { measure: 'mrr', value: 0.25, pass: true },
        ],
        { testPath: '/p/a.test.js', currentTestName: 'q2' },
      );
      expect(fileText()).toBeUndefined();
    } finally {
      releaseSidecarLines();
    }
    expect(fileText()).toBe(`${lineOf('q1', 1)}\n${lineOf('q2', 0.5)}\n${lineOf('q2', 0.25)}\n`);
    recordToSidecar({ measure: 'mrr', value: 0, pass: true }, { testPath: '/p/a.test.js', currentTestName: 'q3' });
    expect(fileText()).toBe(`${lineOf('q1', 1)}\n${lineOf('q2', 0.5)}\n${lineOf('q2', 0.25)}\n${lineOf('q3', 0)}\n`);
  });

  it('appends a line recorded outside any test at once, after the lines held before it', () => {
    process.env[RUN_DIRECTORY_ENV] = directory;
    const [held, outside] = [
      { testPath: '/p/a.test.js', testName: 'q1', sample: { measure: 'mrr', value: 1 } },
      { testPath: '/p/a.test.js', testName: '', sample: { measure: 'mrr', value: 0 } },
    ];
    holdSidecarLines();
    try {
      recordToSidecar(held.sample, { testPath: '/p/a.test.js', currentTestName: 'q1' });
      // No test is running (a call at the top of a file whose tests are all skipped, say).
      recordToSidecar(outside.sample, { testPath: '/p/a.test.js' });
      const [file] = readdirSync(directory);
      expect(readFileSync(join(directory, file!), 'utf8')).toBe(
        `${JSON.stringify(held)}\n${JSON.stringify(outside)}\n`,
      );
    } finally {
      releaseSidecarLines();
    }
  });

  it('appends what it holds once it passes a megabyte, and what it holds for another run directory first', () => {
    const other = mkdtempSync(join(tmpdir(), 'rag-collect-test-'));
    const sizes = (): number[] =>
      [directory, other].map((folder) =>
        readdirSync(folder).reduce((total, file) => total + readFileSync(join(folder, file), 'utf8').length, 0),
      );
    holdSidecarLines();
    try {
      process.env[RUN_DIRECTORY_ENV] = directory;
      recordToSidecar({ measure: 'mrr', value: 1, pass: true }, { testPath: '/p/a.test.js', currentTestName: 'q1' });
      process.env[RUN_DIRECTORY_ENV] = other;
      // The first directory's line is appended before this one is held.
      recordToSidecar({ measure: 'mrr', value: 1, pass: true }, { testPath: '/p/a.test.js', currentTestName: 'q2' });
      const [first, second] = sizes();
      expect(first).toBeGreaterThan(0);
      expect(second).toBe(0);
      // A test name of 2 ** 20 characters: the held text passes a megabyte and is appended.
      recordToSidecar(
        { measure: 'mrr', value: 1, pass: true },
        { testPath: '/p/a.test.js', currentTestName: 'x'.repeat(2 ** 20) },
      );
      expect(sizes()[1]).toBeGreaterThan(2 ** 20);
    } finally {
      releaseSidecarLines();
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('records nothing without a run directory, and only warns when the directory is gone', () => {
    delete process.env[RUN_DIRECTORY_ENV];
    recordToSidecar({ measure: 'mrr', value: 1, pass: true }, { testPath: '/p/a.test.js', currentTestName: 't' });
    expect(readdirSync(directory)).toEqual([]);
    const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
    process.env[RUN_DIRECTORY_ENV] = join(directory, 'gone');
    expect(() =>
      recordToSidecar({ measure: 'mrr', value: 1, pass: true }, { testPath: '/p/a.test.js', currentTestName: 't' }),
    ).not.toThrow();
    expect(() =>
      recordToSidecar({ measure: 'mrr', value: 1, pass: true }, { testPath: '/p/a.test.js', currentTestName: 't' }),
    ).not.toThrow();
    expect(stderr).toHaveBeenCalledTimes(1);
    expect(String(stderr.mock.calls[0]![0])).toContain(join(directory, 'gone'));
  });

  it('takes the describe path from jest-circus’s running test when its name is the asserting test’s', () => {
    process.env[RUN_DIRECTORY_ENV] = directory;
    const symbol = Symbol('JEST_STATE_SYMBOL');
    const root = { name: 'ROOT_DESCRIBE_BLOCK' };
    const outer = { name: 'orders API', parent: root };
    const inner = { name: 'refunds', parent: outer };
    const global = globalThis as Record<symbol, unknown>;
    global[symbol] = { currentlyRunningTest: { name: 'a b', parent: inner } };
    try {
      recordToSidecar(
        { measure: 'mrr', value: 1, pass: true },
        { testPath: '/p/a.test.js', currentTestName: 'orders API refunds a b' },
      );
      // A concurrent test's assertion while another test is "the running one": not trusted.
      recordToSidecar(
        { measure: 'mrr', value: 1, pass: true },
        { testPath: '/p/a.test.js', currentTestName: 'orders API refunds other' },
      );
    } finally {
      delete global[symbol];
    }
    const { records, skippedLines } = readSidecars(directory);
    expect(skippedLines).toBe(0);
    expect(records.map((record) => [record.describePath, record.test])).toEqual([
      [['orders API', 'refunds'], 'a b'],
      [undefined, undefined],
    ]);
  });

  it('reads every sidecar file, skipping lines that are not records (a worker killed mid-append)', () => {
    const record = (testName: string, value: number): string =>
      JSON.stringify({ testPath: '/p/a.test.js', testName, sample: { measure: 'mrr', value, pass: true } });
    writeFileSync(join(directory, 'samples-20-0.jsonl'), `${record('b', 2)}\n`);
    writeFileSync(join(directory, 'samples-10-0.jsonl'), `${record('a', 1)}\n{"testPath":"/p/a.te`);
    writeFileSync(join(directory, 'other.txt'), 'ignored');
    writeFileSync(
      join(directory, 'samples-30-0.jsonl'),
      `${JSON.stringify({ testPath: '/p/a.test.js', testName: 'c', sample: { measure: 'mrr' } })}\n\n`,
    );
    const { records, skippedLines } = readSidecars(directory);
    expect(records.map((entry) => entry.testName)).toEqual(['a', 'b']);
    expect(skippedLines).toBe(2);
    expect(readSidecars(join(directory, 'missing'))).toEqual({ records: [], skippedLines: 0 });
  });

  it("reads a call's lines, which repeat its test's place, as it reads each line alone, whatever follows", () => {
    const place = { testPath: '/p/a.test.js', testName: 'orders q1', describePath: ['orders'], test: 'q1', attempt: 1 };
    const lines = [
      { ...place, sample: { measure: 'hit@3', value: 1, queryId: 'Q' } },
      { ...place, sample: { measure: 'recall@5', value: 0.5, queryId: 'Q' } },
      // The same place, its sample cut off by a worker killed mid-append: skipped.
      `${JSON.stringify({ ...place, sample: { measure: 'mrr', value: 1 } }).slice(0, -2)}}`,
      { ...place, sample: { measure: 'ndcg@10', value: 0.25, queryId: 'Q' } },
      // A member after the sample (not what the recorder writes): its place is its own, not the line before's.
      `{"testPath":"/p/a.test.js","testName":"orders q1","describePath":["orders"],"test":"q1","sample":{"measure":"mrr","value":1},"attempt":2}`,
      `{"testPath":"/p/a.test.js","testName":"orders q1","describePath":["orders"],"test":"q1","sample":{"measure":"mrr","value":0.5}}`,
      // Another test after the first: a place of its own.
      { testPath: '/p/a.test.js', testName: 'q2', sample: { measure: 'mrr', value: 0.25 } },
    ].map((line) => (typeof line === 'string' ? line : JSON.stringify(line)));
    writeFileSync(join(directory, 'samples-10-0.jsonl'), `${lines.join('\n')}\n`);
    const { records, skippedLines } = readSidecars(directory);
    expect(skippedLines).toBe(1);
    expect(records).toEqual([
      { ...place, sample: { measure: 'hit@3', value: 1, queryId: 'Q' } },
      { ...place, sample: { measure: 'recall@5', value: 0.5, queryId: 'Q' } },
      { ...place, sample: { measure: 'ndcg@10', value: 0.25, queryId: 'Q' } },
      { ...place, attempt: 2, sample: { measure: 'mrr', value: 1 } },
      {
        testPath: '/p/a.test.js',
        testName: 'orders q1',
        describePath: ['orders'],
        test: 'q1',
        sample: { measure: 'mrr', value: 0.5 },
      },
      { testPath: '/p/a.test.js', testName: 'q2', sample: { measure: 'mrr', value: 0.25 } },
    ]);
  });

  it('lists as run in full only the files that loaded and whose every test passed', () => {
    const file = (name: string, statuses: string[], extra: Partial<JestFileOutcome> = {}): JestFileOutcome => ({
      testFilePath: `/p/${name}`,
      testResults: statuses.map((status, index) => ({
        ancestorTitles: [],
        title: `t${index}`,
        fullName: `t${index}`,
        status,
      })),
      ...extra,
    });
    const run = collectJestRun(
      [],
      [
        file('passed.test.js', ['passed']),
        file('failed.test.js', ['failed', 'passed']),
        file('filtered.test.js', ['passed', 'pending']),
        file('todo.test.js', ['passed', 'todo']),
        file('skipped.test.js', [], { skipped: true }),
        file('broken.test.js', [], { testExecError: { message: 'SyntaxError' } }),
        file('nothing-broke.test.js', ['passed'], { testExecError: null }),
      ],
      '/p',
    );
    expect(run.files).toEqual(['nothing-broke.test.js', 'passed.test.js']);
    const outcomes = Object.fromEntries(run.outcomes!.files.map((outcome) => [outcome.file, outcome]));
    expect(outcomes['failed.test.js']!.incomplete).toEqual([{ describePath: [], test: 't0', reason: 'failed' }]);
    expect(outcomes['filtered.test.js']!.incomplete).toEqual([{ describePath: [], test: 't1', reason: 'skipped' }]);
    expect(outcomes['todo.test.js']!.incomplete).toEqual([{ describePath: [], test: 't1', reason: 'skipped' }]);
    expect(outcomes['skipped.test.js']!.notJudged).toEqual({ reason: 'skipped' });
    expect(outcomes['broken.test.js']!.notJudged).toEqual({ reason: 'load-failed', detail: 'SyntaxError' });
    // Under -t, what did not run was filtered out; a test that exceeded its timeout timed out.
    const filtered = collectJestRun(
      [],
      [
        file('filtered.test.js', ['passed', 'pending']),
        {
          testFilePath: '/p/slow.test.js',
          testResults: [
            {
              ancestorTitles: ['slow'],
              title: 't',
              fullName: 'slow t',
              status: 'failed',
              failureMessages: ['Error: thrown: "Exceeded timeout of 100 ms for a test.'],
            },
          ],
        },
      ],
      '/p',
      { testNamePattern: true },
    );
    expect(filtered.outcomes!.files.map((outcome) => outcome.incomplete)).toEqual([
      [{ describePath: [], test: 't1', reason: 'filtered' }],
      [{ describePath: ['slow'], test: 't', reason: 'timed-out' }],
    ]);
  });

  it('finds a record’s describe path by the full name Jest reported, and keeps an ambiguous one whole', () => {
    const files: JestFileOutcome[] = [
      {
        testFilePath: '/p/test/a.test.js',
        testResults: [
          { ancestorTitles: ['orders API', 'refunds'], title: 'q1', fullName: 'orders API refunds q1' },
          { ancestorTitles: ['x y'], title: 'z', fullName: 'x y z' },
          { ancestorTitles: ['x'], title: 'y z', fullName: 'x y z' },
        ],
      },
    ];
    const sample = { measure: 'mrr', value: 1, pass: true };
    const records: SidecarRecord[] = [
      { testPath: '/p/test/b.test.js', testName: 'top', sample },
      { testPath: '/p/test/a.test.js', testName: 'orders API refunds q1', sample },
      { testPath: '/p/test/a.test.js', testName: 'x y z', sample },
      { testPath: '/p/test/a.test.js', testName: 'x y z', describePath: ['x'], test: 'y z', sample },
    ];
    const run = collectJestRun(records, files, '/p');
    expect(run.runner).toBe('jest');
    expect(run.files).toEqual(['test/a.test.js']);
    expect(run.samples.map(({ file, describePath, test }) => [file, describePath, test])).toEqual([
      ['test/a.test.js', ['orders API', 'refunds'], 'q1'],
      ['test/a.test.js', [], 'x y z'],
      ['test/a.test.js', ['x'], 'y z'],
      ['test/b.test.js', [], 'top'],
    ]);
  });

  it('takes a test’s line from the first test Jest reported under its describe path and title (testLocationInResults)', () => {
    const outcome = (describePath: string[], title: string, line?: number) => ({
      ancestorTitles: describePath,
      title,
      fullName: [...describePath, title].join(' '),
      ...(line === undefined ? {} : { location: { line } }),
    });
    const files: JestFileOutcome[] = [
      {
        testFilePath: '/p/a.test.js',
        testResults: [
          outcome(['x y'], 'z', 3),
          outcome(['x'], 'y z', 7),
          outcome(['x'], 'y z', 9),
          outcome([], 'no line'),
          outcome([], 'no line', 12),
        ],
      },
    ];
    const sample = { measure: 'mrr', value: 1 };
    const records: SidecarRecord[] = [
      { testPath: '/p/a.test.js', testName: 'x y z', describePath: ['x'], test: 'y z', sample },
      { testPath: '/p/a.test.js', testName: 'x y z', describePath: ['x y'], test: 'z', sample },
      { testPath: '/p/a.test.js', testName: 'no line', describePath: [], test: 'no line', sample },
      { testPath: '/p/a.test.js', testName: 'x y z', describePath: ['x y z'], test: 'gone', sample },
      { testPath: '/p/a.test.js', testName: 'x y z', describePath: ['x'], test: 'y z', sample: { ...sample, line: 8 } },
    ];
    expect(collectJestRun(records, files, '/p').samples.map((entry) => entry.line)).toEqual([
      7,
      3,
      undefined,
      undefined,
      8,
    ]);
  });
});

describe('retrieval costs', () => {
  it('Vitest: a test meta cost record (a blob report holds the same meta) lands in costs, with the test question', () => {
    const meta = {
      [TASK_META_KEY]: [
        { measure: '#cost', value: 12, cost: { latencyMs: 12, calls: { rerank: 2 } } },
        { measure: 'recall@5', value: 1, queryId: 'q7', testQuestion: true },
        { measure: '#cost', value: 3, cost: { latencyMs: -3, calls: {} } },
      ],
    };
    const module = vitestModule('/repo/test/a.test.ts', 'test/a.test.ts', (parent) => [
      test('q7 text', suite('s', parent), meta),
    ]);
    const run = collectVitestRun([module], '/repo');
    expect(run.samples.map((sample) => sample.measure)).toEqual(['recall@5']);
    // The record with a negative latency is not a cost record: dropped, as a malformed sample is.
    expect(run.costs).toEqual([
      expect.objectContaining({
        file: 'test/a.test.ts',
        describePath: ['s'],
        test: 'q7 text',
        queryId: 'q7',
        cost: { latencyMs: 12, calls: { rerank: 2 } },
      }),
    ]);
  });

  it('Jest: a retried test keeps only its last attempt’s cost', () => {
    const record = (attempt: number, latencyMs: number): SidecarRecord => ({
      testPath: '/repo/test/a.test.js',
      testName: 's t',
      describePath: ['s'],
      test: 't',
      attempt,
      sample: { measure: '#cost', value: latencyMs, queryId: 'q1', cost: { latencyMs, calls: { embed: attempt } } },
    });
    const run = collectJestRun([record(1, 50), record(2, 8)], [], '/repo');
    expect(run.samples).toEqual([]);
    expect(run.costs!.map((entry) => entry.cost)).toEqual([{ latencyMs: 8, calls: { embed: 2 } }]);
  });
});
