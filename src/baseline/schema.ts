// The baseline file: what each suite × measure measured per question, committed with the code so a pull
// request can be compared with it (paired, question by question).
//
// Format, schema version 3 (docs/baselines-and-ci.md): one JSON object whose "rows" list holds one
// sample per line, each row complete in itself — [file, describe path, question, measure, value], plus the
// project for a named Vitest project — after a fixed column-header row, with the separating comma at the
// start of each row's line:
//
//   {
//     "generatedBy": "rag-matchers",
//     "schemaVersion": 3,
//     "rows": [
//       ["file", "describe", "question", "measure", "value", "project"]
//       ,["test/orders.test.ts", ["orders API", "refunds"], "refund-window", "recall@5", 1]
//       ,["test/orders.test.ts", ["orders API", "refunds"], "refund-window", "recall@5", 0.5, "api"]
//     ]
//   }
//
// Why this layout: git merges line by line, and two changes conflict when they touch the same or adjacent
// lines. Adding a row inserts one line and changes no other (no trailing comma to add to the previous last
// line, no enclosing block to open), so two branches that recorded different questions merge under a plain
// `git merge` unless their rows are neighbours; the merge driver (rag-matchers merge-baseline) does the rest.
// Rows are sorted by suite (file, describe path, project), then question, then measure, in UTF-16
// code-unit order (RFC 8785's order), so a question's measures sit together.
//
// A sample id is the sample's queryId, else its test name; a repeat inside one suite × measure gets ` #2`,
// ` #3`, … (src/baseline/group.ts). Values are written with full precision (JavaScript's shortest
// round-trip form), so an unchanged question compares as exactly equal.
//
// Version 4 (written only when a row has one; else the file is version 3, byte for byte) adds a last,
// optional cell to retrieval rows — what the sample was measured against, SampleAudit — and a seventh
// column name, "judgments", to the header:
//
//       ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 0.5, {"labels": "3f9a0c21", "unjudged": 1}]
//
// Version 3 is read as it is (no audits: it compares as before and gains them on the next update). Versions
// 1 and 2 (rag-matchers before 0.1.0) are refused with the command that records a new file.

import { jsonPreview } from '../core/describe.js';
import { parseMeasure } from '../core/measures.js';
import { describeConflictMarkers } from './conflict-markers.js';
import { parseSuiteKey, suiteKeyOf, suiteNameOf, type SuiteIdentity } from '../recording/collected.js';

export const BASELINE_SCHEMA_VERSION = 4;
/** The version a file without judgment audits is written in: the same bytes as before version 4. */
const ROWS_ONLY_SCHEMA_VERSION = 3;
/** The oldest version read: 1 and 2 came before 0.1.0. */
const OLDEST_READ_SCHEMA_VERSION = ROWS_ONLY_SCHEMA_VERSION;
export const BASELINE_GENERATED_BY = 'rag-matchers';

/** sampleId → value. */
export type BaselineSamples = Record<string, number>;
/** measure → samples. */
export type BaselineSuite = Record<string, BaselineSamples>;

/**
 * What a sample kept about its judgments (schema version 4, the row's last cell): the fingerprint of the
 * question's judgments as evaluated, and the first few hits in its measure's top k that had no judgment.
 */
export interface SampleAudit {
  /** The judgments' fingerprint (MetricSample.labels). */
  labels?: string;
  /** How many hits in the measure's top k had no judgment; absent when none. */
  unjudged?: number;
}

/** sampleId → audit. */
export type BaselineSampleAudits = Record<string, SampleAudit>;

export interface BaselineFile {
  /** BASELINE_SCHEMA_VERSION after a read, whatever version the file had; formatBaseline writes the current one. */
  schemaVersion: number;
  generatedBy: typeof BASELINE_GENERATED_BY;
  /** Suite key (suiteKeyOf: file, describe path, project) → measure → sampleId → value. */
  suites: Record<string, BaselineSuite>;
  /**
   * Suite key → measure → sampleId → what the sample kept about its judgments, for the samples that kept
   * anything (retrieval measures recorded by rag-matchers 0.x with schema version 4). Absent or partial for
   * older files: they gain audits on the next update.
   */
  audits?: Record<string, Record<string, BaselineSampleAudits>>;
}

