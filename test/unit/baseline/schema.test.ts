import { describe, expect, it } from 'vitest';

import {
  BASELINE_SCHEMA_VERSION,
  BaselineError,
  emptyBaseline,
  findJsonErrorOffset,
  formatBaseline,
  parseBaseline,
  type BaselineFile,
} from '../../../src/baseline/schema.js';

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
  "schemaVersion": 1,
  "suites": {
    "test/a.test.ts": {
      "mrr": {
        "only": 0.3333333333333333
      }
    },
    "test/orders.test.ts > refunds": {
      "hit@5": {
        "q10": 0,
        "q17: refunds after 30 days": 1,
        "q2": 1
      },
      "recall@5": {
        "q10": 0.5,
        "q17: refunds after 30 days": 0.8,
        "q2": 1
      }
    }
  }
}
`;

describe('formatBaseline', () => {
  it('sorts keys at every level, indents by 2 and puts one sample per line, ending in a newline', () => {
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
    const ids = [...text.matchAll(/^ {8}"([^"]+)"/gm)].map((match) => match[1]);
    expect(ids).toEqual(['10', '9', 'B', 'b', 'é']);
  });

  it('writes each sample as `"id": value` alone on its line, so a changed question is a one-line diff', () => {
    const before = formatBaseline(EXAMPLE).split('\n');
    const changed = structuredClone(EXAMPLE);
    changed.suites['test/orders.test.ts > refunds']!['recall@5']!['q2'] = 0.5;
    const after = formatBaseline(changed).split('\n');
    const differing = before.map((line, index) => [line, after[index]]).filter(([a, b]) => a !== b);
    expect(differing).toEqual([['        "q2": 1', '        "q2": 0.5']]);
  });

  it('escapes ids as JSON and writes numbers at full precision', () => {
    const text = formatBaseline(baseline({ 'f > "quoted"': { ndcg: { 'line\nbreak': 0.1 + 0.2 } } }));
    expect(text).toContain('    "f > \\"quoted\\"": {\n');
    expect(text).toContain('        "line\\nbreak": 0.30000000000000004\n');
  });

  it('writes empty suites and an empty baseline compactly, and round-trips them', () => {
    expect(formatBaseline(emptyBaseline())).toBe('{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 1,\n  "suites": {}\n}\n');
    const withEmpty = baseline({ s: {}, t: { m: {} } });
    expect(formatBaseline(withEmpty)).toBe(
      '{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 1,\n  "suites": {\n    "s": {},\n    "t": {\n      "m": {}\n    }\n  }\n}\n',
    );
    expect(parseBaseline(formatBaseline(withEmpty), PATH)).toEqual(withEmpty);
  });

  it('refuses a value that JSON cannot hold instead of writing null', () => {
    expect(() => formatBaseline(baseline({ s: { m: { q: Number.NaN } } }))).toThrow(/suites\["s"\]\["m"\]\["q"\] must be a finite number, found NaN/);
  });

  it('round-trips through parseBaseline, including ids such as __proto__ and constructor', () => {
    const tricky = parseBaseline(
      '{"generatedBy":"rag-matchers","schemaVersion":1,"suites":{"s":{"m":{"__proto__":0.5,"constructor":1,"toString":0}}}}',
      PATH,
    );
    expect(Object.keys(tricky.suites['s']!['m']!)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(tricky.suites['s']!['m']!['__proto__']).toBe(0.5);
    const text = formatBaseline(tricky);
    expect(text).toContain('        "__proto__": 0.5,\n');
    expect(formatBaseline(parseBaseline(text, PATH))).toBe(text);
  });
});

describe('parseBaseline', () => {
  it('reads the format back', () => {
    expect(parseBaseline(EXAMPLE_TEXT, PATH)).toEqual(EXAMPLE);
    expect(parseBaseline(`\uFEFF${EXAMPLE_TEXT}`, PATH)).toEqual(EXAMPLE);
  });

  it('invalid JSON: names the path, the line and the column', () => {
    const text = '{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 1\n  "suites": {}\n}\n';
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
      `${PATH}: line 2 holds a Git merge-conflict marker (<<<<<<<); resolve the conflict, or take either side and re-record with RAG_BASELINE=update.`,
    );
  });

  it.each([
    ['an empty file', '', /the file is empty, so it is not a rag-matchers baseline/],
    ['whitespace only', '  \n', /the file is empty/],
    ['an array', '[1, 2]', /not a rag-matchers baseline: expected a JSON object .* found an array/],
    ['a string', '"rag"', /found string/],
    ['package.json', '{"name": "app", "version": "1.0.0"}', /not a rag-matchers baseline: expected "generatedBy": "rag-matchers" and a "schemaVersion", found keys "name", "version"/],
    ['an empty object', '{}', /found an empty object/],
    ['another tool', '{"generatedBy": "other-tool", "schemaVersion": 1, "suites": {}}', /not a rag-matchers baseline/],
  ])('not a baseline (%s): a clear error naming the path', (_name, text, pattern) => {
    const error = captureBaselineError(() => parseBaseline(text, PATH));
    expect(error.kind).toBe('not-a-baseline');
    expect(error.message.startsWith(`${PATH}: `)).toBe(true);
    expect(error.message).toMatch(pattern);
  });

  it('a newer schema: written by a newer rag-matchers; upgrade', () => {
    const error = captureBaselineError(() => parseBaseline('{"generatedBy": "rag-matchers", "schemaVersion": 2, "suites": {}, "extra": true}', PATH));
    expect(error.kind).toBe('newer-schema');
    expect(error.message).toBe(
      `${PATH}: written by a newer rag-matchers (baseline schema version 2; this version reads up to ${BASELINE_SCHEMA_VERSION}); upgrade rag-matchers. The file was left as it is.`,
    );
  });

  it.each([
    ['a schemaVersion that is not a whole number', '{"generatedBy":"rag-matchers","schemaVersion":"1","suites":{}}', /"schemaVersion" must be a whole number ≥ 1, found "1"/],
    ['schemaVersion 0', '{"generatedBy":"rag-matchers","schemaVersion":0,"suites":{}}', /"schemaVersion" must be a whole number ≥ 1, found 0/],
    ['no suites', '{"generatedBy":"rag-matchers","schemaVersion":1}', /"suites" must be an object .* found nothing/],
    ['suites as an array', '{"generatedBy":"rag-matchers","schemaVersion":1,"suites":[]}', /"suites" must be an object .* found an array/],
    ['a suite that is a number', '{"generatedBy":"rag-matchers","schemaVersion":1,"suites":{"s":3}}', /suites\["s"\] must be an object of measures, found 3/],
    ['a measure that is an array', '{"generatedBy":"rag-matchers","schemaVersion":1,"suites":{"s":{"recall@5":[0.5]}}}', /suites\["s"\]\["recall@5"\] must be an object of sample values, found an array/],
    ['a value that is a string', '{"generatedBy":"rag-matchers","schemaVersion":1,"suites":{"s":{"m":{"q1":"0.8"}}}}', /suites\["s"\]\["m"\]\["q1"\] must be a finite number, found "0.8"/],
    ['a value that is null', '{"generatedBy":"rag-matchers","schemaVersion":1,"suites":{"s":{"m":{"q1":null}}}}', /suites\["s"\]\["m"\]\["q1"\] must be a finite number, found null/],
    ['an unknown top-level key', '{"generatedBy":"rag-matchers","schemaVersion":1,"suites":{},"means":{}}', /unknown top-level key "means"/],
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
  it.each([
    ['{"a": 1,}', 8],
    ['[1, 2', 5],
    ['{"a" 1}', 5],
    ['nope', 1],
    ['{"a": "\\x"}', 8],
    ['{"a": 01}', 7],
    ['{} {}', 3],
  ])('%j fails at offset %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonErrorOffset(text)).toBe(offset);
  });
});
