// describeRetrieval's questions: read from a JSON Lines file, a JSON array file or an array, each with
// the line it starts on; its test names; its errors naming file, line and field.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { arrayElementLines } from '../../../src/suite/element-lines.js';
import { questionTestNames } from '../../../src/suite/names.js';
import { readSuiteQuestions } from '../../../src/suite/questions.js';

const dir = mkdtempSync(join(tmpdir(), 'rag-suite-questions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const WHERE = "describeRetrieval('faq')";

describe('readSuiteQuestions', () => {
  it('reads a JSON Lines file with each question line, skipping blank lines, keeping extra fields', () => {
    const path = file(
      'faq.jsonl',
      [
        '{"id": "q1", "query": "refund window?", "relevant": ["refunds"], "kind": "single", "tags": ["billing"]}',
        '',
        '{"id": 7, "query": "rate limit?", "relevant": {"rate-limits": 2}, "expect": "miss"}',
        '',
      ].join('\n'),
    );
    const questions = readSuiteQuestions(path, WHERE);
    expect(questions.map(({ id, knownMiss, source }) => ({ id, knownMiss, source }))).toEqual([
      { id: 'q1', knownMiss: false, source: { file: path, line: 1 } },
      { id: '7', knownMiss: true, source: { file: path, line: 3 } },
    ]);
    expect(questions[0]!.question).toMatchObject({ kind: 'single', tags: ['billing'], query: 'refund window?' });
    expect(questions[1]!.relevant).toEqual({ 'rate-limits': 2 });
  });

  it('takes a file URL as well as a path', () => {
    const path = file('url.jsonl', '{"id": "a", "query": "x", "relevant": ["d"]}\n');
    expect(readSuiteQuestions(pathToFileURL(path), WHERE)[0]!.source).toEqual({ file: path, line: 1 });
  });

  it('reads a .json array file with the line each element starts on', () => {
    const path = file(
      'faq.json',
      [
        '[',
        '  { "id": "q1", "query": "a [bracket] and a \\"quote\\"", "relevant": ["d1"] },',
        '  {',
        '    "id": "q2",',
        '    "query": "b",',
        '    "relevant": { "d2": 1 }',
        '  }, { "id": "q3", "query": "c", "relevant": [] }',
        ']',
      ].join('\n'),
    );
    expect(readSuiteQuestions(path, WHERE).map((question) => [question.id, question.source?.line])).toEqual([
      ['q1', 2],
      ['q2', 3],
      ['q3', 7],
    ]);
  });

  it('names file:line and the field of a malformed JSON Lines question', () => {
    const path = file('bad.jsonl', '{"id": "q1", "query": "a", "relevant": ["d"]}\n{"id": "q2", "relevant": ["d"]}\n');
    expect(() => readSuiteQuestions(path, WHERE)).toThrow(`${path}:2: missing "query"`);
  });

  it('names file:line of a bad element of a JSON array file, and of a repeated id', () => {
    const bad = file(
      'bad.json',
      '[\n{"id": "q1", "query": "a", "relevant": ["d"]},\n{"id": "q2", "query": 3, "relevant": []}\n]',
    );
    expect(() => readSuiteQuestions(bad, WHERE)).toThrow(`${bad}:3: "query" must be a string, found number 3`);
    const repeated = file(
      'repeated.json',
      '[{"id": "q1", "query": "a", "relevant": []},\n {"id": "q1", "query": "b", "relevant": []}]',
    );
    expect(() => readSuiteQuestions(repeated, WHERE)).toThrow(
      `${repeated}:2: duplicate query id 'q1' (first on line 1)`,
    );
  });

  it('refuses an unknown expect value, at its line', () => {
    const path = file('expect.jsonl', '{"id": "q1", "query": "a", "relevant": ["d"], "expect": "fail"}\n');
    expect(() => readSuiteQuestions(path, WHERE)).toThrow(
      `${path}:1: "expect" must be "miss" (a question the retriever is known to miss) or absent, found "fail"`,
    );
  });

  it('says when the file cannot be read or holds no question, or is not JSON', () => {
    expect(() => readSuiteQuestions(join(dir, 'absent.jsonl'), WHERE)).toThrow(
      `${WHERE}: cannot read the questions file ${join(dir, 'absent.jsonl')}`,
    );
    const empty = file('empty.jsonl', '\n\n');
    expect(() => readSuiteQuestions(empty, WHERE)).toThrow(`${WHERE}: the questions file ${empty} holds no question.`);
    const broken = file('broken.json', '[\n{"id": "q1",,}]');
    expect(() => readSuiteQuestions(broken, WHERE)).toThrow(`${broken}: not JSON: `);
    expect(() => readSuiteQuestions(broken, WHERE)).toThrow('at line 2, column 13');
  });

  it('checks the questions of an array, naming the index; keeps the objects given', () => {
    const given = [{ id: 'a', query: 'x', relevant: ['d'], note: 1 }];
    const questions = readSuiteQuestions(given, WHERE);
    expect(questions[0]!.question).toBe(given[0]);
    expect(questions[0]!.source).toBeUndefined();
    expect(() =>
      readSuiteQuestions(
        [
          { id: 'a', query: 'x', relevant: ['d'] },
          { id: 'b', query: 'y' },
        ] as never,
        WHERE,
      ),
    ).toThrow(`${WHERE}: questions[1]: missing "relevant" (a list of doc ids, or an object of doc id → grade).`);
    expect(() =>
      readSuiteQuestions(
        [
          { id: 'a', query: 'x', relevant: [] },
          { id: 'a', query: 'y', relevant: [] },
        ],
        WHERE,
      ),
    ).toThrow(`${WHERE}: questions[1]: duplicate query id 'a' (first at questions[0]).`);
    expect(() => readSuiteQuestions([], WHERE)).toThrow(`${WHERE}: questions is an empty array.`);
    expect(() => readSuiteQuestions(42 as never, WHERE)).toThrow(
      `${WHERE}: questions must be the path of a JSON Lines eval set`,
    );
  });
});

describe('questionTestNames', () => {
  it('names each test by its text; repeated texts take their id; a blank text is the id', () => {
    expect(
      questionTestNames([
        { id: 'q1', query: 'refund window?' },
        { id: 'q2', query: 'rate limit?' },
        { id: 'q3', query: ' refund window? ' },
        { id: 'q4', query: '   ' },
      ]),
    ).toEqual(['refund window? (q1)', 'rate limit?', 'refund window? (q3)', 'q4']);
  });
});

describe('arrayElementLines', () => {
  it('finds where each top-level element starts, whatever it holds', () => {
    expect(arrayElementLines('[1,\n"a,[b]",\n\n{"x": [1,\n2]}, [3]\n]')).toEqual([1, 2, 4, 5]);
    expect(arrayElementLines('[\n]')).toEqual([]);
  });
});
