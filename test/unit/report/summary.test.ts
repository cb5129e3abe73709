import { describe, expect, it } from 'vitest';

import type { BaselineFile } from '../../../src/baseline/file/types.js';
import { meanInterval } from '../../../src/core/stats.js';
import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';
import { summarize, type SummaryRow } from '../../../src/report/summary.js';
import { baselineFile, key } from '../baseline/keyed.js';

const FILE = 'test/orders.test.ts';

/** Samples q1…qn of one measure in one suite. */
function samples(
  measure: string,
  values: number[],
  options: { file?: string; describe?: string[]; ids?: string[] } = {},
): CollectedSample[] {
  return values.map((value, index) => ({
    file: options.file ?? FILE,
    describePath: options.describe ?? ['refunds'],
    test: `question ${index + 1}`,
    queryId: options.ids?.[index] ?? `q${index + 1}`,
    measure,
    value,
    pass: value >= 0.5,
  }));
}

function run(...groups: CollectedSample[][]): CollectedRun {
  return { runner: 'vitest', samples: groups.flat() };
}

function baselineOf(...groups: CollectedSample[][]): BaselineFile {
  const suites: BaselineFile['suites'] = {};
  for (const sample of groups.flat()) {
    const suite = [sample.file, ...sample.describePath].join(' > ');
    ((suites[suite] ??= {})[sample.measure] ??= {})[sample.queryId ?? sample.test] = sample.value;
  }
  return baselineFile(suites);
}

function row(rows: SummaryRow[], measure: string, suite = `${FILE} > refunds`): SummaryRow {
  const found = rows.find((candidate) => candidate.measure === measure && candidate.suite === suite);
  if (!found) throw new Error(`no row ${suite} · ${measure}`);
  return found;
}

describe('per suite × measure statistics', () => {
  it('count, mean, min, max and failures of each row', () => {
    const summary = summarize(run(samples('recall@5', [1, 0.5, 0, 1]), samples('hit@5', [1, 0, 1, 1])), undefined);
    const recall = row(summary.rows, 'recall@5');
    expect(recall).toMatchObject({ count: 4, mean: 0.625, min: 0, max: 1, failures: 1, status: 'new' });
    expect(row(summary.rows, 'hit@5')).toMatchObject({ count: 4, mean: 0.75, min: 0, max: 1 });
    expect(summary.totals).toEqual({ samples: 8, suites: 1, rows: 2 });
  });

  it('binary measures get the Wilson interval: 5/10 → [0.237, 0.763], 10/10 → [0.722, 1]', () => {
    const summary = summarize(
      run(
        samples('hit@5', [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]),
        samples('hit@10', Array(10).fill(1), { describe: ['all found'] }),
      ),
      undefined,
    );
    const half = row(summary.rows, 'hit@5').interval;
    expect(half.method).toBe('wilson');
    expect(half.lower).toBeCloseTo(0.2366, 4);
    expect(half.upper).toBeCloseTo(0.7634, 4);
    const all = row(summary.rows, 'hit@10', `${FILE} > all found`).interval;
    expect(all.lower).toBeCloseTo(0.7225, 4);
    expect(all.upper).toBe(1);
  });

  it('any measure whose values are all 0/1 is binary (faithfulness, judge:<name>, recall with one relevant id)', () => {
    const summary = summarize(
      run(samples('judge:grounded', [1, 0, 1, 1]), samples('faithfulness', [1, 0.5, 1, 1])),
      undefined,
    );
    expect(row(summary.rows, 'judge:grounded').interval.method).toBe('wilson');
    expect(row(summary.rows, 'faithfulness').interval.method).toBe('bootstrap-percentile');
  });

  it('graded measures get the seeded percentile bootstrap: reproducible, and the figure of meanInterval with the same seed', () => {
    const values = [0.2, 0.9, 0.4, 0.65, 1, 0.1, 0.55, 0.8];
    const first = row(summarize(run(samples('ndcg@10', values)), undefined).rows, 'ndcg@10').interval;
    const second = row(summarize(run(samples('ndcg@10', values)), undefined).rows, 'ndcg@10').interval;
    expect(second).toEqual(first);
    const expected = meanInterval(values, { seed: 42, resamples: 1000 });
    expect(first).toMatchObject({
      method: 'bootstrap-percentile',
      lower: expected.lower,
      upper: expected.upper,
      seed: 42,
      resamples: 1000,
    });
    expect(first.lower).toBeLessThan(0.575);
    expect(first.upper).toBeGreaterThan(0.575);
    const otherSeed = row(summarize(run(samples('ndcg@10', values)), undefined, { seed: 7 }).rows, 'ndcg@10').interval;
    expect(otherSeed.lower).not.toBe(first.lower);
  });

  it('all-equal graded values give the interval [v, v]', () => {
    const interval = row(summarize(run(samples('ndcg@10', [0.5, 0.5, 0.5])), undefined).rows, 'ndcg@10').interval;
    expect(interval).toMatchObject({ lower: 0.5, upper: 0.5, method: 'bootstrap-percentile' });
  });

  it('rows are ordered by suite, then measure, in natural order', () => {
    const summary = summarize(
      run(
        samples('recall@10', [1]),
        samples('recall@5', [1]),
        samples('hit@5', [1], { describe: ['b'] }),
        samples('mrr', [1], { describe: ['a'] }),
      ),
      undefined,
    );
    expect(summary.rows.map((r) => `${r.suite} · ${r.measure}`)).toEqual([
      `${FILE} > a · mrr`,
      `${FILE} > b · hit@5`,
      `${FILE} > refunds · recall@5`,
      `${FILE} > refunds · recall@10`,
    ]);
  });
});

