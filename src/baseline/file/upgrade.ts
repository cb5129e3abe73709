// Each schema version the reader accepts, brought to the current in-memory BaselineFile. Versions 3 and 4
// share their rows (4 adds an optional judgments cell), so both are read as they are; 5 and 6 add ranking
// rows with their suite's cells and an object, 7 the compact ranking rows that belong to the question of
// the row after them. A later format change adds its version here, read into the current shape, and the
// writer writes only the newest.

import { parseMeasure } from '../../core/measures.js';
import { cleanTags, suiteKeyOf, suiteNameOf, type SuiteIdentity } from '../../recording/collected.js';
import { ACCEPT_HINT, BaselineError, describeJson, isPlainObject, malformedEntry } from './errors.js';
import {
  BASELINE_AUDIT_COLUMNS,
  BASELINE_COLUMNS,
  createRecord,
  emptyBaseline,
  OBJECT_RANKINGS_SCHEMA_VERSION,
  own,
  RANKING_ROW_MEASURE,
  LATENCY_ROW_MEASURE,
  type BaselineFile,
  type BaselineLatency,
  type QuestionRanking,
  type RankedHit,
  type BaselineSamples,
  type BaselineSuite,
  type SampleAudit,
} from './types.js';

const ROW_SHAPE = '[file, [describe path], question, measure, value] (and the project of a named Vitest project)';
const AUDIT_ROW_SHAPE = `${ROW_SHAPE}, and last an optional { "labels", "unjudged" } object`;

/**
 * Versions 3 to 7: one row per sample (version 4 rows may end with a SampleAudit object; versions 5 and 6 add
 * a row per question whose measure cell is "" and whose value cell is its QuestionRanking; version 7 writes
 * that row as [question, [text or null, hit, …], {tags, calls}?], for the question of the row after it).
 */
export function upgradeRows(rows: unknown, path: string, version: number): BaselineFile {
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
  let previous: RunOfSuite | undefined;
  // Version 7: the ranking row read last, waiting for its question's row (the next one) to name its suite.
  let pending: PendingRanking | undefined;
  // A plain loop, and a row's place (`rows[3]`) and label written only for a message: this runs per row.
  for (let index = 1; index < rows.length; index++) {
    const cells: unknown = rows[index];
    if (version > OBJECT_RANKINGS_SCHEMA_VERSION && Array.isArray(cells) && cells.length <= 3) {
      pending = readCompactRankingRow(cells, path, index);
      continue;
    }
    const waiting = pending;
    pending = undefined;
    if (
      version >= 5 &&
      version <= OBJECT_RANKINGS_SCHEMA_VERSION &&
      Array.isArray(cells) &&
      cells[3] === RANKING_ROW_MEASURE
    ) {
      readRankingRow(result, cells, path, whereOf(index), version);
      continue;
    }
    if (version >= 6 && Array.isArray(cells) && cells[3] === LATENCY_ROW_MEASURE) {
      readLatencyRow(result, cells, path, whereOf(index));
      continue;
    }
    const problem = rowProblem(cells, version);
    if (problem !== undefined)
      throw new BaselineError(
        path,
        'malformed',
        `${whereOf(index)}${problem}, found ${rowText(cells)}; ${ACCEPT_HINT}.`,
      );
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
        measures: new Map(),
      };
    }
    const { identity, suite, key } = previous;
    // A ranking row followed by another question's row lost its question (a hand-resolved conflict): dropped.
    if (waiting !== undefined && waiting.question === question) addRanking(result, key, waiting, path);
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw malformedEntry(path, labelOf(index, identity), [measure, question], value, 'a finite number');
    let records = previous.measures.get(measure);
    if (records === undefined) {
      if (!proportion.has(measure)) proportion.set(measure, isProportion(measure));
      records = {
        samples: (suite[measure] ??= createRecord<number>()),
        audits: undefined,
        proportion: proportion.get(measure)!,
      };
      previous.measures.set(measure, records);
    }
    if (records.proportion && (value < 0 || value > 1))
      throw malformedEntry(
        path,
        labelOf(index, identity),
        [measure, question],
        value,
        `between 0 and 1 (${measure} is a proportion)`,
      );
    const samples = records.samples;
    // A record without a prototype: a question it does not hold reads undefined, whatever its name.
    if (samples[question] !== undefined) {
      const first = rows.findIndex((other, i) => i > 0 && sameSample(other as unknown[], cells as unknown[]));
      throw new BaselineError(
        path,
        'malformed',
        `${whereOf(index)} repeats rows[${first}]: question ${JSON.stringify(question)} of ${suiteNameOf(identity)} · ${measure} has two values (${samples[question]} and ${value}), so it is ambiguous; keep one of the two rows; ${ACCEPT_HINT}.`,
      );
    }
    samples[question] = value;
    if (audit !== undefined) {
      const problem = auditProblem(audit);
      if (problem !== undefined)
        throw malformedEntry(path, labelOf(index, identity), [measure, question], audit, problem);
      records.audits ??= auditsOf(result, key, measure);
      records.audits[question] = cleanAudit(audit as Record<string, unknown>);
    }
  }
  return result;
}

