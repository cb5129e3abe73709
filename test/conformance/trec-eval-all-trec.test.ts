// `rag-matchers trec-eval -m all_trec` against NIST trec_eval 10's own output, byte for byte: on
// trec_eval's test files (test/fixtures/trec_eval-test/README.md) and on our conformance sets
// (test/fixtures/conformance/README.md), with and without -q, -c, -J, -l and -M, and with every
// parameter form trec_eval takes. Expected files are trec_eval's output, never ours.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compareUtf8 } from '../../src/core/ranking.js';
import * as trecEval from '../../src/cli/commands/trec-eval.js';
import { runCommand } from '../cli/helpers.js';

const testFiles = fileURLToPath(new URL('../fixtures/trec_eval-test/', import.meta.url));
const conformance = fileURLToPath(new URL('../fixtures/conformance/', import.meta.url));

/** The `all` lines of trec_eval's -q output: what it prints without -q. */
function summaryOf(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.includes('\tall\t'))
    .map((line) => `${line}\n`)
    .join('');
}

const cases = [
  { files: testFiles, qrels: 'qrels.test', run: 'results.test', flags: ['-q'], expected: 'all_trec.q.txt' },
  { files: testFiles, qrels: 'qrels.test', run: 'results.test', flags: ['-q', '-c'], expected: 'all_trec.q.c.txt' },
  { files: testFiles, qrels: 'qrels.test', run: 'results.test', flags: ['-q', '-J'], expected: 'all_trec.q.J.txt' },
  {
    files: conformance,
    qrels: 'small.qrels',
    run: 'small.run',
    flags: ['-q', '-c'],
    expected: 'small.trec_eval.all_trec.q.c.txt',
  },
  {
    files: conformance,
    qrels: 'small.qrels',
    run: 'small.run',
    flags: ['-q', '-c', '-J'],
    expected: 'small.trec_eval.all_trec.q.c.J.txt',
  },
  {
    files: conformance,
    qrels: 'small.qrels',
    run: 'small.run',
    flags: ['-q', '-c', '-l2'],
    expected: 'small.trec_eval.all_trec.q.c.l2.txt',
  },
  {
    files: conformance,
    qrels: 'small.qrels',
    run: 'small.run',
    flags: ['-q', '-c', '-M7'],
    expected: 'small.trec_eval.all_trec.q.c.M7.txt',
  },
  {
    files: conformance,
    qrels: 'small-inrun.qrels',
    run: 'small.run',
    flags: ['-q'],
    expected: 'small-inrun.trec_eval.all_trec.q.txt',
  },
];

describe.each(cases)('trec_eval $flags -m all_trec on $qrels', ({ files, qrels, run, flags, expected }) => {
  const paths = [files + qrels, files + run];

  it('prints the same bytes as trec_eval 10', async () => {
    const result = await runCommand(trecEval, [...flags, '-m', 'all_trec', ...paths]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(readFileSync(files + expected, 'utf8'));
  });

  it('prints its summary lines without -q', async () => {
    const result = await runCommand(trecEval, [...flags.filter((flag) => flag !== '-q'), '-m', 'all_trec', ...paths]);
    expect(result.stdout).toBe(summaryOf(readFileSync(files + expected, 'utf8')));
  });
});

describe('trec_eval -m all_trec, summary only', () => {
  it.each([
    { files: testFiles, flags: [] as string[], names: ['qrels.test', 'results.test'], expected: 'all_trec.txt' },
    {
      files: conformance,
      flags: ['-c'],
      names: ['graded.qrels', 'graded.run'],
      expected: 'graded.trec_eval.all_trec.c.txt',
    },
    {
      files: conformance,
      flags: ['-c', '-J'],
      names: ['graded.qrels', 'graded.run'],
      expected: 'graded.trec_eval.all_trec.c.J.txt',
    },
  ])('$flags on $names.0: the same bytes as trec_eval 10', async ({ files, flags, names, expected }) => {
    const result = await runCommand(trecEval, [...flags, '-m', 'all_trec', ...names.map((name) => files + name)]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(readFileSync(files + expected, 'utf8'));
  });

  it("-m set prints trec_eval's `set` lines, as in its all_trec output", async () => {
    const names = [
      'runid',
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'utility',
      'set_P',
      'set_relative_P',
      'set_recall',
      'set_map',
      'set_F',
    ];
    const allTrec = readFileSync(testFiles + 'all_trec.txt', 'utf8').split('\n');
    const expected = allTrec.filter((line) => names.includes(line.split('\t')[0]!.trim()));
    const result = await runCommand(trecEval, ['-m', 'set', testFiles + 'qrels.test', testFiles + 'results.test']);
    expect(result.stdout).toBe(expected.map((line) => `${line}\n`).join(''));
  });

  it('prints 99 lines on trec_eval’s test files, as trec_eval 10 does (relstring prints per query only)', async () => {
    const result = await runCommand(trecEval, ['-m', 'all_trec', testFiles + 'qrels.test', testFiles + 'results.test']);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(99);
  });
});

describe('every parameter form trec_eval takes', () => {
  it('prints the same bytes as trec_eval 10 (utility with -N, set_F, rbp p, G/ndcg_rel/Rndcg gains, relstring, 11pt_avg, Rprec_mult, unj, relative_P, rbp_resid)', async () => {
    const result = await runCommand(trecEval, [
      '-q',
      '-m',
      'utility.2,-1,0,0.5',
      '-N',
      '1000',
      '-m',
      'set_F.0.5',
      '-m',
      'rbp.p=0.8',
      '-m',
      'G.1=3.5,2=9',
      '-m',
      'ndcg_rel.1=2',
      '-m',
      'Rndcg.0=1,1=4',
      '-m',
      'relstring.25',
      '-m',
      '11pt_avg.0.2,0.5,0.8',
      '-m',
      'Rprec_mult.0.5,1',
      '-m',
      'unj.3,50',
      '-m',
      'relative_P.7',
      '-m',
      'rbp_resid.p=0.5',
      testFiles + 'qrels.test',
      testFiles + 'results.test',
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(readFileSync(testFiles + 'params.q.txt', 'utf8'));
  });
});

describe('the same bytes streamed and from standard input', () => {
  const sorted = mkdtempSync(join(tmpdir(), 'rag-matchers-all-trec-'));
  afterAll(() => rmSync(sorted, { recursive: true, force: true }));
  /** `LC_ALL=C sort -s -k1,1`, as --streaming needs. */
  const sortByQuery = (text: string) =>
    text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line, index) => ({ line, index, key: line.trim().split(/\s+/)[0] as string }))
      .sort((a, b) => compareUtf8(a.key, b.key) || a.index - b.index)
      .map(({ line }) => `${line}\n`)
      .join('');
  for (const name of ['small.qrels', 'small.run'])
    writeFileSync(join(sorted, name), sortByQuery(readFileSync(conformance + name, 'utf8')));

  it.each([
    ['-q', '-c'],
    ['-q', '-c', '-J'],
  ])('%j -m all_trec', async (...flags) => {
    const expected = readFileSync(
      conformance + `small.trec_eval.all_trec.q.c${flags.includes('-J') ? '.J' : ''}.txt`,
      'utf8',
    );
    const args = [...flags, '-m', 'all_trec', join(sorted, 'small.qrels')];
    const streamed = await runCommand(trecEval, ['--streaming', ...args, join(sorted, 'small.run')]);
    const piped = await runCommand(trecEval, [...args, '-'], {
      stdin: readFileSync(join(sorted, 'small.run'), 'utf8'),
    });
    expect(streamed.stdout).toBe(expected);
    expect(piped.stdout).toBe(expected);
  });
});
