// describeRetrieval under the real runners, on a 20-question JSON Lines file (q05 below its floor, q07 a
// known miss, q09's retriever throws, q11 and q12 share a text) and a 3-question JSON array file: one test
// per question, one question id each, the declared measures recorded for each (q05 too), the known miss as
// test.fails / test.failing, a malformed file naming file:line and the field, and, in Vitest, -t on one
// question and a 2-shard run merged judged as hand-written tests are; Jest in CommonJS and ESM. Spawns: Vitest 5, Jest 2.
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';
import {
  createFixtureProject,
  snapshotPackage,
  type FixtureProject,
  type PackageSnapshot,
} from '../support/project.js';
import { readJestReport, readVitestReport, type RunSummary } from '../support/reports.js';
import { describeRun, runCommand, type RunResult } from '../support/run.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const QUESTION_IDS = Array.from({ length: 20 }, (_, index) => `q${String(index + 1).padStart(2, '0')}`);

let pkg: PackageSnapshot;
beforeAll(async () => {
  await ensureBuilt();
  pkg = await snapshotPackage();
}, 240_000);
afterAll(() => pkg?.remove());

function project(runner: 'vitest' | 'jest', kind = ''): FixtureProject {
  const created = createFixtureProject({
    fixture: join(FIXTURES, `${runner}${kind}-project`),
    name: `rag-suite-${runner}`,
    packages: [runner],
    links: { 'rag-matchers': pkg.dir },
  });
  for (const name of readdirSync(join(FIXTURES, 'shared'))) cpSync(join(FIXTURES, 'shared', name), created.path(name));
  return created;
}

const ENV = { CI: undefined, RAG_BASELINE: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined };

interface RecordedSample {
  measure: string;
  queryId?: string;
  pass?: boolean;
  line?: number;
  lineFile?: string;
}

/** Question id → the measures the baseline holds for it in suite `describe`. */
function baselineQuestions(fixture: FixtureProject, describeTitle: string): Map<string, string[]> {
  const { rows } = JSON.parse(readFileSync(fixture.path('rag-baseline.json'), 'utf8')) as { rows: unknown[][] };
  const questions = new Map<string, string[]>();
  for (const row of rows.slice(1)) {
    if (!Array.isArray(row[1]) || row[1][0] !== describeTitle || typeof row[3] !== 'string' || row[3] === '') continue;
    // The suite's latency row (question ""): describeRetrieval times every question it retrieves for.
    if (row[2] === '' && row[3] === '#latency') continue;
    const id = row[2] as string;
    questions.set(id, [...(questions.get(id) ?? []), row[3]].sort());
  }
  return questions;
}

/** Jest reports a test file that failed to run in its `message`. */
function brokenMessage(fixture: FixtureProject): string {
  const raw = JSON.parse(readFileSync(fixture.path('.jest-results.json'), 'utf8')) as {
    testResults: { name: string; message: string }[];
  };
  return raw.testResults.find((file) => file.name.endsWith('broken.test.js'))?.message ?? '';
}

