// Telling a retrieval regression from a labelling gap and from edited labels, with the real `vitest run`
// and the real `jest`: a retriever that surfaces hits nobody labelled still fails, and the regression
// names what now ranks in its top k — neutrally for positive-only labels (an array of ids), which cannot
// tell unjudged from non-relevant, and as unjudged hits to label where the labels hold an explicit 0; a
// question whose relevant ids were edited is `labels-changed` in every report, never a regression, fails
// strict CI with the command that re-records its suite, and an update clears it; questions that moved
// beyond the tolerance while their suite's mean held are named without failing the run.
// Backs "Why is my gate red?" in docs/troubleshooting.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bytesOf,
  createReporterProject,
  explain,
  usePackage,
  readJson,
  reporterOutput,
  runCli,
  runTests,
  type ReporterProject,
  type Runner,
} from './support.js';

const pkg = usePackage();

interface Finding {
  kind: string;
  measure?: string;
  measures?: string[];
  questions?: string[];
  unjudged?: {
    question: string;
    count: number;
    ids: string[];
    baselineCount: number;
    k?: number;
    positiveOnly?: true;
  }[];
  moves?: { before: number; after: number }[];
  command: string;
  fails: boolean;
}

describe.each(['vitest', 'jest'] as const)(
  'unjudged hits and changed labels with %s',
  { timeout: 240_000 },
  (runner: Runner) => {
    const ext = runner === 'vitest' ? 'ts' : 'js';
    const orders = `test/orders.test.${ext}`;
    const update = runner === 'vitest' ? 'RAG_BASELINE=update npx vitest run' : 'RAG_BASELINE=update npx jest';
    const rerecord = `${update} ${orders} -t 'orders API refunds '`;
    const args = runner === 'jest' ? ['--runInBand'] : [];
    let project: ReporterProject;
    let recorded: Buffer;
    let data: string;

    const run = (env: Record<string, string | undefined> = {}) => runTests(project, { args, env });
    const ci = (env: Record<string, string | undefined> = {}) => run({ CI: 'true', ...env });
    const output = (result: Awaited<ReturnType<typeof run>>) => reporterOutput(project, result);
    const report = () => readJson<{ passed: boolean; findings: Finding[] }>(project, 'rag-report.json');
    const markdown = () => readFileSync(project.path('rag-report.md'), 'utf8');
    const html = async () => {
      const rendered = await runCli(project, ['report', 'rag-report.json', '--out', 'rag-report.html']);
      expect(rendered.exitCode, explain(rendered)).toBe(0);
      return readFileSync(project.path('rag-report.html'), 'utf8');
    };
    /** The shared questions, with `refund-status` judged against one more relevant id. */
    const relabel = () => {
      const edited = JSON.parse(data) as { questions: { id: string; relevant: string[] }[] };
      edited.questions.find((question) => question.id === 'refund-status')!.relevant.push('refund-escalation');
      writeFileSync(project.path('retrieval.json'), JSON.stringify(edited));
    };

    beforeAll(async () => {
      project = createReporterProject(runner, pkg);
      data = readFileSync(project.path('retrieval.json'), 'utf8');
      const first = await run({ RAG_BASELINE: 'update' });
      expect(first.exitCode, explain(first)).toBe(0);
      recorded = bytesOf(project, 'rag-baseline.json')!;
    }, 240_000);

    afterAll(() => {
      project?.remove();
    });

    afterEach(() => {
      writeFileSync(project.path('retrieval.json'), data);
      if (recorded !== undefined) writeFileSync(project.path('rag-baseline.json'), recorded);
    });

    /** The shared questions, with `refund-window`'s labels holding an explicit non-relevant judgment. */
    const withExplicitZero = () => {
      const edited = JSON.parse(data) as { questions: { id: string; relevant: unknown }[] };
      edited.questions.find((question) => question.id === 'refund-window')!.relevant = {
        'refund-policy': 1,
        'refund-faq': 1,
        returns: 0,
      };
      writeFileSync(project.path('retrieval.json'), JSON.stringify(edited));
    };

    it('positive-only labels: the baseline keeps the fingerprint but no unjudged count, and a regression names what now ranks in its top k without calling it unjudged', async () => {
      const text = recorded.toString('utf8');
      expect(text).toContain('"schemaVersion": 7');
      expect(text).toMatch(/"refund-window", "recall@3", 1, \{"labels": "[0-9a-f]{8}"\}\]/);
      expect(text).not.toContain('unjudged');

      // The project as a package one folder below the repository's root (a monorepo's packages/api).
      const workspace = dirname(project.dir);
      const worse = await ci({ RETRIEVER: 'worse', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace });
      expect(worse.exitCode, explain(worse)).toBe(1);
      // README's configuration, no runner location option: the annotation points at the question's first
      // asserting line (the toHaveRecallAtK call of the fixture's refunds tests), its file relative to the
      // repository's root (GITHUB_WORKSPACE), as GitHub reads it.
      const assertingLine = runner === 'vitest' ? 9 : 8;
      expect(worse.stdout.split('\n').filter((line) => line.startsWith('::error'))).toContain(
        `::error file=${basename(project.dir)}/${orders},line=${assertingLine},title=retrieval regressed%3A refund-window::refund-window: ndcg@3 0.920 → 0.307, recall@3 1.000 → 0.500 (suite ${orders} > orders API > refunds)`,
      );
      // refund-window's worse top 3: shipping-times, order-status, refund-policy (only refund-policy labelled).
      const note = 'now in its top 3: shipping-times, order-status';
      const out = output(worse);
      expect(out).toContain(`refund-window (how long do I have to ask for a refund)  1.000 → 0.500; ${note}`);
      expect(markdown()).toContain(`refund-window recall@3 1.000 → 0.500; ${note}`);
      const page = await html();
      expect(page).toContain(note);
      for (const text of [out, markdown(), page]) {
        expect(text).not.toMatch(/are unjudged|is unjudged|label them/);
      }
      expect(out).not.toMatch(/unjudged/i);
      expect(markdown()).not.toMatch(/unjudged/i);
      const regression = report().findings.find(
        (finding) => finding.kind === 'regression' && finding.measure === 'recall@3',
      )!;
      expect(regression.unjudged).toEqual([
        expect.objectContaining({
          question: 'refund-window',
          ids: ['shipping-times', 'order-status'],
          positiveOnly: true,
        }),
      ]);
    });

    it('labels with an explicit 0: the baseline counts the unjudged hits, and a regression that surfaces more names them as unjudged', async () => {
      withExplicitZero();
      const rerecorded = await run({ RAG_BASELINE: 'update' });
      expect(rerecorded.exitCode, explain(rerecorded)).toBe(0);
      // refund-window's baseline top 3: refund-policy, shipping-times (unjudged), refund-faq.
      expect(bytesOf(project, 'rag-baseline.json')!.toString('utf8')).toMatch(
        /"refund-window", "recall@3", 1, \{"labels": "[0-9a-f]{8}", "unjudged": 1\}\]/,
      );

      const worse = await ci({ RETRIEVER: 'worse' });
      expect(worse.exitCode, explain(worse)).toBe(1);
      // order-status entered refund-window's top 3 beside shipping-times: 2 unjudged where the baseline had 1.
      const note = '2 of its top 3 are unjudged: shipping-times, order-status — label them before trusting this drop';
      expect(output(worse)).toContain(`refund-window (how long do I have to ask for a refund)  1.000 → 0.500; ${note}`);
      expect(markdown()).toContain(`refund-window recall@3 1.000 → 0.500; ${note}`);
      const regression = report().findings.find(
        (finding) => finding.kind === 'regression' && finding.measure === 'recall@3',
      )!;
      expect(regression.unjudged).toEqual([
        {
          question: 'refund-window',
          before: 1,
          after: 0.5,
          count: 2,
          ids: ['shipping-times', 'order-status'],
          baselineCount: 1,
          k: 3,
        },
      ]);
      expect(await html()).toContain('2 of its top 3 are unjudged: shipping-times, order-status');
    });

    it('questions that moved beyond the tolerance while their suite held are named in the console, Markdown and JSON, and do not fail strict CI', async () => {
      // refund-window loses refund-faq from its top 3 while refund-status gains it at rank 3: recall@3
      // 1 → 0.5 and 0.5 → 1, nDCG@3 (1 + 1/log2 4)/(1 + 1/log2 3) = 0.920 → 1/(1 + 1/log2 3) = 0.613 and back.
      const edited = JSON.parse(data) as { retrievers: Record<string, Record<string, string[]>> };
      edited.retrievers.flip = {
        ...edited.retrievers.baseline!,
        'refund-window': ['refund-policy', 'shipping-times', 'order-status', 'refund-faq'],
        'refund-status': ['refund-tracking', 'returns', 'refund-faq'],
      };
      writeFileSync(project.path('retrieval.json'), JSON.stringify(edited));
      const flipped = await ci({ RETRIEVER: 'flip' });
      expect(flipped.exitCode, explain(flipped)).toBe(0);
      const suite = `${orders} > orders API > refunds`;
      const recall = `recall@3 of 2 questions in suite ${suite} moved beyond the tolerance while its mean held: refund-window 1.000 → 0.500, refund-status 0.500 → 1.000`;
      const ndcg = `ndcg@3 of 2 questions in suite ${suite} moved beyond the tolerance while its mean held: refund-window 0.920 → 0.613, refund-status 0.613 → 0.920`;
      const out = output(flipped);
      expect(out).toContain('Questions that moved while the suite held:');
      expect(out).toContain(`  · ${recall} — the suite's mean held within tolerance, so the gate passes this row`);
      expect(out).toContain(`  · ${ndcg}`);
      // Each held question shows its ranking before → after under the finding.
      expect(out).toContain(
        [
          '    refund-status',
          '      “where is my refund”',
          '      refund-faq new at 3',
          '      before: 1 refund-tracking ✓ · 2 order-status · 3 returns',
          '      after:  1 refund-tracking ✓ · 2 returns · 3 refund-faq ✓',
        ].join('\n'),
      );
      expect(out).toContain('No retrieval regressions');
      expect(markdown()).toContain('**Questions that moved while the suite held:**');
      expect(markdown()).toContain(`recall@3 of 2 questions in suite ${suite}`);
      expect(await html()).toContain('Questions that moved while the suite held');
      const held = report().findings.filter((finding) => finding.kind === 'held-moves');
      expect(held.map((finding) => finding.measure).sort()).toEqual(['ndcg@3', 'recall@3']);
      const recallMoves = held.find((finding) => finding.measure === 'recall@3')!;
      expect(recallMoves.questions).toEqual(['refund-window', 'refund-status']);
      expect(recallMoves.moves).toEqual([
        { before: 1, after: 0.5 },
        { before: 0.5, after: 1 },
      ]);
      expect(held.every((finding) => !finding.fails)).toBe(true);
    });

    it('edited relevant ids are labels-changed in every report, not a regression; strict CI fails with the command that re-records the suite', async () => {
      relabel();
      const changed = await ci();
      expect(changed.exitCode, explain(changed)).toBe(1);
      // One line for the suite, naming every measure the edit touched.
      const line = `labels changed: 1 question of suite ${orders} > orders API > refunds (ndcg@3, recall@3) measured against other judgments than the baseline's: refund-status, so not compared: neither a regression nor an improvement`;
      const out = output(changed);
      expect(out).toContain(`✗ ${line} — re-record the suite with ${rerecord} and commit`);
      expect(out).not.toContain('▼');
      expect(markdown()).toContain('labels changed: 1 question of suite');
      expect(markdown()).toContain('(ndcg@3, recall@3) measured against other judgments');
      const json = report();
      expect(
        json.findings.map((finding) => [finding.kind, finding.measures, finding.questions, finding.command]),
      ).toEqual([['labels-changed', ['ndcg@3', 'recall@3'], ['refund-status'], rerecord]]);
      expect(json.findings.some((finding) => finding.kind === 'regression')).toBe(false);
      const page = await html();
      expect(page).toContain('labels changed: 1 question of suite');
      expect(page).toContain('measured against other judgments than the baseline');

      // Outside CI it is noted and does not fail.
      const local = await run();
      expect(local.exitCode, explain(local)).toBe(0);
      expect(output(local)).toContain(`· ${line}`);

      // Re-recording the suite stores the new fingerprint; the re-run passes.
      const rerecorded = await run({ RAG_BASELINE: 'update' });
      expect(rerecorded.exitCode, explain(rerecorded)).toBe(0);
      expect(bytesOf(project, 'rag-baseline.json')).not.toEqual(recorded);
      const rerun = await ci();
      expect(rerun.exitCode, explain(rerun)).toBe(0);
    });
  },
);
