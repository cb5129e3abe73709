// `trec-eval … > results.txt`: with standard output redirected to a regular file, trec-eval writes its
// buffer straight to the file descriptor (no copy per 64 kB piece). The file must hold exactly the bytes
// a pipe receives and trec_eval prints, after whatever the file held when it was opened for appending.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_MEASURES } from './conformance-measures.js';
import { ensureBuilt, REPO_ROOT } from '../integration/support/build.js';

const fixtures = fileURLToPath(new URL('../fixtures/conformance/', import.meta.url));
const expected = readFileSync(fixtures + 'graded.trec_eval.c.txt', 'utf8');
const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-output-file-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Runs the built command with its standard output on `stdout` (a file descriptor, or 'pipe'). */
function trecEval(stdout: number | 'pipe', threads: string) {
  return spawnSync(
    process.execPath,
    [
      join(REPO_ROOT, 'dist', 'cli.js'),
      'trec-eval',
      '--threads',
      threads,
      '-q',
      '-c',
      ...CONFORMANCE_MEASURES,
      fixtures + 'graded.qrels',
      fixtures + 'graded.run',
    ],
    { stdio: ['ignore', stdout, 'pipe'], encoding: 'utf8', timeout: 60_000 },
  );
}

describe('trec-eval with standard output redirected to a file', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 240_000);

  it.each(['1', '2'])('writes the bytes trec_eval prints, over several 64 kB pieces (%s threads)', (threads) => {
    expect(expected.length).toBeGreaterThan(2 * 65_536);
    const file = join(directory, `results-${threads}.txt`);
    const descriptor = openSync(file, 'w');
    const result = trecEval(descriptor, threads);
    closeSync(descriptor);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(expected);
    expect(trecEval('pipe', threads).stdout).toBe(expected);
  });

  it('appends after what the file held (>>)', () => {
    const file = join(directory, 'appended.txt');
    writeFileSync(file, 'earlier results\n');
    const descriptor = openSync(file, 'a');
    const result = trecEval(descriptor, '1');
    closeSync(descriptor);
    expect(result.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`earlier results\n${expected}`);
  });
});