/** What every run of the 20-question suite shows, whichever runner. */
function expectTheFaqSuite(summary: RunSummary, fixture: FixtureProject, withBroken = true): void {
  const faq = summary.tests.filter((test) => test.ancestors[0] === 'faq');
  expect(faq.map((test) => test.title)).toHaveLength(20);
  expect(faq.map((test) => test.title)).toContain('what is the refund window? (q11)');
  expect(faq.map((test) => test.title)).toContain('what is the refund window? (q12)');
  expect(summary.failed).toEqual(['faq > question number 5?', 'faq > question number 9?']);
  expect(summary.messages['faq > question number 5?']).toContain('1 of 2 targets met:');
  expect(summary.messages['faq > question number 5?']).toMatch(/✗ hit@3\s+0\.00\s+needs ≥ 1\.00/);
  expect(summary.messages['faq > question number 5?']).toContain('Ranked hits (3):');
  expect(summary.messages['faq > question number 9?']).toBe('index offline');
  expect(summary.passed).toContain('faq > question number 7?');
  // Every question but q09 (its retriever threw), q05 and the known miss q07 included, with both measures.
  const expected = new Map(QUESTION_IDS.filter((id) => id !== 'q09').map((id) => [id, ['hit@3', 'recall@5']]));
  expect(baselineQuestions(fixture, 'faq')).toEqual(expected);
  // The suite's latency: the 19 questions whose retrieve returned were timed (q09's threw).
  expect(readFileSync(fixture.path('rag-baseline.json'), 'utf8')).toMatch(/\["faq"\], "", "#latency", \{"timed": 19, /);
  if (!withBroken) return;
  const broken = summary.files.find(
    (file) => file.file === 'test/broken/broken.test.ts' || file.file === 'test/broken/broken.test.js',
  );
  const message =
    summary.runner === 'jest' ? (broken?.status === 'failed' ? brokenMessage(fixture) : '') : broken?.error;
  expect(message).toContain(`${fixture.path('broken.jsonl')}:3: missing "relevant"`);
}

describe('describeRetrieval with Vitest', { timeout: 240_000 }, () => {
  let fixture: FixtureProject;
  beforeAll(() => {
    fixture = project('vitest');
  });
  afterAll(() => fixture?.remove());
  const vitest = (args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> =>
    runCommand(process.execPath, [fixture.bin('vitest', 'vitest.mjs'), 'run', ...args], {
      cwd: fixture.dir,
      timeoutMs: 120_000,
      env: { ...ENV, ...env },
    });
  const results = () => readVitestReport(fixture.path('.vitest-results.json'), fixture.dir);
  const report = () =>
    JSON.parse(readFileSync(fixture.path('rag-report.json'), 'utf8')) as {
      passed: boolean;
      findings: { kind: string; questions?: string[] }[];
    };

  it('one test per question, one id each, every declared measure recorded, the places of the questions in their files', async () => {
    const first = await vitest([], { RAG_BASELINE: 'update', SUITE_BROKEN: '1' });
    expect(first.exitCode, describeRun(first)).toBe(1);
    expect(first.stdout).toMatch(/Tests\s+2 failed \| 20 passed \| 1 expected fail \(23\)/);
    const summary = results();
    expectTheFaqSuite(summary, fixture);
    const samplesOf = (title: string) =>
      (summary.tests.find((test) => test.title === title)?.meta?.ragMatchers ?? []) as RecordedSample[];
    // q03 on line 3 of questions.jsonl; b3 starts on line 8 of billing.json.
    expect(
      samplesOf('question number 3?').map(({ measure, queryId, line, lineFile }) => ({
        measure,
        queryId,
        line,
        lineFile,
      })),
    ).toEqual([
      // The retrieval's cost first (recorded before the floors are asserted), then the declared measures.
      { measure: '#cost', queryId: 'q03', line: undefined, lineFile: undefined },
      { measure: 'hit@3', queryId: 'q03', line: 3, lineFile: fixture.path('questions.jsonl') },
      { measure: 'recall@5', queryId: 'q03', line: 3, lineFile: fixture.path('questions.jsonl') },
    ]);
    expect(samplesOf('question number 5?').find((sample) => sample.measure === 'hit@3')?.pass).toBe(false);
    expect(samplesOf('how are taxes shown?').find((sample) => sample.measure !== '#cost')).toMatchObject({
      queryId: 'b3',
      line: 8,
      lineFile: fixture.path('billing.json'),
    });
    expect(baselineQuestions(fixture, 'billing')).toEqual(
      new Map(['b1', 'b2', 'b3'].map((id) => [id, ['hit@3', 'ndcg@10']])),
    );
  });

  it('-t on one question runs just that one; strict CI counts the rest as not judged, and the annotation points at its line', async () => {
    // q03 taken out of the baseline: new to it, a finding whose annotation points at the question's line.
    const baseline = readFileSync(fixture.path('rag-baseline.json'), 'utf8');
    const withoutQ03 = baseline
      .split('\n')
      .filter((line) => !line.includes('["test/faq.test.ts", ["faq"], "q03"'))
      .join('\n');
    expect(withoutQ03).not.toBe(baseline);
    writeFileSync(fixture.path('rag-baseline.json'), withoutQ03);
    try {
      const run = await vitest(['-t', 'question number 3\\?'], { CI: 'true', GITHUB_ACTIONS: 'true' });
      expect(run.exitCode, describeRun(run)).toBe(1);
      const summary = results();
      expect(summary.passed).toEqual(['faq > question number 3?']);
      expect(summary.skipped).toHaveLength(22);
      const findings = report().findings;
      expect(findings.map((finding) => finding.kind)).toContain('not-judged');
      expect(run.stdout).toMatch(/::error file=questions\.jsonl,line=3,title=question not in the baseline%3A q03::/);
    } finally {
      writeFileSync(fixture.path('rag-baseline.json'), baseline);
    }
  });

  it('two shards merged give the verdict of the run unsharded', async () => {
    const whole = await vitest([], { CI: 'true' });
    const unsharded = report();
    for (const shard of ['1/2', '2/2']) {
      const part = await vitest([`--shard=${shard}`, '--reporter=blob'], { CI: 'true' });
      expect(part.exitCode, describeRun(part)).not.toBeNull();
    }
    const merged = await vitest(['--merge-reports'], { CI: 'true' });
    expect(merged.exitCode, describeRun(merged)).toBe(whole.exitCode);
    expect(report().passed).toBe(unsharded.passed);
    expect(report().findings).toEqual(unsharded.findings);
  });
});

describe('describeRetrieval with Jest', { timeout: 240_000 }, () => {
  const jest = (fixture: FixtureProject, env: Record<string, string | undefined> = {}) =>
    runCommand(process.execPath, [fixture.bin('jest', 'bin', 'jest.js'), '--json', '--outputFile=.jest-results.json'], {
      cwd: fixture.dir,
      timeoutMs: 120_000,
      env: { ...ENV, RAG_BASELINE: 'update', ...env },
    });

  it('CommonJS: one test per question, one id each, every declared measure recorded; the known miss is test.failing; a malformed file names file:line', async () => {
    const fixture = project('jest');
    try {
      const run = await jest(fixture);
      expect(run.exitCode, describeRun(run)).toBe(1);
      const summary = readJestReport(fixture.path('.jest-results.json'), fixture.dir);
      expectTheFaqSuite(summary, fixture);
      const raw = JSON.parse(readFileSync(fixture.path('.jest-results.json'), 'utf8')) as {
        testResults: { assertionResults: { title: string; failing?: boolean }[] }[];
      };
      const failing = raw.testResults.flatMap((file) => file.assertionResults.filter((test) => test.failing === true));
      expect(failing.map((test) => test.title)).toEqual(['question number 7?']);
    } finally {
      fixture.remove();
    }
  });

  it('ESM (the setup entry loaded as CommonJS, the test importing the ES module): the same suite', async () => {
    const fixture = project('jest', '-esm');
    try {
      const run = await jest(fixture, { NODE_OPTIONS: '--experimental-vm-modules' });
      expect(run.exitCode, describeRun(run)).toBe(1);
      expectTheFaqSuite(readJestReport(fixture.path('.jest-results.json'), fixture.dir), fixture, false);
    } finally {
      fixture.remove();
    }
  });
});
