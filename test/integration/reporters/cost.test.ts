// Latency and calls with the real runners, through the hand-written timing API (timeRetrieval, countCall,
// withCallCount): an update keeps each question's calls and the suite's latency in the baseline; a
// retriever made slower raises the reported p95 and, like a change in rerank calls per question, does not
// fail a strict CI run by itself; an explicit budget fails it (naming the suite, its p95 and the budget)
// and failOnCallChange makes the calls change fail it; with 19 timed questions the budget is not judged
// and the report says so (its calls, as recorded, are no finding). Four runs per runner.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReporterProject,
  explain,
  usePackage,
  readJson,
  reporterOutput,
  runTests,
  type ReporterProject,
  type Runner,
} from './support.js';

const pkg = usePackage();

// QUESTIONS questions; each retrieval embeds once, sleeps SLOW_MS and reranks RERANKS times.
const BODY = `const QUESTIONS = Number(process.env.QUESTIONS || 20);
const SLOW_MS = Number(process.env.SLOW_MS || 0);
const RERANKS = Number(process.env.RERANKS || 1);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rerank = withCallCount('rerank', async (hits) => [...hits]);

async function search(query) {
  countCall('embed');
  if (SLOW_MS > 0) await sleep(SLOW_MS);
  let hits = ['d1', 'd2', 'd3'];
  for (let call = 0; call < RERANKS; call++) hits = await rerank(hits);
  return hits;
}

describe('search', () => {
  for (let index = 1; index <= QUESTIONS; index++) {
    const id = 'q' + String(index).padStart(2, '0');
    it('question ' + id, async () => {
      const hits = await timeRetrieval(() => search(id), { queryId: id });
      expect(hits).toHaveRecallAtK(['d1'], 3, 1, { queryId: id });
    });
  }
});
`;

const VITEST_FILE = `import { describe, expect, it } from 'vitest';
import { countCall, timeRetrieval, withCallCount } from 'rag-matchers';
${BODY}`;

const JEST_FILE = `const { countCall, timeRetrieval, withCallCount } = require('rag-matchers');
${BODY}`;

interface Report {
  passed: boolean;
  costs: {
    suite: string;
    timed: number;
    latency: { p50: number; p95: number; max: number };
    calls: { kind: string; perQuestion: number }[];
    budgetStatus: string;
    baseline: { p95: number; timed: number } | null;
  }[];
  findings: { kind: string; fails: boolean; questions?: string[]; callKind?: string }[];
}

