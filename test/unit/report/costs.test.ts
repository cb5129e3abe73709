// Latency and calls per suite (src/report/costs.ts, src/core/latency.ts): nearest-rank percentiles worked
// by hand, calls per question, the budget judged only from 20 timed questions, the calls finding against
// the baseline's per-question calls, and the baseline round trip of both (schema 6).
import { describe, expect, it } from 'vitest';

import { parseBaseline } from '../../../src/baseline/file/read.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import { baselineFromRun, mergeBaseline } from '../../../src/baseline/store.js';
import { formatMergedBaseline, mergeBaselineVersions } from '../../../src/baseline/three-way.js';
import { latencyStatistics, nearestRankPercentile } from '../../../src/core/latency.js';
import { splitCosts, type CollectedRun, type CollectedSample } from '../../../src/recording/collected.js';
import { COST_MEASURE, type LatencyBudget } from '../../../src/recording/sample.js';
import { renderConsole } from '../../../src/report/console.js';
import { renderJson } from '../../../src/report/json.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { summarize } from '../../../src/report/summary.js';
import { workflowAnnotations } from '../../../src/gate/annotations.js';

const FILE = 'test/search.test.ts';

function recall(id: string): CollectedSample {
  return { file: FILE, describePath: ['search'], test: `question ${id}`, queryId: id, measure: 'recall@5', value: 1 };
}

function cost(id: string, latencyMs: number, calls: Record<string, number>, budget?: LatencyBudget): CollectedSample {
  return {
    file: FILE,
    describePath: ['search'],
    test: `question ${id}`,
    queryId: id,
    measure: COST_MEASURE,
    value: latencyMs,
    cost: budget === undefined ? { latencyMs, calls } : { latencyMs, calls, latencyBudget: budget },
  };
}

/** n questions q01…, question i taking i ms (1…n) and `reranks(i)` rerank calls. */
function run(n: number, reranks: (i: number) => number, budget?: LatencyBudget): CollectedRun {
  const ids = Array.from({ length: n }, (_, index) => `q${String(index + 1).padStart(2, '0')}`);
  const samples = [
    ...ids.map(recall),
    ...ids.map((id, index) => cost(id, index + 1, { embed: 1, rerank: reranks(index + 1) }, budget)),
  ];
  const costs = splitCosts(samples);
  return { runner: 'vitest', samples, costs };
}

describe('nearest-rank latency statistics', () => {
  it('20 values: p50 is the 10th, p95 the 19th, max the 20th', () => {
    const values = Array.from({ length: 20 }, (_, index) => (index + 1) * 10).reverse();
    expect(latencyStatistics(values)).toEqual({ p50: 100, p95: 190, max: 200 });
  });

  it('one value is every percentile; 3 values: p50 is the 2nd (⌈1.5⌉), p95 the 3rd (⌈2.85⌉)', () => {
    expect(latencyStatistics([7])).toEqual({ p50: 7, p95: 7, max: 7 });
    expect(nearestRankPercentile([1, 2, 3], 50)).toBe(2);
    expect(nearestRankPercentile([1, 2, 3], 95)).toBe(3);
    expect(() => latencyStatistics([])).toThrow(/no values/);
  });
});

describe('splitCosts', () => {
  it('moves the cost records out of the samples, both lists keeping their order', () => {
    const samples = [recall('a'), cost('a', 5, {}), recall('b'), cost('b', 6, { rerank: 1 })];
    const costs = splitCosts(samples);
    expect(samples.map((sample) => sample.queryId)).toEqual(['a', 'b']);
    expect(costs.map((entry) => [entry.queryId, entry.cost.latencyMs])).toEqual([
      ['a', 5],
      ['b', 6],
    ]);
  });
});

