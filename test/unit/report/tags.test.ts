// Per-tag rows (src/report/tags.ts) on hand-worked numbers: a tag's questions across suites, compared with
// the baseline under the gate's rule; a regressed tag is a finding that fails only with failOnTagRegression.
import { describe, expect, it } from 'vitest';

import type { BaselineFile } from '../../../src/baseline/file/types.js';
import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';
import { renderConsole } from '../../../src/report/console.js';
import { renderJson } from '../../../src/report/json.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { renderHtml } from '../../../src/report/html/run-report.js';
import { summarize, type SummaryOptions } from '../../../src/report/summary.js';
import { baselineFile } from '../baseline/keyed.js';

const REFUNDS = 'test/orders.test.ts > refunds';
const SHIPPING = 'test/shipping.test.ts > shipping';

interface Question {
  suite: string;
  id: string;
  before?: number;
  after: number;
  tags?: string[];
}

// Suite refunds: mean 0.75 → 0.6875 over a1–a4 (Δ −0.0625); suite shipping: 0.6 → 0.5667 (Δ −0.0333): both
// within the tolerance of 0.2. Tag billing (a1, a2, b1): 0.9333 → 0.6167, Δ −0.3167, beyond it; a5 is new.
// Tag parcels (a3, b2): 0.45 → 0.75, Δ +0.3.
const QUESTIONS: Question[] = [
  { suite: REFUNDS, id: 'a1', before: 1, after: 0.5, tags: ['billing'] },
  { suite: REFUNDS, id: 'a2', before: 1, after: 0.75, tags: ['billing'] },
  { suite: REFUNDS, id: 'a3', before: 0.5, after: 1, tags: ['parcels'] },
  { suite: REFUNDS, id: 'a4', before: 0.5, after: 0.5 },
  { suite: REFUNDS, id: 'a5', after: 1, tags: ['billing'] },
  { suite: SHIPPING, id: 'b1', before: 0.8, after: 0.6, tags: ['billing'] },
  { suite: SHIPPING, id: 'b2', before: 0.4, after: 0.5, tags: ['parcels'] },
  { suite: SHIPPING, id: 'b3', before: 0.6, after: 0.6 },
];

function sampleOf(question: Question, measure: string, value: number, withTags = true): CollectedSample {
  const [file, ...describePath] = question.suite.split(' > ');
  return {
    file: file!,
    describePath,
    test: `question ${question.id}`,
    queryId: question.id,
    measure,
    value,
    ...(withTags && question.tags !== undefined ? { tags: question.tags } : {}),
  };
}

function runOf(questions: readonly Question[]): CollectedRun {
  return { runner: 'vitest', samples: questions.map((question) => sampleOf(question, 'recall@5', question.after)) };
}

function baselineOf(questions: readonly Question[]): BaselineFile {
  const suites: Record<string, Record<string, Record<string, number>>> = {};
  for (const question of questions)
    if (question.before !== undefined)
      ((suites[question.suite] ??= {})['recall@5'] ??= {})[question.id] = question.before;
  return baselineFile(suites);
}

function summarizeTagged(options: SummaryOptions = {}) {
  return summarize(runOf(QUESTIONS), baselineOf(QUESTIONS), { tolerance: 0.2, ...options });
}

