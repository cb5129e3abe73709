import { describe, expect, it } from 'vitest';

import {
  RunColumnsBuilder,
  docEndOf,
  entryTextOf,
  groupRunByQuery,
  parseQrelsBytes,
  qrelsLineOf,
  qrelsQueryText,
  queryRunOf,
} from '../../../src/trec/columns.js';

// trec-eval reads an ungrouped run whole, into columns over the chunks it was read in; the columns
// keep no per-entry chunk index or doc id end (the text holds both), so these are found again.
describe('RunColumns over several chunks', () => {
  const chunks = [
    'q2 Q0 d-a 1 3.5 tag\nq1 Q0 doc-bb 1 2 tag\n',
    'q2\tQ0\td-ccc\t2\t1.25\ttag\r\n',
    '\nq1 Q0 e 2 1 tag\nq2 Q0 dddd 3 0.5 tag extra\n',
  ];
  const builder = new RunColumnsBuilder('run.txt');
  for (const chunk of chunks) builder.accept(chunk);
  const run = builder.finish();

  it('finds the chunk of every entry', () => {
    expect(run.chunkFirstEntry).toEqual([0, 2, 3]);
    expect([0, 1, 2, 3, 4].map((entry) => entryTextOf(run, entry))).toEqual([0, 0, 1, 2, 2]);
  });

  it('finds where a doc id ends at a space, a tab or a line end', () => {
    expect(docEndOf('a b', 0)).toBe(1);
    expect(docEndOf('ab\tc', 0)).toBe(2);
    expect(docEndOf('abc\n', 1)).toBe(3);
    expect(docEndOf('abc', 0)).toBe(3);
  });

  it("hands over each query's doc ids, scores and line numbers in file order", () => {
    const groups = groupRunByQuery(run);
    const q2 = queryRunOf(run, groups, run.queryIds.indexOf('q2'));
    const q1 = queryRunOf(run, groups, run.queryIds.indexOf('q1'));
    const docIds = (query: typeof q1) =>
      Array.from({ length: query.count }, (_, index) => query.text.slice(query.docStart[index], query.docEnd[index]));
    expect(docIds(q2)).toEqual(['d-a', 'd-ccc', 'dddd']);
    expect(Array.from(q2.score)).toEqual([3.5, 1.25, 0.5]);
    const lines = (query: typeof q1) => Array.from({ length: query.count }, (_, index) => query.lineNumberOf?.(index));
    expect(lines(q2)).toEqual([1, 3, 6]);
    expect(docIds(q1)).toEqual(['doc-bb', 'e']);
    expect(lines(q1)).toEqual([2, 5]);
  });
});

