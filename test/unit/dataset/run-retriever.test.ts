import { describe, expect, it } from 'vitest';
import { evaluateRun } from '../../../src/dataset/evaluate-run.js';
import type { EvalSet } from '../../../src/dataset/jsonl.js';
import { nearestRankPercentile } from '../../../src/core/latency.js';
import { RetrieverError, runRetriever } from '../../../src/dataset/run-retriever.js';

const set: EvalSet = Array.from({ length: 10 }, (_, index) => ({
  id: `q${index + 1}`,
  query: `question ${index + 1}`,
  relevant: [`d${index + 1}`],
}));

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runRetriever', () => {
  it('calls the retriever for every query and returns the run in set order, cut at k', async () => {
    const calls: { query: string; id: string; k: number | undefined }[] = [];
    const result = await runRetriever(
      set,
      async (query, { id, k }) => {
        calls.push({ query, id, k });
        await delay(1);
        return [`d${id.slice(1)}`, 'x', 'y', 'z'];
      },
      { k: 2 },
    );
    expect(calls).toHaveLength(10);
    expect(calls[0]).toEqual({ query: 'question 1', id: 'q1', k: 2 });
    expect([...result.run.keys()]).toEqual(set.map((query) => query.id));
    expect(result.run.get('q3')).toEqual(['d3', 'x']);
    expect(result.errors).toEqual([]);
    expect(evaluateRun(set, result.run, { measures: ['hit@1'] }).mean['hit@1']).toBe(1);
  });

  it('keeps at most `concurrency` calls in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    await runRetriever(
      set,
      async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await delay(5);
        inFlight--;
        return [];
      },
      { concurrency: 3 },
    );
    expect(peak).toBe(3);
  });

  it('records a failing query with its error and keeps the rest of the run', async () => {
    const result = await runRetriever(set, (query, { id }) => {
      if (id === 'q4') throw new Error('index offline');
      if (id === 'q7') return Promise.reject(new Error('timeout'));
      if (id === 'q9') return 'not hits' as never;
      return [`d${id.slice(1)}`];
    });
    expect(result.errors.map((failure) => [failure.queryId, failure.error.message])).toEqual([
      ['q4', 'index offline'],
      ['q7', 'timeout'],
      ['q9', 'the retriever returned "not hits" for query \'q9\'; it must return an array of hits in rank order'],
    ]);
    expect(result.run.has('q4')).toBe(false);
    expect(result.run.size).toBe(7);
    // The failed queries are missing from the run: they score 0 and are listed.
    const evaluation = evaluateRun(set, result.run, { measures: ['hit@1'] });
    expect(evaluation.mean['hit@1']).toBeCloseTo(0.7, 12);
    expect(evaluation.queries.missing).toEqual(['q4', 'q7', 'q9']);
  });

  it('stops at the first error when asked, with what was retrieved before', async () => {
    const started: string[] = [];
    const promise = runRetriever(
      set,
      async (query, { id }) => {
        started.push(id);
        if (id === 'q2') throw new Error('quota exceeded');
        return [];
      },
      { concurrency: 1, stopOnError: true },
    );
    await expect(promise).rejects.toThrow(RetrieverError);
    const error = (await promise.catch((caught: unknown) => caught)) as RetrieverError;
    expect(error).toBeInstanceOf(RetrieverError);
    expect(error.queryId).toBe('q2');
    expect(error.message).toMatch(/failed on query 'q2': quota exceeded/);
    expect(error.partial.run.size).toBe(1);
    expect(started).toEqual(['q1', 'q2']);
  });

  it('times each call: nearest-rank p50 and p95 over the successful calls', async () => {
    const result = await runRetriever(set, async (query, { id }) => {
      await delay(Number(id.slice(1)) * 4);
      return [];
    });
    expect(result.latency.count).toBe(10);
    expect(Object.keys(result.latency.perQuery)).toHaveLength(10);
    const sorted = Object.values(result.latency.perQuery).sort((a, b) => a - b);
    expect(result.latency.p50).toBe(sorted[4]);
    expect(result.latency.p95).toBe(sorted[9]);
    expect(result.latency.perQuery['q10']).toBeGreaterThanOrEqual(35);
  });

  it('computes nearest-rank percentiles', () => {
    expect(nearestRankPercentile([15, 20, 35, 40, 50], 50)).toBe(35);
    expect(nearestRankPercentile([15, 20, 35, 40, 50], 95)).toBe(50);
    expect(nearestRankPercentile([15, 20, 35, 40, 50], 30)).toBe(20);
    expect(
      nearestRankPercentile(
        Array.from({ length: 100 }, (_, index) => index + 1),
        95,
      ),
    ).toBe(95);
    expect(nearestRankPercentile([], 50)).toBeNaN();
  });

  it('reports progress and rejects bad options', async () => {
    const progress: number[] = [];
    await runRetriever(set.slice(0, 3), () => [], { onProgress: (done) => progress.push(done) });
    expect(progress).toEqual([1, 2, 3]);
    await expect(runRetriever(set, () => [], { concurrency: 0 })).rejects.toThrow(
      /concurrency must be a whole number ≥ 1/,
    );
    await expect(runRetriever(set, () => [], { k: 1.5 })).rejects.toThrow(/k must be a positive whole number/);
    await expect(runRetriever(set, 'search' as never)).rejects.toThrow(/retrieve must be a function/);
    await expect(runRetriever([set[0]!, set[0]!], () => [])).rejects.toThrow(/repeats the query id 'q1'/);
  });
});