describe('per-tag rows', () => {
  it('a tag whose questions all fell is regressed while each suite held within tolerance', () => {
    const summary = summarizeTagged();
    expect(summary.rows.map((row) => [row.suite, row.status, row.delta])).toEqual([
      [REFUNDS, 'unchanged', expect.closeTo(-0.0625, 12)],
      [SHIPPING, 'unchanged', expect.closeTo(-0.1 / 3, 12)],
    ]);
    expect(summary.tags.map((row) => [row.tag, row.measure, row.status])).toEqual([
      ['billing', 'recall@5', 'regressed'],
      ['parcels', 'recall@5', 'improved'],
    ]);
    const billing = summary.tags[0]!;
    // a1, a2, a5 (new) and b1: mean (0.5 + 0.75 + 1 + 0.6) / 4; compared on the three the baseline holds.
    expect(billing).toMatchObject({ count: 4, suites: 2, tolerance: 0.2 });
    expect(billing.mean).toBeCloseTo(0.7125, 12);
    expect(billing.baseline!.count).toBe(3);
    expect(billing.baseline!.mean).toBeCloseTo(2.8 / 3, 12);
    expect(billing.delta).toBeCloseTo((0.5 + 0.75 + 0.6 - 2.8) / 3, 12);
    expect(billing.comparison).toMatchObject({ shared: 3, wins: 0, losses: 3, ties: 0 });
    expect(billing.worse.map((change) => [change.suite, change.sampleId, change.before, change.after])).toEqual([
      [REFUNDS, 'a1', 1, 0.5],
      [REFUNDS, 'a2', 1, 0.75],
      [SHIPPING, 'b1', 0.8, 0.6],
    ]);
    const parcels = summary.tags[1]!;
    expect(parcels).toMatchObject({ count: 2, suites: 2 });
    expect(parcels.delta).toBeCloseTo(0.3, 12);
  });

  it('a regressed tag is a finding that does not fail the run unless failOnTagRegression is set', () => {
    const shown = summarizeTagged();
    const finding = shown.findings.find((candidate) => candidate.kind === 'tag-regression')!;
    expect(finding).toMatchObject({
      tag: 'billing',
      measure: 'recall@5',
      shared: 3,
      suites: 2,
      questions: [`${REFUNDS} › a1`, `${REFUNDS} › a2`, `${SHIPPING} › b1`],
      fails: false,
    });
    expect(shown.passed).toBe(true);
    expect(shown.verdict.headline).toBe('No retrieval regressions');
    expect(shown.verdict.notes).toContain('Tag rows do not fail this run; with failOnTagRegression they do.');

    const gated = summarizeTagged({ failOnTagRegression: true });
    expect(gated.passed).toBe(false);
    expect(gated.verdict.exitCode).toBe(1);
    expect(gated.verdict.headline).toBe('Retrieval quality regressed in 1 tag (failOnTagRegression)');
    // An update records it, and so fails nothing.
    expect(summarizeTagged({ failOnTagRegression: true, updatingBaseline: true }).passed).toBe(true);
  });

  it('follows the gate rule: with significance 0.05 three losses (sign test p = 0.25) are not a regression', () => {
    const summary = summarizeTagged({ significance: 0.05 });
    const billing = summary.tags[0]!;
    expect(billing.comparison!.p).toBeCloseTo(0.25, 12);
    expect(billing.status).toBe('unchanged');
    expect(summary.findings.some((finding) => finding.kind === 'tag-regression')).toBe(false);
  });

  it("a question's tags are those of all its samples, whatever their measure", () => {
    const questions = QUESTIONS.filter((question) => question.id === 'a1' || question.id === 'a4');
    const run = runOf(questions);
    // hit@5 samples carry no tags: a1 is still billing for hit@5.
    run.samples.push(...questions.map((question) => sampleOf(question, 'hit@5', 1, false)));
    const summary = summarize(run, undefined);
    expect(summary.tags.map((row) => [row.tag, row.measure, row.count, row.status])).toEqual([
      ['billing', 'hit@5', 1, 'new'],
      ['billing', 'recall@5', 1, 'new'],
    ]);
  });

  it('no tags, no tag rows; a binary tag row has the Wilson interval (0 of 2: [0, 0.6576])', () => {
    const untagged = QUESTIONS.map(({ tags: _tags, ...question }) => question);
    expect(summarizeTagged({}).tags).toHaveLength(2);
    expect(summarize(runOf(untagged), baselineOf(untagged)).tags).toEqual([]);
    const binary = summarize(
      runOf([
        { suite: REFUNDS, id: 'a1', after: 0, tags: ['billing'] },
        { suite: SHIPPING, id: 'b1', after: 0, tags: ['billing'] },
      ]),
      undefined,
    );
    // Wilson at 95% with 0 of 2: upper = z² / (n + z²) = 3.8415 / 5.8415.
    expect(binary.tags[0]!.interval.method).toBe('wilson');
    expect(binary.tags[0]!.interval.lower).toBeCloseTo(0, 6);
    expect(binary.tags[0]!.interval.upper).toBeCloseTo(0.6576, 3);
  });

  it('every report shows the regressed tag; JSON and HTML carry the tag rows', () => {
    const summary = summarizeTagged();
    const line = `tag billing: recall@5 0.933 → 0.617 over 3 questions in 2 suites (worse: ${REFUNDS} › a1, ${REFUNDS} › a2, ${SHIPPING} › b1)`;
    expect(renderConsole(summary, { color: false })).toContain(line);
    const markdown = renderMarkdown(summary);
    expect(markdown).toContain(line);
    expect(markdown).toContain('| ▼ | billing | recall@5 | 4 (2) | 0.713 | 0.933 | −0.317 |');
    const json = renderJson(summary);
    expect(json.settings.failOnTagRegression).toBe(false);
    expect(json.tags.map((row) => [row.tag, row.status, row.count, row.suites])).toEqual([
      ['billing', 'regressed', 4, 2],
      ['parcels', 'improved', 2, 2],
    ]);
    const html = renderHtml(json);
    expect(html).toContain('<section id="tags"><h2>Tags</h2>');
    expect(html).toContain('Tags whose questions fell across suites');
  });
});
