// Repeated runs with the real runners: a question run several times in one run — Vitest's `repeats`, and
// Jest's test.each over a repeat index with one queryId (the pattern docs/baselines-and-ci.md documents)
// — is one question in the baseline and the reports, its value the mean of its runs, with its spread and
// the unstable mark; minRepeats and maxSpread fail a CI run. And a run without repeats records the
// baseline byte for byte as the code before repeated runs did (fixtures/shared/baseline-before-repeats.*,
// recorded by commit 9ff43a1 from the same fixture project).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bytesOf,
  createReporterProject,
  explain,
  lastLine,
  usePackage,
  readJson,
  reporterOutput,
  runTests,
  suitesByName,
  type ReporterProject,
  type Runner,
} from './support.js';

const pkg = usePackage();

// A seeded nondeterministic retriever: each call ranks d1…d4 by draws of a fixed-seed generator, so
// the runs of one question differ from each other while every run of the file gives the same ones.
// Its rankings, call by call: d3 d4 d2 d1 · d3 d4 d1 d2 · d4 d3 d1 d2 · d4 d2 d3 d1 · d2 d1 d4 d3 · d2 d4 d3 d1,
// so recall@2 of {d1, d2} is 0, 0, 0, 0.5, 1, 0.5.
const RETRIEVER = `let state = 2024;
const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
const reranked = () =>
  ['d1', 'd2', 'd3', 'd4'].map((id) => ({ id, score: next() })).sort((a, b) => b.score - a.score);
`;

const VITEST_FILE = `import { describe, expect, it } from 'vitest';
${RETRIEVER}
describe('flaky', () => {
  it('reranked question', { repeats: 5 }, () => {
    expect(reranked()).toHaveRecallAtK(['d1', 'd2'], 2, 0, { queryId: 'reranked' });
  });
  it('stable question', { repeats: 5 }, () => {
    expect(['d1', 'd3', 'd2']).toHaveRecallAtK(['d1', 'd2'], 2, 0, { queryId: 'stable' });
  });
});
`;

const JEST_FILE = `${RETRIEVER}
const RUNS = Array.from({ length: 5 }, (_, run) => run);
describe('flaky', () => {
  test.each(RUNS)('reranked question, run %i', () => {
    expect(reranked()).toHaveRecallAtK(['d1', 'd2'], 2, 0, { queryId: 'reranked' });
  });
  test.each(RUNS)('stable question, run %i', () => {
    expect(['d1', 'd3', 'd2']).toHaveRecallAtK(['d1', 'd2'], 2, 0, { queryId: 'stable' });
  });
});
`;

interface Sample {
  id: string;
  value: number;
  repeats?: number[];
  spread?: number;
  unstable?: boolean;
}

interface Report {
  passed: boolean;
  rows: { suite: string; measure: string; count: number; samples: Sample[] }[];
  findings: { kind: string; questions?: string[]; fails: boolean; limit?: number }[];
}