/**
 * The suite whose rows are being read (they come together) and, per measure, where its rows go: a row's
 * records are found once per measure of the run rather than looked up by name in the file's for each row.
 */
interface RunOfSuite {
  cells: unknown[];
  identity: SuiteIdentity;
  key: string;
  suite: BaselineSuite;
  measures: Map<
    string,
    { samples: BaselineSamples; audits: Record<string, SampleAudit> | undefined; proportion: boolean }
  >;
}

/** The record of one suite × measure's audits in `result`, made when absent. */
function auditsOf(result: BaselineFile, suiteKey: string, measure: string): Record<string, SampleAudit> {
  const suiteAudits = ((result.audits ??= createRecord())[suiteKey] ??= createRecord());
  return (suiteAudits[measure] ??= createRecord());
}

/** Where a row is, as messages name it: `rows[3]`. */
function whereOf(index: number): string {
  return `rows[${index}]`;
}

/** A value row's place and suite, as messages name them: `rows[3] (test/a.test.ts > refunds)`. */
function labelOf(index: number, identity: SuiteIdentity): string {
  return `${whereOf(index)} (${suiteNameOf(identity)})`;
}

const RANKING_SHAPE =
  '[file, [describe path], question, "", { "text": question text, "top": [key or [key, grade], …] }] (and the project)';
const TAGGED_RANKING_SHAPE =
  '[file, [describe path], question, "", { "text": question text, "top": [key or [key, grade], …], "tags": [tag, …] }] (and the project)';

/** Reads a question's ranking row (version 5; version 6 adds its tags) into `result.rankings`. */
function readRankingRow(result: BaselineFile, cells: unknown[], path: string, where: string, version: number): void {
  const shape = version >= 6 ? TAGGED_RANKING_SHAPE : RANKING_SHAPE;
  const fail = (problem: string): never => {
    throw new BaselineError(path, 'malformed', `${where}${problem}, found ${rowText(cells)}; ${ACCEPT_HINT}.`);
  };
  if (cells.length < 5 || cells.length > 6) fail(` must be ${shape}`);
  const [file, describe, question, , ranking, project] = cells;
  if (typeof file !== 'string' || file.length === 0) fail(": its file must be the test file's path");
  if (!Array.isArray(describe) || !describe.every((name) => typeof name === 'string'))
    fail(': its describe path must be a list of describe-block names ([] at the top level)');
  if (typeof question !== 'string') fail(': its question must be a string');
  if (project !== undefined && (typeof project !== 'string' || project.length === 0))
    fail(": its project must be a Vitest project's name");
  const read = rankingOf(ranking, version >= 6);
  if (read === undefined) fail(`: its ranking must be ${shape.slice(shape.indexOf('{'), shape.indexOf('}') + 1)}`);
  const identity: SuiteIdentity =
    project === undefined
      ? { file: file as string, describe: describe as string[] }
      : { file: file as string, describe: describe as string[], project: project as string };
  const rankings = ((result.rankings ??= createRecord())[suiteKeyOf(identity)] ??= createRecord());
  if (own(rankings, question as string) !== undefined)
    fail(`: question ${JSON.stringify(question)} has two ranking rows; keep one`);
  rankings[question as string] = read!;
}