export type BaselineErrorKind =
  'unreadable' | 'invalid-json' | 'not-a-baseline' | 'older-schema' | 'newer-schema' | 'malformed' | 'locked';

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

const TOP_LEVEL_KEYS = ['generatedBy', 'schemaVersion'];
/** How deep a baseline nests: file, rows, row, its describe path or its audit. */
const BASELINE_NESTING = 4;
// Far above BASELINE_NESTING, far below what would strain the checks that walk the parsed value.
const MAX_NESTING = 64;
const ACCEPT_HINT =
  'fix it by hand, restore it from version control (git checkout -- <file>), or delete it and record a new one with RAG_BASELINE=update';

/**
 * Reads baseline text. `path` is used in messages only. Throws BaselineError for text that is not JSON
 * (with line and column), JSON that is not a rag-matchers baseline, a baseline of a newer schema, and
 * malformed entries (naming the entry).
 */
export function parseBaseline(text: string, path: string): BaselineFile {
  if (typeof text !== 'string') {
    throw new TypeError(
      `parseBaseline: text must be a string (the file's contents), got ${text === null ? 'null' : typeof text}.`,
    );
  }
  if (typeof path !== 'string' || path.length === 0) {
    throw new TypeError('parseBaseline: path must be a non-empty string; it names the file in error messages.');
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim().length === 0) {
    throw new BaselineError(
      path,
      'not-a-baseline',
      `the file is empty, so it is not a rag-matchers baseline; ${ACCEPT_HINT}.`,
    );
  }
  const conflict = describeConflictMarkers(body, path);
  if (conflict !== undefined) throw new BaselineError(path, 'invalid-json', conflict);
  const tooDeep = findNestingBeyond(body, MAX_NESTING);
  if (tooDeep !== undefined) {
    const { line, column } = lineAndColumn(body, tooDeep);
    throw new BaselineError(
      path,
      'malformed',
      `nests objects and arrays more than ${MAX_NESTING} levels deep (line ${line}, column ${column}); a baseline nests ${BASELINE_NESTING}; ${ACCEPT_HINT}.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    throw new BaselineError(
      path,
      'invalid-json',
      `not valid JSON: ${describeJsonError(error, body)}; ${ACCEPT_HINT}.`,
      { cause: error },
    );
  }
  // JSON.parse keeps the last of repeated keys; a baseline with two values for one key is ambiguous.
  const repeated = findRepeatedKey(body);
  if (repeated !== undefined) {
    const { line } = lineAndColumn(body, repeated.offset);
    throw new BaselineError(
      path,
      'malformed',
      `line ${line}: the key ${JSON.stringify(repeated.key)} appears twice in ${repeated.path === '' ? 'the top-level object' : repeated.path}, so its value is ambiguous; keep one of the two; ${ACCEPT_HINT}.`,
    );
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
    const found = Object.keys(top)
      .slice(0, 5)
      .map((key) => JSON.stringify(key))
      .join(', ');
    throw new BaselineError(
      path,
      'not-a-baseline',
      `not a rag-matchers baseline: expected "generatedBy": "rag-matchers" and a "schemaVersion", found ${found.length > 0 ? `keys ${found}` : 'an empty object'}. Check the \`baseline\` option points at the right file.`,
    );
  }
  const version = top.schemaVersion;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    throw new BaselineError(
      path,
      'malformed',
      `"schemaVersion" must be a whole number ≥ 1, found ${JSON.stringify(version)}; ${ACCEPT_HINT}.`,
    );
  }
  if (version < OLDEST_READ_SCHEMA_VERSION) {
    throw new BaselineError(
      path,
      'older-schema',
      `written in baseline schema version ${version}, which rag-matchers no longer reads (it reads versions ${OLDEST_READ_SCHEMA_VERSION} to ${BASELINE_SCHEMA_VERSION}); delete it and record a new one with RAG_BASELINE=update (e.g. RAG_BASELINE=update npx vitest run). The file was left as it is.`,
    );
  }
  if (version > BASELINE_SCHEMA_VERSION) {
    throw new BaselineError(
      path,
      'newer-schema',
      `written by a newer rag-matchers (baseline schema version ${version}; this version reads up to ${BASELINE_SCHEMA_VERSION}); upgrade rag-matchers. The file was left as it is.`,
    );
  }
  for (const key of Object.keys(top)) {
    if (!TOP_LEVEL_KEYS.includes(key) && key !== 'rows') {
      throw new BaselineError(
        path,
        'malformed',
        `unknown top-level key ${JSON.stringify(key)}; a baseline holds only "generatedBy", "schemaVersion" and "rows" (an update would drop it, so it is refused rather than lost).`,
      );
    }
  }
  return validateRows(top.rows, path, version);
}