describe('comparison with the baseline', () => {
  it('delta, wins/losses/ties and the questions that got worse, largest drop first', () => {
    const before = samples('recall@5', [1, 1, 0.5, 0.5, 1]);
    const after = samples('recall@5', [0.5, 1, 1, 0, 0]);
    const r = row(summarize(run(after), baselineOf(before)).rows, 'recall@5');
    expect(r.baseline).toEqual({ mean: 0.8, count: 5 });
    expect(r.mean).toBe(0.5);
    expect(r.delta).toBeCloseTo(-0.3, 12);
    expect(r.comparison).toMatchObject({ shared: 5, wins: 1, losses: 3, ties: 1, test: 'sign' });
    // sign test, 1 win 3 losses: 2 · P(X ≤ 1 | n = 4) = 2 · 5/16
    expect(r.comparison!.p).toBeCloseTo(0.625, 12);
    expect(r.worse).toEqual([
      { sampleId: 'q5', test: 'question 5', before: 1, after: 0, delta: -1 },
      { sampleId: 'q1', test: 'question 1', before: 1, after: 0.5, delta: -0.5 },
      { sampleId: 'q4', test: 'question 4', before: 0.5, after: 0, delta: -0.5 },
    ]);
    expect(r.better).toEqual([{ sampleId: 'q3', test: 'question 3', before: 0.5, after: 1, delta: 0.5 }]);
    expect(r.status).toBe('regressed');
    expect(r.before).toEqual([1, 1, 0.5, 0.5, 1]);
  });

  it('a drop of exactly the tolerance is not a regression, despite rounding (0.80 − 0.81 = −0.010000000000000009)', () => {
    const summary = summarize(run(samples('ndcg@10', [0.8])), baselineOf(samples('ndcg@10', [0.81])));
    expect(row(summary.rows, 'ndcg@10').delta).toBe(0.8 - 0.81);
    expect(row(summary.rows, 'ndcg@10').status).toBe('unchanged');
    expect(summary.passed).toBe(true);
    const strict = summarize(run(samples('ndcg@10', [0.8])), baselineOf(samples('ndcg@10', [0.81])), { tolerance: 0 });
    expect(row(strict.rows, 'ndcg@10').status).toBe('regressed');
  });

  it('tolerance: default 0.01, a number for all, per-measure overrides in any measure spelling', () => {
    const before = [...samples('recall@5', [1, 1, 1, 1, 1]), ...samples('ndcg@10', [1, 1, 1, 1, 1])];
    const after = [...samples('recall@5', [1, 1, 1, 1, 0.9]), ...samples('ndcg@10', [1, 1, 1, 1, 0.9])]; // both −0.02
    const byDefault = summarize(run(after), baselineOf(before));
    expect(byDefault.rows.map((r) => [r.measure, r.status, r.tolerance])).toEqual([
      ['ndcg@10', 'regressed', 0.01],
      ['recall@5', 'regressed', 0.01],
    ]);
    expect(byDefault.regressions).toBe(2);
    expect(byDefault.passed).toBe(false);

    const loose = summarize(run(after), baselineOf(before), { tolerance: 0.05 });
    expect(loose.regressions).toBe(0);

    const override = summarize(run(after), baselineOf(before), { tolerance: { 'R@5': 0.05 } });
    expect(override.rows.map((r) => [r.measure, r.status, r.tolerance])).toEqual([
      ['ndcg@10', 'regressed', 0.01],
      ['recall@5', 'unchanged', 0.05],
    ]);
    const withDefault = summarize(run(after), baselineOf(before), { tolerance: { default: 0.05, 'recall@5': 0 } });
    expect(withDefault.rows.map((r) => [r.measure, r.status])).toEqual([
      ['ndcg@10', 'unchanged'],
      ['recall@5', 'regressed'],
    ]);
    expect(() => summarize(run(after), baselineOf(before), { tolerance: { 'recal@5': 0 } })).toThrow(
      /tolerance\["recal@5"\]: measure "recal@5" is not valid/,
    );
    expect(() => summarize(run(after), baselineOf(before), { tolerance: -0.1 })).toThrow(
      /tolerance must be a finite number ≥ 0/,
    );
  });

  it('improvements are the mirror image, and unchanged rows are reported too', () => {
    const summary = summarize(
      run(samples('recall@5', [1, 1]), samples('mrr', [0.5, 0.5])),
      baselineOf(samples('recall@5', [0.5, 1]), samples('mrr', [0.5, 0.5])),
    );
    expect(row(summary.rows, 'recall@5').status).toBe('improved');
    expect(row(summary.rows, 'mrr')).toMatchObject({ status: 'unchanged', delta: 0, worse: [], better: [] });
    expect(summary).toMatchObject({ regressions: 0, improvements: 1, unchanged: 1, newRows: 0, passed: true });
  });

  it('failOnRegression: false reports the regression but passes', () => {
    const summary = summarize(run(samples('mrr', [0])), baselineOf(samples('mrr', [1])), { failOnRegression: false });
    expect(summary.regressions).toBe(1);
    expect(summary.passed).toBe(true);
  });

  it('questions present on one side only: Δ and the test use the shared ones; new and missing ids are listed', () => {
    const before = samples('recall@5', [1, 1, 0.5, 0.5], { ids: ['q1', 'q2', 'q3', 'q4'] });
    const after = samples('recall@5', [1, 0.5, 0, 0], { ids: ['q2', 'q3', 'q4', 'q5'] });
    const r = row(summarize(run(after), baselineOf(before)).rows, 'recall@5');
    // Shared q2 1 → 1, q3 0.5 → 0.5, q4 0.5 → 0: means 2/3 → 1/2, Δ = −1/6 (not 0.375 − 0.75).
    expect(r.comparison).toMatchObject({ shared: 3, wins: 0, losses: 1, ties: 2 });
    expect(r.comparison!.meanBefore).toBeCloseTo(2 / 3, 12);
    expect(r.comparison!.meanAfter).toBeCloseTo(1 / 2, 12);
    expect(r.delta).toBeCloseTo(-1 / 6, 12);
    expect(r.baseline).toEqual({ mean: 0.75, count: 4 });
    expect(r.mean).toBe(0.375);
    expect(r.status).toBe('regressed');
    expect(r.newSamples).toEqual(['q5']);
    expect(r.missingSamples).toEqual(['q1']);
    expect(r.before).toEqual([1, 0.5, 0.5, undefined]);
  });

  it('no shared question: the row is new (with the baseline shown), nothing is compared', () => {
    const r = row(
      summarize(run(samples('mrr', [0], { ids: ['renamed'] })), baselineOf(samples('mrr', [1], { ids: ['old'] }))).rows,
      'mrr',
    );
    expect(r).toMatchObject({
      status: 'new',
      baseline: { mean: 1, count: 1 },
      newSamples: ['renamed'],
      missingSamples: ['old'],
    });
    expect(r.comparison).toBeUndefined();
    expect(r.delta).toBeUndefined();
  });
});