// trec-eval reads the qrels as bytes: an ASCII file grouped by query is decoded 64 kB at a time and
// its doc ids a query at a time, never as one text; anything else is decoded whole.
describe('qrels columns over the bytes', () => {
  /** Query q has judgments doc-q-0 … doc-q-(n-1), grade j % 3; 3,000 queries × 4 lines is about 100 kB: two pieces. */
  const grouped = Array.from({ length: 3000 }, (_, query) =>
    [0, 1, 2, 3].map((doc) => `q${query} 0 doc-${query}-${doc} ${doc % 3}\n`).join(''),
  ).join('');

  const docIdsOf = (qrels: ReturnType<typeof parseQrelsBytes>, queryId: string): string[] => {
    const query = qrels.queryIndex.get(queryId) as number;
    const { text, offset } = qrelsQueryText(qrels, query);
    const ids: string[] = [];
    for (
      let index = qrels.groups.starts[query] as number;
      index < (qrels.groups.starts[query + 1] as number);
      index++
    ) {
      const entry = qrels.groups.order === undefined ? index : (qrels.groups.order[index] as number);
      ids.push(text.slice((qrels.docStart[entry] as number) - offset, (qrels.docEnd[entry] as number) - offset));
    }
    return ids;
  };

  it('keeps the bytes, not a text, and reads each query (first, at the 64 kB cut, last) from them', () => {
    const qrels = parseQrelsBytes(Buffer.from(grouped), 'qrels.txt');
    expect(qrels.text).toBeUndefined();
    expect(qrels.count).toBe(12_000);
    expect(qrels.queryIds.length).toBe(3000);
    // A line of query q is `q<q> 0 doc-<q>-<d> <g>\n`: 15 bytes for q < 10, 17 below 100, 19 below 1000. Queries
    // 0–99 take 40 × 15 + 360 × 17 = 6,720 bytes, and 76 a query after, so byte 65,536 falls in the fourth line
    // of q873 (100 + ⌊58,816 / 76⌋ = 873, 68 bytes in): the first piece ends on its third line.
    for (const query of [0, 9, 10, 872, 873, 874, 999, 1000, 2999])
      expect(docIdsOf(qrels, `q${query}`)).toEqual([0, 1, 2, 3].map((doc) => `doc-${query}-${doc}`));
    const q1500 = qrels.queryIndex.get('q1500') as number;
    expect(Array.from(qrels.grade.subarray(q1500 * 4, q1500 * 4 + 4))).toEqual([0, 1, 2, 0]);
  });

  it('counts line numbers over the bytes, past the first piece', () => {
    const qrels = parseQrelsBytes(Buffer.from(grouped), 'qrels.txt');
    // Entry e is on line e + 1 (one judgment per line).
    expect(qrelsLineOf(qrels, 0)).toBe(1);
    expect(qrelsLineOf(qrels, 11_999)).toBe(12_000);
    expect(qrelsLineOf(qrels, 7000)).toBe(7001);
  });

  it('names the file and line of a bad line in a later piece', () => {
    const lines = grouped.split('\n');
    lines[9000] = 'q2250 0 broken';
    expect(() => parseQrelsBytes(Buffer.from(lines.join('\n')), 'qrels.txt')).toThrow(
      /qrels\.txt:9001.*expected 4 columns \(qid iter docno rel\), found 3/s,
    );
  });

  it('makes room when later lines are shorter than the first piece led it to expect', () => {
    // 400 lines of 193 bytes (the first 64 kB piece ends after 339 of them), then 20,000 of 11 to 13 bytes:
    // 326,200 bytes in all, so about 1,800 lines expected from the first piece; 20,400 read.
    const long = Array.from(
      { length: 400 },
      (_, line) => `q1 0 ${'d'.repeat(180)}${String(line).padStart(5, '0')} 1\n`,
    );
    const short = Array.from({ length: 20_000 }, (_, line) => `q2 0 ${String(line).padStart(3, '0')} 0\n`);
    const qrels = parseQrelsBytes(Buffer.from([...long, ...short].join('')), 'qrels.txt');
    expect(qrels.count).toBe(20_400);
    expect(docIdsOf(qrels, 'q2').slice(-2)).toEqual(['19998', '19999']);
    expect(docIdsOf(qrels, 'q1')[399]).toBe(`${'d'.repeat(180)}00399`);
    expect(qrels.grade[20_399]).toBe(0);
    expect(qrels.grade[399]).toBe(1);
  });

  it('keeps grades beyond 32 bits, and those read before one, as they were written', () => {
    const qrels = parseQrelsBytes(Buffer.from('q1 0 a 2\nq1 0 b -1\nq1 0 c 3000000000\nq1 0 d 1\n'), 'qrels.txt');
    expect([...qrels.grade.subarray(0, qrels.count)]).toEqual([2, -1, 3_000_000_000, 1]);
  });

  it('keeps the whole text of a file not grouped by query, or not ASCII', () => {
    const interleaved = 'q1 0 a 1\nq2 0 b 1\nq1 0 c 0\n';
    const scattered = parseQrelsBytes(Buffer.from(interleaved), 'qrels.txt');
    expect(scattered.text).toBe(interleaved);
    expect(docIdsOf(scattered, 'q1')).toEqual(['a', 'c']);
    const accented = parseQrelsBytes(Buffer.from('q1 0 dök 1\nq1 0 e 0\n'), 'qrels.txt');
    expect(accented.text).toBe('q1 0 dök 1\nq1 0 e 0\n');
    expect(docIdsOf(accented, 'q1')).toEqual(['dök', 'e']);
  });
});