/** Measures whose every value lies in [0, 1]: the retrieval measures, faithfulness and judge scores (any case). */
function isProportion(measure: string): boolean {
  const lowered = measure.toLowerCase();
  if (lowered === 'faithfulness' || lowered.startsWith('judge:')) return true;
  try {
    parseMeasure(measure);
    return true;
  } catch {
    return false;
  }
}

/** The first row of "rows": the column names, fixed, so that no sample row is ever the first (see the top). */
export const BASELINE_COLUMNS = ['file', 'describe', 'question', 'measure', 'value', 'project'] as const;
/** Version 4's header: a last, optional cell holds the sample's judgment audit (SampleAudit). */
export const BASELINE_AUDIT_COLUMNS = [...BASELINE_COLUMNS, 'judgments'] as const;
const ROW_SHAPE = '[file, [describe path], question, measure, value] (and the project of a named Vitest project)';
const AUDIT_ROW_SHAPE = `${ROW_SHAPE}, and last an optional { "labels", "unjudged" } object`;

/** Versions 3 and 4: one row per sample (version 4 rows may end with a SampleAudit object). */
function validateRows(rows: unknown, path: string, version: number): BaselineFile {
  const columns = version >= 4 ? BASELINE_AUDIT_COLUMNS : BASELINE_COLUMNS;
  if (!Array.isArray(rows) || JSON.stringify(rows[0]) !== JSON.stringify(columns)) {
    throw new BaselineError(
      path,
      'malformed',
      `"rows" must be a list whose first entry is the column header ${JSON.stringify(columns)}, found ${Array.isArray(rows) ? rowText(rows[0]) : describeJson(rows)}; ${ACCEPT_HINT}.`,
    );
  }
  const result = emptyBaseline();
  const proportion = new Map<string, boolean>();
  let previous: { cells: unknown[]; identity: SuiteIdentity; key: string; suite: BaselineSuite } | undefined;
  rows.forEach((cells: unknown, index) => {
    if (index === 0) return;
    const where = `rows[${index}]`;
    const problem = rowProblem(cells, version);
    if (problem !== undefined)
      throw new BaselineError(path, 'malformed', `${where}${problem}, found ${rowText(cells)}; ${ACCEPT_HINT}.`);
    const [file, describe, question, measure, value] = cells as [string, string[], string, string, unknown];
    const project = projectCell(cells as unknown[]);
    const audit = auditCell(cells as unknown[]);
    // Rows of one suite come together: its key is worked out once per run of them.
    if (previous === undefined || !sameSuite(previous.cells, cells as unknown[])) {
      const identity: SuiteIdentity = project === undefined ? { file, describe } : { file, describe, project };
      const key = suiteKeyOf(identity);
      previous = {
        cells: cells as unknown[],
        identity,
        key,
        suite: (result.suites[key] ??= createRecord<BaselineSamples>()),
      };
    }
    const { identity, suite, key } = previous;
    const label = (): string => `${where} (${suiteNameOf(identity)})`;
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw malformedEntry(path, label(), [measure, question], value, 'a finite number');
    if (!proportion.has(measure)) proportion.set(measure, isProportion(measure));
    if (proportion.get(measure) === true && (value < 0 || value > 1))
      throw malformedEntry(path, label(), [measure, question], value, `between 0 and 1 (${measure} is a proportion)`);
    const samples = (suite[measure] ??= createRecord<number>());
    if (own(samples, question) !== undefined) {
      const first = rows.findIndex((other, i) => i > 0 && sameSample(other as unknown[], cells as unknown[]));
      throw new BaselineError(
        path,
        'malformed',
        `${where} repeats rows[${first}]: question ${JSON.stringify(question)} of ${suiteNameOf(identity)} · ${measure} has two values (${samples[question]} and ${value}), so it is ambiguous; keep one of the two rows; ${ACCEPT_HINT}.`,
      );
    }
    samples[question] = value;
    if (audit !== undefined) {
      const problem = auditProblem(audit);
      if (problem !== undefined) throw malformedEntry(path, label(), [measure, question], audit, problem);
      const audits = ((result.audits ??= createRecord())[key] ??= createRecord());
      (audits[measure] ??= createRecord())[question] = cleanAudit(audit as Record<string, unknown>);
    }
  });
  return result;
}