describe('significance', () => {
  it('5 losses, 0 wins: sign test p = 0.0625, so with significance 0.05 it is not a regression; without, it is', () => {
    const before = samples('recall@5', [1, 1, 1, 1, 1]);
    const after = samples('recall@5', [0.5, 0.5, 0.5, 0.5, 0.5]);
    const plain = summarize(run(after), baselineOf(before));
    expect(row(plain.rows, 'recall@5').comparison!.p).toBeCloseTo(0.0625, 12);
    expect(row(plain.rows, 'recall@5').status).toBe('regressed');
    const significant = summarize(run(after), baselineOf(before), { significance: 0.05 });
    expect(row(significant.rows, 'recall@5').status).toBe('unchanged');
    expect(significant.passed).toBe(true);
  });

  it('6 losses, 0 wins: p = 2/64 = 0.03125 ≤ 0.05, a regression', () => {
    const summary = summarize(
      run(samples('recall@5', Array(6).fill(0))),
      baselineOf(samples('recall@5', Array(6).fill(1))),
      { significance: 0.05 },
    );
    expect(row(summary.rows, 'recall@5').comparison).toMatchObject({ p: 0.03125, adjustedP: 0.03125 });
    expect(row(summary.rows, 'recall@5').status).toBe('regressed');
  });

  it('Holm across the compared rows: p = 0.03125 and 0.0625 become 0.0625 and 0.0625, so neither regresses at 0.05', () => {
    const before = [
      ...samples('recall@5', Array(6).fill(1)),
      ...samples('ndcg@10', Array(5).fill(1)),
      ...samples('mrr', [1, 1]),
    ];
    const after = [
      ...samples('recall@5', Array(6).fill(0)),
      ...samples('ndcg@10', Array(5).fill(0.5)),
      ...samples('mrr', [1, 1]),
    ];
    const summary = summarize(run(after), baselineOf(before), { significance: 0.05 });
    // Sorted: 0.03125 · 2 = 0.0625; then max(0.0625, 0.0625 · 1) = 0.0625. The unchanged mrr row (no question
    // changed, p = 1 whatever the test) is not in the family, so m = 2.
    expect(summary.settings.holmFamily).toBe(2);
    expect(row(summary.rows, 'recall@5').comparison).toMatchObject({ p: 0.03125, adjustedP: 0.0625 });
    expect(row(summary.rows, 'ndcg@10').comparison).toMatchObject({ p: 0.0625, adjustedP: 0.0625 });
    expect(row(summary.rows, 'mrr').comparison).toMatchObject({ p: 1, adjustedP: 1 });
    expect(summary.regressions).toBe(0);
    // Without significance the tolerance alone decides: both drops are regressions.
    expect(summarize(run(after), baselineOf(before)).regressions).toBe(2);
  });

  it('Holm lets the stronger of two rows through: 7 losses (p = 0.015625 → 0.03125) regresses, 5 losses does not', () => {
    const before = [...samples('recall@5', Array(7).fill(1)), ...samples('ndcg@10', Array(5).fill(1))];
    const after = [...samples('recall@5', Array(7).fill(0)), ...samples('ndcg@10', Array(5).fill(0.5))];
    const summary = summarize(run(after), baselineOf(before), { significance: 0.05 });
    expect(row(summary.rows, 'recall@5').comparison!.adjustedP).toBeCloseTo(0.03125, 12);
    expect(row(summary.rows, 'recall@5').status).toBe('regressed');
    expect(row(summary.rows, 'ndcg@10').status).toBe('unchanged');
    expect(summary.regressions).toBe(1);
  });

  it("test: 'randomization' (exact for few pairs: 5 equal drops → 2/32) and 't'", () => {
    const before = samples('ndcg@10', [1, 1, 0.75, 0.75, 0.5]); // binary fractions: every difference is exactly −0.5
    const after = samples('ndcg@10', [0.5, 0.5, 0.25, 0.25, 0]);
    const randomization = row(
      summarize(run(after), baselineOf(before), { test: 'randomization' }).rows,
      'ndcg@10',
    ).comparison!;
    expect(randomization).toMatchObject({
      test: 'randomization',
      method: 'randomization-exact',
      seed: null,
      resamples: 32,
    });
    expect(randomization.p).toBeCloseTo(0.0625, 12);
    const t = row(summarize(run(after), baselineOf(before), { test: 't' }).rows, 'ndcg@10').comparison!;
    expect(t).toMatchObject({ test: 't', method: 'paired-t', p: 0 }); // identical differences: sd 0, t = −∞
  });

  it('warns when Monte Carlo randomization p-values cannot pass Holm (1/(resamples + 1) × rows > significance)', () => {
    // 20 differing pairs: more than the 16 that the exact test enumerates, so Monte Carlo.
    const before = samples('ndcg@10', Array(20).fill(1));
    const after = samples('ndcg@10', Array(20).fill(0.5));
    const few = summarize(run(after), baselineOf(before), { test: 'randomization', significance: 0.05, resamples: 99 });
    // smallest p = 1/100 = 0.01 ≤ 0.05 with one row: reachable, no warning, and it regresses
    expect(row(few.rows, 'ndcg@10').comparison).toMatchObject({ method: 'randomization-monte-carlo', p: 0.01 });
    expect(few.warnings).toEqual([]);
    expect(few.regressions).toBe(1);
    const tooFew = summarize(run(after), baselineOf(before), {
      test: 'randomization',
      significance: 0.005,
      resamples: 99,
    });
    expect(tooFew.warnings).toEqual([
      "With 1 compared row and 99 randomization resamples, no Monte Carlo p-value can pass Holm at 0.005 (the smallest is 1/100, times 1): such rows can never regress. Set resamples to at least 200, or use test: 'sign'.",
    ]);
    expect(tooFew.regressions).toBe(0);
  });

  it('a t-test on one pair has no p: the row is compared but cannot be significant', () => {
    const summary = summarize(run(samples('mrr', [0])), baselineOf(samples('mrr', [1])), {
      test: 't',
      significance: 0.05,
    });
    const r = row(summary.rows, 'mrr');
    expect(r.comparison).toMatchObject({ shared: 1, losses: 1, test: 't' });
    expect(r.comparison!.p).toBeUndefined();
    expect(r.status).toBe('unchanged');
    expect(summary.settings.holmFamily).toBe(0);
  });

  it('rejects bad options, naming them', () => {
    const r = run(samples('mrr', [1]));
    expect(() => summarize(r, undefined, { significance: 5 })).toThrow(
      /significance must be a number strictly between 0 and 1/,
    );
    expect(() => summarize(r, undefined, { test: 'wilcoxon' as 'sign' })).toThrow(
      /test must be 'sign', 'randomization' or 't', got "wilcoxon"/,
    );
    expect(() => summarize(r, undefined, { intervalResamples: 0 })).toThrow(
      /intervalResamples must be a whole number ≥ 1/,
    );
  });
});

