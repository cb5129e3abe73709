// `rag-matchers trec-eval -R prefs` and `-R qrels_prefs` against NIST trec_eval 10's own output, byte for
// byte, on trec_eval's preference test files (test/fixtures/trec_eval-prefs/README.md): every preference
// measure, with and without -q, with -c and -M, and trec_eval's `prefs` set. Expected files are
// trec_eval's output, never ours.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as trecEval from '../../src/cli/commands/trec-eval.js';
import { runCommand } from '../cli/helpers.js';

const prefsFiles = fileURLToPath(new URL('../fixtures/trec_eval-prefs/', import.meta.url));
const qrelsFiles = fileURLToPath(new URL('../fixtures/trec_eval-test/', import.meta.url));

const cases = [
  {
    flags: ['-m', 'all_prefs', '-q', '-R', 'prefs'],
    files: [prefsFiles + 'prefs.test', prefsFiles + 'prefs.results.test'],
    expected: 'all_prefs.q.txt',
  },
  {
    flags: ['-m', 'all_prefs', '-q', '-R', 'prefs'],
    files: [prefsFiles + 'prefs.comment.test', prefsFiles + 'prefs.results.test'],
    expected: 'all_prefs.q.txt',
  },
  {
    flags: ['-m', 'all_prefs', '-R', 'prefs'],
    files: [prefsFiles + 'prefs.test', prefsFiles + 'prefs.results.test'],
    expected: 'all_prefs.txt',
  },
  {
    flags: ['-m', 'all_prefs', '-q', '-c', '-M', '5', '-R', 'prefs'],
    files: [prefsFiles + 'prefs.test', prefsFiles + 'prefs.results.head.test'],
    expected: 'all_prefs.q.c.M5.txt',
  },
  {
    flags: ['-m', 'prefs', '-m', 'prefs_pair_imp', '-q', '-R', 'prefs'],
    files: [prefsFiles + 'prefs.test', prefsFiles + 'prefs.results.test'],
    expected: 'prefs_set.q.txt',
  },
  {
    flags: ['-m', 'all_prefs', '-q', '-R', 'qrels_prefs'],
    files: [qrelsFiles + 'qrels.test', qrelsFiles + 'results.test'],
    expected: 'qrels_prefs.q.txt',
  },
  {
    flags: ['-m', 'all_prefs', '-q', '-c', '-M', '40', '-R', 'qrels_prefs'],
    files: [qrelsFiles + 'qrels.test', qrelsFiles + 'results.test'],
    expected: 'qrels_prefs.q.c.M40.txt',
  },
];

describe.each(cases)('trec_eval $flags on $expected', ({ flags, files, expected }) => {
  it('prints the same bytes as trec_eval 10', async () => {
    const result = await runCommand(trecEval, [...flags, ...files]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(readFileSync(prefsFiles + expected, 'utf8'));
  });
});

describe('the summary without -q', () => {
  it('is the `all` lines of the -q output, as trec_eval prints them', async () => {
    const result = await runCommand(trecEval, [
      '-m',
      'all_prefs',
      '-R',
      'qrels_prefs',
      qrelsFiles + 'qrels.test',
      qrelsFiles + 'results.test',
    ]);
    const summary = readFileSync(prefsFiles + 'qrels_prefs.q.txt', 'utf8')
      .split('\n')
      .filter((line) => line.includes('\tall\t'))
      .map((line) => `${line}\n`)
      .join('');
    expect(result.stdout).toBe(summary);
  });
});
