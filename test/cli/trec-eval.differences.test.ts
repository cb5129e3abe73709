// Where `rag-matchers trec-eval` agrees with NIST trec_eval 10 in the corners, and where it differs
// on purpose: one test per line of the list in docs/cli.md. Expected values are trec_eval 10's
// output on the same files (built from usnistgov/trec_eval at tag v10.0 and run by hand).
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import * as trecEval from '../../src/cli/commands/trec-eval.js';
import { textLimits } from '../../src/trec/text.js';
import { runCommand } from './helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-trec-eval-10-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

const qrels = file('basic.qrels', 'q1 0 a 1\nq1 0 b 2\nq1 0 c 0\nq2 0 d 1\nq3 0 e 1\n');
const run = file(
  'basic.run',
  ['q1 Q0 x 1 9 t', 'q1 Q0 b 2 8 t', 'q1 Q0 a 3 7 t', 'q2 Q0 d 1 5 t', 'q9 Q0 a 1 1 t'].join('\n') + '\n',
);
const row = (measure: string, queryId: string, value: string) => `${measure.padEnd(22)}\t${queryId}\t${value}\n`;

describe('trec-eval: -m cutoffs follow trec_eval 10 (the first -m with parameters wins)', () => {
  it('-q -c -m P -m P.5 prints P_5 alone, without a note', async () => {
    const result = await runCommand(trecEval, ['-q', '-c', '-m', 'P', '-m', 'P.5', qrels, run]);
    // trec_eval 10: P_5 q1 0.4000, q2 0.2000, q3 0.0000, all 0.2000.
    expect(result.stdout).toBe(
      row('P_5', 'q1', '0.4000') +
        row('P_5', 'q2', '0.2000') +
        row('P_5', 'q3', '0.0000') +
        row('P_5', 'all', '0.2000'),
    );
    expect(result.stderr).toBe('');
  });

  it('-m P.10 -m P -m P.1,2 prints P_10 alone and says the later cutoffs are ignored', async () => {
    const result = await runCommand(trecEval, ['-c', '-m', 'P.10', '-m', 'P', '-m', 'P.1,2', qrels, run]);
    expect(result.stdout).toBe(row('P_10', 'all', '0.1000'));
    expect(result.stderr).toContain(
      "'-m P.1,2' ignored: 'P' was already requested as 'P.10' (trec_eval uses the first parameters given)",
    );
  });

  it('each measure keeps its own first parameters: -m recall -m P.2 -m P.1 -m recall.3', async () => {
    const result = await runCommand(trecEval, [
      '-c',
      '-m',
      'recall',
      '-m',
      'P.2',
      '-m',
      'P.1',
      '-m',
      'recall.3',
      qrels,
      run,
    ]);
    expect(result.stdout).toBe(row('P_2', 'all', '0.3333') + row('recall_3', 'all', '0.6667'));
  });
});