describe.each(['vitest', 'jest'] as const)('repeated runs with %s', { timeout: 240_000 }, (runner: Runner) => {
  const ext = runner === 'vitest' ? 'ts' : 'js';
  const flaky = `test/flaky.test.${ext}`;
  const suite = `${flaky} > flaky`;
  const args = runner === 'jest' ? ['--runInBand'] : [];
  // Vitest's repeats: 5 runs a test 6 times (the run and 5 repeats); the Jest pattern runs 5.
  const runs = runner === 'vitest' ? [0, 0, 0, 0.5, 1, 0.5] : [0, 0, 0, 0.5, 1];
  const mean = runs.reduce((sum, value) => sum + value, 0) / runs.length; // 2/6 = 0.333…, 1.5/5 = 0.3
  let project: ReporterProject;

  const run = (env: Record<string, string | undefined> = {}) => runTests(project, { args, env });

  beforeAll(() => {
    project = createReporterProject(runner, pkg);
  });

  afterAll(() => {
    project?.remove();
  });

  it('without repeats, records the baseline byte for byte as before repeated runs', async () => {
    const recorded = await run({ RAG_BASELINE: 'update' });
    expect(recorded.exitCode, explain(recorded)).toBe(0);
    const before = readFileSync(join(__dirname, 'fixtures', 'shared', `baseline-before-repeats.${runner}.json`));
    // The fixtures were recorded before label fingerprints (baseline schema 4) and question rankings
    // (schema 7's compact rows) too: what schema 4 adds is the judgments cell ending each row, what schema 7
    // adds is one ranking row per question ([question, [text, hits…]]), so without them the file is the one
    // recorded then.
    const rankingRow = /^ {4},\["(?:[^"\\]|\\.)*",\[.*\n/gm;
    const recordedText = bytesOf(project, 'rag-baseline.json')!.toString('utf8').replace(rankingRow, '');
    const judgmentsCell = /, \{"labels": "[0-9a-f]{8}"(?:, "unjudged": [1-9]\d*)?\}\]$/gm;
    expect(recordedText.match(judgmentsCell)).toHaveLength(before.toString('utf8').split('\n    ,[').length - 1);
    const withoutJudgments = recordedText
      .replace('"schemaVersion": 7', '"schemaVersion": 3')
      .replace(', "judgments"]', ']')
      .replace(judgmentsCell, ']');
    expect(withoutJudgments).toBe(before.toString('utf8'));
    const report = readJson<Report>(project, 'rag-report.json');
    expect(report.findings).toEqual([]);
    for (const row of report.rows) for (const sample of row.samples) expect(sample).not.toHaveProperty('repeats');
  });

  it('records a repeated question once, with the mean, its runs, spread and the unstable mark, in every report', async () => {
    writeFileSync(project.path(flaky), runner === 'vitest' ? VITEST_FILE : JEST_FILE);
    const config = runner === 'vitest' ? 'vitest.config.ts' : 'jest.config.js';
    const source = readFileSync(project.path(config), 'utf8');
    writeFileSync(
      project.path(config),
      source.replace(
        "baseline: 'rag-baseline.json',",
        `baseline: 'rag-baseline.json', html: 'rag-report.html',
        minRepeats: process.env.RAG_MIN_REPEATS ? Number(process.env.RAG_MIN_REPEATS) : undefined,
        maxSpread: process.env.RAG_MAX_SPREAD ? Number(process.env.RAG_MAX_SPREAD) : undefined,`,
      ),
    );

    const recorded = await run({ RAG_BASELINE: 'update' });
    expect(recorded.exitCode, explain(recorded)).toBe(0);
    const baseline = suitesByName(readFileSync(project.path('rag-baseline.json'), 'utf8'));
    expect(Object.keys(baseline[suite]!['recall@2']!)).toEqual(['reranked', 'stable']);
    expect(baseline[suite]!['recall@2']!.reranked).toBeCloseTo(mean, 12);
    expect(baseline[suite]!['recall@2']!.stable).toBe(0.5);

    const report = readJson<Report>(project, 'rag-report.json');
    const row = report.rows.find((candidate) => candidate.suite === suite)!;
    expect(row.count).toBe(2);
    expect(row.samples[0]).toMatchObject({ id: 'reranked', repeats: runs, spread: 1, unstable: true });
    expect(row.samples[0]!.value).toBeCloseTo(mean, 12);
    expect(row.samples[1]).toMatchObject({
      id: 'stable',
      value: 0.5,
      repeats: runs.map(() => 0.5),
      spread: 0,
      unstable: false,
    });
    const mark = `unstable: recall@2 of 1 question in suite ${suite} differs between repeated runs: reranked (spread 1.000)`;
    // The update run also notes the suite new to the baseline.
    expect(report.findings.filter((finding) => finding.kind === 'unstable')).toEqual([
      expect.objectContaining({ kind: 'unstable', questions: ['reranked'], fails: false }),
    ]);
    expect(reporterOutput(project, recorded)).toContain(mark);
    expect(readFileSync(project.path('rag-report.md'), 'utf8')).toContain(mark);
    expect(readFileSync(project.path('rag-report.html'), 'utf8')).toContain(
      'unstable: recall@2 of 1 question in suite',
    );

    // In CI the recorded run is up to date: the mark alone does not fail it.
    const ci = await run({ CI: 'true' });
    expect(ci.exitCode, explain(ci)).toBe(0);
    expect(reporterOutput(project, ci)).toContain(mark);

    // minRepeats and maxSpread are CI rules with findings of their own.
    const strict = await run({ CI: 'true', RAG_MIN_REPEATS: '10', RAG_MAX_SPREAD: '0.5' });
    expect(strict.exitCode, explain(strict)).toBe(1);
    const failing = readJson<Report>(project, 'rag-report.json').findings.filter((finding) => finding.fails);
    expect(failing.map(({ kind, questions }) => ({ kind, questions }))).toEqual(
      expect.arrayContaining([
        { kind: 'unstable', questions: ['reranked'] },
        { kind: 'too-few-repeats', questions: ['reranked', 'stable'] },
      ]),
    );
    const out = reporterOutput(project, strict);
    expect(out).toContain(`over maxSpread 0.500: reranked (spread 1.000)`);
    expect(out).toContain(
      `too few repeats: 2 questions of suite ${suite} · recall@2 ran fewer than 10 times (minRepeats): reranked (${runs.length} runs), stable (${runs.length} runs)`,
    );
    expect(lastLine(out)).toContain('Repeated questions break the CI rules');
  });
});
