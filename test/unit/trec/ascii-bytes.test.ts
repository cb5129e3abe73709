// The scanners' ASCII-bytes path (trec-eval hands them a text's bytes): the usual line is read from
// the bytes, every other line from the text, and either way a line reads as the grammar says.
import { describe, expect, it } from 'vitest';
import { QrelsLine, RunLine, scanQrelsLines, scanRunLines } from '../../../src/trec/grammar.js';
import { parseDecimalBytes, parseIntegerBytes } from '../../../src/trec/number.js';

interface RunFields {
  queryId: string;
  docId: string;
  rank: string;
  score: number;
  lineNumber: number;
  line: string;
}

function runFields(text: string, bytes: Uint8Array | undefined): RunFields[] {
  const fields: RunFields[] = [];
  const sink = {
    entry(scanned: string, line: RunLine) {
      fields.push({
        queryId: scanned.slice(line.queryStart, line.queryEnd),
        docId: scanned.slice(line.docStart, line.docEnd),
        rank: scanned.slice(line.rankStart, line.rankEnd),
        score: line.score,
        lineNumber: line.lineNumber,
        line: scanned.slice(line.lineStart, line.lineEnd),
      });
    },
  };
  scanRunLines(text, 0, text.length, 1, 'run.txt', 'trec_eval', sink, new RunLine(), bytes);
  return fields;
}

function qrelsFields(text: string, bytes: Uint8Array | undefined): [string, string, number, number][] {
  const fields: [string, string, number, number][] = [];
  const sink = {
    judgment(scanned: string, line: QrelsLine) {
      fields.push([
        scanned.slice(line.queryStart, line.queryEnd),
        scanned.slice(line.docStart, line.docEnd),
        line.grade,
        line.lineNumber,
      ]);
    },
  };
  scanQrelsLines(text, 0, text.length, 1, 'qrels.txt', 'trec_eval', sink, bytes);
  return fields;
}

const ascii = (text: string) => Buffer.from(text, 'latin1');

describe('run lines from ASCII bytes', () => {
  it('reads the usual line, runs of spaces, extra columns, signs and exponents', () => {
    const text = 'q1 Q0 d1 1 2.5 tag\nq1  Q0   d2 2 -1.25e1 tag extra cols\nq2 Q0 d3 x +7 t\n';
    expect(runFields(text, ascii(text))).toEqual([
      { queryId: 'q1', docId: 'd1', rank: '1', score: 2.5, lineNumber: 1, line: 'q1 Q0 d1 1 2.5 tag' },
      {
        queryId: 'q1',
        docId: 'd2',
        rank: '2',
        score: -12.5,
        lineNumber: 2,
        line: 'q1  Q0   d2 2 -1.25e1 tag extra cols',
      },
      { queryId: 'q2', docId: 'd3', rank: 'x', score: 7, lineNumber: 3, line: 'q2 Q0 d3 x +7 t' },
    ]);
  });

  it('leaves every other line to the text, with the same fields and line numbers', () => {
    const lines = [
      '# a comment',
      '',
      '   ',
      ' q1 Q0 lead 1 1 t', // leading space
      'q1\tQ0\ttab\t1\t2\tt', // tabs
      'q1 Q0 crlf 1 3 t\r', // \r\n line end
      'q1 Q0 trail 1 4 t  ', // trailing blanks after the tag
      'q1 Q0 big 1 123456789012345678901234567890 t', // beyond the exact fast path
      'q1 Q0 tiny 1 1e-30 t',
      'q1 Q0 dot 1 .5 t',
      'q1 Q0 ctl\u0001x 1 5 t', // a control character inside a column (not a separator)
      'q1 Q0 last 1 6 t',
    ];
    const text = `${lines.join('\n')}\n`;
    const fromBytes = runFields(text, ascii(text));
    expect(fromBytes).toEqual(runFields(text, undefined));
    expect(fromBytes.map((field) => [field.docId, field.score, field.lineNumber])).toEqual([
      ['lead', 1, 4],
      ['tab', 2, 5],
      ['crlf', 3, 6],
      ['trail', 4, 7],
      ['big', 1.2345678901234568e29, 8],
      ['tiny', 1e-30, 9],
      ['dot', 0.5, 10],
      ['ctl\u0001x', 5, 11],
      ['last', 6, 12],
    ]);
  });

  it("tells a line whose query id is the line before's, in the same text", () => {
    const text = [
      'q1 Q0 a 1 1 t',
      'q1 Q0 b 2 1 t',
      'q10 Q0 c 1 1 t',
      'q1 Q0 d 1 1 t',
      'q1\tQ0 e 1 1 t',
      'q1 Q0 f 1 1 t',
      'q1 Q0 g 1 1 t',
    ].join('\n');
    const flags: boolean[] = [];
    const sink = { entry: (_text: string, line: RunLine) => flags.push(line.sameQueryAsBefore) };
    const withEnd = `${text}\n`;
    scanRunLines(withEnd, 0, withEnd.length, 1, 'run.txt', 'trec_eval', sink, new RunLine(), ascii(withEnd));
    // q10 is not q1 (nor q1 q10); a line read from the text (a tab) is never the same, nor the line after it.
    expect(flags).toEqual([false, true, false, false, false, false, true]);
    // Bytes are read only up to a line end: a text whose last line has none (a file's end) is read as text.
    const withoutEnd: boolean[] = [];
    scanRunLines(
      text,
      0,
      text.length,
      1,
      'run.txt',
      'trec_eval',
      {
        entry: (_t, line) => withoutEnd.push(line.sameQueryAsBefore),
      },
      new RunLine(),
      ascii(text),
    );
    expect(withoutEnd).toEqual([false, false, false, false, false, false, false]);
    expect(runFields(text, ascii(text))).toEqual(runFields(text, undefined));
  });

  it('stops on a bad line as the text path does: file, line number and problem', () => {
    for (const bad of ['q1 Q0 d1 1 2.5\n', 'q1 Q0 d1 1 abc t\n', 'q1 Q0 d1 1 1e999 t\n', 'q1 Q0 d1 1 0x1F t\n']) {
      const text = `q1 Q0 d0 1 9 t\n${bad}`;
      let message = '';
      try {
        runFields(text, undefined);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^run\.txt:2: /);
      expect(() => runFields(text, ascii(text))).toThrow(message);
    }
  });
});

