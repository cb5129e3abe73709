// Each row's sensitivity in the summary and the reports, and the `insensitive` finding: a warning in every
// mode, failing the run only under failOnInsensitive.
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/report/summary.js';
import { renderConsole } from '../../../src/report/console.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { renderJson } from '../../../src/report/json.js';
import { renderHtml } from '../../../src/report/html/run-report.js';
import { baselineFile } from '../baseline/keyed.js';
import { recallRun } from './fixture.js';

const FIVE = [1, 1, 1, 1, 1];
const baselineOf = (values: number[]) =>
  baselineFile({ 'a.test.ts > refunds': { 'recall@5': Object.fromEntries(values.map((v, i) => [`q${i + 1}`, v])) } });

describe('sensitivity in the summary', () => {
  it('5 questions under the sign test at 0.05: a warning that names the suite, passing unless failOnInsensitive', () => {
    const summary = summarize(recallRun(FIVE), baselineOf(FIVE), { significance: 0.05 });
    expect(summary.rows[0]!.sensitivity).toEqual({ canFail: false, limitedBy: 'significance' });
    expect(summary.passed).toBe(true);
    expect(summary.findings).toMatchObject([{ kind: 'insensitive', measure: 'recall@5', count: 5, fails: false }]);
    const text = renderConsole(summary, { color: false });
    expect(text).toContain(
      'Suites that can never fail:\n  · recall@5 of suite a.test.ts > refunds can never fail: with 5 questions, the paired test cannot reach significance 0.05 even if every question gets worse — add questions to the suite (rag-matchers plan says how many), or judge it by the tolerance alone',
    );
    expect(text.split('\n').at(-1)).toBe('No retrieval regressions (0 improved, 1 unchanged).');

    const strict = summarize(recallRun(FIVE), baselineOf(FIVE), { significance: 0.05, failOnInsensitive: true });
    expect(strict.passed).toBe(false);
    expect(strict.verdict.exitCode).toBe(1);
    expect(strict.verdict.headline).toBe(
      "1 suite × measure row can never fail under the gate's rule (failOnInsensitive)",
    );
    expect(renderConsole(strict, { color: false })).toContain(
      '  ✗ recall@5 of suite a.test.ts > refunds can never fail',
    );
  });

  it('is shown without a baseline and while updating, and never fails an update', () => {
    const first = summarize(recallRun(FIVE), undefined, { significance: 0.05, failOnInsensitive: true });
    expect(first.findings.map((finding) => finding.kind)).toEqual(['insensitive']);
    expect(first.passed).toBe(false);
    const update = summarize(recallRun(FIVE), undefined, {
      significance: 0.05,
      failOnInsensitive: true,
      updatingBaseline: true,
    });
    expect(update.findings).toMatchObject([{ kind: 'insensitive', fails: false }]);
    expect(update.passed).toBe(true);
  });

  it('is judged from the baseline values, this run’s for new questions', () => {
    // Baseline q1..q3 = 1, this run 0 (a regression) and a new q4 = 1: the reference is 1, 1, 1, 1.
    const summary = summarize(recallRun([0, 0, 0, 1]), baselineOf([1, 1, 1]), { tolerance: 0.3 });
    // 1 of 4 is 0.25 ≤ 0.3; 2 of 4 is 0.5.
    expect(summary.rows[0]!.sensitivity).toEqual({
      canFail: true,
      questions: 2,
      meanDrop: 0.5,
      limitedBy: 'tolerance',
    });
  });

  it('JSON carries it on each row, the Markdown and HTML list it', () => {
    const values = [...FIVE, 1, 0, 0];
    const summary = summarize(recallRun(values), baselineOf(values), { significance: 0.05 });
    // 6 non-zero values: 6 losses give p = 0.03125.
    expect(renderJson(summary).rows[0]!.sensitivity).toEqual({
      canFail: true,
      questions: 6,
      meanDrop: 0.75,
      limitedBy: 'significance',
    });
    expect(renderMarkdown(summary)).toContain(
      '| a.test.ts > refunds | recall@5 | 8 | 6 questions worse (mean −0.750; set by the test) |',
    );
    expect(renderHtml(renderJson(summary))).toContain(
      '<td>recall@5</td><td class="num">8</td><td>6 questions worse (mean −0.750; set by the test)</td>',
    );
  });
});
