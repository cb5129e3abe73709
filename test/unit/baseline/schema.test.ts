import { describe, expect, it } from 'vitest';
import { baselineFile, key } from './keyed.js';
import { suiteKeyOf } from '../../../src/recording/collected.js';

import { BaselineError } from '../../../src/baseline/file/errors.js';
import { parseBaseline } from '../../../src/baseline/file/read.js';
import { BASELINE_SCHEMA_VERSION, emptyBaseline, type BaselineFile } from '../../../src/baseline/file/types.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import { findJsonErrorOffset } from '../../../src/files/json-text.js';

const PATH = 'project/rag-baseline.json';

function captureBaselineError(action: () => unknown): BaselineError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(BaselineError);
    return error as BaselineError;
  }
  throw new Error('expected a BaselineError, but nothing was thrown');
}

function baseline(suites: BaselineFile['suites']): BaselineFile {
  return baselineFile(suites);
}

const EXAMPLE = baseline({
  'test/orders.test.ts > refunds': {
    'recall@5': { 'q17: refunds after 30 days': 0.8, q2: 1, q10: 0.5 },
    'hit@5': { q2: 1, 'q17: refunds after 30 days': 1, q10: 0 },
  },
  'test/a.test.ts': { mrr: { only: 0.3333333333333333 } },
});

const EXAMPLE_TEXT = `{
  "generatedBy": "rag-matchers",
  "schemaVersion": 3,
  "rows": [
    ["file", "describe", "question", "measure", "value", "project"]
    ,["test/a.test.ts", [], "only", "mrr", 0.3333333333333333]
    ,["test/orders.test.ts", ["refunds"], "q10", "hit@5", 0]
    ,["test/orders.test.ts", ["refunds"], "q10", "recall@5", 0.5]
    ,["test/orders.test.ts", ["refunds"], "q17: refunds after 30 days", "hit@5", 1]
    ,["test/orders.test.ts", ["refunds"], "q17: refunds after 30 days", "recall@5", 0.8]
    ,["test/orders.test.ts", ["refunds"], "q2", "hit@5", 1]
    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 1]
  ]
}
`;

/** The question column of every row, in file order. */
const questionsOf = (text: string): string[] =>
  (JSON.parse(text) as { rows: string[][] }).rows.slice(1).map((row) => row[2]!);

