// Ranking churn in the summary: each question's ranking against the baseline's, summarised per suite, the
// "rankings changed, values held" finding (shown, never failing, not even under strict) and maxChurn's gate.
import { describe, expect, it } from 'vitest';

import { createRecord, type BaselineFile, type QuestionRanking } from '../../../src/baseline/file/types.js';
import { baselineFile } from '../baseline/keyed.js';
import { suiteKeyOf, type CollectedRun, type CollectedSample } from '../../../src/recording/collected.js';
import { summarize } from '../../../src/report/summary.js';
import { renderConsole } from '../../../src/report/console.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { renderJson } from '../../../src/report/json.js';
import { renderHtml } from '../../../src/report/html/run-report.js';

const TOP = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
const SUITE = suiteKeyOf({ file: 'test/a.test.ts', describe: ['billing'] });

function sample(queryId: string, value: number, top: string[]): CollectedSample {
  return {
    file: 'test/a.test.ts',
    describePath: ['billing'],
    test: `question ${queryId}`,
    queryId,
    measure: 'recall@10',
    value,
    topHits: top.map((key) => ({ key })),
  };
}

// q1: ranks 1 and 2 swapped (RBO 0.9, top 5 changed, recall held); q2: unchanged (RBO 1);
// q3: rank 10 replaced (RBO 0.961258, top 5 the same) and its recall fell 1 → 0.5 (beyond tolerance).
const RUN: CollectedRun = {
  runner: 'vitest',
  samples: [
    sample('q1', 1, ['b', 'a', ...TOP.slice(2)]),
    sample('q2', 1, TOP),
    sample('q3', 0.5, [...TOP.slice(0, 9), 'z']),
  ],
};

function baseline(): BaselineFile {
  const file = baselineFile({ 'test/a.test.ts > billing': { 'recall@10': { q1: 1, q2: 1, q3: 1 } } });
  const rankings = createRecord<QuestionRanking>();
  for (const id of ['q1', 'q2', 'q3']) rankings[id] = { text: `question ${id}`, top: TOP.map((key) => ({ key })) };
  file.rankings = { [SUITE]: rankings };
  return file;
}

describe('ranking churn in the summary', () => {
  it('summarises each suite: mean RBO and overlaps, the share whose top 5 changed, the changed questions', () => {
    const summary = summarize(RUN, baseline(), { tolerance: 0.01 });
    const suite = summary.churn!.suites[0]!;
    expect(summary.churn!.settings).toEqual({ k: 5, p: 0.9, depth: 10 });
    expect(suite.questions).toBe(3);
    // (0.9 + 1 + 0.961258) / 3 = 0.953753
    expect(suite.meanRbo).toBeCloseTo(0.953753, 5);
    expect(suite.meanOverlap).toBe(1);
    // q3 keeps 9 of its top 10: (1 + 1 + 0.9) / 3
    expect(suite.meanOverlapAtDepth).toBeCloseTo(2.9 / 3, 12);
    expect(suite.topChanged).toBe(1);
    expect(suite.topChangedShare).toBeCloseTo(1 / 3, 12);
    expect(suite.changes.map((change) => [change.question, change.valuesHeld])).toEqual([
      ['q1', true],
      ['q3', false],
    ]);
  });

  it('names the questions whose rankings changed while their values held, shown and not failing under strict', () => {
    const summary = summarize(RUN, baseline(), { tolerance: 1, strict: true });
    const finding = summary.findings.find((entry) => entry.kind === 'rankings-changed')!;
    expect(finding.questions).toEqual(['q1', 'q3']);
    expect(finding.fails).toBe(false);
    expect(summary.passed).toBe(true);
    expect(summary.verdict.sections.map((section) => section.heading)).toContain('Rankings that changed');
    const console = renderConsole(summary, { color: false });
    expect(console).toContain(
      '2 questions of suite test/a.test.ts > billing: rankings changed, values held (mean RBO 0.954, top 5 changed for 33% of 3 questions): q1, q3',
    );
    expect(renderMarkdown(summary)).toContain('rankings changed, values held');
    const json = renderJson(summary);
    expect(json.churn!.suites[0]!.changes.map((change) => change.question)).toEqual(['q1', 'q3']);
  });

  it('fails a suite whose mean RBO falls below maxChurn.rbo, and not one above it', () => {
    const failing = summarize(RUN, baseline(), { tolerance: 1, maxChurn: { rbo: 0.96 } });
    const finding = failing.findings.find((entry) => entry.kind === 'ranking-churn')!;
    expect(finding.fails).toBe(true);
    expect(failing.passed).toBe(false);
    expect(failing.verdict.headline).toBe('Rankings changed beyond maxChurn in 1 suite');
    expect(renderConsole(failing, { color: false })).toContain(
      'ranking churn in suite test/a.test.ts > billing: mean RBO 0.954 is below maxChurn.rbo 0.960',
    );
    const passing = summarize(RUN, baseline(), { tolerance: 1, maxChurn: { rbo: 0.95 } });
    expect(passing.passed).toBe(true);
    expect(passing.findings.some((entry) => entry.kind === 'ranking-churn')).toBe(false);
  });

  it('refuses a malformed maxChurn with what was wrong', () => {
    expect(() => summarize(RUN, baseline(), { maxChurn: { rbo: 1.5 } })).toThrow(
      /maxChurn.rbo must be a number from 0 to 1, got 1.5/,
    );
    expect(() => summarize(RUN, baseline(), { maxChurn: { rpo: 0.5 } as never })).toThrow(
      /maxChurn has an unknown key "rpo"; it takes rbo and overlap/,
    );
  });

  it('has no churn when the baseline kept no rankings', () => {
    const file = baseline();
    delete file.rankings;
    expect(summarize(RUN, file).churn).toBeUndefined();
  });
});

describe('ranking churn in the reports', () => {
  const summary = summarize(RUN, baseline(), { tolerance: 0.01 });

  it('the console gives each suite whose rankings changed one line', () => {
    expect(renderConsole(summary, { color: false })).toContain(
      [
        'Ranking churn against the baseline (rank-biased overlap at depth 10 with p = 0.9, top-5 overlap; no labels needed):',
        '  test/a.test.ts > billing: mean RBO 0.954, top 5 changed for 33% of 3 questions',
      ].join('\n'),
    );
  });

  it('the Markdown collapses a table of the suites, lowest RBO first', () => {
    const markdown = renderMarkdown(summary);
    expect(markdown).toContain('<details><summary>Ranking churn: 1 suite whose rankings changed</summary>');
    expect(markdown).toContain('| test/a.test.ts > billing | 3 | 0.954 | 1.000 | 33% | q1 0.900, q3 0.961 |');
  });

  it('the HTML report has a churn section that marks the questions whose values moved', () => {
    const html = renderHtml(renderJson(summary));
    expect(html).toContain('<section id="churn"><h2>Ranking churn</h2>');
    expect(html).toContain('q1 0.900, q3 0.961 (values moved)');
  });
});