/** A valid row's project: the string after the value, when there is one. */
function projectCell(cells: readonly unknown[]): string | undefined {
  return typeof cells[5] === 'string' ? cells[5] : undefined;
}

/** A valid row's audit: the object that ends it, when there is one. */
function auditCell(cells: readonly unknown[]): unknown {
  const last = cells[cells.length - 1];
  return cells.length > 5 && typeof last === 'object' && last !== null ? last : undefined;
}

const AUDIT_KEYS = ['labels', 'unjudged'];

/** What is wrong with a row's audit cell, as "must be …" text, or undefined. */
function auditProblem(audit: unknown): string | undefined {
  const expected = 'an object { "labels": fingerprint, "unjudged": count }';
  if (!isPlainObject(audit)) return expected;
  for (const key of Object.keys(audit)) if (!AUDIT_KEYS.includes(key)) return expected;
  const { labels, unjudged } = audit;
  if (labels !== undefined && (typeof labels !== 'string' || labels.length === 0))
    return `${expected}, its "labels" a non-empty string`;
  if (unjudged !== undefined && (typeof unjudged !== 'number' || !Number.isSafeInteger(unjudged) || unjudged < 1))
    return `${expected}, its "unjudged" a whole number ≥ 1`;
  return undefined;
}

/** A valid audit cell as held in memory: the parsed object itself (it is fresh, and only read). */
function cleanAudit(audit: Record<string, unknown>): SampleAudit {
  return audit as SampleAudit;
}

/** True when two valid rows belong to the same suite (file, describe path, project). */
function sameSuite(a: unknown[], b: unknown[]): boolean {
  const [describeA, describeB] = [a[1] as string[], b[1] as string[]];
  return (
    a[0] === b[0] &&
    projectCell(a) === projectCell(b) &&
    describeA.length === describeB.length &&
    describeA.every((name, index) => name === describeB[index])
  );
}

/** True when two valid rows are the same suite × question × measure. */
function sameSample(a: unknown[], b: unknown[]): boolean {
  return JSON.stringify([...a.slice(0, 4), projectCell(a)]) === JSON.stringify([...b.slice(0, 4), projectCell(b)]);
}

