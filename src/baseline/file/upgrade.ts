// Each schema version the reader accepts, brought to the current in-memory BaselineFile. Versions 3 and 4
// share their rows (4 adds an optional judgments cell), so both are read as they are; a later format
// change adds its version here, read into the current shape, and the writer writes only the newest.

import { parseMeasure } from '../../core/measures.js';
import { suiteKeyOf, suiteNameOf, type SuiteIdentity } from '../../recording/collected.js';
import { ACCEPT_HINT, BaselineError, describeJson, isPlainObject, malformedEntry } from './errors.js';
import {
  BASELINE_AUDIT_COLUMNS,
  BASELINE_COLUMNS,
  createRecord,
  emptyBaseline,
  own,
  RANKING_ROW_MEASURE,
  type BaselineFile,
  type QuestionRanking,
  type RankedHit,
  type BaselineSamples,
  type BaselineSuite,
  type SampleAudit,
} from './types.js';

const ROW_SHAPE = '[file, [describe path], question, measure, value] (and the project of a named Vitest project)';
const AUDIT_ROW_SHAPE = `${ROW_SHAPE}, and last an optional { "labels", "unjudged" } object`;

/**
 * Versions 3, 4 and 5: one row per sample (version 4 rows may end with a SampleAudit object; version 5 adds a
 * row per question whose measure cell is "" and whose value cell is its QuestionRanking).
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
  let previous: { cells: unknown[]; identity: SuiteIdentity; key: string; suite: BaselineSuite } | undefined;
  rows.forEach((cells: unknown, index) => {
    if (index === 0) return;
    const where = `rows[${index}]`;
    if (version >= 5 && Array.isArray(cells) && cells[3] === RANKING_ROW_MEASURE) {
      readRankingRow(result, cells, path, where);
      return;
    }
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

const RANKING_SHAPE =
  '[file, [describe path], question, "", { "text": question text, "top": [key or [key, grade], …] }] (and the project)';

/** Reads a question's ranking row (version 5) into `result.rankings`. */
function readRankingRow(result: BaselineFile, cells: unknown[], path: string, where: string): void {
  const fail = (problem: string): never => {
    throw new BaselineError(path, 'malformed', `${where}${problem}, found ${rowText(cells)}; ${ACCEPT_HINT}.`);
  };
  if (cells.length < 5 || cells.length > 6) fail(` must be ${RANKING_SHAPE}`);
  const [file, describe, question, , ranking, project] = cells;
  if (typeof file !== 'string' || file.length === 0) fail(": its file must be the test file's path");
  if (!Array.isArray(describe) || !describe.every((name) => typeof name === 'string'))
    fail(': its describe path must be a list of describe-block names ([] at the top level)');
  if (typeof question !== 'string') fail(': its question must be a string');
  if (project !== undefined && (typeof project !== 'string' || project.length === 0))
    fail(": its project must be a Vitest project's name");
  const read = rankingOf(ranking);
  if (read === undefined)
    fail(`: its ranking must be ${RANKING_SHAPE.slice(RANKING_SHAPE.indexOf('{'), RANKING_SHAPE.indexOf('}') + 1)}`);
  const identity: SuiteIdentity =
    project === undefined
      ? { file: file as string, describe: describe as string[] }
      : { file: file as string, describe: describe as string[], project: project as string };
  const rankings = ((result.rankings ??= createRecord())[suiteKeyOf(identity)] ??= createRecord());
  if (own(rankings, question as string) !== undefined)
    fail(`: question ${JSON.stringify(question)} has two ranking rows; keep one`);
  rankings[question as string] = read!;
}

/** A ranking cell as held in memory, or undefined when it is not one. */
function rankingOf(cell: unknown): QuestionRanking | undefined {
  if (!isPlainObject(cell)) return undefined;
  if (Object.keys(cell).some((key) => key !== 'text' && key !== 'top')) return undefined;
  const { text, top } = cell;
  if (text !== undefined && typeof text !== 'string') return undefined;
  if (!Array.isArray(top)) return undefined;
  const hits: RankedHit[] = [];
  for (const hit of top as unknown[]) {
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
  return text === undefined ? { top: hits } : { text, top: hits };
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