describe('the summary of costs', () => {
  it('per suite: timed questions, p50/p95/max, calls per question by kind (a kind a question lacks counts 0)', () => {
    // rerank: 1 call for odd questions, none for even ones (absent): 10 of 20 → 0.5 per question.
    const summary = summarize(
      run(20, (i) => (i % 2 === 1 ? 1 : 0)),
      undefined,
    );
    expect(summary.costs).toEqual([
      {
        suite: 'test/search.test.ts > search',
        suiteKey: JSON.stringify([FILE, ['search']]),
        timed: 20,
        retrievals: 20,
        latency: { p50: 10, p95: 19, max: 20 },
        calls: [
          { kind: 'embed', perQuestion: 1 },
          { kind: 'rerank', perQuestion: 0.5 },
        ],
        budgetStatus: 'none',
      },
    ]);
    expect(summary.findings).toEqual([]);
  });

  it('a budget is judged from 20 timed questions: p95 19 ms over 18 fails, naming the suite, its p95 and the budget', () => {
    const over = summarize(
      run(20, () => 1),
      undefined,
      { latency: { p95: 18 } },
    );
    expect(over.costs![0]!.budgetStatus).toBe('over');
    expect(over.findings).toMatchObject([
      {
        kind: 'latency',
        suite: 'test/search.test.ts > search',
        overBudget: [{ statistic: 'p95', value: 19, budget: 18 }],
        fails: true,
      },
    ]);
    expect(over.verdict.passed).toBe(false);
    const text = renderConsole(over, { color: false });
    expect(text).toContain(
      'latency over budget in suite test/search.test.ts > search: p95 19 ms over the budget of 18 ms (20 timed questions)',
    );
    const within = summarize(
      run(20, () => 1),
      undefined,
      { latency: { p95: 19 } },
    );
    expect(within.costs![0]!.budgetStatus).toBe('within');
    expect(within.verdict.passed).toBe(true);
  });

  it('with 19 timed questions the budget is not judged, and the report says so', () => {
    const summary = summarize(
      run(19, () => 1, { p95: 1 }),
      undefined,
    );
    expect(summary.costs![0]!.budgetStatus).toBe('too-few');
    expect(summary.findings).toEqual([]);
    expect(summary.verdict.passed).toBe(true);
    expect(renderMarkdown(summary)).toContain(
      '- test/search.test.ts > search: 19 timed questions · p50 10 ms · p95 19 ms · max 19 ms · calls per question: embed 1, rerank 1 · budget p95 1.0 ms not judged: 19 timed questions, it needs 20',
    );
  });

  it('a suite budget recorded with the costs wins over the reporter option', () => {
    const summary = summarize(
      run(20, () => 1, { max: 100 }),
      undefined,
      { latency: { p95: 1 } },
    );
    expect(summary.costs![0]!.budget).toEqual({ max: 100 });
    expect(summary.costs![0]!.budgetStatus).toBe('within');
  });
});