describe.each(['vitest', 'jest'] as const)('latency and calls with %s', { timeout: 240_000 }, (runner: Runner) => {
  const ext = runner === 'vitest' ? 'ts' : 'js';
  const file = `test/search.test.${ext}`;
  const suite = `${file} > search`;
  let project: ReporterProject;
  const run = (env: Record<string, string | undefined>) =>
    runTests(project, { args: runner === 'jest' ? ['--runInBand'] : [], env });

  beforeAll(() => {
    project = createReporterProject(runner, pkg);
    for (const name of ['orders', 'account']) rmSync(project.path(`test/${name}.test.${ext}`));
    writeFileSync(project.path(file), runner === 'vitest' ? VITEST_FILE : JEST_FILE);
    const config = runner === 'vitest' ? 'vitest.config.ts' : 'jest.config.js';
    const source = readFileSync(project.path(config), 'utf8');
    writeFileSync(
      project.path(config),
      source.replace(
        "baseline: 'rag-baseline.json',",
        `baseline: 'rag-baseline.json', html: 'rag-report.html',
        latency: process.env.RAG_P95 ? { p95: Number(process.env.RAG_P95) } : undefined,
        failOnCallChange: process.env.RAG_FAIL_ON_CALL_CHANGE === 'true',`,
      ),
    );
  });

  afterAll(() => {
    project?.remove();
  });

  it('keeps calls and latency in the baseline, reports a slower retriever and changed calls, and gates only when asked', async () => {
    const recorded = await run({ RAG_BASELINE: 'update' });
    expect(recorded.exitCode, explain(recorded)).toBe(0);
    const baseline = readFileSync(project.path('rag-baseline.json'), 'utf8');
    expect(baseline).toContain('"schemaVersion": 7');
    expect(baseline).toMatch(new RegExp(`,\\["${file}", \\["search"\\], "", "#latency", \\{"timed": 20, "p50": `));
    expect(baseline).toContain(
      `,["q07",["question q07",["d1",1],"d2","d3"],{"calls":{"embed":1,"rerank":1}}]\n    ,["${file}", ["search"], "q07", `,
    );
    const fast = readJson<Report>(project, 'rag-report.json').costs;
    expect(fast).toMatchObject([
      {
        suite,
        timed: 20,
        calls: [
          { kind: 'embed', perQuestion: 1 },
          { kind: 'rerank', perQuestion: 1 },
        ],
        budgetStatus: 'none',
      },
    ]);

    // Slower and three reranks per question, in strict CI: reported, not failing (no budget, no opt-in).
    const slower = await run({ CI: 'true', SLOW_MS: '25', RERANKS: '3' });
    expect(slower.exitCode, explain(slower)).toBe(0);
    const shown = readJson<Report>(project, 'rag-report.json');
    expect(shown.costs[0]!.latency.p95).toBeGreaterThanOrEqual(24);
    expect(shown.costs[0]!.latency.p95).toBeGreaterThan(fast[0]!.latency.p95);
    expect(shown.costs[0]!.baseline).toMatchObject({ timed: 20, p95: expect.any(Number) });
    expect(shown.findings).toEqual([
      expect.objectContaining({ kind: 'calls', callKind: 'rerank', fails: false, questions: expect.any(Array) }),
    ]);
    expect(shown.findings[0]!.questions).toHaveLength(20);
    const out = reporterOutput(project, slower);
    expect(out).toContain(`rerank calls per question 1 → 3 in suite ${suite}: q01, q02, q03, q04, q05, … and 15 more`);
    expect(out).toMatch(new RegExp(`${suite.replace(/[.]/g, '\\.')}: 20 timed questions · p50 \\d+ ms · p95 \\d+ ms`));
    expect(readFileSync(project.path('rag-report.md'), 'utf8')).toContain('**Latency and calls**');
    expect(readFileSync(project.path('rag-report.html'), 'utf8')).toContain('<h2>Latency and calls</h2>');

    // A budget and the opt-in: both fail the run, the budget naming the suite, its p95 and the budget.
    const gated = await run({
      CI: 'true',
      SLOW_MS: '25',
      RERANKS: '3',
      RAG_P95: '20',
      RAG_FAIL_ON_CALL_CHANGE: 'true',
      GITHUB_ACTIONS: 'true',
    });
    expect(gated.exitCode, explain(gated)).toBe(1);
    // Under GitHub Actions each of them is an error annotation at the suite's file.
    const annotations = gated.stdout.split('\n').filter((line) => line.startsWith('::error'));
    expect(annotations).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^::error file=${file.replace(/[.]/g, '\\.')},title=latency over budget%3A .*::latency over budget in suite .*: p95 \\d+ ms over the budget of 20 ms`,
        ),
      ),
    );
    expect(annotations).toContainEqual(
      `::error file=${file},title=rerank calls per question changed%3A ${suite}::rerank calls per question 1 → 3 in suite ${suite}: q01, q02, q03, q04, q05, … and 15 more`,
    );
    const failing = readJson<Report>(project, 'rag-report.json').findings.filter((finding) => finding.fails);
    expect(failing.map((finding) => finding.kind)).toEqual(['latency', 'calls']);
    expect(reporterOutput(project, gated)).toMatch(
      new RegExp(
        `latency over budget in suite ${suite.replace(/[.]/g, '\\.')}: p95 \\d+ ms over the budget of 20 ms \\(20 timed questions\\)`,
      ),
    );

    // 19 timed questions: the budget is not judged, and the report says so.
    const few = await run({ QUESTIONS: '19', SLOW_MS: '25', RAG_P95: '20' });
    expect(few.exitCode, explain(few)).toBe(0);
    const fewReport = readJson<Report>(project, 'rag-report.json');
    expect(fewReport.costs[0]!.budgetStatus).toBe('too-few');
    // One rerank per question again, as the baseline recorded: the calls round trip is no finding.
    expect(fewReport.findings.map((finding) => finding.kind)).toEqual(['missing-questions']);
    expect(reporterOutput(project, few)).toContain('budget p95 20 ms not judged: 19 timed questions, it needs 20');
  });
});
