import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  formatQrels,
  formatRun,
  parseQrels,
  parseRun,
  parseRunColumns,
  readQrelsFile,
  readRunColumnsFile,
  readRunFile,
  runColumnDocId,
  runFromColumns,
  TrecFormatError,
  writeQrelsFile,
  writeRunFile,
  type Qrels,
  type TrecRun,
} from '../../../src/trec/index.js';

/** Runs `action`, expects a TrecFormatError and returns it for further checks. */
function captureFormatError(action: () => unknown): TrecFormatError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(TrecFormatError);
    return error as TrecFormatError;
  }
  throw new Error('expected a TrecFormatError, but nothing was thrown');
}

function scoresOf(run: TrecRun, queryId: string): number[] {
  return (run.get(queryId) ?? []).map((entry) => entry.score);
}

describe('parseRun', () => {
  it('reads the six columns of each line into entries grouped by query, in file order', () => {
    const run = parseRun('q1 Q0 d3 1 2.5 tag\nq1 Q0 d1 2 7 tag\nq2 Q0 d9 1 0.25 tag\n');
    expect([...run.keys()]).toEqual(['q1', 'q2']);
    expect(run.get('q1')).toEqual([
      { docId: 'd3', score: 2.5, rank: 1 },
      { docId: 'd1', score: 7, rank: 2 },
    ]);
    expect(run.get('q2')).toEqual([{ docId: 'd9', score: 0.25, rank: 1 }]);
  });

  it('does not sort by score or rank (ranking is the metric core’s job)', () => {
    const run = parseRun('q1 Q0 low 3 0.1 t\nq1 Q0 high 1 9.9 t\nq1 Q0 mid 2 5 t\n');
    expect(run.get('q1')?.map((entry) => entry.docId)).toEqual(['low', 'high', 'mid']);
  });

  it('accepts tabs, runs of spaces, leading/trailing whitespace, CRLF, blank lines and no final newline', () => {
    const text = '\r\n  q1\tQ0\t\td1  1   0.5\tt  \r\n\r\n \t \nq1 Q0 d2 2 0.4 t\r\n\nq2 Q0 d3 1 0.3 t';
    const run = parseRun(text);
    expect(run.get('q1')).toEqual([
      { docId: 'd1', score: 0.5, rank: 1 },
      { docId: 'd2', score: 0.4, rank: 2 },
    ]);
    expect(run.get('q2')).toEqual([{ docId: 'd3', score: 0.3, rank: 1 }]);
  });

  it('also splits on vertical tab and form feed, like trec_eval (C isspace)', () => {
    expect(parseRun('q1\vQ0\fd1 1 2 t\n').get('q1')).toEqual([{ docId: 'd1', score: 2, rank: 1 }]);
  });

  it('skips a UTF-8 byte order mark at the start', () => {
    expect([...parseRun('\uFEFFq1 Q0 d1 1 1 t\n').keys()]).toEqual(['q1']);
  });

  it('parses exponent, negative, signed and bare-dot scores to the same doubles as C strtod', () => {
    const text = [
      '1.5e-3',
      '-2',
      '11082e-4',
      '-39290e-4',
      '1E+2',
      '.5',
      '5.',
      '+3.25',
      '-0.0',
      '0.1',
      '12345678901234567890',
      '4.9e-324',
      '1.7976931348623157e308',
    ]
      .map((score, index) => `q1 Q0 d${index} ${index + 1} ${score} t`)
      .join('\n');
    expect(scoresOf(parseRun(text), 'q1')).toEqual([
      0.0015,
      -2,
      1.1082,
      -3.929,
      100,
      0.5,
      5,
      3.25,
      -0,
      0.1,
      12345678901234567168,
      5e-324,
      Number.MAX_VALUE,
    ]);
    expect(Object.is(scoresOf(parseRun(text), 'q1')[8], -0)).toBe(true);
  });

  it('parses any decimal score text exactly as Number() does (property)', () => {
    const digits = fc.string({ unit: fc.constantFrom('0', '1', '2', '5', '7', '9'), minLength: 1, maxLength: 20 });
    const scoreText = fc
      .tuple(
        fc.constantFrom('', '-', '+'),
        digits,
        fc.option(digits, { nil: undefined }),
        fc.option(fc.integer({ min: -340, max: 340 }), { nil: undefined }),
      )
      .map(
        ([sign, whole, fraction, exponent]) =>
          `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : `e${exponent}`}`,
      );
    fc.assert(
      fc.property(scoreText, (text) => {
        const expected = Number(text);
        fc.pre(Number.isFinite(expected));
        const [entry] = parseRun(`q Q0 d 1 ${text} t`).get('q') ?? [];
        return Object.is(entry?.score, expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('round-trips every finite double through String() (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (score) => {
        const [entry] = parseRun(`q Q0 d 1 ${Object.is(score, -0) ? '-0' : String(score)} t`).get('q') ?? [];
        return Object.is(entry?.score, score);
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts integer ranks with leading zeros or a sign', () => {
    const run = parseRun('q1 Q0 a 007 1 t\nq1 Q0 b -1 1 t\nq1 Q0 c +2 1 t\n');
    expect(run.get('q1')?.map((entry) => entry.rank)).toEqual([7, -1, 2]);
  });

  it('keeps duplicate docnos (the evaluator decides what to do with them)', () => {
    const run = parseRun('q1 Q0 d1 1 3 t\nq1 Q0 d1 2 2 t\n');
    expect(run.get('q1')).toEqual([
      { docId: 'd1', score: 3, rank: 1 },
      { docId: 'd1', score: 2, rank: 2 },
    ]);
  });

  it('appends lines of a query that comes back later to the same list', () => {
    const run = parseRun('q1 Q0 a 1 3 t\nq2 Q0 b 1 3 t\nq1 Q0 c 2 2 t\n');
    expect(run.get('q1')?.map((entry) => entry.docId)).toEqual(['a', 'c']);
    expect([...run.keys()]).toEqual(['q1', 'q2']);
  });

  it('keeps non-ASCII ids intact', () => {
    const run = parseRun('frage-ü Q0 文書-1 1 1 t\n');
    expect(run.get('frage-ü')).toEqual([{ docId: '文書-1', score: 1, rank: 1 }]);
  });

  it('returns an empty run for empty or blank text', () => {
    expect(parseRun('').size).toBe(0);
    expect(parseRun('\n \r\n\t\n').size).toBe(0);
  });
});

describe('parseRunColumns', () => {
  it('keeps each line as a column entry in file order, doc ids as spans of the text', () => {
    const text = 'q1 Q0 d3 1 2.5 tag\nq2 Q0 d9 1 0.25 tag\n\nq1 Q0 d1 2 7 tag\n';
    const columns = parseRunColumns(text);
    expect(columns.count).toBe(3);
    expect(columns.queryIds).toEqual(['q1', 'q2']);
    expect([...columns.queryIndex.subarray(0, 3)]).toEqual([0, 1, 0]);
    expect([0, 1, 2].map((entry) => runColumnDocId(columns, entry))).toEqual(['d3', 'd9', 'd1']);
    expect([...columns.rank.subarray(0, 3)]).toEqual([1, 1, 2]);
    expect([...columns.score.subarray(0, 3)]).toEqual([2.5, 0.25, 7]);
  });

  it('gives what parseRun gives once turned back into entries, whatever the separators', () => {
    const text = '\ufeff\r\n  q1\tQ0\t\td1  1   0.5\tt  \r\n\r\nq2 Q0 d3 1 -3e-2 t\nq1 Q0 d2 2 0.4 t';
    expect(runFromColumns(parseRunColumns(text))).toEqual(parseRun(text));
  });

  it('stops on the same bad line with the same error as parseRun', () => {
    const text = 'q1 Q0 d1 1 1 t\nq1 Q0 d2 two 1 t\n';
    const columnsError = captureFormatError(() => parseRunColumns(text, { file: 'runs/x.run' }));
    const objectsError = captureFormatError(() => parseRun(text, { file: 'runs/x.run' }));
    expect(columnsError.message).toBe(objectsError.message);
    expect(columnsError).toMatchObject({ file: 'runs/x.run', lineNumber: 2 });
  });

  it('reads a file, naming it in errors', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-columns-'));
    try {
      const file = path.join(directory, 'a.run');
      await writeFile(file, 'q7 Q0 d1 1 3 t\nq7 Q0 d2 2 2 t\n');
      const columns = await readRunColumnsFile(file);
      expect(runFromColumns(columns)).toEqual(
        new Map([
          [
            'q7',
            [
              { docId: 'd1', score: 3, rank: 1 },
              { docId: 'd2', score: 2, rank: 2 },
            ],
          ],
        ]),
      );
      await writeFile(file, 'q7 Q0 d1 1\n');
      await expect(readRunColumnsFile(file)).rejects.toThrow(`${file}:1: expected 6 columns`);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('parseRun errors', () => {
  it('names file, line number, line text and the column count when a line has too few columns', () => {
    const error = captureFormatError(() => parseRun('q1 Q0 d1 1 1 t\n\r\nq1 Q0 d2 2\n', { file: 'runs/bm25.run' }));
    expect(error.message).toContain('runs/bm25.run:3:');
    expect(error.message).toContain('expected 6 columns (qid Q0 docno rank score tag), found 4');
    expect(error.message).toContain('"q1 Q0 d2 2"');
    expect(error).toMatchObject({ file: 'runs/bm25.run', lineNumber: 3, lineText: 'q1 Q0 d2 2' });
  });

  it('says <string> when no file name was given', () => {
    const error = captureFormatError(() => parseRun('q1 Q0 d1 1 1 t extra\n'));
    expect(error.message).toMatch(/^<string>:1: expected 6 columns \(qid Q0 docno rank score tag\), found 7/);
  });

  it.each([
    ['abc', "score 'abc' is not a number"],
    ['0x1F', "score '0x1F' is not a number"],
    ['Infinity', "score 'Infinity' is not a number"],
    ['1.2.3', "score '1.2.3' is not a number"],
    ['1e', "score '1e' is not a number"],
    ['-', "score '-' is not a number"],
    ['1e999', "score '1e999' is not a finite number"],
  ])('rejects score %s', (score, problem) => {
    const error = captureFormatError(() => parseRun(`q1 Q0 d1 1 1 t\nq1 Q0 d2 2 ${score} t\n`, { file: 'a.run' }));
    expect(error.message).toContain(`a.run:2: ${problem}`);
    expect(error.problem).toBe(problem);
  });

  it.each(['1.5', 'x', '-', '1e3', '99999999999999999999'])('rejects rank %j', (rank) => {
    const error = captureFormatError(() => parseRun(`q1 Q0 d1 ${rank} 1 t`, { file: 'a.run' }));
    expect(error.message).toContain(`a.run:1: rank '${rank}' is not an integer`);
  });

  it('counts lines correctly after CRLF and blank lines', () => {
    const error = captureFormatError(() => parseRun('\r\n\r\nq1 Q0 d1 1 1 t\r\n\r\nq1 Q0 d2 2 zz t\r\n'));
    expect(error.lineNumber).toBe(5);
    expect(error.lineText).toBe('q1 Q0 d2 2 zz t');
  });

  it('truncates a very long line in the message but keeps it whole on the error', () => {
    const longDocId = 'd'.repeat(500);
    const error = captureFormatError(() => parseRun(`q1 Q0 ${longDocId} 1 nope t`));
    expect(error.lineText).toHaveLength(`q1 Q0 ${longDocId} 1 nope t`.length);
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).toContain('…');
  });
});

describe('parseQrels', () => {
  it('maps query → doc → grade in file order, merging lines of a query that comes back', () => {
    const qrels = parseQrels('q2 0 d5 1\nq1 0 d9 0\nq1 0 d2 3\nq2 0 d1 2\n');
    expect([...qrels.keys()]).toEqual(['q2', 'q1']);
    expect([...(qrels.get('q2') ?? [])]).toEqual([
      ['d5', 1],
      ['d1', 2],
    ]);
    expect([...(qrels.get('q1') ?? [])]).toEqual([
      ['d9', 0],
      ['d2', 3],
    ]);
  });

  it('accepts decimal and negative grades, tabs, spaces, CRLF and blank lines', () => {
    const qrels = parseQrels('q1\t0\td1\t2\r\n\r\n  q1   Q0 d2  -1 \r\nq1 0 d3 0.5\nq1 0 d4 1e0');
    expect([...(qrels.get('q1') ?? [])]).toEqual([
      ['d1', 2],
      ['d2', -1],
      ['d3', 0.5],
      ['d4', 1],
    ]);
  });

  it('reports a docno judged twice for one query with both line numbers, even when the query was interrupted', () => {
    const text = 'q3 0 d0 1\nq3 0 d1 1\n\nq4 0 d1 0\nq3 0 d1 2\n';
    const error = captureFormatError(() => parseQrels(text, { file: 'judged.qrels' }));
    expect(error.message).toContain("judged.qrels:5: duplicate docno 'd1' for query 'q3' (first on line 2)");
    expect(error.lineText).toBe('q3 0 d1 2');
  });

  it('allows the same docno under different queries', () => {
    const qrels = parseQrels('q1 0 d1 1\nq2 0 d1 0\n');
    expect(qrels.get('q1')?.get('d1')).toBe(1);
    expect(qrels.get('q2')?.get('d1')).toBe(0);
  });

  it.each([
    ['q1 0 d1', 'expected 4 columns (qid iter docno rel), found 3'],
    ['q1 0 d1 1 extra', 'expected 4 columns (qid iter docno rel), found 5'],
    ['q1 0 d1 high', "relevance grade 'high' is not a number"],
    ['q1 0 d1 1e400', "relevance grade '1e400' is not a finite number"],
  ])('rejects %j', (line, problem) => {
    const error = captureFormatError(() => parseQrels(`q0 0 d0 1\n${line}\n`, { file: 'x.qrels' }));
    expect(error.message).toContain(`x.qrels:2: ${problem}`);
    expect(error.message).toContain(JSON.stringify(line));
  });
});

describe('formatQrels and formatRun', () => {
  it('writes qrels as "qid 0 docno rel" lines', () => {
    const qrels: Qrels = new Map([
      [
        'q1',
        new Map([
          ['d1', 1],
          ['d2', 0],
        ]),
      ],
      ['q2', new Map([['d3', 2.5]])],
    ]);
    expect(formatQrels(qrels)).toBe('q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2.5\n');
  });

  it('writes runs as "qid Q0 docno rank score tag" lines with stored ranks and the default tag', () => {
    const run: TrecRun = new Map([
      [
        'q1',
        [
          { docId: 'd1', rank: 4, score: 1.5e-7 },
          { docId: 'd2', rank: 2, score: -3 },
        ],
      ],
    ]);
    expect(formatRun(run)).toBe('q1 Q0 d1 4 1.5e-7 rag-matchers\nq1 Q0 d2 2 -3 rag-matchers\n');
    expect(formatRun(run, { tag: 'bm25' })).toBe('q1 Q0 d1 4 1.5e-7 bm25\nq1 Q0 d2 2 -3 bm25\n');
  });

  it('round-trips arbitrary runs exactly through format → parse (property)', () => {
    const id = fc.string({
      unit: fc.constantFrom('a', 'b', 'Z', '9', '-', '_', '#', 'é', '文'),
      minLength: 1,
      maxLength: 6,
    });
    const entry = fc.record({
      docId: id,
      score: fc.double({ noNaN: true, noDefaultInfinity: true }),
      rank: fc.integer({ min: -5, max: 1_000_000 }),
    });
    const runArbitrary = fc
      .uniqueArray(fc.tuple(id, fc.array(entry, { minLength: 1, maxLength: 5 })), { selector: ([queryId]) => queryId })
      .map((pairs): TrecRun => new Map(pairs));
    fc.assert(
      fc.property(runArbitrary, (run) => {
        expect(parseRun(formatRun(run))).toEqual(run);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips arbitrary qrels exactly through format → parse (property)', () => {
    const id = fc.string({ unit: fc.constantFrom('a', 'q', '1', '.', ':', 'ü'), minLength: 1, maxLength: 5 });
    const judgments = fc
      .uniqueArray(fc.tuple(id, fc.integer({ min: -2, max: 4 })), { selector: ([docId]) => docId, minLength: 1 })
      .map((pairs) => new Map(pairs));
    const qrelsArbitrary = fc
      .uniqueArray(fc.tuple(id, judgments), { selector: ([queryId]) => queryId })
      .map((pairs): Qrels => new Map(pairs));
    fc.assert(
      fc.property(qrelsArbitrary, (qrels) => {
        expect(parseQrels(formatQrels(qrels))).toEqual(qrels);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['a query id with a space', new Map([['q 1', [{ docId: 'd', rank: 1, score: 1 }]]]), /query id "q 1".*whitespace/],
    ['an empty doc id', new Map([['q1', [{ docId: '', rank: 1, score: 1 }]]]), /doc id "" in query 'q1' is empty/],
    ['a doc id with a newline', new Map([['q1', [{ docId: 'd\n2', rank: 1, score: 1 }]]]), /doc id "d\\n2"/],
    [
      'a NaN score',
      new Map([['q1', [{ docId: 'd', rank: 1, score: Number.NaN }]]]),
      /score NaN of doc 'd' in query 'q1' is not a finite number/,
    ],
    [
      'a fractional rank',
      new Map([['q1', [{ docId: 'd', rank: 1.5, score: 1 }]]]),
      /rank 1.5 of doc 'd' in query 'q1' is not an integer/,
    ],
  ])('formatRun rejects %s with a RangeError naming the value', (_label, run, message) => {
    expect(() => formatRun(run as TrecRun)).toThrow(RangeError);
    expect(() => formatRun(run as TrecRun)).toThrow(message);
  });

  it('formatRun rejects a tag with whitespace and a non-string doc id', () => {
    expect(() => formatRun(new Map(), { tag: 'my run' })).toThrow(/tag "my run"/);
    const numericDocId = new Map([['q1', [{ docId: 7, rank: 1, score: 1 }]]]) as unknown as TrecRun;
    expect(() => formatRun(numericDocId)).toThrow(TypeError);
    expect(() => formatRun(numericDocId)).toThrow(/doc id 7 in query 'q1' must be a string/);
  });

  it('formatQrels rejects an infinite grade and an id with a tab', () => {
    expect(() => formatQrels(new Map([['q1', new Map([['d1', Infinity]])]]))).toThrow(/grade Infinity of doc 'd1'/);
    expect(() => formatQrels(new Map([['q\t1', new Map([['d1', 1]])]]))).toThrow(/query id "q\\t1"/);
  });
});

describe('reading and writing files', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-trec-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('writes a run file and reads it back', async () => {
    const filePath = path.join(directory, 'out.run');
    const run: TrecRun = new Map([['q1', [{ docId: 'd1', rank: 1, score: 0.75 }]]]);
    await writeRunFile(filePath, run, { tag: 'mine' });
    expect(await readFile(filePath, 'utf8')).toBe('q1 Q0 d1 1 0.75 mine\n');
    expect(await readRunFile(filePath)).toEqual(run);
  });

  it('writes a qrels file and reads it back', async () => {
    const filePath = path.join(directory, 'out.qrels');
    const qrels: Qrels = new Map([['q1', new Map([['d1', 2]])]]);
    await writeQrelsFile(filePath, qrels);
    expect(await readFile(filePath, 'utf8')).toBe('q1 0 d1 2\n');
    expect(await readQrelsFile(filePath)).toEqual(qrels);
  });

  it('names the file path in errors from readRunFile and readQrelsFile', async () => {
    const runPath = path.join(directory, 'bad.run');
    const qrelsPath = path.join(directory, 'bad.qrels');
    await writeFile(runPath, 'q1 Q0 d1 1 1 t\nq1 Q0 d2 2 NaN t\n');
    await writeFile(qrelsPath, 'q1 0 d1\n');
    await expect(readRunFile(runPath)).rejects.toThrow(`${runPath}:2: score 'NaN' is not a number`);
    await expect(readQrelsFile(qrelsPath)).rejects.toThrow(`${qrelsPath}:1: expected 4 columns`);
  });

  it('reads a UTF-8 file with a byte order mark and CRLF line ends', async () => {
    const filePath = path.join(directory, 'bom.run');
    await writeFile(filePath, Buffer.from('\uFEFFq1 Q0 dé 1 2 t\r\n', 'utf8'));
    expect(await readRunFile(filePath)).toEqual(new Map([['q1', [{ docId: 'dé', score: 2, rank: 1 }]]]));
  });
});