describe('formatBaseline', () => {
  it('writes the column header, then one row per sample sorted by suite, question and measure, each after its comma; a final newline', () => {
    expect(formatBaseline(EXAMPLE)).toBe(EXAMPLE_TEXT);
  });

  it('gives the same bytes whatever order the entries were added in', () => {
    const reversed = baseline({
      'test/a.test.ts': { mrr: { only: 0.3333333333333333 } },
      'test/orders.test.ts > refunds': {
        'hit@5': { q10: 0, 'q17: refunds after 30 days': 1, q2: 1 },
        'recall@5': { q2: 1, q10: 0.5, 'q17: refunds after 30 days': 0.8 },
      },
    });
    expect(formatBaseline(reversed)).toBe(formatBaseline(EXAMPLE));
  });

  it('orders by UTF-16 code units, not by locale, and keeps integer-like ids in that order', () => {
    const text = formatBaseline(baseline({ s: { m: { b: 1, '10': 1, '9': 1, B: 1, é: 1 } } }));
    expect(questionsOf(text)).toEqual(['10', '9', 'B', 'b', 'é']);
  });

  it('changes one line for a changed question and adds one line per new row, touching no other line', () => {
    const before = formatBaseline(EXAMPLE).split('\n');
    const changed = structuredClone(EXAMPLE);
    const refunds = changed.suites[key('test/orders.test.ts > refunds')]!;
    refunds['recall@5']!['q2'] = 0.5;
    refunds['recall@5']!['q3'] = 1;
    changed.suites[key('test/z.test.ts')] = { mrr: { last: 1 } };
    const after = formatBaseline(changed).split('\n');
    expect(after.filter((line) => !before.includes(line))).toEqual([
      '    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.5]',
      '    ,["test/orders.test.ts", ["refunds"], "q3", "recall@5", 1]',
      '    ,["test/z.test.ts", [], "last", "mrr", 1]',
    ]);
    expect(before.filter((line) => !after.includes(line))).toEqual([
      '    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 1]',
    ]);
  });

  it('keeps `describe("a > b")` and `describe("a") › describe("b")` apart, and the project of a named Vitest project', () => {
    const file: BaselineFile = {
      schemaVersion: BASELINE_SCHEMA_VERSION,
      generatedBy: 'rag-matchers',
      suites: {
        [suiteKeyOf({ file: 'f', describe: ['a > b'] })]: { mrr: { q: 0.5 } },
        [suiteKeyOf({ file: 'f', describe: ['a', 'b'] })]: { mrr: { q: 1 } },
        [suiteKeyOf({ file: 'f', describe: ['a', 'b'], project: 'node' })]: { mrr: { q: 0.25 } },
      },
    };
    const text = formatBaseline(file);
    expect(text).toContain(
      '\n    ,["f", ["a", "b"], "q", "mrr", 1]\n    ,["f", ["a", "b"], "q", "mrr", 0.25, "node"]\n    ,["f", ["a > b"], "q", "mrr", 0.5]\n',
    );
    expect(parseBaseline(text, PATH)).toEqual(file);
  });

  it('escapes names and ids as JSON and writes numbers at full precision', () => {
    const text = formatBaseline(baseline({ 'f > "quoted"': { ndcg: { 'line\nbreak': 0.1 + 0.2 } } }));
    expect(text).toContain('\n    ,["f", ["\\"quoted\\""], "line\\nbreak", "ndcg", 0.30000000000000004]\n');
  });

  it('writes an empty baseline as the header alone; a suite or measure without samples has no row', () => {
    const empty =
      '{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 3,\n  "rows": [\n    ["file", "describe", "question", "measure", "value", "project"]\n  ]\n}\n';
    expect(formatBaseline(emptyBaseline())).toBe(empty);
    expect(formatBaseline(baseline({ s: {}, t: { m: {} } }))).toBe(empty);
    expect(parseBaseline(empty, PATH)).toEqual(emptyBaseline());
  });

  it('refuses a value that JSON cannot hold instead of writing null', () => {
    expect(() => formatBaseline(baseline({ s: { m: { q: Number.NaN } } }))).toThrow(
      /s\["m"\]\["q"\] must be a finite number, found NaN/,
    );
  });

  it('round-trips through parseBaseline, including ids such as __proto__ and constructor', () => {
    const tricky = parseBaseline(
      '{"generatedBy":"rag-matchers","schemaVersion":3,"rows":[["file","describe","question","measure","value","project"],["s",[],"__proto__","m",0.5],["s",[],"constructor","m",1],["s",[],"toString","m",0]]}',
      PATH,
    );
    const samples = tricky.suites[key('s')]!['m']!;
    expect(Object.keys(samples)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(samples['__proto__']).toBe(0.5);
    const text = formatBaseline(tricky);
    expect(text).toContain('\n    ,["s", [], "__proto__", "m", 0.5]\n');
    expect(formatBaseline(parseBaseline(text, PATH))).toBe(text);
    expect(Object.keys(parseBaseline(text, PATH).suites[key('s')]!['m']!)).toEqual([
      '__proto__',
      'constructor',
      'toString',
    ]);
  });
});

describe('baseline schema version 3 rows', () => {
  const withRows = (...rows: string[]): string =>
    `{"generatedBy":"rag-matchers","schemaVersion":3,"rows":[["file","describe","question","measure","value","project"]${rows.map((row) => `,${row}`).join('')}]}`;

  it.each([
    [
      'no header row',
      '{"generatedBy":"rag-matchers","schemaVersion":3,"rows":[["f",[],"q","mrr",1]]}',
      /"rows" must be a list whose first entry is the column header \["file","describe","question","measure","value","project"\], found \["f",\[\],"q","mrr",1\]/,
    ],
    [
      'no rows list',
      '{"generatedBy":"rag-matchers","schemaVersion":3,"suites":[]}',
      /unknown top-level key "suites"; a baseline holds only "generatedBy", "schemaVersion" and "rows"/,
    ],
    [
      'a row of the wrong length',
      withRows('["f",[],"q","mrr"]'),
      /rows\[1\] must be \[file, \[describe path\], question, measure, value\] \(and the project of a named Vitest project\), found \["f",\[\],"q","mrr"\]/,
    ],
    [
      'a describe path that is not a list',
      withRows('["f","refunds","q","mrr",1]'),
      /rows\[1\]: its describe path must be a list of describe-block names/,
    ],
    [
      'a describe path holding a number',
      withRows('["f",["a",1],"q","mrr",1]'),
      /rows\[1\]: its describe path must be a list of describe-block names/,
    ],
    ['an empty file name', withRows('["",[],"q","mrr",1]'), /rows\[1\]: its file must be the test file's path/],
    [
      'a value that is a string',
      withRows('["f",["a"],"q","mrr","1"]'),
      /rows\[1\] \(f > a\)\["mrr"\]\["q"\] must be a finite number, found "1"/,
    ],
    [
      'a proportion above 1',
      withRows('["f",[],"q","recall@5",1.5]'),
      /rows\[1\] \(f\)\["recall@5"\]\["q"\] must be between 0 and 1 \(recall@5 is a proportion\), found 1\.5/,
    ],
    ['an empty project', withRows('["f",[],"q","mrr",1,""]'), /rows\[1\]: its project must be a Vitest project's name/],
  ])('refuses %s, naming the row', (_, text, message) => {
    expect(captureBaselineError(() => parseBaseline(text, PATH)).message).toMatch(message);
  });

  it('refuses a question with two rows (what keeping both sides of a merge conflict leaves), naming both rows and values', () => {
    const error = captureBaselineError(() =>
      parseBaseline(withRows('["f",["a"],"q","mrr",0.5]', '["f",["b"],"q","mrr",1]', '["f",["a"],"q","mrr",1]'), PATH),
    );
    expect(error.kind).toBe('malformed');
    expect(error.message).toBe(
      `${PATH}: rows[3] repeats rows[1]: question "q" of f > a · mrr has two values (0.5 and 1), so it is ambiguous; keep one of the two rows; fix it by hand, restore it from version control (git checkout -- <file>), or delete it and record a new one with RAG_BASELINE=update.`,
    );
  });

  it('reads rows in any order (as a hand edit may leave them); the next write sorts them', () => {
    const file = parseBaseline(withRows('["f",[],"q2","mrr",1]', '["f",[],"q1","mrr",0.5]'), PATH);
    expect(questionsOf(formatBaseline(file))).toEqual(['q1', 'q2']);
  });
});

describe('baseline schema versions 1 and 2 (before 0.1.0)', () => {
  it.each([
    ['1', '{"generatedBy":"rag-matchers","schemaVersion":1,"suites":{"test/a.test.ts > refunds":{"mrr":{"q1":1}}}}'],
    [
      '2',
      '{"generatedBy":"rag-matchers","schemaVersion":2,"suites":[{"file":"test/a.test.ts","describe":[],"measures":{"mrr":{"q1":1}}}]}',
    ],
  ])('version %s is refused with one error naming its version and how to record a new file', (version, text) => {
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.kind).toBe('older-schema');
    expect(error.message).toBe(
      `${PATH}: written in baseline schema version ${version}, which rag-matchers no longer reads (it reads versions 3 to 7); delete it and record a new one with RAG_BASELINE=update (e.g. RAG_BASELINE=update npx vitest run). The file was left as it is.`,
    );
  });
});

describe('repeated keys and impossible values', () => {
  const withRows = (...rows: string[]): string =>
    `{"generatedBy":"rag-matchers","schemaVersion":4,"rows":[["file","describe","question","measure","value","project","judgments"]${rows.map((row) => `\n,${row}`).join('')}]}`;

  it("reads each row's value and audit into its suite and measure, a suite's rows split by another's or not", () => {
    const file = parseBaseline(
      withRows(
        '["f",["a"],"q1","mrr",0.5,{"labels":"l1"}]',
        '["f",["a"],"q1","ndcg",0.25]',
        '["f",["b"],"q1","mrr",1,{"unjudged":2}]',
        '["f",["a"],"q2","mrr",0,{"labels":"l2","unjudged":1}]',
        '["f",["a"],"q2","ndcg",0.75,{"labels":"l2"}]',
      ),
      PATH,
    );
    const a = suiteKeyOf({ file: 'f', describe: ['a'] });
    const b = suiteKeyOf({ file: 'f', describe: ['b'] });
    expect(JSON.parse(JSON.stringify(file.suites))).toEqual({
      [a]: { mrr: { q1: 0.5, q2: 0 }, ndcg: { q1: 0.25, q2: 0.75 } },
      [b]: { mrr: { q1: 1 } },
    });
    expect(JSON.parse(JSON.stringify(file.audits))).toEqual({
      [a]: { mrr: { q1: { labels: 'l1' }, q2: { labels: 'l2', unjudged: 1 } }, ndcg: { q2: { labels: 'l2' } } },
      [b]: { mrr: { q1: { unjudged: 2 } } },
    });
  });

  it('a key repeated in one object is refused with the file, the line and the object', () => {
    const text = withRows('["f",[],"q1","mrr",1]', '["f",[],"q2","mrr",1,{"labels":"a1","labels":"b2"}]');
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(
      /^project\/rag-baseline\.json: line 3: the key "labels" appears twice in rows\[2\]\[5\], so its value is ambiguous/,
    );
  });

  it('a repeated top-level key is refused too', () => {
    expect(
      captureBaselineError(() =>
        parseBaseline(
          '{"generatedBy":"rag-matchers","schemaVersion":3,"schemaVersion":3,"rows":[["file","describe","question","measure","value","project"]]}',
          PATH,
        ),
      ).message,
    ).toMatch(/the key "schemaVersion" appears twice in the top-level object/);
  });

  it.each([
    ['recall@5', 5],
    ['ndcg@10', -3],
    ['faithfulness', 1.5],
    // Before, only the lower-case spellings were bounded.
    ['JUDGE:x', 2],
    ['Faithfulness', 2],
  ])('%s = %s is refused: a proportion lies in [0, 1]', (measure, value) => {
    const error = captureBaselineError(() =>
      parseBaseline(withRows(`["t.test.ts",["s"],"q1","${measure}",${value}]`), PATH),
    );
    expect(error.message).toContain(
      `project/rag-baseline.json: rows[1] (t.test.ts > s)["${measure}"]["q1"] must be between 0 and 1 (${measure} is a proportion), found ${value}`,
    );
  });

  it('a measure that is not a proportion may hold any finite value', () => {
    expect(parseBaseline(withRows('["f",[],"q1","latency-ms",120]'), PATH).suites[key('f')]).toEqual({
      'latency-ms': { q1: 120 },
    });
  });
});

describe('parseBaseline', () => {
  it('reads the format back', () => {
    expect(parseBaseline(EXAMPLE_TEXT, PATH)).toEqual(EXAMPLE);
    expect(parseBaseline(`\uFEFF${EXAMPLE_TEXT}`, PATH)).toEqual(EXAMPLE);
  });

  it('invalid JSON: names the path, the line and the column', () => {
    const text = '{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 3\n  "rows": []\n}\n';
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.kind).toBe('invalid-json');
    expect(error.path).toBe(PATH);
    expect(error.message).toMatch(/^project\/rag-baseline\.json: not valid JSON: .* at line 4, column 3;/);
  });

  it('invalid JSON where V8 gives no position (an unexpected token): still a line and column', () => {
    const text = '{\n  "suites": {\n    "s": tru\n  }\n}';
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.message).toMatch(/: not valid JSON: unexpected "\\n" at line 3, column 13; fix it by hand/);
  });

  it('a baseline nested deeper than 64 levels is refused naming the file, line and column, truncated or not', () => {
    // Before: RangeError: Maximum call stack size exceeded (recursive error location, JSON.stringify
    // of the value in the message) from about 5,000 levels, without the file's name.
    const deepSample = `{"schemaVersion": 3, "suites": {"s": {"m": {"q": ${'{"a": '.repeat(10_000)}1${'}'.repeat(10_000)}}}}}`;
    const truncated = `{"suites":\n${'['.repeat(10_000)}`;
    for (const [text, column] of [
      // The 65th "{" or "[": the file's own "{" is level 1, then "{" at columns 32, 38 and 44 and
      // "{" every 6 characters from column 50 (level 5): level 65 at column 50 + 60 × 6 = 410.
      [deepSample, 'line 1, column 410'],
      // Level 2 is the "[" at line 2, column 1, so level 65 is the one at column 64.
      [truncated, 'line 2, column 64'],
    ] as const) {
      const error = captureBaselineError(() => parseBaseline(text, PATH));
      expect(error.kind).toBe('malformed');
      expect(error.message).toMatch(
        new RegExp(
          `^project/rag-baseline\\.json: nests objects and arrays more than 64 levels deep \\(${column}\\); a baseline nests 4;`,
        ),
      );
    }
  });

  it('a truncated file points at its end', () => {
    const text = '{\n  "generatedBy": "rag-matchers",\n  "suites": {\n    "s": {';
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.kind).toBe('invalid-json');
    expect(error.message).toMatch(/at line 4, column 11;/);
  });

  it('Git merge-conflict markers: says so, with the line', () => {
    const text = '{\n<<<<<<< HEAD\n  "a": 1\n=======\n  "a": 2\n>>>>>>> branch\n}\n';
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.kind).toBe('invalid-json');
    expect(error.message).toBe(
      `${PATH}: line 2 holds a Git merge-conflict marker (<<<<<<<): git's line merge stopped here. To merge it without re-running anything, set up the rag-matchers merge driver once (docs/baselines-and-ci.md, "Merging baselines") and run git checkout -m ${PATH}; or take one side whole (git checkout --ours ${PATH}, or --theirs) and re-record what the other side changed with RAG_BASELINE=update.`,
    );
  });

  it('conflict markers the merge driver left: says to keep one side and names the commands from the markers', () => {
    const text = [
      '{',
      '  "rows": [',
      '<<<<<<< ours',
      '    ,["a.test.ts", ["x"], "q", "mrr", 1]',
      '=======',
      '    ,["a.test.ts", ["x"], "q", "mrr", 0.5]',
      ">>>>>>> theirs (rag-matchers merge-baseline); then re-record: RAG_BASELINE=update npx vitest run a.test.ts -t 'x '",
      '<<<<<<< ours',
      '=======',
      '    ,["b.test.ts", [], "q", "mrr", 0.5]',
      '>>>>>>> theirs (rag-matchers merge-baseline); then re-record: RAG_BASELINE=update npx vitest run b.test.ts',
      '  ]',
      '}',
    ].join('\n');
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.kind).toBe('invalid-json');
    expect(error.message).toBe(
      `${PATH}: line 3 holds a conflict the merge driver left (<<<<<<<): the same question was recorded differently on both branches. In each conflict keep one side's rows and delete the marker lines, then re-record just those suites: RAG_BASELINE=update npx vitest run a.test.ts -t 'x '; RAG_BASELINE=update npx vitest run b.test.ts`,
    );
  });

  it.each([
    ['', 'the file is empty, so it holds no baseline'],
    ['  \r\n\t', 'the file is empty (only whitespace), so it holds no baseline'],
    ['\uFEFF', 'the file is empty, so it holds no baseline'],
  ])('an empty file (%j) is empty, not "not a baseline"', (text, problem) => {
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.kind).toBe('empty');
    expect(error.problem).toBe(
      `${problem}; fix it by hand, restore it from version control (git checkout -- <file>), or delete it and record a new one with RAG_BASELINE=update.`,
    );
  });

  it.each([
    ['an array', '[1, 2]', /not a rag-matchers baseline: expected a JSON object .* found an array/],
    ['a string', '"rag"', /found string/],
    [
      'package.json',
      '{"name": "app", "version": "1.0.0"}',
      /not a rag-matchers baseline: expected "generatedBy": "rag-matchers" and a "schemaVersion", found keys "name", "version"/,
    ],
    ['an empty object', '{}', /found an empty object/],
    ['another tool', '{"generatedBy": "other-tool", "schemaVersion": 1, "suites": {}}', /not a rag-matchers baseline/],
  ])('not a baseline (%s): a clear error naming the path', (_name, text, pattern) => {
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.kind).toBe('not-a-baseline');
    expect(error.message.startsWith(`${PATH}: `)).toBe(true);
    expect(error.message).toMatch(pattern);
  });

  it('a newer schema: written by a newer rag-matchers; upgrade', () => {
    const error = captureBaselineError(() =>
      parseBaseline('{"generatedBy": "rag-matchers", "schemaVersion": 8, "suites": {}, "extra": true}', PATH),
    );
    expect(error.kind).toBe('newer-schema');
    expect(error.message).toBe(
      `${PATH}: written by a newer rag-matchers (baseline schema version 8; this version reads up to 7); upgrade rag-matchers. The file was left as it is.`,
    );
  });

  it.each([
    [
      'a schemaVersion that is not a whole number',
      '{"generatedBy":"rag-matchers","schemaVersion":"1","suites":{}}',
      /"schemaVersion" must be a whole number ≥ 1, found "1"/,
    ],
    [
      'schemaVersion 0',
      '{"generatedBy":"rag-matchers","schemaVersion":0,"suites":{}}',
      /"schemaVersion" must be a whole number ≥ 1, found 0/,
    ],
    [
      'no rows',
      '{"generatedBy":"rag-matchers","schemaVersion":3}',
      /"rows" must be a list whose first entry is the column header .* found nothing/,
    ],
    [
      'rows as an object',
      '{"generatedBy":"rag-matchers","schemaVersion":3,"rows":{}}',
      /"rows" must be a list whose first entry is the column header .* found \{\}/,
    ],
    [
      'a value that is null',
      '{"generatedBy":"rag-matchers","schemaVersion":3,"rows":[["file","describe","question","measure","value","project"],["s",[],"q1","m",null]]}',
      /rows\[1\] \(s\)\["m"\]\["q1"\] must be a finite number, found null/,
    ],
    [
      'an unknown top-level key',
      '{"generatedBy":"rag-matchers","schemaVersion":3,"rows":[["file","describe","question","measure","value","project"]],"means":{}}',
      /unknown top-level key "means"/,
    ],
  ])('malformed (%s): names the entry and the path', (_name, text, pattern) => {
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.kind).toBe('malformed');
    expect(error.message.startsWith(`${PATH}: `)).toBe(true);
    expect(error.message).toMatch(pattern);
  });

  it('rejects arguments that are not strings', () => {
    expect(() => parseBaseline(undefined as unknown as string, PATH)).toThrow(/text must be a string/);
    expect(() => parseBaseline('{}', '')).toThrow(/path must be a non-empty string/);
  });
});

describe('findJsonErrorOffset', () => {
  it('walks 100,000 levels of nesting without running out of stack', () => {
    // Before, one stack frame per level: RangeError: Maximum call stack size exceeded.
    expect(findJsonErrorOffset('['.repeat(100_000))).toBe(100_000);
    expect(findJsonErrorOffset(`${'['.repeat(100_000)}${']'.repeat(100_000)}x`)).toBe(200_000);
    expect(findJsonErrorOffset(`${'{"a":'.repeat(100_000)}1${'}'.repeat(99_999)}]`)).toBe(600_000);
  });

  it.each([
    ['{"a": 1,}', 8],
    ['[1, 2', 5],
    ['{"a" 1}', 5],
    ['nope', 1],
    ['{"a": "\\x"}', 8],
    ['{"a": 01}', 7],
    ['{} {}', 3],
    // Worked out by counting characters: the "]" where "}" is due, the "}" where ":" is due.
    ['[{"a": [1, {"b": 2]}]', 18],
    ['{"a": [] , "b" }', 15],
    ['[[1], {"a": {}}, []] ,', 21],
  ])('%j fails at offset %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonErrorOffset(text)).toBe(offset);
  });
});
