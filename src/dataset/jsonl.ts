// JSON Lines eval sets and runs, and conversion between eval sets and TREC qrels.
//
// Eval set line: { "id": "q1", "query": "…", "relevant": ["doc-1"] | { "doc-1": 2 }, …extra fields }
// Run line:      { "id": "q1", "hits": ["doc-1", …] | [{ "id": "doc-1", "score": 3.2 }, …] }

import { readFile } from 'node:fs/promises';

import { JsonlFormatError, STRING_SOURCE_NAME } from './errors.js';
import type { Qrels } from '../trec/index.js';

export { JsonlFormatError } from './errors.js';

export interface EvalQuery {
  id: string;
  query: string;
  /** Binary judgments (grade 1 each) or graded ones (doc id → grade). */
  relevant: readonly string[] | Readonly<Record<string, number>>;
}

/**
 * A question as read from a file: any other fields of the line (`kind`, `answer`, …) are kept.
 * (EvalQuery itself has no index signature, so a user's own question interface is assignable to it.)
 */
export type EvalQueryRecord = EvalQuery & Record<string, unknown>;

export type EvalSet = EvalQueryRecord[];

/** query id → hits in rank order (strings or hit objects, kept as they are in the file). */
export type JsonlRun = Map<string, unknown[]>;

export interface JsonlParseOptions {
  /** Name used in error messages; `<string>` when omitted. */
  file?: string;
}

interface JsonLine {
  lineNumber: number;
  lineText: string;
  value: unknown;
}

/** Each non-blank line of `text`, JSON-parsed; invalid JSON throws JsonlFormatError. */
function* jsonLines(text: string, file: string): Generator<JsonLine> {
  let lineNumber = 0;
  let lineStart = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (lineStart < text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    lineNumber++;
    const lineText = text.slice(lineStart, lineEnd).trim();
    lineStart = lineEnd + 1;
    if (lineText.length === 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(lineText);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new JsonlFormatError({ file, lineNumber, lineText, problem: `invalid JSON: ${reason}` });
    }
    yield { lineNumber, lineText, value };
  }
}

