// The built bin as users run it (`node dist/cli.js`): a fresh build, then a few spawned commands.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_MEASURES } from './conformance-measures.js';
import { ensureBuilt, REPO_ROOT } from '../integration/support/build.js';
import { runCommand } from '../integration/support/run.js';

const fixtures = fileURLToPath(new URL('../fixtures/conformance/', import.meta.url));
const cli = (...args: string[]) =>
  runCommand(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), ...args], { cwd: REPO_ROOT, timeoutMs: 60_000 });

describe('the rag-matchers bin', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 240_000);

  it('trec-eval prints the same bytes as trec_eval on the graded set at -l2', async () => {
    const result = await cli(
      'trec-eval',
      '-q',
      '-c',
      '-l2',
      ...CONFORMANCE_MEASURES,
      fixtures + 'graded.qrels',
      fixtures + 'graded.run',
    );
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(readFileSync(fixtures + 'graded.trec_eval.c.l2.txt', 'utf8'));
  });

  it('lists its commands, and exits 2 with a clear message on an unknown flag', async () => {
    const help = await cli('--help');
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^ {2}eval +evaluate a run/m);
    expect(help.stdout).toMatch(/^ {2}trec-eval +drop-in for trec_eval/m);
    expect(help.stdout).toMatch(/^ {2}compare +paired comparison/m);
    const bad = await cli('eval', '--qrels', fixtures + 'small.qrels', '--run', fixtures + 'small.run', '--per-querry');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe(
      "rag-matchers eval: unknown option '--per-querry'\nRun 'rag-matchers eval --help' for usage.\n",
    );
    const malformed = await cli('trec-eval', fixtures + 'small.qrels', join(REPO_ROOT, 'test', 'cli', 'bin.test.ts'));
    expect(malformed.exitCode).toBe(2);
  });
});
