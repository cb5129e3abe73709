// The one writer of the baseline file: the bytes of a BaselineFile in the current schema version (see
// ./types.ts), always the same for the same baseline, written atomically.

import { writeFileAtomic, writeFileAtomicSync } from '../../files/atomic-write.js';
import { parseSuiteKey, suiteKeyOf, suiteNameOf, type SuiteIdentity } from '../../recording/collected.js';
import { assertBaselinePath, isPlainObject, malformedEntry } from './errors.js';
import {
  AUDITS_SCHEMA_VERSION,
  BASELINE_AUDIT_COLUMNS,
  BASELINE_COLUMNS,
  BASELINE_GENERATED_BY,
  BASELINE_SCHEMA_VERSION,
  LATENCY_SCHEMA_VERSION,
  ROWS_ONLY_SCHEMA_VERSION,
  compareKeys,
  own,
  sortedKeys,
  LATENCY_ROW_MEASURE,
  type BaselineFile,
  type BaselineLatency,
  type QuestionRanking,
  type SampleAudit,
} from './types.js';

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
 * The file's text (in the version schemaVersionFor gives): the column header, then one row per sample in the file's order
 * (compareRows), each on its own line after its separating comma; a final newline. The same baseline always
 * gives the same bytes. A suite or measure without samples has no row, so it is not written. Throws for a
 * value that JSON cannot hold (NaN, Infinity).
 */
export function formatBaseline(file: BaselineFile): string {
  const rows = baselineRows(checkFormattable(file));
  const lines: string[] = [];
  rows.forEach((row, index) => {
    const ranking = rankingLineBefore(file, rows[index - 1], row);
    if (ranking !== undefined) lines.push(ranking);
    lines.push(formatBaselineRow(row));
  });
  return formatBaselineRows(lines, schemaVersionFor(rows, file));
}

/**
 * The version rows are written in: 7 when a question keeps its ranking (or tags, or calls), else 6 when a
 * suite keeps its latency, else 4 when a row holds an audit, else 3 (the bytes of each older version are
 * kept when nothing newer is written).
 */
export function schemaVersionFor(rows: readonly Pick<BaselineRow, 'audit'>[], file: BaselineFile): number {
  if (file.rankings !== undefined && Object.values(file.rankings).some((suite) => Object.keys(suite).length > 0))
    return BASELINE_SCHEMA_VERSION;
  if (file.latency !== undefined && Object.keys(file.latency).length > 0) return LATENCY_SCHEMA_VERSION;
  return rows.some((row) => row.audit !== undefined) ? AUDITS_SCHEMA_VERSION : ROWS_ONLY_SCHEMA_VERSION;
}

/**
 * The lines before `row` (`previous`, the row before it in the file's order): when `row` opens its suite
 * and the suite keeps its latency, the latency line; when it opens its question and the question keeps a
 * ranking, the ranking line; joined by a line break; else undefined.
 */
export function rankingLineBefore(
  file: BaselineFile,
  previous: Pick<BaselineRow, 'identity' | 'question'> | undefined,
  row: Pick<BaselineRow, 'identity' | 'question'>,
): string | undefined {
  if (file.rankings === undefined && file.latency === undefined) return undefined;
  // The rows of one suite share one identity object (baselineRows), so its key is rarely worked out.
  if (previous !== undefined && previous.identity === row.identity && previous.question === row.question)
    return undefined;
  const key = suiteKeyOf(row.identity);
  const sameSuite =
    previous !== undefined && (previous.identity === row.identity || suiteKeyOf(previous.identity) === key);
  if (sameSuite && previous.question === row.question) return undefined;
  const { before, after } = suiteCells(row.identity);
  const latency = sameSuite || file.latency === undefined ? undefined : own(file.latency, key);
  const latencyLine =
    latency === undefined
      ? undefined
      : `${before}"", ${JSON.stringify(LATENCY_ROW_MEASURE)}, ${formatLatency(latency)}${after}`;
  const suiteRankings = file.rankings === undefined ? undefined : own(file.rankings, key);
  const ranking = suiteRankings === undefined ? undefined : own(suiteRankings, row.question);
  const rankingLine = ranking === undefined ? undefined : formatRankingRow(row.question, ranking);
  if (latencyLine === undefined) return rankingLine;
  return rankingLine === undefined ? latencyLine : `${latencyLine}\n${rankingLine}`;
}

/** `{"timed": 24, "p50": 41.2, "p95": 120.5, "max": 130.1}`: keys in a fixed order. */
function formatLatency(latency: BaselineLatency): string {
  return `{"timed": ${latency.timed}, "p50": ${JSON.stringify(latency.p50)}, "p95": ${JSON.stringify(latency.p95)}, "max": ${JSON.stringify(latency.max)}}`;
}

/**
 * A question's ranking row (version 7): `    ,["q1",["How long do refunds take?",["refunds#2",2],"billing#1"]]`,
 * the text null when left out, then `,{"tags":[…],"calls":{…}}` when the question has either; no spaces, as
 * the rankings are most of what the file grows by.
 */
function formatRankingRow(question: string, ranking: QuestionRanking): string {
  let list = ranking.text === undefined ? 'null' : JSON.stringify(ranking.text);
  for (const hit of ranking.top)
    list +=
      hit.grade === undefined
        ? `,${JSON.stringify(hit.key)}`
        : `,[${JSON.stringify(hit.key)},${JSON.stringify(hit.grade)}]`;
  const extras: string[] = [];
  if (ranking.tags !== undefined) extras.push(`"tags":${JSON.stringify(ranking.tags)}`);
  if (ranking.calls !== undefined)
    extras.push(
      `"calls":{${sortedKeys(ranking.calls)
        .map((kind) => `${JSON.stringify(kind)}:${ranking.calls![kind]}`)
        .join(',')}}`,
    );
  return `    ,[${JSON.stringify(question)},[${list}]${extras.length === 0 ? '' : `,{${extras.join(',')}}`}]`;
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
export function formatBaselineRows(rowLines: readonly string[], version: number): string {
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

/** Writes `file` to `path` atomically in the format of formatBaseline. */
export async function writeBaseline(path: string, file: BaselineFile): Promise<void> {
  assertBaselinePath(path, 'writeBaseline');
  await writeFileAtomic(path, formatBaseline(file));
}

/** Synchronous twin of writeBaseline. */
export function writeBaselineSync(path: string, file: BaselineFile): void {
  assertBaselinePath(path, 'writeBaselineSync');
  writeFileAtomicSync(path, formatBaseline(file));
}
