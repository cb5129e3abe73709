// Collection details the recording side relies on: Jest keeps only the attempt of a retried test that
// counted (Jest's own invocation count decides), and Vitest samples name their project.
import { describe, expect, it } from 'vitest';
import { collectJestRun, lastAttempts, type JestFileOutcome } from '../../../src/jest/collect.js';
import type { SidecarRecord } from '../../../src/jest/recorder.js';
import { TASK_META_KEY, type MetricSample } from '../../../src/recording/sample.js';
import { collectVitestRun, type ReportedModuleLike, type ReportedTestLike } from '../../../src/vitest/collect.js';

const record = (test: string, attempt: number | undefined, value: number): SidecarRecord => ({
  testPath: '/repo/test/a.test.js',
  testName: `suite ${test}`,
  describePath: ['suite'],
  test,
  ...(attempt === undefined ? {} : { attempt }),
  sample: { measure: 'hit@1', value },
});

const outcome = (title: string, invocations: number): JestFileOutcome['testResults'][number] => ({
  ancestorTitles: ['suite'],
  title,
  fullName: `suite ${title}`,
  status: 'passed',
  invocations,
});

describe('lastAttempts', () => {
  it('keeps the attempt Jest counted last, per test', () => {
    const records = [record('flaky', 1, 0), record('flaky', 2, 1), record('steady', 1, 0.5)];
    const files: JestFileOutcome[] = [
      { testFilePath: '/repo/test/a.test.js', testResults: [outcome('flaky', 2), outcome('steady', 1)] },
    ];
    expect(lastAttempts(records, files).map((entry) => [entry.test, entry.sample.value])).toEqual([
      ['flaky', 1],
      ['steady', 0.5],
    ]);
  });

  it('a last attempt that recorded nothing (it threw before any matcher) keeps nothing', () => {
    const files: JestFileOutcome[] = [{ testFilePath: '/repo/test/a.test.js', testResults: [outcome('flaky', 3)] }];
    expect(lastAttempts([record('flaky', 1, 0), record('flaky', 2, 1)], files)).toEqual([]);
  });

  it('without Jest’s count, the highest recorded attempt; records without an attempt are kept', () => {
    expect(
      lastAttempts([record('flaky', 1, 0), record('flaky', 2, 1), record('old', undefined, 0.25)]).map(
        (entry) => entry.sample.value,
      ),
    ).toEqual([1, 0.25]);
  });

  it('collectJestRun applies it', () => {
    const files: JestFileOutcome[] = [{ testFilePath: '/repo/test/a.test.js', testResults: [outcome('flaky', 2)] }];
    expect(collectJestRun([record('flaky', 1, 0), record('flaky', 2, 1)], files, '/repo').samples).toEqual([
      { measure: 'hit@1', value: 1, file: 'test/a.test.js', describePath: ['suite'], test: 'flaky' },
    ]);
  });
});

describe('collectVitestRun: projects', () => {
  function moduleOf(project: string | undefined, value: number): ReportedModuleLike {
    const tests: ReportedTestLike[] = [];
    const module: ReportedModuleLike = {
      type: 'module',
      moduleId: '/repo/test/q.test.ts',
      relativeModuleId: 'test/q.test.ts',
      project: { ...(project === undefined ? {} : { name: project }), config: { root: '/repo' } },
      children: { allTests: () => tests },
    };
    tests.push({
      type: 'test',
      name: 'q1',
      parent: module,
      meta: () => ({ [TASK_META_KEY]: [{ measure: 'recall@3', value }] }),
    });
    return module;
  }

  it('names the project on each sample when it has a name, and leaves it out otherwise', () => {
    const run = collectVitestRun([moduleOf('fast', 1), moduleOf('slow', 0.5)], '/repo');
    expect(run.samples.map((sample) => [sample.project, sample.value])).toEqual([
      ['fast', 1],
      ['slow', 0.5],
    ]);
    expect(collectVitestRun([moduleOf('', 1)], '/repo').samples[0]).not.toHaveProperty('project');
    expect(collectVitestRun([moduleOf(undefined, 1)], '/repo').samples[0]).not.toHaveProperty('project');
  });
});

describe('one test, one question: samples recorded before the test’s queryId take it', () => {
  // As recorded: a matcher without a queryId, then one with `queryId: 'q017'` (marked as the test's question).
  const recordedSamples = (): MetricSample[] => [
    { measure: 'hit@3', value: 1 },
    { measure: 'recall@5', value: 0.5, queryId: 'q017', testQuestion: true as const },
    { measure: 'faithfulness', value: 0.9 },
  ];

  it('Jest: per test, the retrieval samples take it; an answer check and another test do not', () => {
    const records: SidecarRecord[] = [
      ...recordedSamples().map((sample) => ({ ...record('refunds', 1, 0), sample })),
      { ...record('other', 1, 0), sample: { measure: 'hit@3', value: 0 } },
    ];
    const run = collectJestRun(records, [], '/repo');
    expect(
      run.samples.map((sample) => [sample.test, sample.measure, sample.queryId, 'testQuestion' in sample]),
    ).toEqual([
      ['refunds', 'hit@3', 'q017', false],
      ['refunds', 'recall@5', 'q017', false],
      ['refunds', 'faithfulness', undefined, false],
      ['other', 'hit@3', undefined, false],
    ]);
  });

  it('Vitest: the same, from the test’s meta', () => {
    const tests: ReportedTestLike[] = [];
    const module: ReportedModuleLike = {
      type: 'module',
      moduleId: '/repo/test/q.test.ts',
      relativeModuleId: 'test/q.test.ts',
      children: { allTests: () => tests },
    };
    tests.push({ type: 'test', name: 'refunds', parent: module, meta: () => ({ [TASK_META_KEY]: recordedSamples() }) });
    const run = collectVitestRun([module], '/repo');
    expect(run.samples.map((sample) => [sample.measure, sample.queryId, 'testQuestion' in sample])).toEqual([
      ['hit@3', 'q017', false],
      ['recall@5', 'q017', false],
      ['faithfulness', undefined, false],
    ]);
  });
});
