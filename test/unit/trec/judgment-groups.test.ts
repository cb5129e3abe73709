// trec_eval's judgment-group measures (src/trec/eval/judgment-groups.ts) on hand-worked qrels: two
// groups that disagree, a group with no relevant document, -J, multiples of R past the ranking. Every
// expected value is worked out in the comments from trec_eval 10's m_*_avgjg.c, never by the code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as trecEval from '../../../src/cli/commands/trec-eval.js';
import { parseJudgmentGroups } from '../../../src/trec/eval/judgment-groups.js';
import { runCommand } from '../../cli/helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-qrels-jg-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

// Ranking of q: a, b, c (scores 3, 2, 1). Group u: a and c relevant. Group v: b relevant, a judged 0.
const qrels = file('two.qrels', 'q u a 1\nq u c 1\nq v b 1\nq v a 0\n');
const run = file('two.run', 'q Q0 a 1 3 t\nq Q0 b 2 2 t\nq Q0 c 3 1 t\n');

async function valuesOf(args: readonly string[], qrelsPath = qrels): Promise<Record<string, string>> {
  const result = await runCommand(trecEval, ['-q', '-R', 'qrels_jg', ...args, qrelsPath, run]);
  expect(result.stderr).toBe('');
  return Object.fromEntries(
    result.stdout
      .trimEnd()
      .split('\n')
      .filter((line) => line.includes('\tq\t'))
      .map((line) => [line.split('\t')[0]!.trim(), line.split('\t')[2]!]),
  );
}

describe('judgment-group measures, averaged over the groups', () => {
  it('map_avgjg: u has AP (1/1 + 2/3) / 2 = 5/6, v (1/2) / 1 = 1/2; their mean 2/3', async () => {
    expect((await valuesOf(['-m', 'map_avgjg'])).map_avgjg).toBe('0.6667');
  });

  it('P_avgjg: at 1 u 1, v 0; at 2 u 1/2, v 1/2; at 5 (past the ranking) u 2/5, v 1/5', async () => {
    const values = await valuesOf(['-m', 'P_avgjg.1,2,5']);
    expect(values).toEqual({ P_avgjg_1: '0.5000', P_avgjg_2: '0.5000', P_avgjg_5: '0.3000' });
  });

  it('Rprec_mult_avgjg: rank ⌊m·R + 0.9⌋ per group (u: R 2, v: R 1)', async () => {
    // m 0.5: u rank 1 → 1, v rank 1 → 0: 0.5. m 2: u rank 4 (past the ranking) → 2/4, v rank 2 → 1/2: 0.5.
    const values = await valuesOf(['-m', 'Rprec_mult_avgjg.0.5,2']);
    expect(values).toEqual({ 'Rprec_mult_avgjg_0.50': '0.5000', 'Rprec_mult_avgjg_2.00': '0.5000' });
  });

  it('a group without relevant documents scores 0 and still counts in the mean', async () => {
    const withEmpty = file('empty-group.qrels', 'q u a 1\nq w b 0\n');
    // u: AP 1 (a at rank 1, R 1); w: 0. Mean 1/2. Rprec_mult at 1: u rank 1 → 1; w R 0, rank ⌊0.9⌋ = 0 → 0.
    const values = await valuesOf(['-m', 'map_avgjg', '-m', 'Rprec_mult_avgjg.1'], withEmpty);
    expect(values).toEqual({ map_avgjg: '0.5000', 'Rprec_mult_avgjg_1.00': '0.5000' });
  });

  it('-J: each group ranks only the documents it judged', async () => {
    // u judged a, c: ranking a, c, precision at 2 = 1. v judged b, a: ranking a, b, precision at 2 = 1/2.
    expect((await valuesOf(['-J', '-m', 'P_avgjg.2'])).P_avgjg_2).toBe('0.7500');
  });
});

describe('reading qrels with judgment groups', () => {
  it('groups queries and groups in byte order of id, skipping comment lines', () => {
    const parsed = parseJudgmentGroups('# c\nq2 b d1 1\nq10 z d1 0\nq10 a d2 2\n', 'g');
    expect([...parsed.keys()]).toEqual(['q10', 'q2']);
    expect([...parsed.get('q10')!.keys()]).toEqual(['a', 'z']);
  });

  it('refuses a grade that is not a whole number and a docno judged twice in one group', () => {
    expect(() => parseJudgmentGroups('q g d 1.5\n', 'g.txt')).toThrow(/g\.txt:1: grade '1\.5' is not a whole number/);
    expect(() => parseJudgmentGroups('q g d 1\nq g d 0\n', 'g.txt')).toThrow(/docno 'd' is judged twice/);
  });
});
