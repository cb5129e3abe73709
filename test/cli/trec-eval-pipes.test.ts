// `trec-eval QRELS <(cat run)` and a named pipe whose writer comes late: the run is read once, from the
// start, as trec_eval reads it (it failed with "ESPIPE: invalid seek", or hung on a second open of the
// pipe), and the output is the one for the file itself.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import * as trecEval from '../../src/cli/commands/trec-eval.js';
import { runCommand } from './helpers.js';

const qrels = resolve('test/fixtures/conformance/small.qrels');
const run = resolve('test/fixtures/conformance/small.run');
const folder = mkdtempSync(join(tmpdir(), 'rag-trec-pipes-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A named pipe that `cat run` starts writing to after `delayMs`. */
function pipeWithLateWriter(name: string, delayMs: number): string {
  const fifo = join(folder, name);
  execFileSync('mkfifo', [fifo]);
  spawn('sh', ['-c', `sleep ${delayMs / 1000}; cat "$0" > "$1"`, run, fifo], { stdio: 'ignore' });
  return fifo;
}

describe('trec-eval with the run from a pipe', () => {
  it(
    'reads it as trec_eval does, with the output of the file itself (-q, runid included)',
    { timeout: 30_000 },
    async () => {
      const flags = ['-q', '-m', 'runid', '-m', 'map', '-m', 'P.5', qrels];
      const fromFile = await runCommand(trecEval, [...flags, run]);
      expect(fromFile.code, fromFile.stderr).toBe(0);
      const fromPipe = await runCommand(trecEval, [...flags, pipeWithLateWriter('run-pipe', 500)]);
      expect(fromPipe.stderr).toBe('');
      expect(fromPipe.code).toBe(0);
      expect(fromPipe.stdout).toBe(fromFile.stdout);
    },
  );

  it('with --threads too (a pipe is measured by one thread)', { timeout: 30_000 }, async () => {
    const fromPipe = await runCommand(trecEval, [
      '--threads',
      '2',
      '-m',
      'map',
      qrels,
      pipeWithLateWriter('threads-pipe', 100),
    ]);
    expect(fromPipe.code, fromPipe.stderr).toBe(0);
    expect(fromPipe.stdout).toMatch(/^map\s+all\s+0\.\d{4}\n$/);
  });
});
