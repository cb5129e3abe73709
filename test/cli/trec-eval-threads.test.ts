// `trec-eval --threads N` as users run it (the built bin: the worker script only exists in dist/):
// the run file is cut into parts measured by worker threads, and the output must be the very bytes of
// one thread's (and of trec_eval's), errors included, with line numbers of the whole file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_MEASURES } from './conformance-measures.js';
import { compareUtf8 } from '../../src/core/ranking.js';
import { ensureBuilt, REPO_ROOT } from '../integration/support/build.js';
import { runCommand } from '../integration/support/run.js';

const fixtures = fileURLToPath(new URL('../fixtures/conformance/', import.meta.url));
const read = (name: string) => readFileSync(fixtures + name, 'utf8');
const cli = (...args: string[]) =>
  runCommand(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), 'trec-eval', ...args], {
    cwd: REPO_ROOT,
    timeoutMs: 60_000,
  });
const threadsOf = (stderr: string) =>
  (JSON.parse(stderr.trim().split('\n').pop() ?? '{}') as { threads?: number }).threads;

const MEASURES = CONFORMANCE_MEASURES;

/** Lines stably grouped by query id (byte order), as retrieval systems write runs. */
function groupByQuery(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const key = (line: string) => line.trim().split(/\s+/)[0] as string;
  return `${lines
    .map((line, index) => ({ line, index }))
    .sort((a, b) => compareUtf8(key(a.line), key(b.line)) || a.index - b.index)
    .map(({ line }) => line)
    .join('\n')}\n`;
}

const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-threads-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  writeFileSync(join(directory, name), text);
  return join(directory, name);
};

