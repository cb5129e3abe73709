// `rag-matchers trec-eval` with no -m prints what NIST trec_eval 10 prints by default (its `official`
// set: runid, num_q, …, gm_map, bpref, iprec_at_recall, P), byte for byte, with -q, -c, -l, -M and -n;
// -m all_trec is tested in trec-eval-all-trec.test.ts.
// Expected files: trec_eval's own output (test/fixtures/conformance/README.md).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import * as trecEval from '../../src/cli/commands/trec-eval.js';
import { runCommand } from '../cli/helpers.js';

const fixtures = fileURLToPath(new URL('../fixtures/conformance/', import.meta.url));
const read = (name: string) => readFileSync(fixtures + name, 'utf8');

const cases = [
  { set: 'small', flags: ['-c'], expected: 'small.trec_eval.official.c.txt' },
  { set: 'small', flags: ['-q', '-c'], expected: 'small.trec_eval.official.q.c.txt' },
  { set: 'small', flags: ['-q', '-c', '-l2'], expected: 'small.trec_eval.official.q.c.l2.txt' },
  { set: 'small', flags: ['-q', '-c', '-M7'], expected: 'small.trec_eval.official.q.c.M7.txt' },
  { set: 'small', flags: ['-q', '-c', '-n'], expected: 'small.trec_eval.official.q.c.n.txt' },
  { set: 'graded', flags: ['-c'], expected: 'graded.trec_eval.official.c.txt' },
  { set: 'graded', flags: ['-q', '-c'], expected: 'graded.trec_eval.official.q.c.txt' },
  { set: 'graded', flags: ['-q', '-c', '-l2'], expected: 'graded.trec_eval.official.q.c.l2.txt' },
];

describe.each(cases)('trec_eval $flags on $set, no -m', ({ set, flags, expected }) => {
  it('prints the same bytes as trec_eval 10', async () => {
    const result = await runCommand(trecEval, [...flags, fixtures + `${set}.qrels`, fixtures + `${set}.run`]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(read(expected));
  });

  it('prints the same bytes with -m official, and from standard input', async () => {
    const named = await runCommand(trecEval, [
      ...flags,
      '-m',
      'official',
      fixtures + `${set}.qrels`,
      fixtures + `${set}.run`,
    ]);
    expect(named.stdout).toBe(read(expected));
    const piped = await runCommand(trecEval, [...flags, fixtures + `${set}.qrels`, '-'], { stdin: read(`${set}.run`) });
    expect(piped.stdout).toBe(read(expected));
  });
});

describe('trec_eval -q without -c, every qrels query in the run', () => {
  it('prints the same bytes as trec_eval 10 (num_q counts the evaluated queries)', async () => {
    const result = await runCommand(trecEval, ['-q', fixtures + 'small-inrun.qrels', fixtures + 'small.run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(read('small-inrun.trec_eval.official.q.txt'));
  });
});

describe('the new measures one by one', () => {
  const official = read('small.trec_eval.official.q.c.txt').split('\n');
  const linesOf = (prefix: string) => official.filter((line) => line.startsWith(prefix)).join('\n') + '\n';

  it.each([
    ['bpref', 'bpref '],
    ['gm_map', 'gm_map '],
    ['runid', 'runid '],
    ['num_q', 'num_q '],
    ['iprec_at_recall', 'iprec_at_recall_'],
  ])('-m %s prints its lines only (summary-only measures have no per-query line)', async (measure, prefix) => {
    const result = await runCommand(trecEval, [
      '-q',
      '-c',
      '-m',
      measure,
      fixtures + 'small.qrels',
      fixtures + 'small.run',
    ]);
    expect(result.stdout).toBe(linesOf(prefix));
  });

  it('iprec_at_recall takes recall levels, printed as trec_eval does (%3.2f, ascending)', async () => {
    // From `trec_eval -c -m iprec_at_recall.0.125,0.25,.5 small.qrels small.run`.
    const result = await runCommand(trecEval, [
      '-c',
      '-m',
      'iprec_at_recall.0.5,0.125,0.25',
      fixtures + 'small.qrels',
      fixtures + 'small.run',
    ]);
    expect(result.stdout).toBe(
      'iprec_at_recall_0.12  \tall\t0.3511\niprec_at_recall_0.25  \tall\t0.1797\niprec_at_recall_0.50  \tall\t0.0432\n',
    );
  });
});

describe('runid', () => {
  it("is the tag of the run file's last line, comments and blank lines after it aside (as trec_eval keeps it)", async () => {
    // trec_eval 10 on these two files prints `runid all last` and `num_q all 2`.
    const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-runid-'));
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
    writeFileSync(join(directory, 'r.qrels'), 'q1 0 d1 1\nq2 0 d2 1\n');
    const run = 'q2 Q0 d2 1 1 second\nq1 Q0 d1 1 1 first\nq1 Q0 d3 2 0.5 last\n# a comment\n\n';
    writeFileSync(join(directory, 'r.run'), run);
    const expected = 'runid                 \tall\tlast\nnum_q                 \tall\t2\n';
    const fromFile = await runCommand(trecEval, [
      '-m',
      'runid',
      '-m',
      'num_q',
      join(directory, 'r.qrels'),
      join(directory, 'r.run'),
    ]);
    expect(fromFile.stdout).toBe(expected);
    const fromStdin = await runCommand(trecEval, ['-m', 'runid', '-m', 'num_q', join(directory, 'r.qrels'), '-'], {
      stdin: run,
    });
    expect(fromStdin.stdout).toBe(expected);
  });
});