describe('calls per question against the baseline (schema 6 latency rows, schema 7 ranking rows)', () => {
  it('update writes each question calls in its ranking row and the suite latency row; reading gives them back', () => {
    const file = baselineFromRun(run(2, () => 1));
    const text = formatBaseline(file);
    expect(text).toContain('"schemaVersion": 7');
    expect(text).toContain(
      '    ,["test/search.test.ts", ["search"], "", "#latency", {"timed": 2, "p50": 1, "p95": 2, "max": 2}]\n' +
        '    ,["q01",["question q01"],{"calls":{"embed":1,"rerank":1}}]\n' +
        '    ,["test/search.test.ts", ["search"], "q01", "recall@5", 1]\n',
    );
    const read = parseBaseline(text, 'rag-baseline.json');
    expect(formatBaseline(read)).toBe(text);
    const key = JSON.stringify([FILE, ['search']]);
    expect(read.rankings![key]!.q02!.calls).toEqual({ embed: 1, rerank: 1 });
    expect(read.latency![key]).toEqual({ timed: 2, p50: 1, p95: 2, max: 2 });
  });

  it('an unchanged run is no finding; rerank 1 → 3 on two questions is one finding naming both, failing only with failOnCallChange', () => {
    const baseline = parseBaseline(formatBaseline(baselineFromRun(run(3, () => 1))), 'rag-baseline.json');
    expect(
      summarize(
        run(3, () => 1),
        baseline,
      ).findings,
    ).toEqual([]);
    const changed = run(3, (i) => (i === 2 ? 1 : 3));
    const shown = summarize(changed, baseline, { strict: true });
    expect(shown.findings).toMatchObject([
      {
        kind: 'calls',
        callKind: 'rerank',
        questions: ['q01', 'q03'],
        callChanges: [
          { before: 1, after: 3 },
          { before: 1, after: 3 },
        ],
        fails: false,
      },
    ]);
    expect(shown.verdict.passed).toBe(true);
    expect(renderConsole(shown, { color: false })).toContain(
      'rerank calls per question 1 → 3 in suite test/search.test.ts > search: q01, q03',
    );
    const gated = summarize(changed, baseline, { failOnCallChange: true });
    expect(gated.findings[0]!.fails).toBe(true);
    expect(gated.verdict.passed).toBe(false);
    expect(renderJson(gated).costs[0]!.calls).toEqual([
      { kind: 'embed', perQuestion: 1 },
      { kind: 'rerank', perQuestion: 7 / 3 },
    ]);
  });

  it("a renamed suite's latency and calls are compared with its old name's: the baseline's latency shown, a calls change found", () => {
    const baseline = parseBaseline(formatBaseline(baselineFromRun(run(3, () => 1))), 'rag-baseline.json');
    const renamed = (reranks: number): CollectedRun => {
      const original = run(3, () => reranks);
      const rename = <T extends CollectedSample>(sample: T): T => ({ ...sample, describePath: ['search, renamed'] });
      return { ...original, files: [FILE], samples: original.samples.map(rename), costs: original.costs!.map(rename) };
    };
    const same = summarize(renamed(1), baseline);
    expect(same.rows[0]!.renamedFrom).toBe('test/search.test.ts > search');
    expect(same.costs![0]).toMatchObject({ suite: 'test/search.test.ts > search, renamed', baseline: { timed: 3 } });
    // The rename is a finding of its own; the calls, as recorded under the old name, are none.
    expect(same.findings.map((finding) => finding.kind)).toEqual(['renamed-suite']);
    const more = summarize(renamed(2), baseline, { failOnCallChange: true });
    expect(more.findings.filter((finding) => finding.kind === 'calls')).toMatchObject([
      { callKind: 'rerank', questions: ['q01', 'q02', 'q03'], fails: true },
    ]);
  });

  it('GitHub annotations: an error at the suite file for a budget gone over or calls that gate, a notice for calls that do not', () => {
    const over = summarize(
      run(20, () => 1),
      undefined,
      { latency: { p95: 18 } },
    );
    expect(workflowAnnotations(over)).toEqual([
      '::error file=test/search.test.ts,title=latency over budget%3A test/search.test.ts > search::latency over budget in suite test/search.test.ts > search: p95 19 ms over the budget of 18 ms (20 timed questions)',
    ]);
    const baseline = parseBaseline(formatBaseline(baselineFromRun(run(3, () => 1))), 'rag-baseline.json');
    const changed = run(3, (i) => (i === 2 ? 1 : 3));
    const callsLine =
      'file=test/search.test.ts,title=rerank calls per question changed%3A test/search.test.ts > search::rerank calls per question 1 → 3 in suite test/search.test.ts > search: q01, q03';
    expect(workflowAnnotations(summarize(changed, baseline))).toEqual([`::notice ${callsLine}`]);
    expect(workflowAnnotations(summarize(changed, baseline, { failOnCallChange: true }))).toEqual([
      `::error ${callsLine}`,
    ]);
    expect(
      workflowAnnotations(
        summarize(
          run(3, () => 1),
          baseline,
        ),
      ),
    ).toEqual([]);
  });

  it('a merge keeps the calls and latency of the suites the run did not time; the merge driver keeps them too', () => {
    const previous = baselineFromRun(run(2, () => 1));
    const other: CollectedRun = { runner: 'vitest', samples: [{ ...recall('x'), file: 'test/other.test.ts' }] };
    const merged = mergeBaseline(previous, baselineFromRun(other)).file;
    const key = JSON.stringify([FILE, ['search']]);
    expect(merged.rankings![key]!.q01!.calls).toEqual({ embed: 1, rerank: 1 });
    expect(merged.latency![key]!.timed).toBe(2);
    const theirs = baselineFromRun(run(2, () => 2));
    const three = mergeBaselineVersions(previous, previous, theirs);
    expect(three.conflicts).toEqual([]);
    const text = formatMergedBaseline(three, () => 'update');
    expect(parseBaseline(text, 'merged.json').rankings![key]!.q01!.calls).toEqual({ embed: 1, rerank: 2 });
  });
});

describe('the calls finding in an update run', () => {
  it('says the run writes it, not that an update would', () => {
    const baseline = parseBaseline(formatBaseline(baselineFromRun(run(2, () => 1))), 'rag-baseline.json');
    const text = renderConsole(
      summarize(
        run(2, () => 2),
        baseline,
        { updatingBaseline: true },
      ),
      { color: false },
    );
    expect(text).toContain(
      'rerank calls per question 1 → 2 in suite test/search.test.ts > search: q01, q02 — this run writes it into the baseline: commit the file',
    );
  });
});
