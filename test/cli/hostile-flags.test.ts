// Numeric flags out of range say their range (a negative value used to be "Option '-M' argument is
// ambiguous.", Node's parseArgs text); whole numbers beyond 2^53 are refused rather than read as another
// number; a confidence level just below 1 is never headed "100% interval". Each fix the message
// suggests is applied and runs.
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import * as evalCommand from '../../src/cli/commands/eval.js';
import * as trecEval from '../../src/cli/commands/trec-eval.js';
import { runCommand } from './helpers.js';

const conformance = (name: string): string => join('test', 'fixtures', 'conformance', name);
const qrels = conformance('small.qrels');
const run = conformance('small.run');

describe('numeric flags', () => {
  it.each([
    [['-M', '-5'], "-M must be a whole number ≥ 0, got '-5' (e.g. -M 1000)"],
    [['-l', '-1'], "-l must be a whole number ≥ 1, got '-1' (e.g. -l 2)"],
    [['--threads', '-1'], '--threads must be a whole number ≥ 1'],
    [
      ['-M', '9007199254740993'],
      "-M must be a whole number of at most 9007199254740991 (2^53 − 1), got '9007199254740993' (e.g. -M 1000)",
    ],
  ])('trec-eval %j: the range, not "argument is ambiguous"', async (flags, message) => {
    const result = await runCommand(trecEval, [...flags, qrels, run]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('ambiguous');
  });

  it('the value the message suggests runs', async () => {
    for (const flags of [
      ['-M', '1000'],
      ['-l', '2'],
      ['--threads', '1'],
    ]) {
      const result = await runCommand(trecEval, [...flags, '-m', 'map', qrels, run]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^map\s+all\s+0\.\d{4}$/m);
    }
  });

  it('a cutoff beyond 2^53 is refused, not printed as another number', async () => {
    const result = await runCommand(trecEval, ['-m', 'recall.9007199254740993', qrels, run]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "cutoff '9007199254740993' in 'recall.9007199254740993' is beyond 9007199254740991 (2^53 − 1), the largest whole number read exactly",
    );
    expect(result.stdout).not.toContain('recall_9007199254740992');
    const largest = await runCommand(trecEval, ['-m', 'recall.9007199254740991', qrels, run]);
    expect(largest.code, largest.stderr).toBe(0);
    expect(largest.stdout).toMatch(/^recall_9007199254740991\s+all\s/m);
  });

  it('eval: a confidence just below 1 is headed with the digits it takes, never "100% interval"', async () => {
    const result = await runCommand(evalCommand, [
      '--qrels',
      qrels,
      '--run',
      run,
      '-m',
      'map',
      '--confidence',
      '0.9999999999',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('99.99999999% interval');
    expect(result.stdout).not.toContain('100% interval');
    const usual = await runCommand(evalCommand, ['--qrels', qrels, '--run', run, '-m', 'map', '--confidence', '0.95']);
    expect(usual.stdout).toContain('95% interval');
  });
});

describe('trec-eval RUN QRELS', () => {
  it('says the files look swapped, with the command in the order that works; that command runs', async () => {
    const swapped = await runCommand(trecEval, ['-m', 'map', run, qrels]);
    expect(swapped.code).toBe(2);
    expect(swapped.stderr).toBe(
      `rag-matchers trec-eval: ${run}:1: expected 4 columns (qid iter docno rel), found 6\n` +
        '  line 1: "q1 Q0 doc390 1 10.1520 smallrun"\n' +
        `The two files look swapped: ${run} has a run's 6 columns and ${qrels} a qrels' 4. ` +
        `The qrels come first: rag-matchers trec-eval -m map ${qrels} ${run}\n`,
    );
    const fixed = await runCommand(trecEval, ['-m', 'map', qrels, run]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toBe('map                   \tall\t0.1099\n');
  });
});
