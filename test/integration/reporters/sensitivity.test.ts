// Each suite's sensitivity on the real runners (docs/statistics.md#sensitivity, whose output blocks it checks): a 5-question suite under a
// sign test at 0.05 can never fail, which failOnInsensitive turns into a failed run (one spawn per runner);
// and for a 40-question hit@3 suite the reported fewest worse questions is exact: that many worse fails
// the gate, one fewer passes (Vitest).
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureProject } from '../support/project.js';
import {
  explain,
  lastLine,
  usePackage,
  readJson,
  reporterOutput,
  runCli,
  runTests,
  type ReporterProject,
  type Runner,
} from './support.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(HERE, 'fixtures');
const doc = (page: string) => readFileSync(join(HERE, '..', '..', '..', 'docs', page), 'utf8');
const STATISTICS_DOC = doc('statistics.md');

interface Report {
  passed: boolean;
  verdict: { headline: string };
  rows: { suite: string; measure: string; status: string; sensitivity: Record<string, unknown> }[];
  findings: { kind: string; suite: string; measure?: string; fails: boolean }[];
}

const pkg = usePackage();

function sensitivityProject(runner: Runner): ReporterProject {
  const project = createFixtureProject({
    fixture: join(FIXTURES, `sensitivity-${runner}`),
    name: `rag-sensitivity-${runner}`,
    packages: [runner],
    links: { 'rag-matchers': pkg.dir },
  });
  const tmp = project.path('.tmp');
  mkdirSync(tmp);
  return { ...project, runner, tmp };
}

const insensitiveLine = (file: string) =>
  `hit@3 of suite ${file} can never fail: with 5 questions, the paired test cannot reach significance 0.05 even if every question gets worse`;

describe('sensitivity with vitest', { timeout: 240_000 }, () => {
  let project: ReporterProject;
  const row = (report: Report, suite: string) => report.rows.find((candidate) => candidate.suite === suite)!;

  beforeAll(() => {
    project = sensitivityProject('vitest');
  });
  afterAll(() => project?.remove());

  it('names the 5-question suite that can never fail, and failOnInsensitive fails the run', async () => {
    const result = await runTests(project, { env: { RAG_FAIL_ON_INSENSITIVE: 'true' } });
    const output = reporterOutput(project, result);
    expect(result.exitCode, explain(result)).toBe(1);
    expect(output).toContain(`  ✗ ${insensitiveLine('test/tiny.test.ts')}`);
    expect(lastLine(output)).toContain(
      "1 suite × measure row can never fail under the gate's rule (failOnInsensitive). To clear it: add questions",
    );
    const report = readJson<Report>(project, 'rag-report.json');
    expect(row(report, 'test/tiny.test.ts').sensitivity).toEqual({ canFail: false, limitedBy: 'significance' });
  });

  it('40 hit@3 questions at tolerance 0.2: 9 worse fail the gate, 8 (a drop of exactly 0.2) pass', async () => {
    const recorded = await runTests(project, { env: { RAG_BASELINE: 'update' } });
    expect(recorded.exitCode, explain(recorded)).toBe(0);
    // Shown in every mode, and failing nothing without the option; docs/statistics.md shows this output.
    const warning = `Suites that can never fail:\n  · ${insensitiveLine('test/tiny.test.ts')} — add questions to the suite (rag-matchers plan says how many), or judge it by the tolerance alone\n`;
    expect(reporterOutput(project, recorded)).toContain(warning);
    for (const text of [STATISTICS_DOC, doc('baselines-and-ci.md')])
      expect(text).toContain(`\`\`\`text\n${warning}\`\`\``);
    // The plan of this baseline, as docs/statistics.md shows it (the command as written there).
    expect(STATISTICS_DOC).toContain('```sh\nnpx rag-matchers plan --significance 0.05\n```');
    const plan = await runCli(project, ['plan', '--significance', '0.05']);
    expect(plan.exitCode, explain(plan)).toBe(0);
    expect(STATISTICS_DOC).toContain(`\`\`\`text\n${plan.stdout}\`\`\``);
    // 34 hits of 40: 8 misses more take the mean down by exactly 0.2, 9 by 0.225; p = 2/2⁹ ≤ 0.05.
    expect(row(readJson<Report>(project, 'rag-report.json'), 'test/forty.test.ts').sensitivity).toEqual({
      canFail: true,
      questions: 9,
      meanDrop: 9 / 40,
      limitedBy: 'tolerance',
    });

    const nine = await runTests(project, { env: { WORSE: '9' } });
    expect(nine.exitCode, explain(nine)).toBe(1);
    const failed = readJson<Report>(project, 'rag-report.json');
    expect(row(failed, 'test/forty.test.ts').status).toBe('regressed');
    expect(failed.verdict.headline).toBe('Retrieval quality regressed in 1 suite × measure row');

    const eight = await runTests(project, { env: { WORSE: '8' } });
    expect(eight.exitCode, explain(eight)).toBe(0);
    const passed = readJson<Report>(project, 'rag-report.json');
    expect(row(passed, 'test/forty.test.ts').status).toBe('unchanged');
    expect(passed.passed).toBe(true);
  });
});

describe('sensitivity with jest', { timeout: 240_000 }, () => {
  it('the 5-question suite can never fail, and failOnInsensitive fails the run', async () => {
    const project = sensitivityProject('jest');
    try {
      const result = await runTests(project, { args: ['--runInBand'] });
      const output = reporterOutput(project, result);
      expect(result.exitCode, explain(result)).toBe(1);
      expect(output).toContain(`  ✗ ${insensitiveLine('test/tiny.test.js')}`);
      const report = readJson<Report>(project, 'rag-report.json');
      expect(report.passed).toBe(false);
      expect(report.rows[0]!.sensitivity).toEqual({ canFail: false, limitedBy: 'significance' });
      expect(report.findings).toMatchObject([{ kind: 'insensitive', suite: 'test/tiny.test.js', fails: true }]);
    } finally {
      project.remove();
    }
  });
});
