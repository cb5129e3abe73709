// The Vitest reporter on a real project, run by the real `vitest run`: the baseline workflow from the
// first run to the gate, CI, broken baselines, a kill in the middle of a write, and sharding. The
// scenarios share one project and run in order (each starts from the baseline the previous left).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageSnapshot } from '../support/project.js';
import { readVitestReport } from '../support/reports.js';
import {
  baselineTempFiles,
  bytesOf,
  createReporterProject,
  expectBaselineOfTheBaselineRetriever,
  explain,
  killOnRenameEnv,
  lastLine,
  preparePackage,
  readJson,
  runTests,
  type JsonReportLike,
  type ReporterProject,
} from './support.js';

const ACCEPT = 'If this change is intended, accept it with: RAG_BASELINE=update npx vitest run';
const REFUNDS = 'test/orders.test.ts > orders API > refunds';
const SHIPPING = 'test/orders.test.ts > orders API > shipping';
const ACCOUNT = 'test/account.test.ts';

let pkg: PackageSnapshot;
let project: ReporterProject;
/** The baseline the update run recorded (the baseline retriever's). */
let recorded: Buffer;
/** The JSON report of the unsharded run of the worse retriever. */
let worseReport: JsonReportLike | undefined;

beforeAll(async () => {
  pkg = await preparePackage();
  project = createReporterProject('vitest', pkg);
}, 240_000);

afterAll(() => {
  project?.remove();
  pkg?.remove();
});

