// One truth in every report: the five forms of one real, failed `vitest run` under CI — the console,
// the Markdown file, the GitHub step summary ($GITHUB_STEP_SUMMARY), the HTML file and the JSON file —
// give the same verdict, list the same findings with the same questions, and the same counts. The run
// has a renamed suite, an improvement not recorded, a question whose first assertion failed and one
// whose later assertion on an already-recorded measure failed. A second run, with failOnNew and not
// strict, adds a suite of two new questions: one headline in every form.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { escapeConsole, escapeMarkdown } from '../../../src/core/escape.js';
import { escapeHtmlName } from '../../../src/report/html/escape.js';
import type { JsonReport } from '../../../src/report/json.js';
import { describeFinding } from '../../../src/report/wording.js';
import type { PackageSnapshot } from '../support/project.js';
import type { RunResult } from '../support/run.js';
import {
  createReporterProject,
  explain,
  lastLine,
  preparePackage,
  readJson,
  runTests,
  type ReporterProject,
} from './support.js';

const CONFIG = `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['rag-matchers/vitest'],
    include: ['test/**/*.test.ts'],
    reporters: [
      'default',
      [
        'rag-matchers/vitest-reporter',
        {
          baseline: 'rag-baseline.json',
          measures: ['recall@3', 'ndcg@3'],
          json: 'rag-report.json',
          markdown: 'rag-report.md',
          html: 'rag-report.html',
          ...(process.env.FAIL_ON_NEW === '1' ? { failOnNew: true, strict: false } : {}),
        },
      ],
    ],
  },
});
`;

// REFUNDS_SUITE renames the refunds block; FAIL_FIRST names a question whose first assertion asks
// recall@3 ≥ 0.9; FAIL_LATER one whose last assertion asks ndcg@3 ≥ 0.95, a measure the first matcher
// already recorded for it.
const ORDERS = `import { describe, expect, it } from 'vitest';
import { questions, search } from '../retriever.js';

describe('orders API', () => {
  for (const [topic, title] of [['refunds', process.env.REFUNDS_SUITE ?? 'refunds'], ['shipping', 'shipping']]) {
    describe(title, () => {
      for (const question of questions(topic)) {
        it(question.question, () => {
          const hits = search(question.id);
          const wanted = process.env.FAIL_FIRST === question.id ? 0.9 : 0.3;
          expect(hits).toHaveRecallAtK(question.relevant, 3, wanted, { queryId: question.id });
          expect(hits).toHaveNdcgAtK(question.relevant, 3, 0.2, { queryId: question.id });
          if (process.env.FAIL_LATER === question.id)
            expect(hits).toHaveNdcgAtK(question.relevant, 3, 0.95, { queryId: question.id });
        });
      }
    });
  }
  if (process.env.NEW_QUESTIONS === '1') {
    describe('returns', () => {
      for (const id of ['return-label', 'return-window']) {
        it(id, () => {
          expect([{ id: \`\${id}-doc\`, score: 1 }]).toHaveRecallAtK([\`\${id}-doc\`], 3, 0.3, { queryId: id });
        });
      }
    });
  }
});
`;

const UPDATE = 'RAG_BASELINE=update npx vitest run';
const SUITE = 'test/orders.test.ts > orders API';

interface Forms {
  run: RunResult;
  console: string;
  markdown: string;
  stepSummary: string;
  html: string;
  json: JsonReport;
}

let pkg: PackageSnapshot;
let project: ReporterProject;
let forms: Forms;
let failOnNew: Forms;

/** Runs the tests under CI with `env` and reads the five forms of the report. */
async function ciForms(env: Record<string, string>): Promise<Forms> {
  const stepSummary = project.path('step-summary.md');
  writeFileSync(stepSummary, '');
  const run = await runTests(project, { env: { CI: 'true', GITHUB_STEP_SUMMARY: stepSummary, ...env } });
  const read = (file: string) => readFileSync(project.path(file), 'utf8');
  return {
    run,
    console: run.stdout,
    markdown: read('rag-report.md'),
    stepSummary: read('step-summary.md'),
    html: read('rag-report.html'),
    json: readJson<JsonReport>(project, 'rag-report.json'),
  };
}

