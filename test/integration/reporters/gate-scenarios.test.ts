// The gate in CI judges a declared evaluation, as snapshots do, with the real `vitest run` and the real
// `jest`: each way the baseline can go out of date fails under CI=true naming the suite or question and
// the command that accepts it, and passes after that command and a re-run. Backs the CI statements of
// docs/baselines-and-ci.md. Each runner has its own project; the scenarios run in order, each restoring
// the test files and the baseline it changed.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bytesOf,
  createReporterProject,
  explain,
  lastLine,
  usePackage,
  readJson,
  reporterOutput,
  runCli,
  runTests,
  suitesByName,
  type ReporterProject,
  type Runner,
} from './support.js';

const pkg = usePackage();

interface Finding {
  kind: string;
  suite: string;
  from?: string;
  measure?: string;
  measures?: string[];
  questions?: string[];
  command: string;
  fails: boolean;
}

describe.each(['vitest', 'jest'] as const)('the gate in CI with %s', { timeout: 240_000 }, (runner: Runner) => {
  const ext = runner === 'vitest' ? 'ts' : 'js';
  const orders = `test/orders.test.${ext}`;
  const update = runner === 'vitest' ? 'RAG_BASELINE=update npx vitest run' : 'RAG_BASELINE=update npx jest';
  const prune = runner === 'vitest' ? 'RAG_BASELINE=prune npx vitest run' : 'RAG_BASELINE=prune npx jest';
  const args = runner === 'jest' ? ['--runInBand'] : [];
  let project: ReporterProject;
  let recorded: Buffer;
  let ordersSource: string;

  const run = (env: Record<string, string | undefined> = {}) => runTests(project, { args, env });
  const ci = (env: Record<string, string | undefined> = {}) => run({ CI: 'true', ...env });
  const output = (result: Awaited<ReturnType<typeof run>>) => reporterOutput(project, result);
  const findings = () => readJson<{ passed: boolean; findings: Finding[] }>(project, 'rag-report.json');
  const restore = () => {
    writeFileSync(project.path(orders), ordersSource);
    writeFileSync(project.path('rag-baseline.json'), recorded);
  };

  beforeAll(async () => {
    project = createReporterProject(runner, pkg);
    ordersSource = readFileSync(project.path(orders), 'utf8');
    const first = await run({ RAG_BASELINE: 'update' });
    expect(first.exitCode, explain(first)).toBe(0);
    recorded = bytesOf(project, 'rag-baseline.json')!;
    const unchanged = await ci();
    expect(unchanged.exitCode, explain(unchanged)).toBe(0);
  }, 240_000);

  afterAll(() => {
    project?.remove();
  });

  // Each scenario starts from the recorded baseline and the original test file, even after a failure.
  afterEach(() => {
    if (recorded !== undefined) restore();
  });

  it('a renamed describe block made worse fails, compared with its old rows; an update moves them and the re-run passes', async () => {
    writeFileSync(project.path(orders), ordersSource.replace("describe('refunds'", "describe('refund policy'"));
    const renamed = await ci({ RETRIEVER: 'worse' });
    expect(renamed.exitCode, explain(renamed)).toBe(1);
    const out = output(renamed);
    expect(out).toContain(
      `suite renamed: ${orders} > orders API > refunds → ${orders} > orders API > refund policy (same questions; compared with its baseline rows) — run ${update} and commit`,
    );
    expect(out).toContain(
      `▼ ${orders} > orders API > refund policy · recall@3 fell from 0.833 to 0.667 on 3 questions`,
    );
    expect(readFileSync(project.path('rag-report.md'), 'utf8')).toContain(
      `suite renamed: ${orders} > orders API > refunds → ${orders} > orders API > refund policy`,
    );
    expect(findings().findings.map((finding) => finding.kind)).toEqual(['renamed-suite', 'regression', 'regression']);
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);

    const accepted = await run({ RETRIEVER: 'worse', RAG_BASELINE: 'update' });
    expect(accepted.exitCode, explain(accepted)).toBe(0);
    expect(output(accepted)).toContain('1 suite renamed');
    const suites = suitesByName(readFileSync(project.path('rag-baseline.json'), 'utf8'));
    expect(Object.keys(suites)).toContain(`${orders} > orders API > refund policy`);
    expect(Object.keys(suites)).not.toContain(`${orders} > orders API > refunds`);
    expect(suites[`${orders} > orders API > refund policy`]!['recall@3']!['refund-window']).toBe(0.5);

    const rerun = await ci({ RETRIEVER: 'worse' });
    expect(rerun.exitCode, explain(rerun)).toBe(0);
    expect(output(rerun)).toContain('No retrieval regressions (0 improved, 5 unchanged).');
  });

  it('an improvement not recorded fails ("baseline out of date"); after an update the re-run passes', async () => {
    const better = await ci({ RETRIEVER: 'better' });
    expect(better.exitCode, explain(better)).toBe(1);
    const out = output(better);
    expect(out).toContain(
      `improvement not recorded: ndcg@3 0.622 → 0.815 in suite ${orders} > orders API > shipping (better: ship-delay) — run ${update} and commit`,
    );
    expect(out).toContain(
      `improvement not recorded: recall@3 0.750 → 1.000 in suite ${orders} > orders API > shipping`,
    );
    expect(lastLine(out)).toBe(
      `The baseline is out of date: 2 differences beyond tolerance. Accept with: ${update} and commit the baseline.`,
    );
    const report = findings();
    expect(report.passed).toBe(false);
    expect(report.findings.map((finding) => [finding.kind, finding.measure, finding.command, finding.fails])).toEqual([
      ['improvement', 'ndcg@3', update, true],
      ['improvement', 'recall@3', update, true],
    ]);
    expect(readFileSync(project.path('rag-report.md'), 'utf8')).toContain(
      '**The baseline is out of date: 2 differences beyond tolerance**',
    );

    // Outside CI, or in CI with strict: false, it is listed but does not fail.
    expect((await run({ RETRIEVER: 'better' })).exitCode).toBe(0);
    const lenient = await ci({ RETRIEVER: 'better', RAG_STRICT: 'false' });
    expect(lenient.exitCode, explain(lenient)).toBe(0);
    expect(output(lenient)).toContain(
      `improvement not recorded: ndcg@3 0.622 → 0.815 in suite ${orders} > orders API > shipping`,
    );
    const accepted = await run({ RETRIEVER: 'better', RAG_BASELINE: 'update' });
    expect(accepted.exitCode, explain(accepted)).toBe(0);
    const rerun = await ci({ RETRIEVER: 'better' });
    expect(rerun.exitCode, explain(rerun)).toBe(0);
    // Locked in: the old level is now a regression.
    const back = await ci({ RETRIEVER: 'baseline' });
    expect(back.exitCode, explain(back)).toBe(1);
    expect(output(back)).toContain(`▼ ${orders} > orders API > shipping · ndcg@3 fell from 0.815 to 0.622`);
  });

  it('with significance, a drop beyond the tolerance that is not significant passes locally but fails in CI as an out-of-date baseline; after an update the re-run passes', async () => {
    const significance = { RETRIEVER: 'worse', RAG_SIGNIFICANCE: '0.05' };
    const local = await run(significance);
    expect(local.exitCode, explain(local)).toBe(0);
    const stale = await ci(significance);
    expect(stale.exitCode, explain(stale)).toBe(1);
    expect(output(stale)).toContain(
      `move not recorded: recall@3 0.833 → 0.667 in suite ${orders} > orders API > refunds (beyond the tolerance but not significant, so not a regression; worse: refund-window); refund-window recall@3 1.000 → 0.500; now in its top 3: shipping-times, order-status — run ${update} and commit`,
    );
    // Suites of 2 and 3 questions can never fail under the sign test at 0.05: warned of, failing nothing.
    const all = findings().findings;
    expect(
      all.filter((finding) => finding.kind !== 'insensitive').map((finding) => [finding.kind, finding.fails]),
    ).toEqual([
      ['unconfirmed-move', true],
      ['unconfirmed-move', true],
    ]);
    expect(all.filter((finding) => finding.kind === 'insensitive').every((finding) => !finding.fails)).toBe(true);
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
    const accepted = await run({ ...significance, RAG_BASELINE: 'update' });
    expect(accepted.exitCode, explain(accepted)).toBe(0);
    const rerun = await ci(significance);
    expect(rerun.exitCode, explain(rerun)).toBe(0);
  });

  it('a question that no longer runs although its file ran fails; update keeps it, prune removes it, the re-run passes', async () => {
    writeFileSync(
      project.path(orders),
      ordersSource.replace(
        "questions('refunds')",
        "questions('refunds').filter((question) => question.id !== 'refund-status')",
      ),
    );
    const gone = await ci();
    expect(gone.exitCode, explain(gone)).toBe(1);
    const out = output(gone);
    expect(out).toContain(
      `1 question of suite ${orders} > orders API > refunds (ndcg@3, recall@3) in the baseline did not run although the test file ran: refund-status — run ${prune} and commit`,
    );
    expect(lastLine(out)).toBe(
      `The baseline is out of date: 1 difference. Accept with: ${prune} and commit the baseline.`,
    );
    // One question gone from both measures: one finding, not one per measure.
    expect(findings().findings.map((finding) => [finding.kind, finding.measures, finding.questions])).toEqual([
      ['missing-questions', ['ndcg@3', 'recall@3'], ['refund-status']],
    ]);

    expect((await run({ RAG_BASELINE: 'update' })).exitCode).toBe(0);
    expect((await ci()).exitCode, 'an update keeps obsolete entries').toBe(1);
    const pruned = await run({ RAG_BASELINE: 'prune' });
    expect(pruned.exitCode, explain(pruned)).toBe(0);
    expect(
      suitesByName(readFileSync(project.path('rag-baseline.json'), 'utf8'))[`${orders} > orders API > refunds`]![
        'recall@3'
      ],
    ).toEqual({ 'refund-partial': 1, 'refund-window': 1 });
    const rerun = await ci();
    expect(rerun.exitCode, explain(rerun)).toBe(0);
  });

  it('a new suite fails naming it and its questions; after an update the re-run passes', async () => {
    const extra = `
describe('returns', () => {
  it('where do I send a return', () => {
    expect(search('refund-status')).toHaveRecallAtK(['refund-tracking'], 3, 0.3, { queryId: 'return-address' });
  });
});
`;
    writeFileSync(project.path(orders), ordersSource + extra);
    const added = await ci();
    expect(added.exitCode, explain(added)).toBe(1);
    expect(output(added)).toContain(
      `suite not in the baseline: ${orders} > returns (1 question: return-address) — run ${update} and commit`,
    );
    expect(findings().findings.map((finding) => [finding.kind, finding.suite])).toEqual([
      ['new-suite', `${orders} > returns`],
    ]);
    // A new suite was never a failure outside CI.
    expect((await run()).exitCode).toBe(0);
    expect((await run({ RAG_BASELINE: 'update' })).exitCode).toBe(0);
    const rerun = await ci();
    expect(rerun.exitCode, explain(rerun)).toBe(0);
  });

  it('sharded runs judge exactly as the unsharded run: the same findings, the same verdict', async () => {
    const env = { CI: 'true', RETRIEVER: 'better' };
    const whole = await ci({ RETRIEVER: 'better' });
    expect(whole.exitCode, explain(whole)).toBe(1);
    const unsharded = readJson<{ runner: string }>(project, 'rag-report.json');
    rmSync(project.path('rag-report.json'));
    if (runner === 'vitest') {
      for (const shard of ['1/2', '2/2']) {
        const part = await runTests(project, { args: [`--shard=${shard}`, '--reporter=blob'], env });
        expect(part.exitCode, explain(part)).toBe(0);
      }
      const merged = await runTests(project, { args: ['--merge-reports'], env });
      expect(merged.exitCode, explain(merged)).toBe(1);
      expect(readJson(project, 'rag-report.json')).toEqual(unsharded);
    } else {
      for (const shard of ['1/2', '2/2']) {
        const part = await runTests(project, { args: [`--shard=${shard}`], env });
        expect(part.exitCode, explain(part)).toBe(0);
      }
      const merged = await runCli(project, ['merge', 'rag-shard-1-of-2.json', 'rag-shard-2-of-2.json'], { env });
      expect(merged.exitCode, explain(merged)).toBe(1);
      expect(merged.stdout).toContain(
        `improvement not recorded: ndcg@3 0.622 → 0.815 in suite ${orders} > orders API > shipping`,
      );
      expect({ ...readJson<{ runner: string }>(project, 'rag-report.json'), runner: 'jest' }).toEqual(unsharded);
    }
    expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
  });

  it('a move within the tolerance never fails, names the questions that moved beyond it, and an update leaves its values byte-identical', async () => {
    // The worse retriever moves recall@3 by −0.167 and nDCG@3 by −0.248 in one suite: within 0.3. Only
    // refund-window moved by more than 0.3 (recall@3 1 → 0.5, nDCG@3 0.920 → 0.307; refund-partial's
    // nDCG@3 0.631 → 0.500 is within).
    const env = { RETRIEVER: 'worse', RAG_TOLERANCE: '0.3' };
    const judged = await ci(env);
    expect(judged.exitCode, explain(judged)).toBe(0);
    expect(
      findings().findings.map((finding) => [finding.kind, finding.measure, finding.questions, finding.fails]),
    ).toEqual([
      ['held-moves', 'ndcg@3', ['refund-window'], false],
      ['held-moves', 'recall@3', ['refund-window'], false],
      // refund-partial's ranking changed while its values held within 0.3: shown, never failing.
      ['rankings-changed', undefined, ['refund-partial'], false],
    ]);
    // The values held, so the update keeps every value row; it records the questions' new rankings (they
    // explain moves and gate nothing), and its line says so and nothing more.
    const updated = await run({ ...env, RAG_BASELINE: 'update' });
    expect(updated.exitCode, explain(updated)).toBe(0);
    expect(output(updated)).toMatch(/Updated rag-baseline\.json: the rankings? of \d+ questions? recorded\.\n/);
    const valueRows = (bytes: Buffer | undefined) =>
      bytes!
        .toString('utf8')
        .split('\n')
        // Schema 7's ranking rows ([question, [text, hits…]]) left out: the rows of values.
        .filter((line) => /^ {4},?\[/.test(line) && !/^ {4},\["(?:[^"\\]|\\.)*",\[/.test(line));
    expect(valueRows(bytesOf(project, 'rag-baseline.json'))).toEqual(valueRows(recorded));
  });
});