/** What is wrong with a row's shape or its identity cells (its value is checked with the measure), or undefined. */
function rowProblem(cells: unknown, version: number): string | undefined {
  const audited = version >= 4 && Array.isArray(cells) && auditCell(cells) !== undefined;
  const maxLength = audited ? 7 : 6;
  if (!Array.isArray(cells) || cells.length < 5 || cells.length > maxLength)
    return ` must be ${version >= 4 ? AUDIT_ROW_SHAPE : ROW_SHAPE}`;
  const [file, describe, question, measure] = cells as unknown[];
  const project = audited && cells.length === 6 ? undefined : cells[5];
  if (typeof file !== 'string' || file.length === 0) return ": its file must be the test file's path";
  if (!Array.isArray(describe) || !describe.every((name) => typeof name === 'string'))
    return ': its describe path must be a list of describe-block names ([] at the top level)';
  if (typeof question !== 'string') return ': its question must be a string';
  if (typeof measure !== 'string' || measure.length === 0) return ': its measure must be a measure name';
  if (cells.length > (audited ? 6 : 5) && (typeof project !== 'string' || project.length === 0))
    return ": its project must be a Vitest project's name";
  return undefined;
}

/** A row as it reads in the file (cut after 100 characters). */
function rowText(row: unknown): string {
  const json = JSON.stringify(row);
  if (json === undefined) return 'nothing';
  return json.length > 100 ? `${json.slice(0, 97)}...` : json;
}

/** One sample of a baseline as a row of the file. */
export interface BaselineRow {
  identity: SuiteIdentity;
  question: string;
  measure: string;
  value: number;
  /** Version 4: what the sample kept about its judgments. */
  audit?: SampleAudit;
}

/**
 * The file's text (schema version 4 when a sample holds a judgment audit, else 3): the column header, then one row per sample in the file's order
 * (compareRows), each on its own line after its separating comma; a final newline. The same baseline always
 * gives the same bytes. A suite or measure without samples has no row, so it is not written. Throws for a
 * value that JSON cannot hold (NaN, Infinity).
 */
export function formatBaseline(file: BaselineFile): string {
  const rows = baselineRows(checkFormattable(file));
  return formatBaselineRows(rows.map(formatBaselineRow), schemaVersionFor(rows));
}

/** The version rows are written in: 4 when one of them holds an audit, else 3 (as before version 4). */
export function schemaVersionFor(rows: readonly Pick<BaselineRow, 'audit'>[]): number {
  return rows.some((row) => row.audit !== undefined) ? BASELINE_SCHEMA_VERSION : ROWS_ONLY_SCHEMA_VERSION;
}

/** Every sample of `file` as a row, in the file's order: by suite, then question, then measure. */
export function baselineRows(file: BaselineFile): BaselineRow[] {
  const suites = Object.keys(file.suites)
    .map((key) => ({ key, identity: parseSuiteKey(key) }))
    .sort((a, b) => compareIdentities(a.identity, b.identity));
  const rows: BaselineRow[] = [];
  for (const { key, identity } of suites) {
    const suite = file.suites[key]!;
    const audits = file.audits === undefined ? undefined : own(file.audits, key);
    const measures = sortedKeys(suite);
    const questions = [...new Set(measures.flatMap((measure) => Object.keys(suite[measure]!)))].sort(compareKeys);
    for (const question of questions) {
      for (const measure of measures) {
        const value = own(suite[measure]!, question);
        if (value === undefined) continue;
        const measureAudits = audits === undefined ? undefined : own(audits, measure);
        const audit = measureAudits === undefined ? undefined : auditToWrite(own(measureAudits, question));
        rows.push(
          audit === undefined ? { identity, question, measure, value } : { identity, question, measure, value, audit },
        );
      }
    }
  }
  return rows;
}

/** The order of rows in the file (see baselineRows). */
export function compareRows(a: BaselineRow, b: BaselineRow): number {
  return (
    compareIdentities(a.identity, b.identity) ||
    compareKeys(a.question, b.question) ||
    compareKeys(a.measure, b.measure)
  );
}

/** A row's line in the file: `    ,["test/a.test.ts", ["refunds"], "q1", "recall@5", 1]` (the project last, when there is one). */
export function formatBaselineRow(row: BaselineRow): string {
  const { before, after } = suiteCells(row.identity);
  const cells = `${before}${JSON.stringify(row.question)}, ${JSON.stringify(row.measure)}, ${JSON.stringify(row.value)}${after}`;
  return row.audit === undefined ? cells : `${cells.slice(0, -1)}, ${formatAudit(row.audit)}]`;
}

