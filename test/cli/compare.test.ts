import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as compare from '../../src/cli/commands/compare.js';
import { runCommand } from './helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-compare-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

// Twelve questions, the answer 'gold'. BM25 ranks it first for q1–q8, second otherwise; the
// candidate moves five first-ranked answers to rank 3 (the seed's five losses: sign test p 0.0625).
const ids = Array.from({ length: 12 }, (_, index) => `q${String(index + 1).padStart(2, '0')}`);
const qrels = file('set.qrels', ids.map((id) => `${id} 0 gold 1\n`).join(''));
function trecRun(name: string, goldRank: (index: number) => number): string {
  const text = ids
    .map((id, index) => {
      const order = ['x', 'y'];
      order.splice(goldRank(index) - 1, 0, 'gold');
      return order.map((doc, position) => `${id} Q0 ${doc} ${position + 1} ${10 - position} t\n`).join('');
    })
    .join('');
  return file(name, text);
}
const bm25 = trecRun('bm25.run', (index) => (index < 8 ? 1 : 2));
const reranked = trecRun('reranked.run', (index) => (index < 5 ? 3 : index < 8 ? 1 : 2));

describe('rag-matchers compare', () => {
  it('prints the paired table and the questions that got worse; exit 1 only with --fail-on-regression', async () => {
    const args = ['--qrels', qrels, bm25, reranked, '-m', 'ndcg@10', '-m', 'hit@3', '--test', 'sign'];
    const result = await runCommand(compare, args);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        `A = ${bm25}, B = ${reranked}; 12 paired queries (${qrels})`,
        '',
        'measure         A (95% interval)         B (95% interval)    B - A  wins/losses/ties       p  p (Holm)  verdict',
        'ndcg@10  0.8770 [0.7847, 0.9692]  0.6686 [0.5635, 0.7936]  -0.2083             0/5/7  0.0625    0.0625  regressed',
        'hit@3    1.0000 [0.7575, 1.0000]  1.0000 [0.7575, 1.0000]  +0.0000            0/0/12  1.0000    1.0000  no change beyond tolerance',
        '',
        'Questions that got worse on ndcg@10 (5, worst first):',
        '  q01  1.0000 -> 0.5000',
        '  q02  1.0000 -> 0.5000',
        '  q03  1.0000 -> 0.5000',
        '  q04  1.0000 -> 0.5000',
        '  q05  1.0000 -> 0.5000',
        '',
        'p: exact sign test. Intervals: Wilson for hit@k, percentile bootstrap (10000 resamples, seed 42) otherwise.',
        "Regression: B's mean below A's by more than 0.01.",
        'Verdict: 1 regressed (ndcg@10).',
        '',
      ].join('\n'),
    );
    expect((await runCommand(compare, [...args, '--fail-on-regression'])).code).toBe(1);
    expect((await runCommand(compare, [...args, '--fail-on-regression', '--significance', '0.05'])).code).toBe(0);
    expect((await runCommand(compare, ['--qrels', qrels, bm25, bm25, '--fail-on-regression'])).code).toBe(0);
  });

  it('--tolerance takes a default and per-measure overrides, the grammar of the reporters and toNotRegressFrom', async () => {
    const base = ['--qrels', qrels, bm25, reranked, '-m', 'ndcg@10', '-m', 'hit@3', '--fail-on-regression'];
    // nDCG@10 fell by 0.2083: within a tolerance of 0.3, beyond an override of 0.
    expect((await runCommand(compare, [...base, '--tolerance', '0.3'])).code).toBe(0);
    expect((await runCommand(compare, [...base, '--tolerance', '0.3,hit@3=0'])).code).toBe(0);
    const strict = await runCommand(compare, [...base, '--tolerance', '0.3,nDCG@10=0', '--format', 'json']);
    expect(strict.code).toBe(1);
    expect(
      (JSON.parse(strict.stdout) as { measures: { measure: string; tolerance: number }[] }).measures.map((entry) => [
        entry.measure,
        entry.tolerance,
      ]),
    ).toEqual([
      ['ndcg@10', 0],
      ['hit@3', 0.3],
    ]);
    const typo = await runCommand(compare, [...base, '--tolerance', '0.3,recal@3=0']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--tolerance["recal@3"]');
  });

  it('--format json carries means, intervals, p-values, the verdict and the worst questions', async () => {
    const result = await runCommand(compare, [
      '--qrels',
      qrels,
      bm25,
      reranked,
      '-m',
      'nDCG@10',
      '--format',
      'json',
      '--test',
      'sign',
    ]);
    const document = JSON.parse(result.stdout) as {
      pairedQueries: number;
      regressions: string[];
      measures: {
        measure: string;
        a: { mean: number; interval: { lower: number } };
        b: { mean: number };
        p: number;
        pHolm: number;
        losses: number;
        worse: { queryId: string }[];
      }[];
    };
    expect(document.pairedQueries).toBe(12);
    expect(document.regressions).toEqual(['ndcg@10']);
    const [ndcg] = document.measures;
    expect(ndcg).toMatchObject({ measure: 'ndcg@10', p: 0.0625, pHolm: 0.0625, losses: 5 });
    expect(ndcg?.a.interval.lower).toBeLessThan(ndcg?.a.mean as number);
    expect(ndcg?.worse.map((change) => change.queryId)).toEqual(['q01', 'q02', 'q03', 'q04', 'q05']);
  });

  it('the same seed gives the same figures', async () => {
    const args = [
      '--qrels',
      qrels,
      bm25,
      reranked,
      '-m',
      'ndcg@10',
      '-m',
      'mrr',
      '--format',
      'json',
      '--resamples',
      '500',
      '--seed',
      '7',
    ];
    expect((await runCommand(compare, args)).stdout).toBe((await runCommand(compare, args)).stdout);
  });

  it('markdown for a pull-request comment', async () => {
    const result = await runCommand(compare, [
      '--qrels',
      qrels,
      bm25,
      reranked,
      '-m',
      'ndcg@10',
      '--format',
      'markdown',
    ]);
    expect(result.stdout).toContain(
      '| measure | A (95% interval) | B (95% interval) | B - A | wins/losses/ties | p | p (Holm) | verdict |',
    );
    expect(result.stdout).toContain('**Questions that got worse on ndcg@10** (5, worst first):');
  });

  it('escapes query ids and paths in Markdown: no @mention, no tag', async () => {
    const hostileIds = ['<script>', '@user'];
    const hostileQrels = file('hostile.qrels', hostileIds.map((id) => `${id} 0 gold 1\n`).join(''));
    const runWith = (name: string, ranking: readonly string[]) =>
      file(
        name,
        hostileIds
          .map((id) => ranking.map((doc, rank) => `${id} Q0 ${doc} ${rank + 1} ${10 - rank} t\n`).join(''))
          .join(''),
      );
    const before = runWith('a@team.run', ['gold', 'x', 'y']);
    const after = runWith('b.run', ['x', 'y', 'gold']);
    const result = await runCommand(compare, [
      '--qrels',
      hostileQrels,
      before,
      after,
      '-m',
      'mrr',
      '--format',
      'markdown',
    ]);
    expect(result.stdout).toContain(`**A** = ${directory}/a@team.run, **B** = ${directory}/b.run; 2 paired queries`);
    expect(result.stdout).toContain(
      [
        '| query | A | B |',
        '| --- | ---: | ---: |',
        '| &lt;script> | 1.0000 | 0.3333 |',
        '| @\u200buser | 1.0000 | 0.3333 |',
      ].join('\n'),
    );
    expect(result.stdout).not.toContain('<script>');
    expect(result.stdout).not.toMatch(/(^|[^\w`])@user/);
  });

  it.each([
    [['--qrels', qrels, bm25], /expected two runs, RUN_A \(baseline\) and RUN_B \(candidate\), got '.*bm25\.run'/],
    [[bm25, reranked], /--qrels FILE is required/],
    [
      ['--qrels', qrels, bm25, reranked, '--test', 'wilcoxon'],
      /--test must be one of randomization, sign, t, got 'wilcoxon'/,
    ],
    [['--qrels', qrels, bm25, reranked, '--significance', '5'], /--significance must be a number > 0 and < 1, got '5'/],
    [['--qrels', qrels, bm25, join(directory, 'none.run')], /cannot read run file '.*none\.run': no such file/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const result = await runCommand(compare, args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
