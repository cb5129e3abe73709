// The baseline file: what each suite × measure measured per question, committed with the code so a pull
// request can be compared with it (paired, question by question).
//
// Format (docs/baselines-and-ci.md): one JSON object, keys sorted in UTF-16 code-unit order at every level
// (the order of RFC 8785), 2-space indent, one sample per line, a final newline. Shape:
//
//   {
//     "generatedBy": "rag-matchers",
//     "schemaVersion": 1,
//     "suites": {
//       "<file> > <describe> > …": {
//         "<measure>": {
//           "<sampleId>": <value>,
//           …
// A sample id is the sample's queryId, else its test name; a repeat inside one suite × measure gets ` #2`,
// ` #3`, … (src/baseline/group.ts). Values are written with full precision (JavaScript's shortest
// round-trip form), so an unchanged question compares as exactly equal.

export const BASELINE_SCHEMA_VERSION = 1;
export const BASELINE_GENERATED_BY = 'rag-matchers';

/** sampleId → value. */
export type BaselineSamples = Record<string, number>;
/** measure → samples. */
export type BaselineSuite = Record<string, BaselineSamples>;

export interface BaselineFile {
  schemaVersion: typeof BASELINE_SCHEMA_VERSION;
  generatedBy: typeof BASELINE_GENERATED_BY;
  /** suiteId (`file > describe > …`) → measure → sampleId → value. */
  suites: Record<string, BaselineSuite>;
}

export type BaselineErrorKind = 'unreadable' | 'invalid-json' | 'not-a-baseline' | 'newer-schema' | 'malformed' | 'locked';

/** A baseline file that cannot be used. The message names the path and what was wrong; the file is never overwritten. */
export class BaselineError extends Error {
  override name = 'BaselineError';
  readonly path: string;
  readonly kind: BaselineErrorKind;
  readonly problem: string;

  constructor(path: string, kind: BaselineErrorKind, problem: string, options?: { cause?: unknown }) {
    super(`${path}: ${problem}`, options);
    this.path = path;
    this.kind = kind;
    this.problem = problem;
  }
}

/** An object without a prototype, so ids such as `constructor` or `__proto__` are plain keys. */
export function createRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** `record[key]` when it is the record's own property (so `constructor` on a plain object is not found), else undefined. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** A baseline with no suites. */
export function emptyBaseline(): BaselineFile {
  return { schemaVersion: BASELINE_SCHEMA_VERSION, generatedBy: BASELINE_GENERATED_BY, suites: createRecord() };
}

/** UTF-16 code-unit order (the default of Array.prototype.sort, and RFC 8785's key order), independent of locale. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortedKeys(record: object): string[] {
  return Object.keys(record).sort(compareKeys);
}

const TOP_LEVEL_KEYS = ['generatedBy', 'schemaVersion', 'suites'];
const ACCEPT_HINT = 'fix it by hand, restore it from version control (git checkout -- <file>), or delete it and record a new one with RAG_BASELINE=update';

/**
 * Reads baseline text. `path` is used in messages only. Throws BaselineError for text that is not JSON
 * (with line and column), JSON that is not a rag-matchers baseline, a baseline of a newer schema, and
 * malformed entries (naming the entry).
 */
