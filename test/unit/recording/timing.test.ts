// The timing API (src/recording/timing.ts) and recordRetrievalCost: a cost record on the running test,
// calls counted apart for retrievals timed at once, a retry replacing the failed attempt's cost as it
// does samples, clear errors for bad input, and a Jest shard report carrying costs through a merge.
import { afterEach, describe, expect, it } from 'vitest';

import {
  createShardReport,
  formatShardReport,
  mergeShardReports,
  validateShardReport,
} from '../../../src/gate/shard-report.js';
import { splitCosts, type CollectedSample } from '../../../src/recording/collected.js';
import { recordRetrievalCost } from '../../../src/recording/cost.js';
import { COST_MEASURE, TASK_META_KEY, type MetricSample } from '../../../src/recording/sample.js';
import { countCall, setRecordingContextSource, timeRetrieval, withCallCount } from '../../../src/recording/timing.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fakeTest() {
  const task = { meta: {} as Record<string, unknown>, result: { retryCount: 0, repeatCount: 0 } };
  setRecordingContextSource(() => ({ task }));
  return { task, recorded: () => (task.meta[TASK_META_KEY] ?? []) as MetricSample[] };
}

afterEach(() => setRecordingContextSource(undefined));

describe('timeRetrieval', () => {
  it('returns what the retrieval returned and records its latency and calls under the queryId', async () => {
    const test = fakeTest();
    const rerank = withCallCount('rerank', (hits: string[]) => [...hits].reverse());
    const hits = await timeRetrieval(
      async () => {
        countCall('embed', 2);
        await sleep(15);
        return rerank(['a', 'b']);
      },
      { queryId: 'q1', latencyBudget: { p95: 300 } },
    );
    expect(hits).toEqual(['b', 'a']);
    const [record] = test.recorded();
    expect(record).toMatchObject({ measure: COST_MEASURE, queryId: 'q1' });
    expect({ ...record!.cost!.calls }).toEqual({ embed: 2, rerank: 1 });
    expect(record!.cost!.latencyMs).toBeGreaterThanOrEqual(14);
    expect(record!.cost!.latencyBudget).toEqual({ p95: 300 });
  });

  it('counts the calls of retrievals timed at once apart; a call outside any timing counts nowhere', async () => {
    const test = fakeTest();
    countCall('rerank');
    const timed = (id: string, reranks: number) =>
      timeRetrieval(
        async () => {
          for (let call = 0; call < reranks; call++) {
            await sleep(1);
            countCall('rerank');
          }
        },
        { queryId: id },
      );
    await Promise.all([timed('a', 1), timed('b', 3)]);
    const calls = Object.fromEntries(test.recorded().map((record) => [record.queryId, record.cost!.calls.rerank]));
    expect(calls).toEqual({ a: 1, b: 3 });
  });

  it('a retrieval that throws records nothing; a retry replaces the failed attempt’s cost', async () => {
    const test = fakeTest();
    await expect(timeRetrieval(() => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(test.recorded()).toEqual([]);
    await timeRetrieval(() => countCall('rerank', 5));
    test.task.result.retryCount = 1;
    await timeRetrieval(() => countCall('rerank', 1));
    expect(test.recorded().map((record) => record.cost!.calls.rerank)).toEqual([1]);
  });

  it('bad input is an error naming the argument', async () => {
    fakeTest();
    await expect(timeRetrieval('search' as never)).rejects.toThrow(/^timeRetrieval: retrieve must be a function/);
    await expect(timeRetrieval(() => 1, { latencyBudget: { p99: 3 } as never })).rejects.toThrow(
      'timeRetrieval: options.latencyBudget has an unknown key "p99"',
    );
    expect(() => countCall('')).toThrow(/^countCall: kind must be a non-empty string/);
    expect(() => countCall('rerank', 1.5)).toThrow(/^countCall: count must be a whole number ≥ 0, got 1\.5/);
    expect(() => recordRetrievalCost({ latencyMs: -1, calls: {} }, {}, 'q1')).toThrow(
      /^recordRetrievalCost: cost\.latencyMs must be a finite number of milliseconds ≥ 0/,
    );
    setRecordingContextSource(undefined);
    await expect(timeRetrieval(() => 1)).rejects.toThrow(
      /no test is running here, or the runner's setup file was not loaded/,
    );
  });
});

describe('a Jest shard report', () => {
  it('carries the costs through formatting, reading and the merge', () => {
    const located = (sample: MetricSample): CollectedSample => ({
      ...sample,
      file: 'test/a.test.js',
      describePath: ['s'],
      test: 't',
    });
    const samples = [
      located({ measure: 'recall@5', value: 1, queryId: 'q1' }),
      located({ measure: COST_MEASURE, value: 12, queryId: 'q1', cost: { latencyMs: 12, calls: { rerank: 2 } } }),
    ];
    const costs = splitCosts(samples);
    const report = createShardReport(
      { runner: 'jest', samples, costs, files: ['test/a.test.js'] },
      { index: 1, count: 1 },
      {},
    );
    const read = validateShardReport(JSON.parse(formatShardReport(report)), 'rag-shard-1-of-1.json');
    const merged = mergeShardReports([{ path: 'rag-shard-1-of-1.json', report: read }]);
    expect(merged.run.samples.map((sample) => sample.measure)).toEqual(['recall@5']);
    expect(merged.run.costs).toEqual([
      expect.objectContaining({ queryId: 'q1', cost: { latencyMs: 12, calls: { rerank: 2 } } }),
    ]);
  });
});