describe('trec-eval: input trec_eval 10 refuses is refused (exit 2)', () => {
  it('a blank line in the qrels, even the last one, names the file and line', async () => {
    for (const [name, text, line] of [
      ['blank-middle.qrels', 'q1 0 a 1\n\nq1 0 b 2\n', 2],
      ['blank-last.qrels', 'q1 0 a 1\nq1 0 b 2\n\n', 3],
      ['blank-spaces.qrels', 'q1 0 a 1\n  \t\nq1 0 b 2\n', 2],
    ] as const) {
      const result = await runCommand(trecEval, ['-m', 'map', file(name, text), run]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`${name}:${line}: blank line: trec_eval stops on a blank qrels line`);
    }
  });

  it('a blank line in the run is skipped, as trec_eval skips it', async () => {
    const spaced = file('blank.run', 'q1 Q0 b 1 8 t\n\n   \nq1 Q0 a 2 7 t\n');
    const result = await runCommand(trecEval, ['-m', 'num_ret', file('q1.qrels', 'q1 0 a 1\n'), spaced]);
    expect(result.stdout).toBe(row('num_ret', 'all', '2'));
  });

  it.each([
    [
      'an empty qrels file',
      () => [file('empty.qrels', ''), run],
      /cannot read qrels file '.*empty\.qrels': it holds no judgment line/,
    ],
    [
      'a qrels file of comments',
      () => [file('comments.qrels', '# nothing judged yet\n'), run],
      /cannot read qrels file '.*comments\.qrels': it holds no judgment line/,
    ],
    [
      'an empty run file',
      () => [qrels, file('empty.run', '')],
      /cannot read run file '.*empty\.run': it holds no result line/,
    ],
    [
      'a run of blank and comment lines',
      () => [qrels, file('nothing.run', '\n# none\n\n')],
      /cannot read run file '.*nothing\.run': it holds no result line/,
    ],
  ])('%s, with or without -c or --streaming', async (_label, files, message) => {
    for (const flags of [[], ['-c'], ['-c', '--streaming']]) {
      const result = await runCommand(trecEval, [...flags, '-m', 'map', ...files()]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
  });

  it('an empty run on standard input', async () => {
    const result = await runCommand(trecEval, ['-c', '-m', 'map', qrels, '-'], { stdin: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read run file '<stdin>': it holds no result line/);
  });
});

describe('trec-eval: deliberate differences from trec_eval 10', () => {
  it("without -c, a judged query missing from the run is left out (trec_eval 9's rule; trec_eval 10 exits 4 there)", async () => {
    // q3 is judged and not in the run: trec_eval 10 prints q1 and q2, says "result qid 'q3' not found" and exits 4.
    const result = await runCommand(trecEval, ['-q', '-m', 'num_ret', qrels, run]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(row('num_ret', 'q1', '3') + row('num_ret', 'q2', '1') + row('num_ret', 'all', '4'));
  });

  it('a leading byte order mark is skipped (trec_eval 10 keeps it in the first query id, which then matches nothing)', async () => {
    const bomQrels = file('bom.qrels', '\ufeffq1 0 a 1\nq1 0 b 2\n');
    const bomRun = file('bom.run', '\ufeffq1 Q0 b 1 8 t\nq1 Q0 a 2 7 t\n');
    const result = await runCommand(trecEval, ['-q', '-m', 'num_rel_ret', bomQrels, bomRun]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(row('num_rel_ret', 'q1', '2') + row('num_rel_ret', 'all', '2'));
  });
});

describe('trec-eval: a file that does not fit in memory as text', () => {
  const saved = { ...textLimits };
  afterEach(() => Object.assign(textLimits, saved));

  it('a run that is one huge line names the file and the line, not "Invalid string length"', async () => {
    // The same path a 1 GB one-line file takes, with the limit lowered so that 280 kB reach it.
    textLimits.maxLineLength = 1000;
    const oneLine = file('one-line.run', 'q1 Q0 a 1 1 t '.repeat(20_000));
    for (const flags of [[], ['--streaming'], ['--threads', '2']]) {
      const result = await runCommand(trecEval, [...flags, '-m', 'map', qrels, oneLine]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/one-line\.run:1: line 1 is longer than 1000 characters \(no line end found\)/);
      expect(result.stderr).not.toMatch(/Invalid string length/);
    }
  });

  it('a long line after good ones gets its own line number', async () => {
    textLimits.maxLineLength = 1000;
    // Longer than one 64 kB read, so that the line is carried from chunk to chunk as a long one is.
    const late = file('late.run', 'q1 Q0 a 1 1 t\nq1 Q0 b 2 0.5 t\n' + 'x'.repeat(200_000));
    const result = await runCommand(trecEval, ['-m', 'map', qrels, late]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/late\.run:3: line 3 is longer than 1000 characters/);
  });

  it('a qrels file larger than a string can hold names the file', async () => {
    textLimits.maxTextLength = 1000;
    const big = file('big.qrels', 'q1 0 a 1\n'.repeat(200));
    const result = await runCommand(trecEval, ['-m', 'map', big, run]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /cannot read qrels file '.*big\.qrels': .*big\.qrels: 1800 bytes is more than one JavaScript string holds \(1000 characters\)/,
    );
  });
});

describe('trec-eval: a run file of one gigabyte-long line', () => {
  it('names the file and line 1, without decoding the whole file for its run tag', async () => {
    // 600 MB of NUL bytes (a sparse file: no disk used), more than a JavaScript string holds. Before,
    // the run tag was read from the end in growing pieces up to the whole file: "Cannot create a
    // string longer than 0x1fffffe8 characters", no file name.
    const nulls = join(directory, 'nulls.run');
    writeFileSync(nulls, '');
    truncateSync(nulls, 600 * 1024 * 1024);
    const result = await runCommand(trecEval, ['-m', 'map', qrels, nulls]);
    rmSync(nulls);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/nulls\.run:1: line 1 is longer than 16777216 characters \(no line end found\)/);
  }, 60_000);
});

describe('trec-eval: scores C atof reads and this command refuses (docs/cli.md, differences)', () => {
  // trec_eval 10 reads these with atof: infinities, NaN, hexadecimal, and overflow to infinity. Here
  // each is exit 2 naming the file, line and score, never a silently different ranking.
  it.each([
    ['-inf', 'is not a number'],
    ['inf', 'is not a number'],
    ['Infinity', 'is not a number'],
    ['NaN', 'is not a number'],
    ['0x10', 'is not a number'],
    ['1e400', 'is not a finite number'],
  ])('score %s: exit 2 with the file and line', async (score, problem) => {
    const scored = file(`score-${score}.run`, `q1 Q0 a 1 9 t\nq1 Q0 b 2 ${score} t\n`);
    for (const flags of [[], ['--streaming']]) {
      const result = await runCommand(trecEval, [...flags, '-m', 'map', qrels, scored]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`score-${score}.run:2: score '${score}' ${problem}`);
    }
  });
});

describe('trec-eval: measure parameters and gains (docs/cli.md, differences)', () => {
  // q1 judges a 2, b 0, c 1; the run ranks a, x (not judged), c.
  const gradedQrels = file('gains.qrels', 'q1 0 a 2\nq1 0 b 0\nq1 0 c 1\n');
  const gradedRun = file('gains.run', 'q1 Q0 a 1 3 t\nq1 Q0 x 2 2 t\nq1 Q0 c 3 1 t\n');

  it('rbp rescales gains above 1 by their real minimum and maximum (trec_eval reads uninitialised ones)', async () => {
    // Gains 0, 1, 2 → 0, 0.5, 1. p = 0.5: (1 − 0.5) · (1 + 0.5 · 0 + 0.25 · 0.5) = 0.5625.
    const result = await runCommand(trecEval, ['-m', 'rbp.p=0.5', gradedQrels, gradedRun]);
    expect(result.stdout).toBe(row('rbp_p=0.5', 'all', '0.5625'));
  });

  it('dcg keeps its own gains when ndcg is given some (trec_eval shares one parameter list)', async () => {
    // dcg, gains = grades: 2/log2(2) + 1/log2(4) = 2.5. ndcg.1=3: (2 + 3/2) / (3 + 2/log2(3)) = 3.5 / 4.26186 = 0.8212.
    const result = await runCommand(trecEval, ['-m', 'dcg', '-m', 'ndcg.1=3', gradedQrels, gradedRun]);
    expect(result.stdout).toBe(row('dcg', 'all', '2.5000') + row('ndcg_1=3', 'all', '0.8212'));
  });

  it.each([
    [['-m', 'utility.1,x,0,0'], /'x' in 'utility\.1,x,0,0' is not a number; write e\.g\. utility\.1,-1,0,0/],
    [['-m', 'utility.1,-1'], /'utility\.1,-1' needs four coefficients a,b,c,d/],
    [['-m', 'rbp.p=1.5'], /p=1\.5 in 'rbp\.p=1\.5' must lie between 0 and 1/],
    [['-m', 'G.1'], /'1' in 'G\.1' is not a name=value pair \(trec_eval: "malformed pair parameters"\)/],
    [['-m', 'Rprec_mult.1,1'], /repeats the cutoff 1/],
  ])('%j: exit 2 naming the parameter (trec_eval would read it with atof)', async (flags, message) => {
    const result = await runCommand(trecEval, [...flags, gradedQrels, gradedRun]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });
});