export function parseBaseline(text: string, path: string): BaselineFile {
  if (typeof text !== 'string') {
    throw new TypeError(`parseBaseline: text must be a string (the file's contents), got ${text === null ? 'null' : typeof text}.`);
  }
  if (typeof path !== 'string' || path.length === 0) {
    throw new TypeError('parseBaseline: path must be a non-empty string; it names the file in error messages.');
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim().length === 0) {
    throw new BaselineError(path, 'not-a-baseline', `the file is empty, so it is not a rag-matchers baseline; ${ACCEPT_HINT}.`);
  }
  const conflict = /^(<{7}|={7}|>{7})(\s|$)/m.exec(body);
  if (conflict) {
    const { line } = lineAndColumn(body, conflict.index);
    throw new BaselineError(
      path,
      'invalid-json',
      `line ${line} holds a Git merge-conflict marker (${conflict[1]}); resolve the conflict, or take either side and re-record with RAG_BASELINE=update.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    throw new BaselineError(path, 'invalid-json', `not valid JSON: ${describeJsonError(error, body)}; ${ACCEPT_HINT}.`, { cause: error });
  }
  return validateBaseline(data, path);
}

/** Checks an already-parsed value; see parseBaseline. */
export function validateBaseline(data: unknown, path: string): BaselineFile {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new BaselineError(
      path,
      'not-a-baseline',
      `not a rag-matchers baseline: expected a JSON object with "generatedBy": "rag-matchers", found ${Array.isArray(data) ? 'an array' : data === null ? 'null' : typeof data}. Check the \`baseline\` option points at the right file.`,
    );
  }
  const top = data as Record<string, unknown>;
  if (top.generatedBy !== BASELINE_GENERATED_BY || !('schemaVersion' in top)) {
    const found = Object.keys(top).slice(0, 5).map((key) => JSON.stringify(key)).join(', ');
    throw new BaselineError(
      path,
      'not-a-baseline',
      `not a rag-matchers baseline: expected "generatedBy": "rag-matchers" and a "schemaVersion", found ${found.length > 0 ? `keys ${found}` : 'an empty object'}. Check the \`baseline\` option points at the right file.`,
    );
  }
  const version = top.schemaVersion;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    throw new BaselineError(path, 'malformed', `"schemaVersion" must be a whole number ≥ 1, found ${JSON.stringify(version)}; ${ACCEPT_HINT}.`);
  }
  if (version > BASELINE_SCHEMA_VERSION) {
    throw new BaselineError(
      path,
      'newer-schema',
      `written by a newer rag-matchers (baseline schema version ${version}; this version reads up to ${BASELINE_SCHEMA_VERSION}); upgrade rag-matchers. The file was left as it is.`,
    );
  }
  for (const key of Object.keys(top)) {
    if (!TOP_LEVEL_KEYS.includes(key)) {
      throw new BaselineError(
        path,
        'malformed',
        `unknown top-level key ${JSON.stringify(key)}; a version-1 baseline holds only "generatedBy", "schemaVersion" and "suites" (an update would drop it, so it is refused rather than lost).`,
      );
    }
  }
  const suites = top.suites;
  if (!isPlainObject(suites)) {
    throw new BaselineError(path, 'malformed', `"suites" must be an object (suite → measure → sample → value), found ${describeJson(suites)}; ${ACCEPT_HINT}.`);
  }
  const result = emptyBaseline();
  for (const suite of Object.keys(suites)) {
    const measures = suites[suite];
    if (!isPlainObject(measures)) {
      throw malformedEntry(path, [suite], measures, 'an object of measures');
    }
    const suiteRecord = createRecord<BaselineSamples>();
    for (const measure of Object.keys(measures)) {
      const samples = measures[measure];
      if (!isPlainObject(samples)) throw malformedEntry(path, [suite, measure], samples, 'an object of sample values');
      const samplesRecord = createRecord<number>();
      for (const sampleId of Object.keys(samples)) {
        const value = samples[sampleId];
        if (typeof value !== 'number' || !Number.isFinite(value)) {
          throw malformedEntry(path, [suite, measure, sampleId], value, 'a finite number');
        }
        samplesRecord[sampleId] = value;
      }
      suiteRecord[measure] = samplesRecord;
    }
    result.suites[suite] = suiteRecord;
  }
  return result;
}

/**
 * The file's text: keys sorted at every level, 2-space indent, one sample per line, a final newline.
 * The same baseline always gives the same bytes. Throws for a value that JSON cannot hold (NaN, Infinity).
 */