// Each test spawns the built command on runs of thousands of lines, some with worker threads: a busy
// two-core machine can take several seconds, which the default 5 s limit mistook for a failure.
describe('trec-eval --threads', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 240_000);

  const cases = [
    { set: 'graded', level: [] as string[], expected: 'graded.trec_eval.c.txt' },
    { set: 'graded', level: ['-l2'], expected: 'graded.trec_eval.c.l2.txt' },
    { set: 'small', level: [] as string[], expected: 'small.trec_eval.c.txt' },
  ];

  it.each(cases)(
    "prints trec_eval's bytes for $set $level with 2 and 3 threads on a grouped run",
    async ({ set, level, expected }) => {
      const run = write(`${set}.grouped.run`, groupByQuery(read(`${set}.run`)));
      for (const threads of ['2', '3']) {
        const result = await cli(
          '--threads',
          threads,
          '--timings',
          '-q',
          '-c',
          ...level,
          ...MEASURES,
          fixtures + `${set}.qrels`,
          run,
        );
        expect(result.exitCode).toBe(0);
        expect(result.stdout).toBe(read(expected));
        expect(threadsOf(result.stderr)).toBe(Number(threads));
      }
    },
  );

  it("prints trec_eval's -m all_trec bytes with 2 threads (relstring and the list measures made in a worker)", async () => {
    const run = write('small.all-trec.run', groupByQuery(read('small.run')));
    const result = await cli(
      '--threads',
      '2',
      '--timings',
      '-q',
      '-c',
      '-m',
      'all_trec',
      fixtures + 'small.qrels',
      run,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(read('small.trec_eval.all_trec.q.c.txt'));
    expect(threadsOf(result.stderr)).toBe(2);
  });

  it('falls back to one thread, same bytes, when a query id comes back in another part', async () => {
    // small.run is not grouped: q1's lines come back after other queries'.
    const result = await cli(
      '--threads',
      '2',
      '--timings',
      '-q',
      '-c',
      ...MEASURES,
      fixtures + 'small.qrels',
      fixtures + 'small.run',
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(read('small.trec_eval.c.txt'));
    expect(threadsOf(result.stderr)).toBe(1);
  });

  it('reports a bad line in a later part with its line number in the whole file', async () => {
    const lines = groupByQuery(read('graded.run')).split('\n');
    const badLine = lines.length - 20; // 1-based line number of the bad line, in the last part
    lines[badLine - 1] = 'q9 Q0 doc1 1 not-a-score run';
    const run = write('bad-score.run', lines.join('\n'));
    const parallel = await cli('--threads', '2', ...MEASURES, fixtures + 'graded.qrels', run);
    const serial = await cli('--threads', '1', ...MEASURES, fixtures + 'graded.qrels', run);
    expect(parallel.exitCode).toBe(2);
    expect(parallel.stderr).toContain(`${run}:${badLine}`);
    expect(parallel.stderr).toBe(serial.stderr);
  });

  it('stops on a docno repeated in a later part exactly as one thread does (exit 4, same lines)', async () => {
    const lines = groupByQuery(read('graded.run'))
      .split('\n')
      .filter((line) => line !== '');
    const last = lines[lines.length - 1] as string;
    const [queryId, , docId] = last.split(/\s+/);
    lines.splice(lines.length - 1, 0, `${queryId} Q0 ${docId} 999 -5 run`);
    const run = write('repeat.run', `${lines.join('\n')}\n`);
    const parallel = await cli('--threads', '2', '-q', ...MEASURES, fixtures + 'graded.qrels', run);
    const serial = await cli('--threads', '1', '-q', ...MEASURES, fixtures + 'graded.qrels', run);
    expect(parallel.exitCode).toBe(4);
    expect(parallel.stderr).toContain(`duplicate docno '${docId}' in query '${queryId}'`);
    expect(parallel.stderr).toContain(`${run}:${lines.length}`); // the repeat's line, counted over the whole file
    expect(parallel.stderr).toBe(serial.stderr);
    expect(parallel.stdout).toBe(serial.stdout);
  });

  it('stops on a docno repeated in the judgments of a query in a later part exactly as one thread does', async () => {
    const queryOf = (line: string) => line.trim().split(/\s+/)[0] as string;
    const qrelsLines = read('graded.qrels')
      .split('\n')
      .filter((line) => line !== '');
    const runText = groupByQuery(read('graded.run'));
    // The last query of the grouped run (in the worker's part) that has judgments: repeat its first judgment after its last.
    const runQueries = [
      ...new Set(
        runText
          .split('\n')
          .filter((line) => line !== '')
          .map(queryOf),
      ),
    ];
    const query = runQueries.reverse().find((id) => qrelsLines.some((line) => queryOf(line) === id)) as string;
    const first = qrelsLines.findIndex((line) => queryOf(line) === query);
    const last = qrelsLines.length - 1 - [...qrelsLines].reverse().findIndex((line) => queryOf(line) === query);
    qrelsLines.splice(last + 1, 0, (qrelsLines[first] as string).replace(/\s\d+$/, ' 0'));
    const qrels = write('repeat.qrels', `${qrelsLines.join('\n')}\n`);
    const run = write('graded.grouped.run', runText);
    const parallel = await cli('--threads', '2', '--timings', '-q', ...MEASURES, qrels, run);
    const serial = await cli('--threads', '1', '-q', ...MEASURES, qrels, run);
    expect(parallel.exitCode).toBe(4);
    expect(parallel.stderr).toContain(`${qrels}:${last + 2}: duplicate docno`);
    expect(parallel.stderr).toContain(`in query '${query}' (first on line ${first + 1})`);
    expect(parallel.stderr).toBe(serial.stderr);
    expect(parallel.stdout).toBe(serial.stdout);
  });

  it('waits for a worker that finishes long after the main thread', async () => {
    // Many judgments for queries the run does not have: each worker reads them all, the main thread's
    // part is tiny, so the main thread is left waiting for the worker's reply.
    const extraJudgments = Array.from({ length: 300_000 }, (_, index) => `zz${index % 3000} 0 doc${index} 1`).join(
      '\n',
    );
    const qrels = write('big.qrels', `${read('graded.qrels')}${extraJudgments}\n`);
    // Six one-line queries: the cut falls before the last one, so the worker measures query 6.
    const run = write('six-queries.run', [1, 2, 3, 4, 5, 6].map((query) => `${query} Q0 GX877284 1 2 t\n`).join(''));
    const parallel = await cli('--threads', '2', '--timings', '-q', '-m', 'num_ret', '-m', 'P.5', qrels, run);
    expect(parallel.exitCode).toBe(0);
    expect(threadsOf(parallel.stderr)).toBe(2);
    const serial = await cli('--threads', '1', '-q', '-m', 'num_ret', '-m', 'P.5', qrels, run);
    expect(parallel.stdout).toBe(serial.stdout);
    expect(parallel.stdout).toContain('num_ret               \t6\t1\n');
  });

  // The main thread reads and parses the qrels once and hands the columns and the file's bytes to the
  // workers: an ASCII file grouped by query is read query by query from the bytes, any other is decoded
  // whole; offsets must match in non-ASCII text, and a bad qrels line must not leave a worker waiting.
  it('measures qrels with non-ASCII doc ids in the worker as in one thread', async () => {
    const queries = Array.from({ length: 40 }, (_, query) => `q${String(query).padStart(2, '0')}`);
    const qrels = write(
      'utf8.qrels',
      queries.map((query) => [0, 1, 2].map((doc) => `${query} 0 dök-€${doc} ${doc % 2}\n`).join('')).join(''),
    );
    const run = write(
      'utf8.run',
      queries
        .map((query) => [2, 1, 0, 3].map((doc, rank) => `${query} Q0 dök-€${doc} ${rank + 1} ${9 - rank} t\n`).join(''))
        .join(''),
    );
    const parallel = await cli('--threads', '2', '--timings', '-q', '-m', 'num_rel_ret', '-m', 'P.2', qrels, run);
    expect(parallel.exitCode).toBe(0);
    expect(threadsOf(parallel.stderr)).toBe(2);
    const serial = await cli('--threads', '1', '-q', '-m', 'num_rel_ret', '-m', 'P.2', qrels, run);
    expect(parallel.stdout).toBe(serial.stdout);
    // Hand-worked: the judged relevant document dök-€1 is ranked second in every query.
    expect(parallel.stdout).toContain('P_2                   \tq39\t0.5000\n');
    expect(parallel.stdout).toContain('num_rel_ret           \tall\t40\n');
  });

  it("prints trec_eval's bytes with 2 threads when the qrels are not grouped by query", async () => {
    // graded.qrels with its lines interleaved: odd lines first, then even ones, so queries come back.
    const lines = read('graded.qrels')
      .split('\n')
      .filter((line) => line !== '');
    const interleaved = [
      ...lines.filter((_, index) => index % 2 === 1),
      ...lines.filter((_, index) => index % 2 === 0),
    ];
    const qrels = write('interleaved.qrels', `${interleaved.join('\n')}\n`);
    const run = write('graded.grouped.run', groupByQuery(read('graded.run')));
    const result = await cli('--threads', '2', '--timings', '-q', '-c', ...MEASURES, qrels, run);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(read('graded.trec_eval.c.txt'));
    expect(threadsOf(result.stderr)).toBe(2);
  });

  it('stops on a malformed qrels line with the file and line, workers started or not', async () => {
    const qrels = write('bad.qrels', `${read('graded.qrels')}401 0 only-three\n`);
    const run = write('bad-qrels.run', groupByQuery(read('graded.run')));
    const lineNumber = read('graded.qrels').split('\n').length;
    for (const threads of ['2', '1']) {
      const result = await cli('--threads', threads, '-q', ...MEASURES, qrels, run);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`${qrels}:${lineNumber}`);
      expect(result.stdout).toBe('');
    }
  });

  // A run of several MB is cut into pieces of about 2 MB that the threads take in turn, so each
  // thread measures several pieces that are not next to each other: values, -q lines, a repeated
  // docno and a bad line must still come out as one thread's, with line numbers of the whole file.
  describe('a run cut into more pieces than threads', () => {
    const queryCount = 1800;
    const hits = 100;
    const queryId = (query: number) => `topic${String(query).padStart(4, '0')}`;
    const runLines = () =>
      Array.from({ length: queryCount * hits }, (_, line) => {
        const query = Math.floor(line / hits);
        const rank = (line % hits) + 1;
        return `${queryId(query)} Q0 doc-${(query * 31 + rank * 7) % 5000} ${rank} ${(200 - rank) / 8} a-run-tag`;
      });
    const qrels = () =>
      write(
        'pieces.qrels',
        Array.from({ length: queryCount }, (_, query) =>
          [0, 1, 2, 3].map((judged) => `${queryId(query)} 0 doc-${(query * 31 + judged * 70) % 5000} ${judged % 3}\n`),
        )
          .flat()
          .join(''),
      );

    it('prints the bytes one thread prints, -q lines included', async () => {
      const run = write('pieces.run', `${runLines().join('\n')}\n`);
      expect(readFileSync(run).length).toBeGreaterThan(6 << 20); // at least 4 pieces
      const parallel = await cli('--threads', '2', '--timings', '-q', '-c', ...MEASURES, qrels(), run);
      const serial = await cli('--threads', '1', '-q', '-c', ...MEASURES, qrels(), run);
      expect(parallel.exitCode).toBe(0);
      expect(threadsOf(parallel.stderr)).toBe(2);
      expect(parallel.stdout).toBe(serial.stdout);
      expect(parallel.stdout).toContain(`num_ret               \t${queryId(queryCount - 1)}\t100\n`);
      expect(parallel.stdout).toContain(`num_ret               \tall\t${queryCount * hits}\n`);
    });

    it('stops on a repeated docno in a middle piece as one thread does, with its line in the whole file', async () => {
      const lines = runLines();
      const repeated = Math.floor(lines.length / 2) + 50; // 0-based: the 51st line of a query in the middle
      const [query, , docId] = (lines[repeated - 10] as string).split(' ');
      lines[repeated] = `${query} Q0 ${docId} 1 -1 a-run-tag`;
      const run = write('pieces-repeat.run', `${lines.join('\n')}\n`);
      const parallel = await cli('--threads', '2', '-q', ...MEASURES, qrels(), run);
      const serial = await cli('--threads', '1', '-q', ...MEASURES, qrels(), run);
      expect(parallel.exitCode).toBe(4);
      expect(parallel.stderr).toContain(`${run}:${repeated + 1}`);
      expect(parallel.stderr).toBe(serial.stderr);
      expect(parallel.stdout).toBe(serial.stdout);
    });

    it('reports the first bad line in file order, with its line number in the whole file', async () => {
      const lines = runLines();
      const first = lines.length - 3 * hits; // in the last piece
      lines[first] = lines[first]!.replace(/ \S+ a-run-tag$/, ' 1.5.2 a-run-tag');
      lines[lines.length - 2] = 'too few columns';
      const run = write('pieces-bad.run', `${lines.join('\n')}\n`);
      const parallel = await cli('--threads', '2', ...MEASURES, qrels(), run);
      const serial = await cli('--threads', '1', ...MEASURES, qrels(), run);
      expect(parallel.exitCode).toBe(2);
      expect(parallel.stderr).toContain(`${run}:${first + 1}: score '1.5.2' is not a number`);
      expect(parallel.stderr).toBe(serial.stderr);
    });
  });

  it('rejects a thread count that is not a positive whole number', async () => {
    const result = await cli('--threads', '0', fixtures + 'graded.qrels', fixtures + 'graded.run');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("--threads must be a whole number ≥ 1 and ≤ 64, got '0'");
  });
});