describe('new, missing and not-run entries, and the gate', () => {
  const baseline = baselineOf(
    samples('recall@5', [1, 1]),
    samples('mrr', [1]), // same suite: will be missing from the run
    samples('ndcg@10', [0.5], { file: 'test/other.test.ts', describe: [] }), // another file, not run
  );

  it('with no baseline every row is new and the run passes unless failOnNew', () => {
    const summary = summarize(run(samples('recall@5', [1, 0])), undefined);
    expect(summary).toMatchObject({ baselineFound: false, newRows: 1, newSamples: 2, passed: true, regressions: 0 });
    expect(summarize(run(samples('recall@5', [1, 0])), undefined, { failOnNew: true }).passed).toBe(false);
  });

  it('missing: baseline rows of files that ran; notRun: suites of files that did not', () => {
    const summary = summarize(run(samples('recall@5', [1, 1])), baseline);
    expect(summary.missing).toEqual([
      {
        suite: `${FILE} > refunds`,
        suiteKey: key(`${FILE} > refunds`),
        measure: 'mrr',
        count: 1,
        mean: 1,
        questions: ['q1'],
      },
    ]);
    expect(summary.notRun).toEqual({ suites: 1, rows: 1 });
    // q1 and q2 ran (q1 lost its mrr row: gone from that measure, still judged); the other file's question did not.
    expect(summary.coverage).toEqual({
      judged: 2,
      missing: 0,
      notJudged: [
        { reason: 'not-run', questions: 1, suites: ['test/other.test.ts'], examples: ['test/other.test.ts › q1'] },
      ],
    });
  });

  it('fileExists: the rows of a deleted test file are missing (obsolete), not "not run"', () => {
    const summary = summarize(run(samples('recall@5', [1, 1])), baseline, {
      fileExists: (file) => file !== 'test/other.test.ts',
    });
    expect(summary.missing.map((m) => `${m.suite} · ${m.measure}`)).toEqual([
      `${FILE} > refunds · mrr`,
      'test/other.test.ts · ndcg@10',
    ]);
    expect(summary.notRun).toEqual({ suites: 0, rows: 0 });
    const present = summarize(run(samples('recall@5', [1, 1])), baseline, { fileExists: () => true });
    expect(present.notRun).toEqual({ suites: 1, rows: 1 });
  });

  it('run.files decides which files ran in full: a listed file with no samples makes its rows missing', () => {
    const summary = summarize({ ...run(samples('recall@5', [1, 1])), files: [FILE, 'test/other.test.ts'] }, baseline);
    expect(summary.missing.map((m) => m.measure)).toEqual(['mrr', 'ndcg@10']);
    expect(summary.notRun).toEqual({ suites: 0, rows: 0 });
    const filtered = summarize({ ...run(samples('recall@5', [1, 1])), files: [] }, baseline);
    expect(filtered.missing).toEqual([]);
  });

  it('failOnNew fails on new questions inside known rows too', () => {
    const after = samples('recall@5', [1, 1, 1], { ids: ['q1', 'q2', 'q3'] });
    expect(summarize(run(after), baseline)).toMatchObject({ newSamples: 1, newRows: 0, passed: true });
    expect(summarize(run(after), baseline, { failOnNew: true })).toMatchObject({ newSamples: 1, passed: false });
  });
});
