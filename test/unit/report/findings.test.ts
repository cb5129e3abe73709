// The gate's findings: everything an update would change beyond tolerance, by name, with the command
// that accepts it; strict (CI) fails on each, otherwise only regressions (and new questions with failOnNew).
import { describe, expect, it } from 'vitest';

import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';
import { summarize } from '../../../src/report/summary.js';
import { describeFinding } from '../../../src/report/wording.js';
import { baselineFile, key } from '../baseline/keyed.js';

const FILE = 'test/orders.test.ts';

function samples(describe: string[], measure: string, values: Record<string, number>, file = FILE): CollectedSample[] {
  return Object.entries(values).map(([queryId, value]) => ({
    file,
    describePath: describe,
    test: `answers ${queryId}`,
    queryId,
    measure,
    value,
    pass: true,
  }));
}

function run(...groups: CollectedSample[][]): CollectedRun {
  return { runner: 'vitest', samples: groups.flat(), files: [FILE] };
}

const BEFORE = { q1: 1, q2: 0.5, q3: 0.5, q4: 1 };

describe('findings', () => {
  it('an unchanged run has none and passes strict', () => {
    const summary = summarize(
      run(samples(['refunds'], 'recall@5', BEFORE)),
      baselineFile({ [`${FILE} > refunds`]: { 'recall@5': BEFORE } }),
      { strict: true },
    );
    expect(summary.findings).toEqual([]);
    expect(summary.passed).toBe(true);
  });

  it('a move within tolerance is no finding, strict or not', () => {
    const now = { ...BEFORE, q2: 0.504 }; // mean +0.001, q2 itself +0.004: both within 0.01
    const summary = summarize(
      run(samples(['refunds'], 'recall@5', now)),
      baselineFile({ [`${FILE} > refunds`]: { 'recall@5': BEFORE } }),
      { strict: true },
    );
    expect(summary.findings).toEqual([]);
    expect(summary.passed).toBe(true);
  });

  it('questions that moved beyond the tolerance while the mean held are named, drops first, and fail nothing even strict', () => {
    const now = { ...BEFORE, q1: 0, q2: 1, q3: 1 }; // q1 1 → 0, q2 and q3 0.5 → 1: the mean stays 0.75
    const summary = summarize(
      run(samples(['refunds'], 'recall@5', now)),
      baselineFile({ [`${FILE} > refunds`]: { 'recall@5': BEFORE } }),
      { strict: true },
    );
    expect(summary.rows[0]!.status).toBe('unchanged');
    expect(summary.findings).toEqual([
      {
        kind: 'held-moves',
        suite: `${FILE} > refunds`,
        suiteKey: key(`${FILE} > refunds`),
        measure: 'recall@5',
        questions: ['q1', 'q2', 'q3'],
        moves: [
          { before: 1, after: 0 },
          { before: 0.5, after: 1 },
          { before: 0.5, after: 1 },
        ],
        accept: 'update',
        fails: false,
      },
    ]);
    expect(summary.passed).toBe(true);
    expect(summary.verdict.sections.map((section) => section.heading)).toEqual([
      'Questions that moved while the suite held',
    ]);
    expect(describeFinding(summary.findings[0]!, String)).toBe(
      `recall@5 of 3 questions in suite ${FILE} > refunds moved beyond the tolerance while its mean held: q1 1.000 → 0.000, q2 0.500 → 1.000, q3 0.500 → 1.000`,
    );
    expect(describeFinding(summary.findings[0]!, String, 1)).toBe(
      `recall@5 of 3 questions in suite ${FILE} > refunds moved beyond the tolerance while its mean held: q1 1.000 → 0.000, … and 2 more`,
    );
  });

  it('an improvement not recorded: listed always, fails only when strict', () => {
    const now = { ...BEFORE, q2: 1, q3: 1 }; // 0.75 → 1
    const baseline = baselineFile({ [`${FILE} > refunds`]: { 'recall@5': BEFORE } });
    const local = summarize(run(samples(['refunds'], 'recall@5', now)), baseline);
    expect(local.passed).toBe(true);
    expect(local.findings).toEqual([
      {
        kind: 'improvement',
        suite: `${FILE} > refunds`,
        suiteKey: key(`${FILE} > refunds`),
        measure: 'recall@5',
        questions: ['q2', 'q3'],
        before: 0.75,
        after: 1,
        accept: 'update',
        fails: false,
      },
    ]);
    const ci = summarize(run(samples(['refunds'], 'recall@5', now)), baseline, { strict: true });
    expect(ci.passed).toBe(false);
    expect(ci.findings[0]).toMatchObject({ kind: 'improvement', fails: true });
  });

  it('a drop beyond the tolerance that is not significant is no regression, but under CI the baseline is out of date', () => {
    const now = { ...BEFORE, q2: 0 }; // mean 0.75 → 0.625: one question worse, a sign-test p of 1
    const baseline = baselineFile({ [`${FILE} > refunds`]: { 'recall@5': BEFORE } });
    const local = summarize(run(samples(['refunds'], 'recall@5', now)), baseline, { significance: 0.05 });
    expect(local.rows[0]!.status).toBe('unchanged');
    expect(local.passed).toBe(true);
    expect(local.findings).toEqual([
      {
        kind: 'unconfirmed-move',
        suite: `${FILE} > refunds`,
        suiteKey: key(`${FILE} > refunds`),
        measure: 'recall@5',
        questions: ['q2'],
        before: 0.75,
        after: 0.625,
        accept: 'update',
        fails: false,
      },
      // 4 questions: even 4 worse give a sign-test p of 2/16, so under significance 0.05 the row can never fail.
      {
        kind: 'insensitive',
        suite: `${FILE} > refunds`,
        suiteKey: key(`${FILE} > refunds`),
        measure: 'recall@5',
        count: 4,
        before: 0.625,
        limitedBy: 'significance',
        limit: 0.05,
        accept: 'run',
        fails: false,
      },
    ]);
    const ci = summarize(run(samples(['refunds'], 'recall@5', now)), baseline, { significance: 0.05, strict: true });
    expect(ci.passed).toBe(false);
    expect(ci.findings[0]).toMatchObject({ kind: 'unconfirmed-move', fails: true });
  });

  it('a mean is compared on the shared questions only; the questions on one side are named', () => {
    const now = { q1: 1, q2: 0.5, q3: 0.5, q5: 0 }; // q4 gone, q5 new; the shared mean is unchanged
    const summary = summarize(
      run(samples(['refunds'], 'recall@5', now)),
      baselineFile({ [`${FILE} > refunds`]: { 'recall@5': BEFORE } }),
      { strict: true },
    );
    expect(summary.rows[0]).toMatchObject({
      status: 'unchanged',
      delta: 0,
      newSamples: ['q5'],
      missingSamples: ['q4'],
    });
    expect(summary.findings.map((finding) => [finding.kind, finding.questions, finding.accept])).toEqual([
      ['new-questions', ['q5'], 'update'],
      ['missing-questions', ['q4'], 'prune'],
    ]);
    expect(summary.passed).toBe(false);
  });

  it('new and missing questions are one finding per suite and kind, naming every measure they concern', () => {
    // Two measures; q5 and q6 new to both, q4 gone from both, and the suite's ndcg@10 row of the
    // baseline not produced at all (its q1–q4 gone from that measure too).
    const now = { q1: 1, q2: 0.5, q3: 0.5, q5: 0, q6: 1 };
    const summary = summarize(
      run(samples(['refunds'], 'recall@5', now), samples(['refunds'], 'hit@5', now)),
      baselineFile({ [`${FILE} > refunds`]: { 'recall@5': BEFORE, 'hit@5': BEFORE, 'ndcg@10': BEFORE } }),
      { strict: true },
    );
    expect(
      summary.findings.map((finding) => [
        finding.kind,
        finding.suite,
        finding.measures,
        finding.questions,
        finding.fails,
      ]),
    ).toEqual([
      ['new-questions', 'test/orders.test.ts > refunds', ['hit@5', 'recall@5'], ['q5', 'q6'], true],
      [
        'missing-questions',
        'test/orders.test.ts > refunds',
        ['hit@5', 'recall@5', 'ndcg@10'],
        ['q4', 'q1', 'q2', 'q3'],
        true,
      ],
    ]);
    expect(describeFinding(summary.findings[0]!, String)).toBe(
      '2 questions of suite test/orders.test.ts > refunds (hit@5, recall@5) not in the baseline: q5, q6',
    );
  });

  it('a long list of questions is cut with "… and N more", once for all the measures', () => {
    const now = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`n${index + 1}`, 1]));
    const summary = summarize(
      run(samples(['refunds'], 'recall@5', { ...BEFORE, ...now }), samples(['refunds'], 'mrr', { ...BEFORE, ...now })),
      baselineFile({ [`${FILE} > refunds`]: { 'recall@5': BEFORE, mrr: BEFORE } }),
      { strict: true },
    );
    expect(summary.findings).toHaveLength(1);
    expect(describeFinding(summary.findings[0]!, String)).toBe(
      '12 questions of suite test/orders.test.ts > refunds (mrr, recall@5) not in the baseline: n1, n2, n3, n4, n5, … and 7 more',
    );
  });

  it('a new suite and a suite that did not run although its file ran: named, update and prune', () => {
    const baseline = baselineFile({
      [`${FILE} > refunds`]: { 'recall@5': BEFORE },
      [`${FILE} > shipping`]: { mrr: { s1: 1 } },
    });
    const summary = summarize(
      run(samples(['refunds'], 'recall@5', BEFORE), samples(['returns'], 'mrr', { r1: 0.5 })),
      baseline,
      { strict: true },
    );
    expect(summary.findings.map((finding) => [finding.kind, finding.suite, finding.questions, finding.accept])).toEqual(
      [
        ['new-suite', `${FILE} > returns`, ['r1'], 'update'],
        ['missing-suite', `${FILE} > shipping`, ['s1'], 'prune'],
      ],
    );
  });

  it('a suite of a file that did not run is not missing: it is not judged, which fails strict unless the run is partial', () => {
    const baseline = baselineFile({
      [`${FILE} > refunds`]: { 'recall@5': BEFORE },
      'test/other.test.ts > x': { mrr: { s1: 1 } },
    });
    const summary = summarize(run(samples(['refunds'], 'recall@5', BEFORE)), baseline, { strict: true });
    expect(summary.missing).toEqual([]);
    expect(summary.findings).toEqual([
      {
        kind: 'not-judged',
        suite: 'test/other.test.ts > x',
        suiteKey: '',
        reason: 'not-run',
        count: 1,
        questions: ['test/other.test.ts > x › s1'],
        accept: 'run',
        fails: true,
      },
    ]);
    expect(summary.passed).toBe(false);
    expect(summary.notRun).toEqual({ suites: 1, rows: 1 });
    const partial = summarize(run(samples(['refunds'], 'recall@5', BEFORE)), baseline, { strict: true, partial: true });
    expect(partial.findings.map((finding) => [finding.kind, finding.fails])).toEqual([['not-judged', false]]);
    expect(partial.passed).toBe(true);
    // Outside strict it is listed and never fails.
    expect(summarize(run(samples(['refunds'], 'recall@5', BEFORE)), baseline).passed).toBe(true);
  });

  it('a renamed describe block with the same questions is compared with its old rows, and the rename is a finding', () => {
    const now = { ...BEFORE, q1: 0, q4: 0.5 }; // 0.75 → 0.375
    const baseline = baselineFile({ [`${FILE} > refunds`]: { 'recall@5': BEFORE } });
    const summary = summarize(run(samples(['refund policy'], 'recall@5', now)), baseline, { strict: true });
    const row = summary.rows[0]!;
    expect(row).toMatchObject({
      suite: `${FILE} > refund policy`,
      renamedFrom: `${FILE} > refunds`,
      status: 'regressed',
      delta: -0.375,
    });
    expect(summary.missing).toEqual([]);
    // Its four questions were judged under the new name.
    expect(summary.coverage).toEqual({ judged: 4, missing: 0, notJudged: [] });
    expect(summary.findings.map((finding) => [finding.kind, finding.from ?? finding.measure])).toEqual([
      ['renamed-suite', `${FILE} > refunds`],
      ['regression', 'recall@5'],
    ]);
    expect(summary.passed).toBe(false);
  });

  it('two candidates with the same questions are no rename: a new and a missing suite, by name', () => {
    const baseline = baselineFile({ [`${FILE} > a`]: { mrr: { q1: 1 } }, [`${FILE} > b`]: { mrr: { q1: 1 } } });
    const summary = summarize(run(samples(['c'], 'mrr', { q1: 1 })), baseline, { strict: true });
    expect(summary.rows[0]!.renamedFrom).toBeUndefined();
    expect(summary.findings.map((finding) => finding.kind)).toEqual(['new-suite', 'missing-suite', 'missing-suite']);
  });

  it('update mode records instead of judging: no finding fails', () => {
    const summary = summarize(run(samples(['returns'], 'mrr', { r1: 0.5 })), baselineFile({}), {
      strict: true,
      updatingBaseline: true,
    });
    expect(summary.findings.map((finding) => [finding.kind, finding.fails])).toEqual([['new-suite', false]]);
    expect(summary.passed).toBe(true);
  });

  it('no baseline under strict: every suite is new and fails', () => {
    const summary = summarize(run(samples(['refunds'], 'recall@5', BEFORE)), undefined, { strict: true });
    expect(summary.findings.map((finding) => [finding.kind, finding.fails])).toEqual([['new-suite', true]]);
    expect(summary.passed).toBe(false);
  });

  it('describe("a > b") and describe("a") › describe("b") are two suites, each with its own baseline row', () => {
    const baseline = baselineFile({});
    baseline.suites[JSON.stringify([FILE, ['a > b']])] = { mrr: { q1: 1 } };
    baseline.suites[JSON.stringify([FILE, ['a', 'b']])] = { mrr: { q1: 0 } };
    const summary = summarize(
      run(samples(['a > b'], 'mrr', { q1: 1 }), samples(['a', 'b'], 'mrr', { q1: 0 })),
      baseline,
      { strict: true },
    );
    expect(summary.rows.map((row) => [row.suite, row.status])).toEqual([
      [`${FILE} > a > b`, 'unchanged'],
      [`${FILE} > a > b`, 'unchanged'],
    ]);
    expect(summary.passed).toBe(true);
  });
});
