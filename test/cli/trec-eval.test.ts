// `rag-matchers trec-eval` flags, query rules and errors (its output is checked byte for byte
// against trec_eval in trec-eval.conformance.test.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as trecEval from '../../src/cli/commands/trec-eval.js';
import { runCommand } from './helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-trec-eval-'));
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

/** value of `measure` for `queryId` in trec_eval output. */
function valueOf(output: string, measure: string, queryId: string): string | undefined {
  const line = output.split('\n').find((candidate) => candidate.startsWith(`${measure.padEnd(22)}\t${queryId}\t`));
  return line?.split('\t')[2];
}

describe('trec-eval: query rules', () => {
  it('evaluates only queries in both files without -c; with -c, a qrels query missing from the run scores 0', async () => {
    const plain = await runCommand(trecEval, ['-q', '-m', 'P.1', '-m', 'num_ret', qrels, run]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(
      [
        'num_ret               \tq1\t3',
        'P_1                   \tq1\t0.0000',
        'num_ret               \tq2\t1',
        'P_1                   \tq2\t1.0000',
        'num_ret               \tall\t4',
        'P_1                   \tall\t0.5000',
        '',
      ].join('\n'),
    );
    const complete = await runCommand(trecEval, ['-q', '-c', '-m', 'P.1', qrels, run]);
    expect(valueOf(complete.stdout, 'P_1', 'q3')).toBe('0.0000');
    expect(valueOf(complete.stdout, 'P_1', 'all')).toBe('0.3333');
  });

  it('ranks by score, ties by docno descending, whatever the rank column and line order say', async () => {
    const tied = file('tied.run', 'q1 Q0 c 1 1.0 t\nq1 Q0 a 2 1.0 t\nq1 Q0 b 3 2.0 t\n');
    const tiedQrels = file('tied.qrels', 'q1 0 a 1\n');
    const result = await runCommand(trecEval, ['-m', 'recip_rank', tiedQrels, tied]);
    // b (2.0) first, then the tie in docno descending order: c, a. File order or ascending ids would put a at rank 2.
    expect(valueOf(result.stdout, 'recip_rank', 'all')).toBe('0.3333');
  });

  it('-M keeps the top N after ranking; -n drops the summary', async () => {
    const result = await runCommand(trecEval, [
      '-q',
      '-n',
      '-M',
      '2',
      '-m',
      'num_ret',
      '-m',
      'num_rel_ret',
      qrels,
      run,
    ]);
    expect(valueOf(result.stdout, 'num_ret', 'q1')).toBe('2');
    expect(valueOf(result.stdout, 'num_rel_ret', 'q1')).toBe('1');
    expect(result.stdout).not.toContain('\tall\t');
  });

  it('-l sets the relevance level; ndcg keeps using the grades', async () => {
    const result = await runCommand(trecEval, ['-q', '-l2', '-m', 'num_rel', '-m', 'P.3', '-m', 'ndcg', qrels, run]);
    expect(valueOf(result.stdout, 'num_rel', 'q1')).toBe('1');
    expect(valueOf(result.stdout, 'P_3', 'q1')).toBe('0.3333');
    const levelOne = await runCommand(trecEval, ['-q', '-m', 'ndcg', qrels, run]);
    expect(valueOf(result.stdout, 'ndcg', 'q1')).toBe(valueOf(levelOne.stdout, 'ndcg', 'q1'));
  });

  it('with -c, the summary num_rel counts every qrels judgment with grade > 0, as trec_eval 10 does', async () => {
    const result = await runCommand(trecEval, ['-c', '-l2', '-m', 'num_rel', qrels, run]);
    expect(result.stdout).toBe('num_rel               \tall\t4\n');
    const withoutC = await runCommand(trecEval, ['-l2', '-m', 'num_rel', qrels, run]);
    expect(withoutC.stdout).toBe('num_rel               \tall\t1\n');
  });

  it('prints measures in trec_eval order and cutoffs ascending, whatever the -m order', async () => {
    const result = await runCommand(trecEval, [
      '-m',
      'success.10,1',
      '-m',
      'ndcg_cut.5',
      '-m',
      'map',
      '-m',
      'num_ret',
      qrels,
      run,
    ]);
    expect(result.stdout.split('\n').map((line) => line.split('\t')[0]?.trim())).toEqual([
      'num_ret',
      'map',
      'ndcg_cut_5',
      'success_1',
      'success_10',
      '',
    ]);
  });

  it("without -m, prints trec_eval's official set: summary-only runid, num_q and gm_map, then per-query lines", async () => {
    const result = await runCommand(trecEval, [qrels, run]);
    const names = result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[0]?.trim());
    expect(names.slice(0, 11)).toEqual([
      'runid',
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'map',
      'gm_map',
      'Rprec',
      'bpref',
      'recip_rank',
      'iprec_at_recall_0.00',
    ]);
    expect(names.slice(-2)).toEqual(['P_500', 'P_1000']);
    expect(names).toHaveLength(10 + 11 + 9);
  });

  it('reads comment lines, blank lines, tabs, CRLF, extra run columns and a byte order mark', async () => {
    const messy = file('messy.run', '\ufeff# a comment\n\nq1\tQ0\tb\t1\t8\tt\textra\r\nq1 Q0  a 2 7e0 t\r\n');
    const messyQrels = file('messy.qrels', '# judged by hand\nq1\t0\ta\t1\r\nq1 0 b 1\n');
    const result = await runCommand(trecEval, ['-m', 'P.2', '-m', 'num_ret', messyQrels, messy]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('num_ret               \tall\t2\nP_2                   \tall\t1.0000\n');
  });

  it('reads UTF-8 doc ids split across read chunks, and breaks ties between them in byte order', async () => {
    // Fill the first 64 kB chunk with ASCII lines so that the 2-byte 'é' of the next line straddles it.
    const filler = 'q0 Q0 filler 1 1 t\n';
    let text = '';
    let line = 0;
    while (Buffer.byteLength(text) + filler.length < 65_536 - 8) text += filler.replace('filler', `f${line++}`);
    const pad = 65_536 - Buffer.byteLength(text) - 'q1 Q0 d'.length - 1;
    text += `q1 Q0 d${'x'.repeat(Math.max(0, pad))}é 1 1 t\n`;
    // Ties: \u{1F600} (4 bytes, F0…) sorts above \uFFFD (EF BF BD) in byte order, though not in UTF-16.
    text += 'q1 Q0 \uFFFD 2 0.5 t\nq1 Q0 \u{1F600} 3 0.5 t\n';
    const utf8Run = file('utf8.run', text);
    const utf8Qrels = file('utf8.qrels', `q1 0 d${'x'.repeat(Math.max(0, pad))}é 1\nq1 0 \uFFFD 1\n`);
    const result = await runCommand(trecEval, ['-q', '-m', 'num_rel_ret', '-m', 'P.1,2,3', utf8Qrels, utf8Run]);
    expect(result.stderr).toBe('');
    expect(valueOf(result.stdout, 'num_rel_ret', 'q1')).toBe('2');
    // Rank 2 is the emoji (byte order), rank 3 the replacement character.
    expect(valueOf(result.stdout, 'P_2', 'q1')).toBe('0.5000');
    expect(valueOf(result.stdout, 'P_3', 'q1')).toBe('0.6667');
    const piped = await runCommand(trecEval, ['-q', '-m', 'num_rel_ret', '-m', 'P.1,2,3', utf8Qrels, '-'], {
      stdin: text,
    });
    expect(piped.stdout).toBe(result.stdout);
  });

  it('evaluates a query whose lines span several read chunks like one read at once', async () => {
    // 4,000 documents for q1 (about 120 kB: three 64 kB chunks), scores with many ties.
    const lines = Array.from(
      { length: 4000 },
      (_, index) => `q1 Q0 d${(index * 7919) % 10007} ${index + 1} ${Math.floor((4000 - index) / 3)} t`,
    );
    lines.push('q2 Q0 d5 1 1 t');
    const text = `${lines.join('\n')}\n`;
    const longRun = file('long.run', text);
    const docAt = (index: number) => `d${(index * 7919) % 10007}`;
    const longQrels = file(
      'long.qrels',
      [`q1 0 ${docAt(0)} 1`, `q1 0 ${docAt(1500)} 2`, `q1 0 ${docAt(3999)} 1`, 'q1 0 d99999 3', 'q2 0 d5 1'].join('\n'),
    );
    const args = [
      '-q',
      '-m',
      'P.5,100,1000',
      '-m',
      'ndcg',
      '-m',
      'map',
      '-m',
      'recip_rank',
      '-m',
      'num_rel_ret',
      longQrels,
    ];
    const fromFile = await runCommand(trecEval, [...args, longRun]);
    const fromOneChunk = await runCommand(trecEval, [...args, '-'], { stdin: text });
    expect(fromFile.stderr).toBe('');
    expect(fromFile.stdout).toBe(fromOneChunk.stdout);
    expect(valueOf(fromFile.stdout, 'num_rel_ret', 'q1')).toBe('3');
    // And the same as the library's ranking of the run (evaluateRun over rankTrecRun).
    const { evaluateRun, rankTrecRun } = await import('../../src/dataset/evaluate-run.js');
    const { parseQrels, parseRun } = await import('../../src/trec/index.js');
    const library = evaluateRun(parseQrels(readFileSync(longQrels, 'utf8')), rankTrecRun(parseRun(text)), {
      measures: ['ndcg', 'map', 'mrr'],
    });
    expect(Number(valueOf(fromFile.stdout, 'ndcg', 'q1'))).toBeCloseTo(library.perQuery['q1']?.['ndcg'] as number, 4);
    expect(Number(valueOf(fromFile.stdout, 'map', 'q1'))).toBeCloseTo(library.perQuery['q1']?.['map'] as number, 4);
    expect(Number(valueOf(fromFile.stdout, 'recip_rank', 'q1'))).toBeCloseTo(
      library.perQuery['q1']?.['mrr'] as number,
      4,
    );
  });

  it('--precision prints more decimals; counts stay integers', async () => {
    const result = await runCommand(trecEval, ['--precision', '6', '-m', 'P.3', '-m', 'num_ret', qrels, run]);
    expect(result.stdout).toBe('num_ret               \tall\t4\nP_3                   \tall\t0.500000\n');
  });
});

describe('trec-eval: qrels whose queries are interleaved', () => {
  it('judge each query with all of its lines, as grouped qrels do', async () => {
    const runText = 'q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq2 Q0 x 1 2 t\nq2 Q0 y 2 1 t\n';
    const grouped = file('grouped.qrels', 'q1 0 a 1\nq1 0 c 2\nq2 0 y 1\nq2 0 z 1\n');
    const interleaved = file('interleaved.qrels', 'q2 0 z 1\nq1 0 c 2\nq2 0 y 1\nq1 0 a 1\n');
    const runFile = file('interleaved.run', runText);
    const args = ['-q', '-m', 'P.2', '-m', 'ndcg', '-m', 'num_rel_ret'];
    const fromInterleaved = await runCommand(trecEval, [...args, interleaved, runFile]);
    expect(fromInterleaved.code).toBe(0);
    expect(fromInterleaved.stdout).toBe((await runCommand(trecEval, [...args, grouped, runFile])).stdout);
    // q1: a (1) at rank 1, c (2) at rank 3: P@2 = 1/2, num_rel_ret 2; q2: y at rank 2 of 2 judged relevant.
    expect(fromInterleaved.stdout).toContain('P_2                   \tq1\t0.5000\n');
    expect(fromInterleaved.stdout).toContain('num_rel_ret           \tq1\t2\n');
    expect(fromInterleaved.stdout).toContain('num_rel_ret           \tq2\t1\n');
  });
});

describe('trec-eval: fatal duplicates (exit 4, as trec_eval)', () => {
  it('a docno repeated in a run that is not grouped by query (read whole, into columns): the lines of both', async () => {
    const duplicated = file(
      'dup-ungrouped.run',
      'q2 Q0 d 1 3 t\nq1 Q0 a 1 3 t\n\nq2 Q0 x 2 2 t\nq1 Q0 b 2 2 t\nq2 Q0 d 3 1 t\n',
    );
    const result = await runCommand(trecEval, ['-q', '-m', 'num_ret', qrels, duplicated]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('num_ret               \tq1\t2\n');
    expect(result.stderr).toMatch(/dup-ungrouped\.run:6: duplicate docno 'd' in query 'q2' \(first on line 1\)/);
  });

  it('a docno repeated in a query of the run, after printing the queries before it', async () => {
    const duplicated = file('dup.run', 'q1 Q0 a 1 3 t\nq2 Q0 d 1 3 t\nq2 Q0 d 2 2 t\n');
    const result = await runCommand(trecEval, ['-q', '-m', 'num_ret', qrels, duplicated]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('num_ret               \tq1\t1\n');
    expect(result.stderr).toMatch(
      /dup\.run:3: duplicate docno 'd' in query 'q2' \(first on line 2\)\. trec_eval treats a repeated document as a fatal error/,
    );
  });

  it('a docno repeated in the qrels of an evaluated query', async () => {
    const duplicatedQrels = file('dup.qrels', 'q1 0 a 1\nq1 0 a 0\n');
    const result = await runCommand(trecEval, ['-m', 'P.5', duplicatedQrels, run]);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/dup\.qrels:2: duplicate docno 'a' in query 'q1' \(first on line 1\)/);
  });

  it('a docno repeated in qrels whose queries are interleaved, with both lines of the file', async () => {
    const interleaved = file('dup-interleaved.qrels', 'q1 0 a 1\nq2 0 x 1\nq1 0 b 1\nq1 0 a 0\n');
    const result = await runCommand(trecEval, ['-m', 'P.5', interleaved, run]);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/dup-interleaved\.qrels:4: duplicate docno 'a' in query 'q1' \(first on line 1\)/);
  });

  it('not beyond -M, which trec_eval applies before checking', async () => {
    const duplicated = file('dup-late.run', 'q1 Q0 a 1 3 t\nq1 Q0 z 2 2 t\nq1 Q0 z 3 1 t\n');
    expect((await runCommand(trecEval, ['-M', '2', '-m', 'P.5', qrels, duplicated])).code).toBe(0);
    expect((await runCommand(trecEval, ['-M', '3', '-m', 'P.5', qrels, duplicated])).code).toBe(4);
  });
});

describe('trec-eval: usage and input errors (exit 2)', () => {
  it.each([
    [['--frobnicate', qrels, run], /unknown option '--frobnicate'/],
    [[qrels], /expected two files, QRELS and RUN, got '.*basic\.qrels'/],
    [
      ['-m', 'prefs_simp', qrels, run],
      /trec_eval measure 'prefs_simp' reads preference judgments: add -R prefs \(or -R qrels_prefs to read a qrels as preferences\)/,
    ],
    [['-m', 'qrels_jg', qrels, run], /trec_eval measure 'qrels_jg' reads judgment groups: add -R qrels_jg/],
    [['-m', 'constructor', qrels, run], /unknown measure 'constructor'/],
    [['-m', '__proto__', qrels, run], /unknown measure '__proto__'/],
    [
      ['-m', 'p.5', qrels, run],
      /unknown measure 'p'\. Measure names are case-sensitive, as in trec_eval: did you mean 'P'\?/,
    ],
    [['-m', 'P.5,5', qrels, run], /repeats the cutoff 5/],
    [['-m', 'P.0', qrels, run], /cutoffs of 'P\.0' must be positive/],
    [['-m', 'P.', qrels, run], /empty parameter list/],
    [['-l0', qrels, run], /-l must be a whole number ≥ 1, got '0'/],
    [['-l', 'two', qrels, run], /-l must be a whole number ≥ 1, got 'two'/],
    [['-R', 'prefs', qrels, run], /-R prefs needs the measures named/],
    [['-D', '1', qrels, run], /-D\/--Debug_level is not supported/],
    [['-N', 'many', qrels, run], /-N must be a whole number ≥ 0, got 'many'/],
    [[qrels, join(directory, 'nope.run')], /cannot read run file '.*nope\.run': no such file/],
    [[join(directory, 'nope.qrels'), run], /cannot read qrels file '.*nope\.qrels': no such file/],
    [['-', run], /QRELS cannot be '-'/],
  ])('%j', async (args, message) => {
    const result = await runCommand(trecEval, args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it('a malformed line, with file, line and problem', async () => {
    const bad = file('bad.run', 'q1 Q0 a 1 9 t\nq1 Q0 b 2 high t\n');
    const result = await runCommand(trecEval, [qrels, bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bad\.run:2: score 'high' is not a number\n {2}line 2: "q1 Q0 b 2 high t"/);
    const short = file('short.run', 'q1 Q0 a 1 9\n');
    expect((await runCommand(trecEval, [qrels, short])).stderr).toMatch(
      /short\.run:1: expected 6 or more columns \(qid Q0 docno rank score tag\), found 5/,
    );
    const badGrade = file('grade.qrels', 'q1 0 a 1.5\n');
    expect((await runCommand(trecEval, [badGrade, run])).stderr).toMatch(
      /grade\.qrels:1: relevance grade '1\.5' is not an integer/,
    );
  });

  it('no query with both results and judgments: exit 7, as trec_eval', async () => {
    const other = file('other.run', 'q8 Q0 a 1 1 t\n');
    const result = await runCommand(trecEval, [qrels, other]);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/no queries with both results and relevance info \(use -c/);
  });

  it('warns about parameters trec_eval ignores', async () => {
    const result = await runCommand(trecEval, ['-m', 'map.5', qrels, run]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /'map' takes no parameters: '\.5' ignored, as trec_eval does\. Did you mean -m map_cut\.5\?/,
    );
    expect(result.stdout).toMatch(/^map {19}\tall\t/);
  });

  it('--help prints the usage', async () => {
    const result = await runCommand(trecEval, ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: rag-matchers trec-eval \[-q\] \[-c\]/);
  });
});

describe('trec-eval --streaming', () => {
  it('needs both files grouped in byte order of query id, and says how to sort', async () => {
    const unsorted = file('unsorted.run', 'q2 Q0 d 1 5 t\nq1 Q0 a 1 5 t\n');
    const result = await runCommand(trecEval, ['--streaming', qrels, unsorted]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /unsorted\.run:2: --streaming needs the run grouped by query, in byte order of query id, but query 'q1' comes after 'q2'\. Sort it .*LC_ALL=C sort -s -k1,1 run > run\.sorted/,
    );
    const unsortedQrels = file('unsorted.qrels', 'q2 0 d 1\nq10 0 a 1\n');
    const qrelsResult = await runCommand(trecEval, ['--streaming', unsortedQrels, run]);
    expect(qrelsResult.code).toBe(2);
    expect(qrelsResult.stderr).toMatch(/--streaming needs the qrels grouped by query.*query 'q10' comes after 'q2'/);
  });

  it('gives the same output as the whole-file mode on sorted input', async () => {
    const args = ['-q', '-c', '-m', 'P.1,2', '-m', 'map', '-m', 'num_rel', qrels, run];
    const whole = await runCommand(trecEval, args);
    const streamed = await runCommand(trecEval, ['--streaming', ...args]);
    expect(streamed.stdout).toBe(whole.stdout);
  });

  it('reports timings as one JSON line on stderr', async () => {
    const result = await runCommand(trecEval, ['--timings', '-m', 'P.1', qrels, run]);
    expect(JSON.parse(result.stderr)).toEqual({
      read: expect.any(Number),
      sort: expect.any(Number),
      measure: expect.any(Number),
      write: expect.any(Number),
      total: expect.any(Number),
      maxRssMB: expect.any(Number),
      threads: 1,
    });
  });
});

describe('trec-eval: gm_bpref and num_nonrel_judged_ret, worked by hand', () => {
  // q1 judges a 1, b 0, c 1 and ranks a, b, x; q2 judges d 1, e 0 and ranks e, f.
  const handQrels = file('hand.qrels', 'q1 0 a 1\nq1 0 b 0\nq1 0 c 1\nq2 0 d 1\nq2 0 e 0\n');
  const handRun = file('hand.run', 'q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 x 3 1 t\nq2 Q0 e 1 2 t\nq2 Q0 f 2 1 t\n');
  const line = (measure: string, queryId: string, value: string) => `${measure.padEnd(22)}\t${queryId}\t${value}\n`;

  it('gm_bpref is the geometric mean of bpref, each at least 0.00001, summary only; num_nonrel_judged_ret counts and sums', async () => {
    // bpref: q1 (a first, c missed) 1/2; q2 (d missed) 0 → 0.00001. gm = sqrt(0.5 × 0.00001) = 0.0022.
    // Judged non-relevant ranked: b in q1, e in q2.
    const result = await runCommand(trecEval, [
      '-q',
      '-m',
      'gm_bpref',
      '-m',
      'num_nonrel_judged_ret',
      '-m',
      'bpref',
      handQrels,
      handRun,
    ]);
    expect(result.stdout).toBe(
      line('bpref', 'q1', '0.5000') +
        line('num_nonrel_judged_ret', 'q1', '1') +
        line('bpref', 'q2', '0.0000') +
        line('num_nonrel_judged_ret', 'q2', '1') +
        line('bpref', 'all', '0.2500') +
        line('gm_bpref', 'all', '0.0022') +
        line('num_nonrel_judged_ret', 'all', '2'),
    );
  });
});
