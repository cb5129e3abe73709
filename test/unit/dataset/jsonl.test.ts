import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  formatEvalSetJsonl,
  formatRunJsonl,
  fromQrels,
  JsonlFormatError,
  parseEvalSetJsonl,
  parseRunJsonl,
  readEvalSetFile,
  readRunJsonlFile,
  toQrels,
  type EvalSet,
  type JsonlRun,
} from '../../../src/dataset/jsonl.js';
import type { Qrels } from '../../../src/trec/index.js';

function captureFormatError(action: () => unknown): JsonlFormatError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(JsonlFormatError);
    return error as JsonlFormatError;
  }
  throw new Error('expected a JsonlFormatError, but nothing was thrown');
}

describe('parseEvalSetJsonl', () => {
  it('reads binary and graded judgments and keeps extra fields as they are', () => {
    const text =
      '{"id":"q1","query":"How do I page results?","relevant":["doc-1","doc-2"],"tags":["api"],"metadata":{"owner":"docs"}}\n' +
      '{"query":"Rate limits?","id":"q2","relevant":{"rate-limits":2,"error-codes":1}}\n';
    expect(parseEvalSetJsonl(text)).toEqual([
      {
        id: 'q1',
        query: 'How do I page results?',
        relevant: ['doc-1', 'doc-2'],
        tags: ['api'],
        metadata: { owner: 'docs' },
      },
      { id: 'q2', query: 'Rate limits?', relevant: { 'rate-limits': 2, 'error-codes': 1 } },
    ]);
  });

  it('skips blank lines and accepts CRLF, a byte order mark and an empty query text', () => {
    const text = '\uFEFF\r\n{"id":"q1","query":"","relevant":[]}\r\n   \r\n{"id":"q2","query":"x","relevant":{}}';
    expect(parseEvalSetJsonl(text).map((evalQuery) => evalQuery.id)).toEqual(['q1', 'q2']);
  });

  it('turns an integer id into its decimal string', () => {
    expect(parseEvalSetJsonl('{"id":7,"query":"x","relevant":["d"]}')[0]?.id).toBe('7');
  });

  it('keeps a doc id named __proto__ as an ordinary judgment', () => {
    const [evalQuery] = parseEvalSetJsonl('{"id":"q","query":"x","relevant":{"__proto__":2}}');
    expect(
      toQrels(evalQuery ? [evalQuery] : [])
        .get('q')
        ?.get('__proto__'),
    ).toBe(2);
  });

  it.each([
    ['{"id":"q1","query":"x","relevant":[}', /^evals\.jsonl:2: invalid JSON: .+/],
    ['["q1","x"]', /^evals\.jsonl:2: expected a JSON object, found an array/],
    ['null', /^evals\.jsonl:2: expected a JSON object, found null/],
    ['{"query":"x","relevant":[]}', /^evals\.jsonl:2: missing "id"/],
    ['{"id":"","query":"x","relevant":[]}', /^evals\.jsonl:2: "id" must be a non-empty string, found string ""/],
    ['{"id":1.5,"query":"x","relevant":[]}', /^evals\.jsonl:2: "id" must be a non-empty string, found number 1.5/],
    ['{"id":"q1","relevant":[]}', /^evals\.jsonl:2: missing "query"/],
    ['{"id":"q1","query":42,"relevant":[]}', /^evals\.jsonl:2: "query" must be a string, found number 42/],
    ['{"id":"q1","query":"x"}', /^evals\.jsonl:2: missing "relevant"/],
    [
      '{"id":"q1","query":"x","relevant":"doc-1"}',
      /^evals\.jsonl:2: "relevant" must be a list of doc ids or an object of doc id → grade, found string "doc-1"/,
    ],
    [
      '{"id":"q1","query":"x","relevant":["a",3]}',
      /^evals\.jsonl:2: "relevant"\[1\] must be a doc id string, found number 3/,
    ],
    [
      '{"id":"q1","query":"x","relevant":{"a":"2"}}',
      /^evals\.jsonl:2: "relevant"\["a"\] must be a finite number grade, found string "2"/,
    ],
    ['{"id":"q0","query":"again","relevant":[]}', /^evals\.jsonl:2: duplicate query id 'q0' \(first on line 1\)/],
  ])('rejects %s with file, line and problem', (badLine, message) => {
    const text = `{"id":"q0","query":"fine","relevant":["d"]}\n${badLine}\n`;
    const error = captureFormatError(() => parseEvalSetJsonl(text, { file: 'evals.jsonl' }));
    expect(error.message).toMatch(message);
    expect(error).toMatchObject({ file: 'evals.jsonl', lineNumber: 2, lineText: badLine });
  });

  it("includes JSON.parse's own message for invalid JSON", () => {
    let parserMessage = '';
    try {
      JSON.parse('{"id": }');
    } catch (error) {
      parserMessage = (error as Error).message;
    }
    const error = captureFormatError(() => parseEvalSetJsonl('{"id": }'));
    expect(error.message).toContain(`<string>:1: invalid JSON: ${parserMessage}`);
  });

  it('counts blank and CRLF lines when numbering lines', () => {
    const error = captureFormatError(() =>
      parseEvalSetJsonl('\r\n\n{"id":"a","query":"","relevant":[]}\r\n{oops}\r\n'),
    );
    expect(error.lineNumber).toBe(4);
  });
});