/** An audit worth a cell (undefined when it holds nothing). */
function auditToWrite(audit: SampleAudit | undefined): SampleAudit | undefined {
  if (audit === undefined) return undefined;
  return audit.labels === undefined && audit.unjudged === undefined ? undefined : audit;
}

/** `{"labels": "3f9a0c21", "unjudged": 2}`: keys in a fixed order. */
function formatAudit(audit: SampleAudit): string {
  const labels = audit.labels === undefined ? '' : `"labels": ${JSON.stringify(audit.labels)}`;
  if (audit.unjudged === undefined) return `{${labels}}`;
  return `{${labels}${labels === '' ? '' : ', '}"unjudged": ${audit.unjudged}}`;
}

// The rows of one suite share one identity object (baselineRows): its cells are written once.
const suiteCellsCache = new WeakMap<SuiteIdentity, { before: string; after: string }>();

function suiteCells(identity: SuiteIdentity): { before: string; after: string } {
  let cells = suiteCellsCache.get(identity);
  if (cells === undefined) {
    cells = {
      before: `    ,[${JSON.stringify(identity.file)}, ${jsonList(identity.describe)}, `,
      after: identity.project === undefined ? ']' : `, ${JSON.stringify(identity.project)}]`,
    };
    suiteCellsCache.set(identity, cells);
  }
  return cells;
}

/** The file around its row lines (from formatBaselineRow; the merge driver puts conflict markers between them). */
export function formatBaselineRows(rowLines: readonly string[], version = BASELINE_SCHEMA_VERSION): string {
  return [
    '{',
    `  "generatedBy": ${JSON.stringify(BASELINE_GENERATED_BY)},`,
    `  "schemaVersion": ${version},`,
    '  "rows": [',
    `    ${jsonList(version >= 4 ? BASELINE_AUDIT_COLUMNS : BASELINE_COLUMNS)}`,
    ...rowLines,
    '  ]',
    '}',
    '',
  ].join('\n');
}

function jsonList(names: readonly string[]): string {
  return `[${names.map((name) => JSON.stringify(name)).join(', ')}]`;
}

/** Order of suites in the file: by file, then describe path (name by name, a prefix first), then project (none first). */
export function compareIdentities(a: SuiteIdentity, b: SuiteIdentity): number {
  const byFile = compareKeys(a.file, b.file);
  if (byFile !== 0) return byFile;
  const length = Math.min(a.describe.length, b.describe.length);
  for (let i = 0; i < length; i++) {
    const byName = compareKeys(a.describe[i]!, b.describe[i]!);
    if (byName !== 0) return byName;
  }
  if (a.describe.length !== b.describe.length) return a.describe.length - b.describe.length;
  if (a.project === b.project) return 0;
  if (a.project === undefined) return -1;
  if (b.project === undefined) return 1;
  return compareKeys(a.project, b.project);
}

/** The checks of validateBaseline that writing needs, without copying: a wrong shape or a value JSON cannot hold. */
function checkFormattable(file: BaselineFile): BaselineFile {
  const where = 'formatBaseline(file)';
  if (!isPlainObject(file) || file.generatedBy !== BASELINE_GENERATED_BY || !isPlainObject(file.suites)) {
    throw new TypeError(
      `${where}: file must be a BaselineFile ({ schemaVersion, generatedBy: "rag-matchers", suites }).`,
    );
  }
  for (const key of Object.keys(file.suites)) {
    const measures: unknown = file.suites[key];
    const label = suiteNameOf(parseSuiteKey(key));
    if (!isPlainObject(measures)) throw malformedEntry(where, label, [], measures, 'an object of measures');
    for (const measure of Object.keys(measures)) {
      const samples = measures[measure];
      if (!isPlainObject(samples)) throw malformedEntry(where, label, [measure], samples, 'an object of sample values');
      for (const sampleId of Object.keys(samples)) {
        const value = samples[sampleId];
        if (typeof value !== 'number' || !Number.isFinite(value))
          throw malformedEntry(where, label, [measure, sampleId], value, 'a finite number');
      }
    }
  }
  return file;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformedEntry(path: string, suite: string, keys: string[], value: unknown, expected: string): BaselineError {
  const where = `${suite}${keys.map((key) => `[${JSON.stringify(key)}]`).join('')}`;
  return new BaselineError(
    path,
    'malformed',
    `${where} must be ${expected}, found ${describeJson(value)}; ${ACCEPT_HINT}.`,
  );
}

function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return 'an array';
  return jsonPreview(value);
}

