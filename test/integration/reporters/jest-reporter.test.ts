// The Jest reporter on a real project, run by the real `jest`: samples reach the reporter from worker
// processes and from --runInBand through per-run sidecar directories; the baseline workflow from the
// first run to the gate, CI, broken baselines, a kill in the middle of a write; `--shard` with
// `rag-matchers merge`; two runs at once in one project. The scenarios share one project and run in
// order (each starts from the baseline the previous left).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageSnapshot } from '../support/project.js';
import {
  baselineTempFiles,
  bytesOf,
  createReporterProject,
  expectBaselineOfTheBaselineRetriever,
  explain,
  killOnRenameEnv,
  lastLine,
  leftoverRunDirectories,
  preparePackage,
  readJson,
  runCli,
  runTests,
  type JsonReportLike,
  type ReporterProject,
} from './support.js';

const ACCEPT_LINE =
  'Retrieval quality regressed in 2 suite × measure rows. If this change is intended, accept it with: RAG_BASELINE=update npx jest';
const REFUNDS = 'test/orders.test.js > orders API > refunds';
const SHIPPING = 'test/orders.test.js > orders API > shipping';
const ACCOUNT = 'test/account.test.js';

let pkg: PackageSnapshot;
let project: ReporterProject;
/** The baseline the update run recorded (the baseline retriever's). */
let recorded: Buffer;
/** JSON reports of unsharded, one-at-a-time runs. */
let unchangedReport: JsonReportLike | undefined;
let worseReport: JsonReportLike | undefined;

beforeAll(async () => {
  pkg = await preparePackage();
  project = createReporterProject('jest', pkg);
}, 240_000);

afterAll(() => {
  project?.remove();
  pkg?.remove();
});

/** Jest's own verdict on the tests, from its summary. */
function testsLine(stderr: string): string {
  return /^Tests:.*$/m.exec(stderr)?.[0] ?? '(no Tests: line)';
}