describe('qrels lines from ASCII bytes', () => {
  it('reads the usual line and leaves others to the text, with the same grades and line numbers', () => {
    const text = 'q1 0 d1 2\nq1  0  d2  -1\n# comment\nq2\t0\td3\t1\nq2 0 d4 +3 \nq2 0 d5 0\r\nq3 0 d6 1\n';
    const fromBytes = qrelsFields(text, ascii(text));
    expect(fromBytes).toEqual([
      ['q1', 'd1', 2, 1],
      ['q1', 'd2', -1, 2],
      ['q2', 'd3', 1, 4],
      ['q2', 'd4', 3, 5],
      ['q2', 'd5', 0, 6],
      ['q3', 'd6', 1, 7],
    ]);
    expect(fromBytes).toEqual(qrelsFields(text, undefined));
  });

  it('stops on a bad grade or a fifth column as the text path does', () => {
    for (const bad of ['q1 0 d1 1.5\n', 'q1 0 d1 1 extra\n', 'q1 0 d1\n', '\n']) {
      const text = `q1 0 d0 1\n${bad}`;
      let message = '';
      try {
        qrelsFields(text, undefined);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^qrels\.txt:2: /);
      expect(() => qrelsFields(text, ascii(text))).toThrow(message);
    }
  });
});

describe('number parsers over ASCII bytes', () => {
  const decimal = (text: string) => parseDecimalBytes(ascii(text), 0, text.length);
  it('give the exact value within the fast path', () => {
    expect(decimal('2.5')).toBe(2.5);
    expect(decimal('-0.125')).toBe(-0.125);
    expect(decimal('3.000000e+01')).toBe(30);
    expect(decimal('7e-3')).toBe(0.007);
    expect(decimal('-0')).toBe(-0);
    expect(decimal('.5')).toBe(0.5);
    expect(decimal('5.')).toBe(5);
  });

  it('give NaN for anything they leave to the text parser', () => {
    for (const text of ['', '-', '.', 'abc', '1e', '1e+', '0x1F', '1.5.2', '1e23', '1e-23', '12345678901234567890'])
      expect(decimal(text)).toBeNaN();
  });

  it('read integers as parseIntegerSpan does', () => {
    const integer = (text: string) => parseIntegerBytes(ascii(text), 0, text.length);
    expect(integer('42')).toBe(42);
    expect(integer('-3')).toBe(-3);
    expect(integer('+3')).toBe(3);
    expect(integer('')).toBeNaN();
    expect(integer('-')).toBeNaN();
    expect(integer('1.0')).toBeNaN();
    expect(integer('99999999999999999')).toBeNaN();
  });
});
