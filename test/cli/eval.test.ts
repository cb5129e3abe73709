import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as evalCommand from '../../src/cli/commands/eval.js';
import { runCommand } from './helpers.js';

const fixtures = fileURLToPath(new URL('../fixtures/conformance/', import.meta.url));
const qrels = fixtures + 'small.qrels';
const run = fixtures + 'small.run';
const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-eval-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

/** trec_eval -q -c output: qid → trec measure → value. */
function trecEvalValues(name: string): Map<string, Map<string, number>> {
  const values = new Map<string, Map<string, number>>();
  for (const line of readFileSync(fixtures + name, 'utf8')
    .trim()
    .split('\n')) {
    const [measure, queryId, value] = line.split('\t').map((field) => field.trim()) as [string, string, string];
    if (!values.has(queryId)) values.set(queryId, new Map());
    values.get(queryId)?.set(measure, Number(value));
  }
  return values;
}

describe('rag-matchers eval', () => {
  it('prints each mean, and the query coverage', async () => {
    const result = await runCommand(evalCommand, ['--qrels', qrels, '--run', run]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'measure      mean',
        'hit@10     0.5152',
        'recall@10  0.1361',
        'mrr@10     0.3599',
        'ndcg@10    0.1564',
        '',
        'Queries: 33 evaluated; 3 missing from the run, scored 0 (q31, q32, q33); 3 only in the run, ignored (q34, q35, q36).',
        '',
      ].join('\n'),
    );
  });

  it('--format json: canonical names, per-query values equal to trec_eval -q -c, and the query lists', async () => {
    const result = await runCommand(evalCommand, [
      '--qrels',
      qrels,
      '--run',
      run,
      '-m',
      'P_5',
      '-m',
      'recall.100',
      '-m',
      'map',
      '-m',
      'ndcg',
      '-m',
      'Rprec',
      '-m',
      'success_1',
      '--format',
      'json',
    ]);
    const document = JSON.parse(result.stdout) as {
      measures: string[];
      mean: Record<string, number>;
      perQuery: Record<string, Record<string, number>>;
      queries: { evaluated: number; unjudged: string[]; missing: string[]; runOnly: string[] };
    };
    expect(document.measures).toEqual(['precision@5', 'recall@100', 'map', 'ndcg', 'rprec', 'hit@1']);
    expect(document.queries).toEqual({
      evaluated: 33,
      unjudged: [],
      missing: ['q31', 'q32', 'q33'],
      runOnly: ['q34', 'q35', 'q36'],
    });
    const trec = trecEvalValues('small.trec_eval.c.full.txt');
    const names: Record<string, string> = {
      'precision@5': 'P_5',
      'recall@100': 'recall_100',
      map: 'map',
      ndcg: 'ndcg',
      rprec: 'Rprec',
      'hit@1': 'success_1',
    };
    expect(Object.keys(document.perQuery).sort()).toEqual([...trec.keys()].filter((id) => id !== 'all').sort());
    for (const [queryId, values] of Object.entries(document.perQuery)) {
      for (const [measure, value] of Object.entries(values))
        expect(value).toBeCloseTo(trec.get(queryId)?.get(names[measure] as string) as number, 12);
    }
    for (const [measure, value] of Object.entries(document.mean))
      expect(value).toBeCloseTo(trec.get('all')?.get(names[measure] as string) as number, 12);
  });

  it('reads a JSONL eval set and a JSONL run; lists unjudged queries; --per-query and markdown', async () => {
    const set = file(
      'set.jsonl',
      [
        '{"id":"q1","query":"refunds?","relevant":["a"]}',
        '{"id":"q2","query":"graphql?","relevant":[]}',
        '{"id":"q3","query":"limits?","relevant":{"b":2,"c":1}}',
      ].join('\n'),
    );
    const hits = file(
      'run.jsonl',
      ['{"id":"q1","hits":["x","a"]}', '{"id":"q2","hits":["a"]}', '{"id":"q3","hits":[{"id":"c"},{"id":"b"}]}'].join(
        '\n',
      ),
    );
    const result = await runCommand(evalCommand, [
      '--qrels',
      set,
      '--run',
      hits,
      '-m',
      'mrr',
      '-m',
      'ndcg@2',
      '--per-query',
      '--format',
      'markdown',
    ]);
    expect(result.stdout).toBe(
      [
        '| measure | mean |',
        '| --- | ---: |',
        '| mrr | 0.7500 |',
        '| ndcg@2 | 0.7453 |',
        '',
        '| query | mrr | ndcg@2 |',
        '| --- | ---: | ---: |',
        '| q1 | 0.5000 | 0.6309 |',
        '| q3 | 1.0000 | 0.8597 |',
        '',
        '**Queries:** 2 evaluated; 1 unjudged, not evaluated (q2).',
        '',
      ].join('\n'),
    );
  });

  it('escapes query ids for the medium: Markdown mentions no one and opens no tag; the table shows escape sequences', async () => {
    const set = file(
      'hostile.jsonl',
      [
        '{"id":"q<script>","query":"refunds?","relevant":["a"]}',
        '{"id":"@user","query":"graphql?","relevant":[]}',
        '{"id":"q\\u001b[2J","query":"limits?","relevant":["a"]}',
      ].join('\n'),
    );
    const hits = file(
      'hostile-run.jsonl',
      ['{"id":"q<script>","hits":["a"]}', '{"id":"@user","hits":["a"]}', '{"id":"q\\u001b[2J","hits":["x","a"]}'].join(
        '\n',
      ),
    );
    const args = ['--qrels', set, '--run', hits, '-m', 'mrr', '--per-query'];
    const markdown = await runCommand(evalCommand, [...args, '--format', 'markdown']);
    expect(markdown.stdout).toBe(
      [
        '| measure | mean |',
        '| --- | ---: |',
        '| mrr | 0.7500 |',
        '',
        '| query | mrr |',
        '| --- | ---: |',
        '| q&lt;script> | 1.0000 |',
        '| q\\\\x1b\\[2J | 0.5000 |',
        '',
        '**Queries:** 2 evaluated; 1 unjudged, not evaluated (@\u200buser).',
        '',
      ].join('\n'),
    );
    const table = await runCommand(evalCommand, args);
    expect(table.stdout).not.toContain('\u001b');
    expect(table.stdout).toContain('q\\x1b[2J   0.5000');
  });

  it('--missing skip leaves missing queries out; --confidence adds intervals', async () => {
    const skipped = await runCommand(evalCommand, [
      '--qrels',
      qrels,
      '--run',
      run,
      '-m',
      'hit@10',
      '--missing',
      'skip',
      '--format',
      'json',
      '--confidence',
      '0.95',
    ]);
    const document = JSON.parse(skipped.stdout) as {
      mean: Record<string, number>;
      queries: { evaluated: number };
      intervals: Record<string, { method: string; lower: number; upper: number }>;
    };
    expect(document.queries.evaluated).toBe(30);
    expect(document.mean['hit@10']).toBeCloseTo(17 / 30, 12);
    expect(document.intervals['hit@10']).toMatchObject({ method: 'wilson', successes: 17, trials: 30 });
  });

  it.each([
    [['--run', run], /--qrels FILE is required/],
    [['--qrels', qrels, '--run', run, '--format', 'xml'], /--format must be one of table, json, markdown, got 'xml'/],
    [['--qrels', qrels, '--run', run, '-m', 'recall'], /measure "recall" is not valid: recall needs a cutoff/],
    [['--qrels', qrels, '--run', run, '--bogus'], /unknown option '--bogus'/],
    [['--qrels', qrels, '--run', join(directory, 'none.run')], /cannot read run file '.*none\.run': no such file/],
    [
      ['--qrels', qrels, '--run', run, '--missing', 'error'],
      /3 judged queries are missing from the run \(q31, q32, q33\) and options\.missing is 'error'/,
    ],
    [['--qrels', qrels, '--run', run, '--min-grade', '0'], /--min-grade must be a number > 0, got '0'/],
    [['--qrels', qrels, run], /unexpected argument '.*small\.run'/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const result = await runCommand(evalCommand, args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it('a malformed JSONL line names the file and line', async () => {
    const broken = file('broken.jsonl', '{"id":"q1","hits":["a"]}\n{"id":"q2","hits":"a"}\n');
    const result = await runCommand(evalCommand, ['--qrels', qrels, '--run', broken]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.jsonl:2: "hits" must be an array in rank order/);
  });

  it("a '#' comment line (which trec-eval skips) is named, with the flag that reads it", async () => {
    const commented = file('commented.run', '# run made by bm25\nq1 Q0 doc390 1 2.5 bm25\n');
    const refused = await runCommand(evalCommand, ['--qrels', qrels, '--run', commented]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "commented.run:1: a '#' comment line: the strict TREC grammar has none (grammar 'trec_eval' skips comment lines, as trec_eval does); add --grammar trec_eval to read this file",
    );
    const read = await runCommand(evalCommand, ['--qrels', qrels, '--run', commented, '--grammar', 'trec_eval']);
    expect(read.stderr).toBe('');
    expect(read.stdout).toContain('Queries: 33 evaluated');
  });

  it('--help prints the usage', async () => {
    const result = await runCommand(evalCommand, ['-h']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: rag-matchers eval --qrels FILE --run FILE/);
  });
});