function failAt(file: string, line: JsonLine, problem: string): never {
  throw new JsonlFormatError({ file, lineNumber: line.lineNumber, lineText: line.lineText, problem });
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The line's object; its `id` as a string (integer ids such as 7 become "7"). */
function readIdentifiedObject(file: string, line: JsonLine): { record: Record<string, unknown>; id: string } {
  const record = line.value;
  if (!isPlainRecord(record)) failAt(file, line, `expected a JSON object, found ${describeJson(record)}`);
  const id = record['id'];
  if (typeof id === 'string' && id.length > 0) return { record, id };
  if (typeof id === 'number' && Number.isSafeInteger(id)) return { record, id: String(id) };
  if (id === undefined) failAt(file, line, `missing "id" (add "id": "<query id>")`);
  return failAt(file, line, `"id" must be a non-empty string, found ${describeJson(id)}`);
}

/** Remembers the line of each query id to report duplicates. */
class QueryIdRegistry {
  private readonly firstLines = new Map<string, number>();

  constructor(private readonly file: string) {}

  register(id: string, line: JsonLine): void {
    const firstLine = this.firstLines.get(id);
    if (firstLine !== undefined) failAt(this.file, line, `duplicate query id '${id}' (first on line ${firstLine})`);
    this.firstLines.set(id, line.lineNumber);
  }
}

// ---------------------------------------------------------------------------------------------
// Eval sets
// ---------------------------------------------------------------------------------------------

function validateRelevant(file: string, line: JsonLine, relevant: unknown): void {
  if (relevant === undefined) {
    failAt(file, line, `missing "relevant" (a list of doc ids, or an object of doc id → grade)`);
  }
  if (Array.isArray(relevant)) {
    const badIndex = relevant.findIndex((docId) => typeof docId !== 'string');
    if (badIndex !== -1) {
      failAt(file, line, `"relevant"[${badIndex}] must be a doc id string, found ${describeJson(relevant[badIndex])}`);
    }
    return;
  }
  if (!isPlainRecord(relevant)) {
    failAt(
      file,
      line,
      `"relevant" must be a list of doc ids or an object of doc id → grade, found ${describeJson(relevant)}`,
    );
  }
  for (const [docId, grade] of Object.entries(relevant)) {
    if (typeof grade !== 'number' || !Number.isFinite(grade)) {
      failAt(file, line, `"relevant"["${docId}"] must be a finite number grade, found ${describeJson(grade)}`);
    }
  }
}

function toEvalQuery(file: string, line: JsonLine): EvalQueryRecord {
  const { record, id } = readIdentifiedObject(file, line);
  const query = record['query'];
  if (typeof query !== 'string') {
    const problem =
      query === undefined
        ? `missing "query" (add "query": "<question text>"; it may be empty)`
        : `"query" must be a string, found ${describeJson(query)}`;
    failAt(file, line, problem);
  }
  validateRelevant(file, line, record['relevant']);
  return { ...record, id, query, relevant: record['relevant'] as EvalQuery['relevant'] };
}

/** Parses a JSON Lines eval set. Extra fields stay on each query object as they are. */
export function parseEvalSetJsonl(text: string, options: JsonlParseOptions = {}): EvalSet {
  return parseEvalSetLines(text, options).map((entry) => entry.query);
}

/** A question of an eval set and the line of its file it was read from (1-based). */
export interface EvalQueryAtLine {
  query: EvalQueryRecord;
  lineNumber: number;
}

/** parseEvalSetJsonl, each question with its line (annotations point at it). */
export function parseEvalSetLines(text: string, options: JsonlParseOptions = {}): EvalQueryAtLine[] {
  const file = options.file ?? STRING_SOURCE_NAME;
  const registry = new QueryIdRegistry(file);
  const questions: EvalQueryAtLine[] = [];
  for (const line of jsonLines(text, file)) {
    const query = toEvalQuery(file, line);
    registry.register(query.id, line);
    questions.push({ query, lineNumber: line.lineNumber });
  }
  return questions;
}

/**
 * One eval set question given as a parsed JSON value (an element of a JSON array file, say), checked
 * as a JSON Lines line is: a JsonlFormatError names `file`, `lineNumber` and the field.
 */
export function readEvalQuery(value: unknown, file: string, lineNumber: number, lineText: string): EvalQueryRecord {
  return toEvalQuery(file, { lineNumber, lineText, value });
}

export async function readEvalSetFile(path: string): Promise<EvalSet> {
  return parseEvalSetJsonl(await readFile(path, 'utf8'), { file: path });
}

/** One JSON object per line, fields in their stored order. */
export function formatEvalSetJsonl(evalSet: readonly EvalQuery[]): string {
  let output = '';
  for (const evalQuery of evalSet) output += `${JSON.stringify(evalQuery)}\n`;
  return output;
}

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

/** Parses a JSON Lines run (`{ "id", "hits": [...] }` per line); hits are kept as they are. */
export function parseRunJsonl(text: string, options: JsonlParseOptions = {}): JsonlRun {
  const file = options.file ?? STRING_SOURCE_NAME;
  const registry = new QueryIdRegistry(file);
  const run: JsonlRun = new Map();
  for (const line of jsonLines(text, file)) {
    const { record, id } = readIdentifiedObject(file, line);
    const hits = record['hits'];
    if (!Array.isArray(hits)) {
      const problem =
        hits === undefined
          ? `missing "hits" (add "hits": [...] in rank order)`
          : `"hits" must be an array in rank order, found ${describeJson(hits)}`;
      failAt(file, line, problem);
    }
    registry.register(id, line);
    run.set(id, hits);
  }
  return run;
}

export async function readRunJsonlFile(path: string): Promise<JsonlRun> {
  return parseRunJsonl(await readFile(path, 'utf8'), { file: path });
}

export function formatRunJsonl(run: JsonlRun): string {
  let output = '';
  for (const [id, hits] of run) output += `${JSON.stringify({ id, hits })}\n`;
  return output;
}

// ---------------------------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------------------------

/** Eval set → qrels: a list of ids gets grade 1 each; a graded object keeps its grades. */
export function toQrels(evalSet: readonly EvalQuery[]): Qrels {
  const qrels: Qrels = new Map();
  for (const [index, evalQuery] of evalSet.entries()) {
    if (qrels.has(evalQuery.id)) {
      throw new RangeError(
        `toQrels: evalSet[${index}] repeats query id '${evalQuery.id}'; give each query a unique id or merge their judgments`,
      );
    }
    qrels.set(evalQuery.id, judgmentsOf(evalQuery.relevant));
  }
  return qrels;
}

function judgmentsOf(relevant: EvalQuery['relevant']): Map<string, number> {
  if (Array.isArray(relevant)) return new Map(relevant.map((docId) => [docId, 1]));
  return new Map(Object.entries(relevant));
}

/** Qrels → eval set with empty query texts; judgments become a graded object (grade 0 entries kept). */
export function fromQrels(qrels: Qrels): EvalSet {
  const evalSet: EvalSet = [];
  for (const [id, judgments] of qrels) {
    evalSet.push({ id, query: '', relevant: Object.fromEntries(judgments) });
  }
  return evalSet;
}