// Each scenario spawns one or two real runs (a few seconds each on two cores).
describe('the baseline workflow with jest', { timeout: 120_000 }, () => {
  it('first run without a baseline (worker processes): prints the table, writes the reports, no baseline, passes, leaves no run directory', async () => {
    const result = await runTests(project, { args: ['--maxWorkers=2'] });
    expect(result.exitCode, explain(result)).toBe(0);
    // Two test files and two workers: the samples came from two other processes.
    const err = result.stderr;
    expect(err).toContain('RAG retrieval quality · jest · 3 suites · 5 rows · 12 samples');
    expect(err).toMatch(new RegExp(`${REFUNDS}\\s+ndcg@3\\s+3\\s+0\\.721\\s+\\[`));
    expect(err).toMatch(new RegExp(`${ACCOUNT}\\s+recall@3\\s+2\\s+1\\.000`));
    expect(err).toContain('No baseline yet (rag-baseline.json): record one with RAG_BASELINE=update npx jest');
    expect(err).not.toContain('\u001b[');
    // Reporters write to stderr, keeping stdout for --json.
    expect(result.stdout).not.toContain('RAG retrieval quality');
    expect(bytesOf(project, 'rag-baseline.json')).toBeUndefined();
    expect(leftoverRunDirectories(project)).toEqual([]);

    const report = readJson<JsonReportLike>(project, 'rag-report.json');
    expect(report.runner).toBe('jest');
    expect(report.counts).toMatchObject({ samples: 12, suites: 3, rows: 5, new: 5 });
    expect(readFileSync(project.path('rag-report.md'), 'utf8')).toContain(REFUNDS);
  });

  it('RAG_BASELINE=update (--runInBand) writes the baseline: every suite × measure × question, one per line', async () => {
    const result = await runTests(project, { args: ['--runInBand'], env: { RAG_BASELINE: 'update' } });
    expect(result.exitCode, explain(result)).toBe(0);
    expect(result.stderr).toContain('Updated rag-baseline.json: 12 samples added.');
    recorded = bytesOf(project, 'rag-baseline.json')!;
    expect(recorded, 'the baseline was written').toBeDefined();
    expectBaselineOfTheBaselineRetriever(recorded.toString('utf8'), 'test/orders.test.js', ACCOUNT);
    expect(leftoverRunDirectories(project)).toEqual([]);
  });

  it('an unchanged run passes and leaves the baseline as it is', async () => {
    const result = await runTests(project);
    expect(result.exitCode, explain(result)).toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(`${REFUNDS}\\s+ndcg@3\\s+3\\s+0\\.721\\s+\\[[^\\]]+\\]\\s+0\\.721\\s+0\\.000\\s+unchanged`),
    );
    expect(result.stderr).toContain('No retrieval regressions (0 improved, 5 unchanged).');
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
    unchangedReport = readJson<JsonReportLike>(project, 'rag-report.json');
    expect(unchangedReport.passed).toBe(true);
  });

  it('in CI, a worse retriever fails the run although every test passed, names the questions, writes nothing; the last line says how to accept', async () => {
    writeFileSync(project.path('step-summary.md'), '## Earlier step\n');
    const result = await runTests(project, {
      env: {
        RETRIEVER: 'worse',
        CI: 'true',
        RAG_BASELINE: 'update',
        GITHUB_STEP_SUMMARY: project.path('step-summary.md'),
      },
    });
    expect(result.exitCode, explain(result)).toBe(1);
    expect(testsLine(result.stderr)).toMatch(/^Tests:\s+7 passed, 7 total$/);
    const err = result.stderr;
    expect(err).toMatch(
      new RegExp(`${REFUNDS}\\s+ndcg@3\\s+3\\s+0\\.473\\s+\\[[^\\]]+\\]\\s+0\\.721\\s+-0\\.248\\s+▼ regressed`),
    );
    expect(err).toContain(`▼ ${REFUNDS} · recall@3 fell from 0.833 to 0.667 on 3 questions`);
    expect(err).toMatch(/refund-window \(how long do I have to ask for a refund\)\s+1\.000 → 0\.500/);
    expect(err).toMatch(/refund-partial \(can I get part of an order refunded\)\s+0\.631 → 0\.500/);
    expect(err).toContain('The baseline was not written: CI is set, and CI never writes it');
    // After Jest's own summary.
    expect(err.indexOf(ACCEPT_LINE)).toBeGreaterThan(err.indexOf('Ran all test suites.'));
    expect(lastLine(err)).toBe(ACCEPT_LINE);
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
    expect(baselineTempFiles(project)).toEqual([]);

    worseReport = readJson<JsonReportLike>(project, 'rag-report.json');
    expect(worseReport.passed).toBe(false);
    expect(worseReport.counts).toMatchObject({ regressed: 2, unchanged: 3, samples: 12 });
    expect(readFileSync(project.path('step-summary.md'), 'utf8')).toBe(
      `## Earlier step\n${readFileSync(project.path('rag-report.md'), 'utf8')}\n`,
    );
  });

  it('a better retriever passes and shows the gain', async () => {
    const result = await runTests(project, { env: { RETRIEVER: 'better' } });
    expect(result.exitCode, explain(result)).toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(`${SHIPPING}\\s+ndcg@3\\s+2\\s+0\\.815\\s+\\[[^\\]]+\\]\\s+0\\.622\\s+\\+0\\.193\\s+▲ improved`),
    );
    expect(result.stderr).toMatch(/\n\s+recall@3\s+2\s+1\.000\s+\[[^\]]+\]\s+0\.750\s+\+0\.250\s+▲ improved/);
    expect(result.stderr).toContain('No retrieval regressions (2 improved, 3 unchanged).');
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
  });

  it.each([
    [
      'corrupt',
      '{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 1,\n  "suites": {\n',
      /cannot use the baseline rag-baseline\.json: not valid JSON: .*line 5/,
    ],
    [
      'newer-schema',
      '{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 99,\n  "suites": {}\n}\n',
      /cannot use the baseline rag-baseline\.json: written by a newer rag-matchers \(baseline schema version 99/,
    ],
  ])(
    'a %s baseline is a clear error naming the file, fails the run, and is never overwritten (even on update)',
    async (_kind, text, message) => {
      writeFileSync(project.path('rag-baseline.json'), text);
      const result = await runTests(project, { env: { RAG_BASELINE: 'update' } });
      expect(result.exitCode, explain(result)).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(readFileSync(project.path('rag-baseline.json'), 'utf8')).toBe(text);
      expect(baselineTempFiles(project)).toEqual([]);
      writeFileSync(project.path('rag-baseline.json'), recorded);
    },
  );

  it('a process killed in the middle of a baseline write leaves the previous baseline intact', async () => {
    const killed = await runTests(project, {
      args: ['--runInBand'],
      env: { RETRIEVER: 'worse', RAG_BASELINE: 'update', ...killOnRenameEnv('rag-baseline.json') },
    });
    expect(killed.signal, explain(killed)).toBe('SIGKILL');
    const temp = baselineTempFiles(project);
    expect(temp).toHaveLength(1);
    expect(readFileSync(project.path(temp[0]!), 'utf8')).toContain('"refund-window", "recall@3", 0.5, {"labels": ');
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
    // The run directory of a killed run is left behind in the temp directory (no code runs on SIGKILL).
    for (const name of leftoverRunDirectories(project))
      rmSync(`${project.tmp}/${name}`, { recursive: true, force: true });
    // So is the baseline's lock: the next update breaks it (its owner is gone) and writes the baseline.
    expect(existsSync(project.path('.rag-baseline.json.lock'))).toBe(true);
    const again = await runTests(project, {
      args: ['--runInBand'],
      env: { RETRIEVER: 'worse', RAG_BASELINE: 'update' },
    });
    expect(again.exitCode, explain(again)).toBe(0);
    expect(existsSync(project.path('.rag-baseline.json.lock'))).toBe(false);
    // The write also removed the killed run's temp file (its pid no longer runs).
    expect(baselineTempFiles(project)).toEqual([]);
    expect(readFileSync(project.path('rag-baseline.json'), 'utf8')).toContain(
      '"refund-window", "recall@3", 0.5, {"labels": ',
    );
    writeFileSync(project.path('rag-baseline.json'), recorded);
  });
});

