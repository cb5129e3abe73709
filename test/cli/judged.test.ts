// `rag-matchers eval -m judged@k` as users run it (the built bin) on TREC qrels and run files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, REPO_ROOT } from '../integration/support/build.js';
import { describeRun, runCommand } from '../integration/support/run.js';

const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-judged-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
function file(name: string, lines: readonly string[]): string {
  const path = join(directory, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
const cli = (...args: string[]) =>
  runCommand(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), ...args], { cwd: REPO_ROOT, timeoutMs: 60_000 });

// q1 judges d1 (1), d2 (0) and d3 (−1); q2 judges d9; q3 judges d5 and is missing from the run.
const qrels = file('judged.qrels', ['q1 0 d1 1', 'q1 0 d2 0', 'q1 0 d3 -1', 'q2 0 d9 1', 'q3 0 d5 2']);
// Ranked by score (the rank column is ignored): q1 d1 dX d2 d3; q2's tie at 4 puts d9 above d8
// (trec_eval's order: docno descending), then d7.
const run = file('judged.run', [
  'q1 Q0 dX 1 2.0 r',
  'q1 Q0 d1 2 3.0 r',
  'q1 Q0 d2 3 1.0 r',
  'q1 Q0 d3 4 0.5 r',
  'q2 Q0 d8 1 4 r',
  'q2 Q0 d9 2 4 r',
  'q2 Q0 d7 3 1 r',
]);

beforeAll(async () => {
  await ensureBuilt();
}, 240_000);

describe('rag-matchers eval -m judged@k', () => {
  it('reads every spelling, and gives the judged share of each top k on TREC files', async () => {
    const result = await cli(
      'eval',
      '--qrels',
      qrels,
      '--run',
      run,
      '-m',
      'Judged@2',
      '-m',
      'judged_10',
      '-m',
      'judged.1',
      '-m',
      'judged',
      '--format',
      'json',
    );
    expect(result.exitCode, describeRun(result)).toBe(0);
    const document = JSON.parse(result.stdout) as {
      measures: string[];
      mean: Record<string, number>;
      perQuery: Record<string, Record<string, number>>;
      queries: { evaluated: number; missing: string[] };
    };
    expect(document.measures).toEqual(['judged@2', 'judged@10', 'judged@1', 'judged']);
    expect(document.queries).toMatchObject({ evaluated: 3, missing: ['q3'] });
    // q1: d1 dX | d2 d3, all but dX judged (grades 1, 0, −1): @1 1/1, @2 1/2, @10 and uncut 3 ÷ min(10, 4) = 3/4.
    // q2: d9 d8 | d7, d9 judged: @1 1/1, @2 1/2, @10 and uncut 1 ÷ 3.
    // q3: no hits, scored 0.
    const expected: Record<string, Record<string, number>> = {
      q1: { 'judged@1': 1, 'judged@2': 1 / 2, 'judged@10': 3 / 4, judged: 3 / 4 },
      q2: { 'judged@1': 1, 'judged@2': 1 / 2, 'judged@10': 1 / 3, judged: 1 / 3 },
      q3: { 'judged@1': 0, 'judged@2': 0, 'judged@10': 0, judged: 0 },
    };
    for (const [queryId, values] of Object.entries(expected))
      for (const [measure, value] of Object.entries(values))
        expect(document.perQuery[queryId]?.[measure], `${queryId} ${measure}`).toBeCloseTo(value, 12);
    // Means over the three: @1 2/3; @2 (1/2 + 1/2 + 0) / 3 = 1/3; @10 and uncut (3/4 + 1/3 + 0) / 3 = 13/36.
    expect(document.mean['judged@1']).toBeCloseTo(2 / 3, 12);
    expect(document.mean['judged@2']).toBeCloseTo(1 / 3, 12);
    expect(document.mean['judged@10']).toBeCloseTo(13 / 36, 12);
    expect(document.mean['judged']).toBeCloseTo(13 / 36, 12);
  });

  it('a bad cutoff exits 2 naming the measure and what is wrong', async () => {
    const result = await cli('eval', '--qrels', qrels, '--run', run, '-m', 'judged@0');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('measure "judged@0" is not valid: the cutoff "0" must be a positive whole number');
  });
});
