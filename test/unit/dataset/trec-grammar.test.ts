// The one TREC grammar: 'strict' (the library's default, eval, compare) and 'trec_eval' (what
// trec_eval 10 reads, used by trec-eval) are two settings of the same readers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { compareByTrecRank, rankedKeys } from '../../../src/core/ranking.js';
import {
  parseQrels,
  parseRun,
  parseRunColumns,
  readRunFile,
  runFromColumns,
  streamRunByQuery,
  TrecFormatError,
} from '../../../src/trec/index.js';
import { textLimits } from '../../../src/trec/text.js';

async function* chunks(parts: string[]): AsyncGenerator<string> {
  yield* parts;
}

const looseRun = '# produced by bm25\nq1\tQ0\td2\tx\t2.5\ttag\textra\nq1 Q0 d1 - 1.5 tag more columns\n';

describe('run grammar', () => {
  it("'trec_eval' skips # lines, ignores columns after the sixth and takes any rank", () => {
    const run = parseRun(looseRun, { grammar: 'trec_eval' });
    expect([...run.keys()]).toEqual(['q1']);
    expect(run.get('q1')?.map((entry) => entry.docId)).toEqual(['d2', 'd1']);
    expect(run.get('q1')?.map((entry) => entry.score)).toEqual([2.5, 1.5]);
    expect(run.get('q1')?.map((entry) => entry.rank)).toEqual([Number.NaN, Number.NaN]);
  });

  it("'strict' (the default) rejects each of those lines, naming the problem", () => {
    expect(() => parseRun('# produced by bm25\n')).toThrow(
      "<string>:1: a '#' comment line: the strict TREC grammar has none (grammar 'trec_eval' skips comment lines, as trec_eval does)",
    );
    expect(() => parseRun('q1 Q0 d2 1 2.5 tag extra\n')).toThrow(/<string>:1: expected 6 columns .*found 7/);
    expect(() => parseRun('q1 Q0 d2 x 2.5 tag\n')).toThrow(/<string>:1: rank 'x' is not an integer/);
  });

  it("'strict' names a '#' line it cannot read as a comment line, whatever its columns", () => {
    const comment = /<string>:2: a '#' comment line: the strict TREC grammar has none/;
    expect(() => parseRun('q1 Q0 d1 1 2 t\n# qid Q0 docno rank score tag\n')).toThrow(comment);
    expect(() => parseRun('q1 Q0 d1 1 2 t\n#q1 Q0 d2 1 2 t extra\n')).toThrow(comment);
    expect(() => parseQrels('q1 0 d1 1\n# qid iter docno rel\n')).toThrow(comment);
    expect(() => parseQrels('q1 0 d1 1\n# made by hand\n')).toThrow(comment);
    // A line starting with '#' that reads as data stays data (a query id may start with '#').
    expect([...parseRun('#7 Q0 d1 1 2 t\n').keys()]).toEqual(['#7']);
  });

  it('both read the same lines the same way in the columnar, object and streaming readers', async () => {
    const text = '\ufeffq1 Q0 d2 1 2.5 t\r\n\nq1 Q0 d1 2 1.5e0 t\nq2 Q0 d3 1 -0.5 t\n';
    for (const grammar of ['strict', 'trec_eval'] as const) {
      const objects = parseRun(text, { grammar });
      expect(runFromColumns(parseRunColumns(text, { grammar }))).toEqual(objects);
      const streamed = [];
      for await (const group of streamRunByQuery(chunks([text.slice(0, 9), text.slice(9)]), { grammar }))
        streamed.push(group);
      expect(new Map(streamed.map((group) => [group.queryId, group.entries]))).toEqual(objects);
      expect(objects.get('q1')).toEqual([
        { docId: 'd2', score: 2.5, rank: 1 },
        { docId: 'd1', score: 1.5, rank: 2 },
      ]);
    }
  });

  it('a score that is not a decimal number is an error in both', () => {
    for (const grammar of ['strict', 'trec_eval'] as const) {
      expect(() => parseRun('q1 Q0 d1 1 0x1F t\n', { grammar })).toThrow(/score '0x1F' is not a number/);
      expect(() => parseRun('q1 Q0 d1 1 1e999 t\n', { grammar })).toThrow(/score '1e999' is not a finite number/);
    }
  });
});

describe('qrels grammar', () => {
  it("'strict' skips blank lines and reads decimal grades", () => {
    const qrels = parseQrels('q1 0 a 1.5\n\nq1 0 b -1\n');
    expect(qrels.get('q1')).toEqual(
      new Map([
        ['a', 1.5],
        ['b', -1],
      ]),
    );
  });

  it("'trec_eval' skips # lines, stops on a blank line and wants integer grades, as trec_eval 10", () => {
    expect(parseQrels('# judged by hand\nq1 0 a 2\n', { grammar: 'trec_eval' }).get('q1')).toEqual(new Map([['a', 2]]));
    expect(() => parseQrels('q1 0 a 1\n\nq1 0 b 1\n', { grammar: 'trec_eval', file: 'x.qrels' })).toThrow(
      /x\.qrels:2: blank line: trec_eval stops on a blank qrels line/,
    );
    expect(() => parseQrels('q1 0 a 1.5\n', { grammar: 'trec_eval' })).toThrow(
      /relevance grade '1\.5' is not an integer/,
    );
  });

  it('a docno judged twice for a query is an error in both, naming the first line', () => {
    for (const grammar of ['strict', 'trec_eval'] as const) {
      expect(() => parseQrels('q1 0 a 1\nq2 0 a 1\nq1 0 a 0\n', { grammar, file: 'd.qrels' })).toThrow(
        /d\.qrels:3: duplicate docno 'a' for query 'q1' \(first on line 1\)/,
      );
    }
  });
});

describe('the ranking rule shared by the core and the TREC readers', () => {
  it('score descending, ties by id descending in UTF-8 byte order (astral above U+FFFD)', () => {
    const hits = [
      { id: 'a', score: 1 },
      { id: '\u{1F600}', score: 1 },
      { id: '\uFFFD', score: 1 },
      { id: 'z', score: 2 },
    ];
    expect(rankedKeys(hits, { sortBy: 'score' })).toEqual(['z', '\u{1F600}', '\uFFFD', 'a']);
    expect(compareByTrecRank(1, 'b', 1, 'a')).toBeLessThan(0);
    expect(compareByTrecRank(2, 'a', 1, 'b')).toBeLessThan(0);
  });
});

describe('files too large to hold as text', () => {
  const saved = { ...textLimits };
  afterEach(() => Object.assign(textLimits, saved));
  const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-trec-limits-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('readRunFile names the file instead of failing with "Cannot create a string longer than…"', async () => {
    textLimits.maxTextLength = 100;
    const path = join(directory, 'big.run');
    writeFileSync(path, 'q1 Q0 d1 1 1 t\n'.repeat(20));
    await expect(readRunFile(path)).rejects.toThrow(
      `${path}: 300 bytes is more than one JavaScript string holds (100 characters)`,
    );
  });

  it('streamRunByQuery names the file and line of a line with no end, instead of "Invalid string length"', async () => {
    textLimits.maxLineLength = 50;
    const parts = ['q1 Q0 d1 1 1 t\n', 'x'.repeat(40), 'x'.repeat(40)];
    const error = await (async () => {
      try {
        for await (const group of streamRunByQuery(chunks(parts), { file: 'long.run' })) void group;
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(TrecFormatError);
    expect((error as Error).message).toMatch(/^long\.run:2: line 2 is longer than 50 characters \(no line end found\)/);
  });
});
