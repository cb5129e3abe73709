// `rag-matchers trec-eval -R qrels_jg` against NIST trec_eval 10's own output, byte for byte, on
// trec_eval's judgment-group test files (test/fixtures/trec_eval-prefs/README.md): map_avgjg, P_avgjg
// and Rprec_mult_avgjg with and without -q, with -c -J -l2 -M 50, and with cutoffs and multiples given.
// Expected files are trec_eval's output, never ours.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as trecEval from '../../src/cli/commands/trec-eval.js';
import { runCommand } from '../cli/helpers.js';

const groupFiles = fileURLToPath(new URL('../fixtures/trec_eval-prefs/', import.meta.url));
const results = fileURLToPath(new URL('../fixtures/trec_eval-test/results.test', import.meta.url));

const cases = [
  { flags: ['-m', 'qrels_jg', '-q'], qrels: 'qrels.123', run: results, expected: 'qrels_jg.q.txt' },
  { flags: ['-m', 'qrels_jg', '-q'], qrels: 'qrels.comments.123', run: results, expected: 'qrels_jg.q.txt' },
  { flags: ['-m', 'qrels_jg'], qrels: 'qrels.123', run: results, expected: 'qrels_jg.txt' },
  {
    flags: ['-m', 'qrels_jg', '-q', '-c', '-J', '-l2', '-M', '50'],
    qrels: 'qrels.123',
    run: groupFiles + 'results.head.test',
    expected: 'qrels_jg.q.c.J.l2.M50.txt',
  },
  {
    flags: ['-q', '-m', 'map_avgjg', '-m', 'P_avgjg.3,7', '-m', 'Rprec_mult_avgjg.0.5,1.5', '-m', 'num_q'],
    qrels: 'qrels.123',
    run: results,
    expected: 'qrels_jg.params.q.txt',
  },
];

describe.each(cases)('trec_eval -R qrels_jg $flags on $qrels', ({ flags, qrels, run, expected }) => {
  it('prints the same bytes as trec_eval 10', async () => {
    const result = await runCommand(trecEval, [...flags, '-R', 'qrels_jg', groupFiles + qrels, run]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(readFileSync(groupFiles + expected, 'utf8'));
  });
});