beforeAll(async () => {
  pkg = await preparePackage();
  project = createReporterProject('vitest', pkg);
  rmSync(project.path('test/account.test.ts'));
  writeFileSync(project.path('vitest.config.ts'), CONFIG);
  writeFileSync(project.path('test/orders.test.ts'), ORDERS);
  const recorded = await runTests(project, { env: { RAG_BASELINE: 'update' } });
  expect(recorded.exitCode, explain(recorded)).toBe(0);

  // The better retriever finds ship-delay's second document: shipping's recall@3 0.750 → 1.000 and
  // ndcg@3 0.622 → 0.815 (docs/baselines-and-ci.md's numbers); refund-status has recall@3 = 1/2 < 0.9;
  // refund-window has ndcg@3 = (1 + 1/log2 4) / (1 + 1/log2 3) = 0.920 < 0.95.
  forms = await ciForms({
    RETRIEVER: 'better',
    REFUNDS_SUITE: 'refund policy',
    FAIL_FIRST: 'refund-status',
    FAIL_LATER: 'refund-window',
  });
  // The recorded retriever, and a new suite of two questions: only they differ from the baseline.
  failOnNew = await ciForms({ FAIL_ON_NEW: '1', NEW_QUESTIONS: '1' });
}, 240_000);

afterAll(() => {
  project?.remove();
  pkg?.remove();
});