describe('parseRunJsonl', () => {
  it('reads hits as strings or objects, keeping hit objects as they are', () => {
    const text =
      '{"id":"q1","hits":["doc-1","doc-2"]}\n' +
      '{"id":"q2","hits":[{"id":"doc-3","score":3.2,"metadata":{"page":4}},{"documentId":"doc-4","chunkIndex":0}]}\n';
    const run = parseRunJsonl(text);
    expect([...run.keys()]).toEqual(['q1', 'q2']);
    expect(run.get('q1')).toEqual(['doc-1', 'doc-2']);
    expect(run.get('q2')).toEqual([
      { id: 'doc-3', score: 3.2, metadata: { page: 4 } },
      { documentId: 'doc-4', chunkIndex: 0 },
    ]);
  });

  it.each([
    ['{"id":"q1"}', /^r\.jsonl:2: missing "hits"/],
    ['{"id":"q1","hits":{"doc":1}}', /^r\.jsonl:2: "hits" must be an array in rank order, found an object/],
    ['{"hits":[]}', /^r\.jsonl:2: missing "id"/],
    ['{"id":"q0","hits":[]}', /^r\.jsonl:2: duplicate query id 'q0' \(first on line 1\)/],
    ['{"id":"q1","hits":[', /^r\.jsonl:2: invalid JSON/],
  ])('rejects %s with file, line and problem', (badLine, message) => {
    const error = captureFormatError(() => parseRunJsonl(`{"id":"q0","hits":["a"]}\n${badLine}`, { file: 'r.jsonl' }));
    expect(error.message).toMatch(message);
  });
});

describe('formatting', () => {
  it('writes one JSON object per line, fields in stored order', () => {
    const evalSet: EvalSet = [
      { id: 'q1', query: 'a "quoted" question', relevant: ['d1'] },
      { id: 'q2', query: '', relevant: { d2: 2 }, difficulty: 'hard' },
    ];
    expect(formatEvalSetJsonl(evalSet)).toBe(
      '{"id":"q1","query":"a \\"quoted\\" question","relevant":["d1"]}\n' +
        '{"id":"q2","query":"","relevant":{"d2":2},"difficulty":"hard"}\n',
    );
    const run: JsonlRun = new Map([['q1', ['d1', { id: 'd2', score: 0.5 }]]]);
    expect(formatRunJsonl(run)).toBe('{"id":"q1","hits":["d1",{"id":"d2","score":0.5}]}\n');
  });

  it('round-trips eval sets and runs through format → parse', () => {
    const evalSet: EvalSet = [
      { id: 'q1', query: 'Ünïcode ✓\nnewline', relevant: ['d1', 'd2'], extra: { nested: [1, null] } },
      { id: 'q2', query: '', relevant: { d3: 0, d4: -1, d5: 2.5 } },
    ];
    expect(parseEvalSetJsonl(formatEvalSetJsonl(evalSet))).toEqual(evalSet);
    const run: JsonlRun = new Map<string, unknown[]>([
      ['q1', ['d1', { id: 'd2', score: -3.5e-9 }]],
      ['q2', []],
    ]);
    expect(parseRunJsonl(formatRunJsonl(run))).toEqual(run);
  });
});

describe('toQrels and fromQrels', () => {
  it('gives listed ids grade 1, keeps graded objects, and collapses a repeated listed id', () => {
    const qrels = toQrels([
      { id: 'q1', query: 'x', relevant: ['d1', 'd2', 'd1'] },
      { id: 'q2', query: 'y', relevant: { d3: 2, d4: 0 } },
      { id: 'q3', query: 'z', relevant: [] },
    ]);
    expect(qrels).toEqual(
      new Map([
        [
          'q1',
          new Map([
            ['d1', 1],
            ['d2', 1],
          ]),
        ],
        [
          'q2',
          new Map([
            ['d3', 2],
            ['d4', 0],
          ]),
        ],
        ['q3', new Map()],
      ]),
    );
  });

  it('rejects an eval set that repeats a query id with a RangeError naming it', () => {
    const evalSet: EvalSet = [
      { id: 'q1', query: '', relevant: [] },
      { id: 'q1', query: '', relevant: [] },
    ];
    expect(() => toQrels(evalSet)).toThrow(RangeError);
    expect(() => toQrels(evalSet)).toThrow("toQrels: evalSet[1] repeats query id 'q1'");
  });

  it('turns qrels into an eval set with empty query texts and graded judgments, including grade 0', () => {
    const qrels: Qrels = new Map([
      [
        'q1',
        new Map([
          ['d1', 1],
          ['d2', 0],
        ]),
      ],
      ['q2', new Map([['d3', 3]])],
    ]);
    expect(fromQrels(qrels)).toEqual([
      { id: 'q1', query: '', relevant: { d1: 1, d2: 0 } },
      { id: 'q2', query: '', relevant: { d3: 3 } },
    ]);
    expect(toQrels(fromQrels(qrels))).toEqual(qrels);
  });
});

describe('reading files', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-jsonl-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads an eval set file and a run file', async () => {
    const evalPath = path.join(directory, 'evals.jsonl');
    const runPath = path.join(directory, 'run.jsonl');
    await writeFile(evalPath, '{"id":"q1","query":"x","relevant":["d1"]}\n');
    await writeFile(runPath, '{"id":"q1","hits":["d1"]}\n');
    expect(await readEvalSetFile(evalPath)).toEqual([{ id: 'q1', query: 'x', relevant: ['d1'] }]);
    expect(await readRunJsonlFile(runPath)).toEqual(new Map([['q1', ['d1']]]));
  });

  it('names the path in errors', async () => {
    const evalPath = path.join(directory, 'bad.jsonl');
    await writeFile(evalPath, '{"id":"q1","query":"x"}\n');
    await expect(readEvalSetFile(evalPath)).rejects.toThrow(`${evalPath}:1: missing "relevant"`);
    await expect(readRunJsonlFile(evalPath)).rejects.toThrow(`${evalPath}:1: missing "hits"`);
  });
});
