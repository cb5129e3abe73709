// `rag-matchers trec-eval` against NIST trec_eval 10's own output (test/fixtures/conformance/README.md):
// byte for byte on the 4-decimal files, within 1e-12 of the %.17g files.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_MEASURES } from './conformance-measures.js';
import { compareUtf8 } from '../../src/core/ranking.js';
import * as trecEval from '../../src/cli/commands/trec-eval.js';
import { runCommand } from './helpers.js';

const fixtures = fileURLToPath(new URL('../fixtures/conformance/', import.meta.url));
const read = (name: string) => readFileSync(fixtures + name, 'utf8');

/** `LC_ALL=C sort -s -k1,1`: lines stably sorted by their first column in byte order. */
function sortByQuery(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const key = (line: string) => line.trim().split(/\s+/)[0] as string;
  return `${lines
    .map((line, index) => ({ line, index }))
    .sort((a, b) => compareUtf8(key(a.line), key(b.line)) || a.index - b.index)
    .map(({ line }) => line)
    .join('\n')}\n`;
}

const sortedDirectory = mkdtempSync(join(tmpdir(), 'rag-matchers-conformance-'));
afterAll(() => rmSync(sortedDirectory, { recursive: true, force: true }));
for (const set of ['small', 'graded']) {
  writeFileSync(join(sortedDirectory, `${set}.qrels`), sortByQuery(read(`${set}.qrels`)));
  writeFileSync(join(sortedDirectory, `${set}.run`), sortByQuery(read(`${set}.run`)));
}

const MEASURES = CONFORMANCE_MEASURES;

const cases = [
  { set: 'small', level: [] as string[], expected: 'small.trec_eval.c' },
  { set: 'small', level: ['-l2'], expected: 'small.trec_eval.c.l2' },
  { set: 'graded', level: [] as string[], expected: 'graded.trec_eval.c' },
  { set: 'graded', level: ['-l2'], expected: 'graded.trec_eval.c.l2' },
];

describe.each(cases)('trec_eval -q -c $level on $set', ({ set, level, expected }) => {
  const args = ['-q', '-c', ...level, ...MEASURES, fixtures + `${set}.qrels`, fixtures + `${set}.run`];

  it('prints the same bytes as trec_eval', async () => {
    const result = await runCommand(trecEval, args);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(read(`${expected}.txt`));
  });

  it('agrees with the %.17g output within 1e-12', async () => {
    const result = await runCommand(trecEval, [...args, '--precision', '17']);
    const ours = result.stdout.trimEnd().split('\n');
    const theirs = read(`${expected}.full.txt`).trimEnd().split('\n');
    expect(ours).toHaveLength(theirs.length);
    ours.forEach((line, index) => {
      const [name, queryId, value] = line.split('\t');
      const [expectedName, expectedQueryId, expectedValue] = (theirs[index] as string).split('\t');
      expect(`${name}\t${queryId}`).toBe(`${expectedName}\t${expectedQueryId}`);
      expect(Math.abs(Number(value) - Number(expectedValue))).toBeLessThanOrEqual(1e-12);
    });
  });

  it('prints only the summary lines without -q', async () => {
    const summary = await runCommand(
      trecEval,
      args.filter((arg) => arg !== '-q'),
    );
    expect(summary.stdout).toBe(
      read(`${expected}.txt`)
        .split('\n')
        .filter((line) => line.includes('\tall\t'))
        .join('\n') + '\n',
    );
  });

  it('prints the same bytes from sorted files read whole, streamed, or the run from standard input', async () => {
    const sortedArgs = ['-q', '-c', ...level, ...MEASURES, join(sortedDirectory, `${set}.qrels`)];
    const runPath = join(sortedDirectory, `${set}.run`);
    const whole = await runCommand(trecEval, [...sortedArgs, runPath]);
    const streamed = await runCommand(trecEval, ['--streaming', ...sortedArgs, runPath]);
    const piped = await runCommand(trecEval, ['--streaming', ...sortedArgs, '-'], {
      stdin: readFileSync(runPath, 'utf8'),
    });
    const pipedWhole = await runCommand(trecEval, [...sortedArgs, '-'], { stdin: readFileSync(runPath, 'utf8') });
    for (const result of [whole, streamed, piped, pipedWhole]) {
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(read(`${expected}.txt`));
    }
  });

  it('prints the same bytes when the shuffled run comes from standard input', async () => {
    const result = await runCommand(trecEval, [...args.slice(0, -1), '-'], { stdin: read(`${set}.run`) });
    expect(result.stdout).toBe(read(`${expected}.txt`));
  });
});
