// A small run and baseline shared by the renderer tests: one regressed row (6 questions got worse, more
// than maxWorse 3), one improved, one unchanged, one new row, a partial comparison, and an obsolete row.
import type { BaselineFile } from '../../../src/baseline/file/types.js';
import { baselineFile } from '../baseline/keyed.js';
import { suiteKeyOf, type CollectedRun, type CollectedSample } from '../../../src/recording/collected.js';
import { summarize, type RunSummary } from '../../../src/report/summary.js';

function sample(
  describePath: string[],
  measure: string,
  queryId: string,
  value: number,
  file = 'test/orders.test.ts',
): CollectedSample {
  return {
    file,
    describePath,
    test: queryId === 'q5' ? 'partial refund' : `answers ${queryId}`,
    queryId,
    measure,
    value,
    pass: value >= 0.5,
  };
}

const REFUNDS = ['refunds'];
const after: [string, number][] = [
  ['q1: refunds after 30 days', 0.5],
  ['q2', 0],
  ['q3', 0.5],
  ['q4', 0.5],
  ['q5', 0.75],
  ['q6', 0.5],
  ['q7', 1],
];

export const RUN: CollectedRun = {
  runner: 'vitest',
  samples: [
    ...after.map(([id, value]) => sample(REFUNDS, 'recall@5', id, value)),
    ...after.map(([id], index) => sample(REFUNDS, 'hit@5', id, index === 1 ? 0 : 1)),
    sample(['shipping'], 'mrr', 'eu', 1),
    sample(['shipping'], 'mrr', 'us', 0.5),
    sample(['shipping'], 'mrr', 'uk', 0.25),
    sample(['returns | policy'], 'ndcg@10', 'r1', 0.8),
  ],
};

export const BASELINE: BaselineFile = baselineFile({
  'test/orders.test.ts > refunds': {
    'recall@5': { 'q1: refunds after 30 days': 1, q2: 1, q3: 1, q4: 1, q5: 1, q6: 1, q7: 1 },
    'hit@5': { 'q1: refunds after 30 days': 1, q2: 0, q3: 0, q4: 0, q5: 1, q6: 1, q7: 1 },
    'precision@5': { q1: 0.2 },
  },
  'test/orders.test.ts > shipping': { mrr: { eu: 1, us: 0.5, gone: 0.5 } },
  'test/other.test.ts': { ndcg: { x: 0.5 } },
});

/** One suite of a.test.ts ("refunds") with recall@5 of q1, q2, … as given: the smallest run that writes reports. */
export function recallRun(values: number[]): CollectedRun {
  return {
    runner: 'vitest',
    files: ['a.test.ts'],
    samples: values.map((value, index) => ({
      measure: 'recall@5',
      value,
      pass: true,
      queryId: `q${index + 1}`,
      file: 'a.test.ts',
      describePath: ['refunds'],
      test: `asks q${index + 1}`,
    })),
  };
}

/** A summary of one sample per question id in suite `suite`, every one regressed from a baseline of 1 to 0. */
export function regressedRun(suite: string, queryIds: readonly string[]): RunSummary {
  const run: CollectedRun = {
    runner: 'vitest',
    samples: queryIds.map((queryId) => ({
      file: 'test/a.test.ts',
      describePath: [suite],
      test: 't',
      queryId,
      measure: 'recall@5',
      value: 0,
      pass: false,
    })),
  };
  const baseline = baselineFile({});
  baseline.suites[suiteKeyOf({ file: 'test/a.test.ts', describe: [suite] })] = {
    'recall@5': Object.fromEntries(queryIds.map((id) => [id, 1])),
  };
  return summarize(run, baseline);
}