const COMPACT_RANKING_SHAPE =
  '[question, [question text or null, key or [key, grade], …]], and last, when the question has them, { "tags": [tag, …], "calls": { kind: count } }';

/** A version-7 ranking row read, before the row after it names its suite. */
interface PendingRanking {
  question: string;
  ranking: QuestionRanking;
  index: number;
  cells: unknown[];
}

/**
 * Reads a version-7 ranking row: `["q1",["How long…",["refunds#2",2],"billing#1"],{"tags":["billing"]}]`.
 * It is most of a file's rows in bytes, so it is read without a closure or an object made per row.
 */
function readCompactRankingRow(cells: unknown[], path: string, index: number): PendingRanking {
  const [question, list, extras] = cells;
  if (cells.length < 2 || typeof question !== 'string' || !Array.isArray(list) || list.length === 0)
    throw rowError(path, whereOf(index), cells, ` must be a value row or a ranking row ${COMPACT_RANKING_SHAPE}`);
  const text: unknown = list[0];
  const top = hitsOf(list, 1);
  if ((text !== null && typeof text !== 'string') || top === undefined)
    throw rowError(
      path,
      whereOf(index),
      cells,
      ': its ranking must be [question text or null, key or [key, grade], …]',
    );
  const ranking: QuestionRanking = text === null ? { top } : { text: text as string, top };
  if (extras !== undefined && !withTagsAndCalls(ranking, extras))
    throw rowError(
      path,
      whereOf(index),
      cells,
      ': its last cell must be { "tags": [tag, …], "calls": { kind: count } }',
    );
  return { question, ranking, index, cells };
}

function rowError(path: string, where: string, cells: unknown, problem: string): BaselineError {
  return new BaselineError(path, 'malformed', `${where}${problem}, found ${rowText(cells)}; ${ACCEPT_HINT}.`);
}

/** Adds a version-7 row's last cell, `{"tags": […], "calls": {…}}`, to `ranking`; false when it is not one. */
function withTagsAndCalls(ranking: QuestionRanking, extras: unknown): boolean {
  if (!isPlainObject(extras)) return false;
  for (const key of Object.keys(extras)) if (key !== 'tags' && key !== 'calls') return false;
  const { tags, calls } = extras;
  if (tags !== undefined) {
    const tagList = cleanTags(tags);
    if (tagList === undefined || tagList.length !== (tags as unknown[]).length) return false;
    ranking.tags = tagList;
  }
  if (calls !== undefined) {
    const callCounts = callsOf(calls);
    if (callCounts === undefined) return false;
    ranking.calls = callCounts;
  }
  return true;
}

/** The hits of `list` from `start` on (a key, or [key, grade]), or undefined when one is neither. */
function hitsOf(list: readonly unknown[], start: number): RankedHit[] | undefined {
  const hits: RankedHit[] = [];
  for (let index = start; index < list.length; index++) {
    const hit = list[index];
    if (typeof hit === 'string') hits.push({ key: hit });
    else if (
      Array.isArray(hit) &&
      hit.length === 2 &&
      typeof hit[0] === 'string' &&
      typeof hit[1] === 'number' &&
      Number.isFinite(hit[1])
    )
      hits.push({ key: hit[0], grade: hit[1] });
    else return undefined;
  }
  return hits;
}

/** Keeps a version-7 ranking row under the suite of its question's row. */
function addRanking(result: BaselineFile, suiteKey: string, pending: PendingRanking, path: string): void {
  const rankings = ((result.rankings ??= createRecord())[suiteKey] ??= createRecord());
  if (own(rankings, pending.question) !== undefined)
    throw new BaselineError(
      path,
      'malformed',
      `${whereOf(pending.index)}: question ${JSON.stringify(pending.question)} has two ranking rows; keep one, found ${rowText(pending.cells)}; ${ACCEPT_HINT}.`,
    );
  rankings[pending.question] = pending.ranking;
}