describe('the five report forms of one failed CI run', { timeout: 240_000 }, () => {
  it('the run fails, and the JSON report holds the three findings and both failed assertions', () => {
    expect(forms.run.exitCode, explain(forms.run)).toBe(1);
    const { json } = forms;
    expect(json.passed).toBe(false);
    expect(
      json.findings.map((finding) => [finding.kind, finding.suite, finding.measure, finding.questions, finding.fails]),
    ).toEqual([
      ['renamed-suite', `${SUITE} > refund policy`, undefined, undefined, true],
      ['improvement', `${SUITE} > shipping`, 'ndcg@3', ['ship-delay'], true],
      ['improvement', `${SUITE} > shipping`, 'recall@3', ['ship-delay'], true],
    ]);
    expect(json.findings.every((finding) => finding.command === UPDATE)).toBe(true);
    // The failed first assertion: its sample is failed and counted; the declared ndcg@3 value of that
    // question (recorded by the same matcher, never asserted: the test stopped) is a value, no verdict.
    const row = (measure: string) =>
      json.rows.find((candidate) => candidate.suite === `${SUITE} > refund policy` && candidate.measure === measure)!;
    expect(row('recall@3').failures).toBe(1);
    expect(row('recall@3').samples.map((sample) => [sample.id, sample.pass, sample.threshold])).toEqual([
      ['refund-window', true, 0.3],
      ['refund-partial', true, 0.3],
      ['refund-status', false, 0.9],
    ]);
    // The later failed assertion: refund-window's ndcg@3 value (recorded by its first matcher, without a
    // verdict) is failed, with that assertion's threshold, and counted. The other values have no verdict
    // (the JSON report reads them pass: true, threshold: null).
    expect(row('ndcg@3').failures).toBe(1);
    expect(row('ndcg@3').samples.map((sample) => [sample.id, sample.pass, sample.threshold])).toEqual([
      ['refund-window', false, 0.95],
      ['refund-partial', true, null],
      ['refund-status', true, null],
    ]);
    expect(json.counts).toMatchObject({ improved: 2, unchanged: 2, regressed: 0, samples: 10, suites: 2 });
  });

  it('every form gives the same verdict: out of date, with as many differences as failing findings', () => {
    const differences = forms.json.findings.filter((finding) => finding.fails).length;
    expect(differences).toBe(3);
    // Three differences, two of them means that moved (the improvements), all under one heading.
    const headline = 'The baseline is out of date: 3 differences (2 beyond tolerance)';
    expect(forms.json.verdict.headline).toBe(headline);
    expect(forms.json.verdict.sections.map((section) => [section.heading, section.findings])).toEqual([
      ['The baseline is out of date', [0, 1, 2]],
    ]);
    expect(lastLine(forms.console)).toBe(`${headline}. Accept with: ${UPDATE} and commit the baseline.`);
    expect(forms.console).toContain('\nThe baseline is out of date:\n');
    expect(forms.markdown.split('\n')[2]!.startsWith(`❌ **${headline}** · `)).toBe(true);
    expect(forms.markdown).toContain('\n**The baseline is out of date:**\n');
    expect(forms.html).toContain(`<span class="verdict failed">Failed</span> <strong>${headline}</strong>`);
    expect(forms.html).toContain('<h2>The baseline is out of date</h2>');
    // The step summary is the Markdown report, appended.
    expect(forms.stepSummary).toBe(`${forms.markdown}\n`);
  });

  it('with failOnNew and not strict, two new questions give one headline in every form', () => {
    const headline = '2 questions not in the baseline (failOnNew)';
    expect(failOnNew.run.exitCode, explain(failOnNew.run)).toBe(1);
    expect(failOnNew.json.verdict).toMatchObject({ headline, passed: false, exitCode: 1 });
    expect(failOnNew.json.findings.map((finding) => [finding.kind, finding.questions, finding.fails])).toEqual([
      ['new-suite', ['return-label', 'return-window'], true],
    ]);
    expect(lastLine(failOnNew.console)).toBe(`${headline}. Record them with: ${UPDATE}`);
    expect(failOnNew.markdown.split('\n')[2]!.startsWith(`❌ **${headline}** · `)).toBe(true);
    expect(failOnNew.stepSummary).toBe(`${failOnNew.markdown}\n`);
    expect(failOnNew.html).toContain(`<span class="verdict failed">Failed</span> <strong>${headline}</strong>`);
    for (const text of [failOnNew.console, failOnNew.markdown, failOnNew.html])
      expect(text).not.toMatch(/out of date|Baseline out of date/);
  });

  it('every form lists each finding of the JSON report, with its questions and command, and no other', () => {
    const { json } = forms;
    for (const finding of json.findings) {
      expect(forms.console).toContain(
        `  ✗ ${describeFinding(finding, escapeConsole)} — run ${finding.command} and commit`,
      );
      const markdownLine = `- ❌ ${describeFinding(finding, escapeMarkdown)} — run \`${finding.command}\` and commit`;
      expect(forms.markdown).toContain(markdownLine);
      expect(forms.stepSummary).toContain(markdownLine);
      expect(forms.html).toContain(
        `<li>✗ ${describeFinding(finding, escapeHtmlName)} — run <code>${finding.command}</code> and commit</li>`,
      );
    }
    const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
    expect(count(forms.console, /^ {2}[✗·] /gmu)).toBe(json.findings.length);
    expect(count(forms.markdown, /^- [❌·] /gmu)).toBe(json.findings.length);
    expect(count(forms.stepSummary, /^- [❌·] /gmu)).toBe(json.findings.length);
    expect(count(forms.html, /<li>[✗·] /gu)).toBe(json.findings.length);
    // The question that got better is named in every form.
    for (const text of [forms.console, forms.markdown, forms.stepSummary, forms.html])
      expect(text).toContain('(better: ship-delay)');
  });

  it('every form gives the same counts: improved, unchanged, samples, suites, and the failed assertion', () => {
    const counts = forms.json.counts;
    const tally = `${counts.improved} improved · ${counts.unchanged} unchanged`;
    expect(forms.markdown).toContain(`${tally} — ${counts.samples} samples in ${counts.suites} suites (vitest)`);
    expect(forms.html).toContain(`${tally} — ${counts.samples} samples in ${counts.suites} suites (vitest)`);
    expect(forms.console).toContain(
      `vitest · ${counts.suites} suites · ${counts.rows} rows · ${counts.samples} samples`,
    );
    // The HTML table's "failed" column is the JSON row's failures.
    for (const measure of ['recall@3', 'ndcg@3'])
      expect(forms.html).toMatch(
        new RegExp(
          `refund policy</a></td><td>${measure}</td>(<td class="num">[^<]*(<span[^>]*>[^<]*</span>)?[^<]*</td>)*<td class="num">1</td></tr>`,
        ),
      );
  });
});
