import { describe, expect, it } from 'vitest';

import { RunColumnsBuilder, docEndOf, entryTextOf, groupRunByQuery, queryRunOf } from '../../../src/trec/columns.js';

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