export function formatBaseline(file: BaselineFile): string {
  const checked = checkFormattable(file);
  const lines = ['{', `  "generatedBy": ${JSON.stringify(BASELINE_GENERATED_BY)},`, `  "schemaVersion": ${BASELINE_SCHEMA_VERSION},`];
  const suiteIds = sortedKeys(checked.suites);
  if (suiteIds.length === 0) {
    lines.push('  "suites": {}');
  } else {
    lines.push('  "suites": {');
    suiteIds.forEach((suiteId, suiteIndex) => {
      const suite = checked.suites[suiteId]!;
      const measures = sortedKeys(suite);
      const suiteComma = suiteIndex < suiteIds.length - 1 ? ',' : '';
      if (measures.length === 0) {
        lines.push(`    ${JSON.stringify(suiteId)}: {}${suiteComma}`);
        return;
      }
      lines.push(`    ${JSON.stringify(suiteId)}: {`);
      measures.forEach((measure, measureIndex) => {
        const samples = suite[measure]!;
        const sampleIds = sortedKeys(samples);
        const measureComma = measureIndex < measures.length - 1 ? ',' : '';
        if (sampleIds.length === 0) {
          lines.push(`      ${JSON.stringify(measure)}: {}${measureComma}`);
          return;
        }
        lines.push(`      ${JSON.stringify(measure)}: {`);
        sampleIds.forEach((sampleId, sampleIndex) => {
          const comma = sampleIndex < sampleIds.length - 1 ? ',' : '';
          lines.push(`        ${JSON.stringify(sampleId)}: ${JSON.stringify(samples[sampleId])}${comma}`);
        });
        lines.push(`      }${measureComma}`);
      });
      lines.push(`    }${suiteComma}`);
    });
    lines.push('  }');
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** The checks of validateBaseline that writing needs, without copying: a wrong shape or a value JSON cannot hold. */
function checkFormattable(file: BaselineFile): BaselineFile {
  const where = 'formatBaseline(file)';
  if (!isPlainObject(file) || file.schemaVersion !== BASELINE_SCHEMA_VERSION || file.generatedBy !== BASELINE_GENERATED_BY || !isPlainObject(file.suites)) {
    return validateBaseline(file, where); // throws the precise error
  }
  for (const suite of Object.keys(file.suites)) {
    const measures: unknown = file.suites[suite];
    if (!isPlainObject(measures)) throw malformedEntry(where, [suite], measures, 'an object of measures');
    for (const measure of Object.keys(measures)) {
      const samples = measures[measure];
      if (!isPlainObject(samples)) throw malformedEntry(where, [suite, measure], samples, 'an object of sample values');
      for (const sampleId of Object.keys(samples)) {
        const value = samples[sampleId];
        if (typeof value !== 'number' || !Number.isFinite(value)) throw malformedEntry(where, [suite, measure, sampleId], value, 'a finite number');
      }
    }
  }
  return file;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformedEntry(path: string, keys: string[], value: unknown, expected: string): BaselineError {
  const where = `suites${keys.map((key) => `[${JSON.stringify(key)}]`).join('')}`;
  return new BaselineError(path, 'malformed', `${where} must be ${expected}, found ${describeJson(value)}; ${ACCEPT_HINT}.`);
}

function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return 'an array';
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

function lineAndColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: index - lineStart + 1 };
}

/** Says what was wrong and where (line, column), the way editors count. */
function describeJsonError(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  // V8 gives "… in JSON at position N" for some errors only; the scanner finds the offset for all.
  const position = /^(.*?)\s*in JSON at position (\d+)/s.exec(message);
  const index = position ? Number(position[2]) : findJsonErrorOffset(text);
  const reason = position
    ? position[1]!
    : index >= text.length
      ? 'unexpected end of the file'
      : `unexpected ${JSON.stringify(String.fromCodePoint(text.codePointAt(index)!))}`;
  const { line, column } = lineAndColumn(text, index);
  return `${reason} at line ${line}, column ${column}`;
}

/**
 * Offset of the first character that makes `text` invalid JSON (text.length when it ends too early).
 * Only called after JSON.parse failed, to point at the problem.
 */
export function findJsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string): void => {
    for (const character of word) {
      if (text[i] !== character) fail();
      i++;
    }
  };
  const string = (): void => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i++;
        return;
      }
      if (code < 0x20) fail();
      if (code === 0x5c) {
        i++;
        const escape = text[i];
        if (escape === 'u') {
          for (let digit = 1; digit <= 4; digit++) {
            if (!/[0-9a-fA-F]/.test(text[i + digit] ?? '')) {
              i += digit;
              fail();
            }
          }
          i += 5;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) fail();
      }
      i++;
    }
    fail();
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) fail();
    i += match![0].length;
  };
  const value = (): void => {
    space();
    const character = text[i];
    if (character === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        string();
        space();
        if (text[i] !== ':') fail();
        i++;
        value();
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    }
    if (character === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    }
    if (character === '"') return string();
    if (character === 't') return literal('true');
    if (character === 'f') return literal('false');
    if (character === 'n') return literal('null');
    number();
  };
  try {
    value();
    space();
    if (i < text.length) fail();
  } catch (offset) {
    if (typeof offset === 'number') return Math.min(offset, text.length);
    throw offset;
  }
  return text.length;
}