/** Offset of the first `{` or `[` that opens level `limit + 1` in `text` (strings skipped); undefined when none does. */
export function findNestingBeyond(text: string, limit: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
    } else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > limit) return i;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return undefined;
}

/**
 * The first key that occurs twice in one object of valid JSON `text`, with the path of that object
 * (`rows[2]`) and the offset of the repeat; undefined when there is none.
 */
export function findRepeatedKey(text: string): { key: string; path: string; offset: number } | undefined {
  interface Level {
    keys: Set<string> | undefined;
    expectKey: boolean;
    label: string;
    index: number;
  }
  const stack: Level[] = [];
  const pathOf = (): string =>
    stack
      .map((level) => level.label)
      .join('')
      .replace(/^\./, '');
  let pendingLabel = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      let end = i + 1;
      let escaped = false;
      while (end < text.length && text.charCodeAt(end) !== 0x22) {
        if (text.charCodeAt(end) === 0x5c) {
          escaped = true;
          end++;
        }
        end++;
      }
      const top = stack[stack.length - 1];
      if (top?.keys !== undefined && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (top.keys.has(key)) return { key, path: pathOf(), offset: i };
        top.keys.add(key);
        top.expectKey = false;
        pendingLabel = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
      }
      i = end;
      continue;
    }
    if (code === 0x7b || code === 0x5b) {
      const parent = stack[stack.length - 1];
      const label = parent === undefined ? '' : parent.keys === undefined ? `[${parent.index}]` : pendingLabel;
      stack.push({ keys: code === 0x7b ? new Set() : undefined, expectKey: code === 0x7b, label, index: 0 });
    } else if (code === 0x7d || code === 0x5d) {
      stack.pop();
    } else if (code === 0x2c) {
      const top = stack[stack.length - 1]!;
      if (top.keys === undefined) top.index++;
      else top.expectKey = true;
    }
  }
  return undefined;
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
  const key = (): void => {
    space();
    string();
    space();
    if (text[i] !== ':') fail();
    i++;
  };
  // Iterative, with a stack of the closing brackets still due: a file nested 100,000 levels deep costs
  // an array of that length, not as many stack frames.
  const closers: string[] = [];
  try {
    for (;;) {
      space();
      const character = text[i];
      if (character === '{' || character === '[') {
        const closer = character === '{' ? '}' : ']';
        i++;
        space();
        if (text[i] !== closer) {
          closers.push(closer);
          if (closer === '}') key();
          continue;
        }
        i++;
      } else if (character === '"') string();
      else if (character === 't') literal('true');
      else if (character === 'f') literal('false');
      else if (character === 'n') literal('null');
      else number();
      // After a value: close what ends here, then a comma starts the next value.
      for (;;) {
        space();
        if (closers.length === 0) {
          if (i < text.length) fail();
          return text.length;
        }
        if (text[i] === ',') {
          i++;
          if (closers[closers.length - 1] === '}') key();
          break;
        }
        if (text[i] !== closers[closers.length - 1]) fail();
        i++;
        closers.pop();
      }
    }
  } catch (offset) {
    if (typeof offset === 'number') return Math.min(offset, text.length);
    throw offset;
  }
}