describe('--shard and rag-matchers merge', { timeout: 180_000 }, () => {
  it('each shard writes its samples and judges nothing; the merge judges the whole exactly as one unsharded run', async () => {
    expect(worseReport, 'the unsharded run of the worse retriever (above) ran').toBeDefined();
    rmSync(project.path('rag-report.json'), { force: true });
    for (const shard of ['1/2', '2/2']) {
      const part = await runTests(project, { args: [`--shard=${shard}`], env: { RETRIEVER: 'worse' } });
      expect(part.exitCode, explain(part)).toBe(0);
      expect(part.stderr).toContain(`rag-matchers: shard ${shard}: `);
      expect(part.stderr).not.toContain('RAG retrieval quality');
    }
    expect(bytesOf(project, 'rag-report.json')).toBeUndefined();
    const first = readJson<{ shard: unknown; files: string[]; samples: unknown[] }>(project, 'rag-shard-1-of-2.json');
    const second = readJson<{ shard: unknown; files: string[]; samples: unknown[] }>(project, 'rag-shard-2-of-2.json');
    expect(first.shard).toEqual({ count: 2, index: 1 });
    expect(first.samples.length + second.samples.length).toBe(12);
    expect([...first.files, ...second.files].sort()).toEqual([ACCOUNT, 'test/orders.test.js']);

    // Judged as the unsharded run was: in CI (strict).
    const merged = await runCli(project, ['merge', 'rag-shard-1-of-2.json', 'rag-shard-2-of-2.json'], {
      env: { CI: 'true' },
    });
    expect(merged.exitCode, explain(merged)).toBe(1);
    expect(merged.stdout).toContain('Merged 2 shards: 12 samples from 2 test files.');
    expect(merged.stdout).toMatch(/refund-window \(how long do I have to ask for a refund\)\s+1\.000 → 0\.500/);
    expect(lastLine(merged.stdout)).toBe(ACCEPT_LINE);
    const report = readJson<JsonReportLike>(project, 'rag-report.json');
    expect(report.runner).toBe('merged');
    expect({ ...report, runner: 'jest' }).toEqual(worseReport);
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
  });

  it('refuses a merge that would lose or double-count samples', async () => {
    const missing = await runCli(project, ['merge', 'rag-shard-1-of-2.json']);
    expect(missing.exitCode, explain(missing)).toBe(2);
    expect(missing.stderr).toContain('shard 2/2 missing');
    const twice = await runCli(project, [
      'merge',
      'rag-shard-1-of-2.json',
      'rag-shard-2-of-2.json',
      'rag-shard-1-of-2.json',
    ]);
    expect(twice.exitCode, explain(twice)).toBe(2);
    expect(twice.stderr).toContain('are both shard 1/2');
    const notShard = await runCli(project, ['merge', 'rag-report.json']);
    expect(notShard.exitCode, explain(notShard)).toBe(2);
    expect(notShard.stderr).toContain('It is a JSON report');
  });
});

describe('two jest runs at once in one project', { timeout: 120_000 }, () => {
  it('keep their samples apart: each report is what the run would report alone', async () => {
    expect(unchangedReport && worseReport, 'the one-at-a-time runs (above) ran').toBeTruthy();
    const [baseline, worse] = await Promise.all([
      runTests(project, { args: ['--maxWorkers=2'], env: { RAG_JSON: 'report-a.json' } }),
      // As the one-at-a-time run of the worse retriever: in CI.
      runTests(project, {
        args: ['--maxWorkers=2'],
        env: { RAG_JSON: 'report-b.json', RETRIEVER: 'worse', CI: 'true' },
      }),
    ]);
    expect(baseline.exitCode, explain(baseline)).toBe(0);
    expect(worse.exitCode, explain(worse)).toBe(1);
    expect(readJson(project, 'report-a.json')).toEqual(unchangedReport);
    expect(readJson(project, 'report-b.json')).toEqual(worseReport);
    expect(leftoverRunDirectories(project)).toEqual([]);
  });
});