// Each scenario spawns one to four real runs (a few seconds each on two cores).
describe('the baseline workflow with vitest run', { timeout: 120_000 }, () => {
  it('first run without a baseline: prints the table per suite × measure, writes the reports, writes no baseline, passes', async () => {
    const result = await runTests(project);
    expect(result.exitCode, explain(result)).toBe(0);
    const out = result.stdout;
    expect(out).toContain('RAG retrieval quality · vitest · 3 suites · 5 rows · 12 samples');
    expect(out).toMatch(/suite\s+measure\s+n\s+mean\s+95% CI\s+baseline\s+Δ\s+status/);
    expect(out).toMatch(new RegExp(`${REFUNDS}\\s+ndcg@3\\s+3\\s+0\\.721\\s+\\[`));
    expect(out).toMatch(/\n\s+recall@3\s+3\s+0\.833\s+\[0\.\d{3}, 1\.000\]\s+—\s+—\s+new/);
    expect(out).toMatch(new RegExp(`${ACCOUNT}\\s+recall@3\\s+2\\s+1\\.000`));
    expect(lastLine(out)).toBe(
      'No baseline yet (rag-baseline.json): record one with RAG_BASELINE=update npx vitest run',
    );
    // The table comes after Vitest's own summary, without colours (not a TTY).
    expect(out.indexOf('RAG retrieval quality')).toBeGreaterThan(out.indexOf('Test Files'));
    expect(out).not.toContain('\u001b[');
    expect(bytesOf(project, 'rag-baseline.json')).toBeUndefined();

    const report = readJson<JsonReportLike>(project, 'rag-report.json');
    expect(report.runner).toBe('vitest');
    expect(report.passed).toBe(true);
    expect(report.counts).toMatchObject({ samples: 12, suites: 3, rows: 5, new: 5, regressed: 0 });
    expect(readFileSync(project.path('rag-report.md'), 'utf8')).toContain(REFUNDS);
  });

  it('-u writes the baseline (as RAG_BASELINE=update does): every suite × measure × question, one per line', async () => {
    const result = await runTests(project, { args: ['-u'] });
    expect(result.exitCode, explain(result)).toBe(0);
    expect(lastLine(result.stdout)).toBe('Updated rag-baseline.json: 12 samples added.');
    recorded = bytesOf(project, 'rag-baseline.json')!;
    expect(recorded, 'the baseline was written').toBeDefined();
    expectBaselineOfTheBaselineRetriever(recorded.toString('utf8'), 'test/orders.test.ts', ACCOUNT);
  });

  it('an unchanged run passes, compares every row, and leaves the baseline as it is', async () => {
    const result = await runTests(project);
    expect(result.exitCode, explain(result)).toBe(0);
    expect(result.stdout).toContain('· compared with rag-baseline.json');
    expect(result.stdout).toMatch(
      new RegExp(`${REFUNDS}\\s+ndcg@3\\s+3\\s+0\\.721\\s+\\[[^\\]]+\\]\\s+0\\.721\\s+0\\.000\\s+unchanged`),
    );
    expect(lastLine(result.stdout)).toBe('No retrieval regressions (0 improved, 5 unchanged).');
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
  });

  it('in CI, a worse retriever fails the run although every test passed, names the questions, writes nothing, and says how to accept', async () => {
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
    const tests = readVitestReport(project.path('.vitest-results.json'), project.dir);
    expect(tests.failed).toEqual([]);
    expect(tests.passed).toHaveLength(7);

    const out = result.stdout;
    expect(out).toMatch(
      new RegExp(`${REFUNDS}\\s+ndcg@3\\s+3\\s+0\\.473\\s+\\[[^\\]]+\\]\\s+0\\.721\\s+-0\\.248\\s+▼ regressed`),
    );
    expect(out).toMatch(/\n\s+recall@3\s+3\s+0\.667\s+\[[^\]]+\]\s+0\.833\s+-0\.167\s+▼ regressed/);
    expect(out).toContain(`▼ ${REFUNDS} · recall@3 fell from 0.833 to 0.667 on 3 questions`);
    expect(out).toMatch(/refund-window \(how long do I have to ask for a refund\)\s+1\.000 → 0\.500/);
    expect(out).toMatch(/refund-window \(how long do I have to ask for a refund\)\s+0\.920 → 0\.307/);
    expect(out).toMatch(/refund-partial \(can I get part of an order refunded\)\s+0\.631 → 0\.500/);
    expect(out).not.toMatch(/refund-status\s+\d/);
    expect(out).toContain('The baseline was not written: CI is set, and CI never writes it');
    expect(lastLine(out)).toBe(`Retrieval quality regressed in 2 suite × measure rows. ${ACCEPT}`);
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
    expect(baselineTempFiles(project)).toEqual([]);

    const report = readJson<JsonReportLike>(project, 'rag-report.json');
    expect(report.passed).toBe(false);
    expect(report.counts).toMatchObject({ regressed: 2, unchanged: 3, samples: 12 });
    worseReport = report;
    const summary = readFileSync(project.path('step-summary.md'), 'utf8');
    expect(summary.startsWith('## Earlier step\n')).toBe(true);
    expect(summary).toContain('refund-window');
    expect(summary).toBe(`## Earlier step\n${readFileSync(project.path('rag-report.md'), 'utf8')}\n`);
  });

  it('failOnRegression: false reports the regression without failing', async () => {
    const result = await runTests(project, { env: { RETRIEVER: 'worse', RAG_FAIL_ON_REGRESSION: 'false' } });
    expect(result.exitCode, explain(result)).toBe(0);
    expect(result.stdout).toContain('▼ regressed');
    expect(result.stdout).toContain('failOnRegression is false: the regressions are reported but do not fail the run.');
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
  });

  it('a better retriever passes and shows the gain', async () => {
    const better = await runTests(project, { env: { RETRIEVER: 'better' } });
    expect(better.exitCode, explain(better)).toBe(0);
    // ship-delay now has both relevant documents in the top 3: nDCG@3 and recall@3 are 1.
    expect(better.stdout).toMatch(
      new RegExp(`${SHIPPING}\\s+ndcg@3\\s+2\\s+0\\.815\\s+\\[[^\\]]+\\]\\s+0\\.622\\s+\\+0\\.193\\s+▲ improved`),
    );
    expect(better.stdout).toMatch(/\n\s+recall@3\s+2\s+1\.000\s+\[[^\]]+\]\s+0\.750\s+\+0\.250\s+▲ improved/);
    expect(lastLine(better.stdout)).toBe('No retrieval regressions (2 improved, 3 unchanged).');
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
      env: { RETRIEVER: 'worse', RAG_BASELINE: 'update', ...killOnRenameEnv('rag-baseline.json') },
    });
    expect(killed.signal, explain(killed)).toBe('SIGKILL');
    // It was killed with the new baseline written to the temp file, before the rename.
    const temp = baselineTempFiles(project);
    expect(temp).toHaveLength(1);
    expect(readFileSync(project.path(temp[0]!), 'utf8')).toContain('"refund-window", "recall@3", 0.5, {"labels": ');
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
    // The killed run held the baseline's lock: the file stays (with the temp file), and the next update
    // breaks it (its owner is gone) and writes the baseline.
    expect(existsSync(project.path('.rag-baseline.json.lock'))).toBe(true);
    const again = await runTests(project, { env: { RETRIEVER: 'worse', RAG_BASELINE: 'update' } });
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

describe('sharding with --reporter=blob and --merge-reports', { timeout: 180_000 }, () => {
  it('judges the merged shards exactly as one unsharded run: same summary, same gate', async () => {
    // As the unsharded run above: in CI (strict), where the baseline must be up to date.
    const env = { RETRIEVER: 'worse', CI: 'true' };
    expect(worseReport, 'the unsharded run of the worse retriever (above) ran').toBeDefined();
    rmSync(project.path('rag-report.json'), { force: true });

    for (const shard of ['1/2', '2/2']) {
      const part = await runTests(project, { env, args: [`--shard=${shard}`, '--reporter=blob'] });
      // The blob reporter replaces the configured ones: a shard neither judges nor writes.
      expect(part.exitCode, explain(part)).toBe(0);
      expect(part.stdout).not.toContain('RAG retrieval quality');
    }
    expect(bytesOf(project, 'rag-report.json')).toBeUndefined();

    const merged = await runTests(project, { env, args: ['--merge-reports'] });
    expect(merged.exitCode, explain(merged)).toBe(1);
    expect(lastLine(merged.stdout)).toBe(`Retrieval quality regressed in 2 suite × measure rows. ${ACCEPT}`);
    const report = readJson<JsonReportLike>(project, 'rag-report.json');
    expect(report.counts.samples).toBe(12);
    expect(report).toEqual(worseReport);
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
  });
});