const LATENCY_SHAPE =
  '[file, [describe path], "", "#latency", { "timed": questions, "p50": ms, "p95": ms, "max": ms }] (and the project)';

/** Reads a suite's latency row (version 6) into `result.latency`. */
function readLatencyRow(result: BaselineFile, cells: unknown[], path: string, where: string): void {
  const fail = (problem: string): never => {
    throw new BaselineError(path, 'malformed', `${where}${problem}, found ${rowText(cells)}; ${ACCEPT_HINT}.`);
  };
  if (cells.length < 5 || cells.length > 6) fail(` must be ${LATENCY_SHAPE}`);
  const [file, describe, question, , latency, project] = cells;
  if (typeof file !== 'string' || file.length === 0) fail(": its file must be the test file's path");
  if (!Array.isArray(describe) || !describe.every((name) => typeof name === 'string'))
    fail(': its describe path must be a list of describe-block names ([] at the top level)');
  if (question !== '') fail(': its question cell must be ""');
  if (project !== undefined && (typeof project !== 'string' || project.length === 0))
    fail(": its project must be a Vitest project's name");
  const read = latencyOf(latency);
  if (read === undefined) fail(` must be ${LATENCY_SHAPE}`);
  const identity: SuiteIdentity =
    project === undefined
      ? { file: file as string, describe: describe as string[] }
      : { file: file as string, describe: describe as string[], project: project as string };
  const latencies = (result.latency ??= createRecord());
  const key = suiteKeyOf(identity);
  if (own(latencies, key) !== undefined) fail(': the suite has two latency rows; keep one');
  latencies[key] = read!;
}

/** A latency cell as held in memory, or undefined when it is not one. */
function latencyOf(cell: unknown): BaselineLatency | undefined {
  if (!isPlainObject(cell)) return undefined;
  const keys = ['timed', 'p50', 'p95', 'max'];
  if (Object.keys(cell).length !== keys.length || !keys.every((key) => key in cell)) return undefined;
  const { timed, p50, p95, max } = cell;
  if (typeof timed !== 'number' || !Number.isSafeInteger(timed) || timed < 1) return undefined;
  for (const ms of [p50, p95, max]) if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return undefined;
  return { timed, p50: p50 as number, p95: p95 as number, max: max as number };
}

/** A ranking's calls cell (version 6), or undefined when it is not one: `{ "rerank": 1 }`. */
function callsOf(cell: unknown): Record<string, number> | undefined {
  if (!isPlainObject(cell)) return undefined;
  const calls = createRecord<number>();
  for (const [kind, count] of Object.entries(cell)) {
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) return undefined;
    calls[kind] = count;
  }
  return calls;
}

/** A version-5 or 6 ranking cell as held in memory, or undefined when it is not one. */
function rankingOf(cell: unknown, withVersion6Keys: boolean): QuestionRanking | undefined {
  if (!isPlainObject(cell)) return undefined;
  const { text, top, tags, calls } = cell;
  if (
    Object.keys(cell).some(
      (key) => key !== 'text' && key !== 'top' && !(withVersion6Keys && (key === 'tags' || key === 'calls')),
    )
  )
    return undefined;
  if (text !== undefined && typeof text !== 'string') return undefined;
  const hits = Array.isArray(top) ? hitsOf(top, 0) : undefined;
  if (hits === undefined) return undefined;
  const ranking: QuestionRanking = text === undefined ? { top: hits } : { text, top: hits };
  return withTagsAndCalls(ranking, {
    ...(tags === undefined ? {} : { tags }),
    ...(calls === undefined ? {} : { calls }),
  })
    ? ranking
    : undefined;
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
  const describeA = a[1] as string[];
  const describeB = b[1] as string[];
  if (a[0] !== b[0] || projectCell(a) !== projectCell(b) || describeA.length !== describeB.length) return false;
  for (let index = 0; index < describeA.length; index++) if (describeA[index] !== describeB[index]) return false;
  return true;
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
