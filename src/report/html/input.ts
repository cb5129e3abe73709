// Reading a JSON report (src/report/json.ts) back, for `rag-matchers report` and renderHtml: checks the
// parts the HTML renderer reads, so a hand-edited or foreign file fails with a message naming the field
// rather than drawing NaN.

import { jsonPreview } from '../../core/describe.js';
import { REPORT_SCHEMA_VERSION, type JsonReport } from '../json.js';

/** A file that is not a usable rag-matchers JSON report. */
export class ReportFormatError extends Error {
  override name = 'ReportFormatError';
}

/** Parses report text; `source` names the file in messages. */
export function parseJsonReport(text: string, source: string): JsonReport {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    throw new ReportFormatError(
      `${source}: not valid JSON (${error instanceof Error ? error.message : String(error)}); pass the file written by the reporters' \`json\` option.`,
    );
  }
  return validateJsonReport(data, source);
}

/** Checks a parsed value is a JSON report this version can draw; returns it typed. */
export function validateJsonReport(data: unknown, source = 'report'): JsonReport {
  const fail = (where: string, expected: string, found: unknown): never => {
    throw new ReportFormatError(`${source}: ${where} must be ${expected}, found ${describe(found)}.`);
  };
  if (!isObject(data) || data.generatedBy !== 'rag-matchers' || data.kind !== 'retrieval-report') {
    throw new ReportFormatError(
      `${source}: not a rag-matchers JSON report (expected "generatedBy": "rag-matchers" and "kind": "retrieval-report"); pass the file written by the reporters' \`json\` option.`,
    );
  }
  const version = data.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    fail('"schemaVersion"', 'a whole number ≥ 1', version);
  if ((version as number) > REPORT_SCHEMA_VERSION) {
    throw new ReportFormatError(
      `${source}: written by a newer rag-matchers (report schema version ${String(version)}; this version reads up to ${REPORT_SCHEMA_VERSION}); upgrade rag-matchers.`,
    );
  }
  if ((version as number) < REPORT_SCHEMA_VERSION) {
    throw new ReportFormatError(
      `${source}: written by an earlier rag-matchers (report schema version ${String(version)}, without the verdict this version draws); run the tests again to write a version-${REPORT_SCHEMA_VERSION} report.`,
    );
  }
  if (typeof data.passed !== 'boolean') fail('"passed"', 'true or false', data.passed);
  if (typeof data.runner !== 'string') fail('"runner"', 'a string', data.runner);
  const counts = data.counts;
  if (!isObject(counts)) return fail('"counts"', 'an object', counts);
  for (const key of ['samples', 'suites', 'rows', 'regressed', 'improved', 'unchanged', 'new'] as const) {
    if (!isCount(counts[key])) fail(`counts.${key}`, 'a whole number ≥ 0', counts[key]);
  }
  const baseline = data.baseline;
  if (
    !isObject(baseline) ||
    typeof baseline.found !== 'boolean' ||
    !(baseline.path === null || typeof baseline.path === 'string')
  ) {
    fail('"baseline"', 'an object { path: string | null, found: boolean }', baseline);
  }
  const settings = data.settings;
  if (!isObject(settings)) return fail('"settings"', 'an object', settings);
  if (!isFinite(settings.confidence)) fail('settings.confidence', 'a number', settings.confidence);
  if (typeof settings.test !== 'string') fail('settings.test', 'a string', settings.test);
  if (
    !isObject(settings.tolerance) ||
    !isFinite(settings.tolerance.default) ||
    !isObject(settings.tolerance.byMeasure)
  ) {
    fail('settings.tolerance', 'an object { default: number, byMeasure: {…} }', settings.tolerance);
  }
  if (
    data.warnings !== undefined &&
    (!Array.isArray(data.warnings) || !data.warnings.every((warning) => typeof warning === 'string'))
  ) {
    fail('"warnings"', 'an array of strings', data.warnings);
  }
  if (!Array.isArray(data.findings)) return fail('"findings"', 'an array', data.findings);
  checkVerdict(data.verdict, data.findings.length, fail);
  if (!Array.isArray(data.rows)) return fail('"rows"', 'an array', data.rows);
  data.rows.forEach((row: unknown, index: number) => checkRow(row, `rows[${index}]`, fail));
  // Reports written before costs existed have none.
  if (data.costs !== undefined) {
    if (!Array.isArray(data.costs)) return fail('"costs"', 'an array', data.costs);
    data.costs.forEach((cost: unknown, index: number) => {
      const where = `costs[${index}]`;
      if (!isObject(cost) || typeof cost.suite !== 'string' || !isCount(cost.timed) || !Array.isArray(cost.calls))
        fail(where, 'a suite cost ({ suite, timed, latency, calls, … })', cost);
      const latency = (cost as Record<string, unknown>).latency;
      if (!isObject(latency) || !['p50', 'p95', 'max'].every((key) => Number.isFinite(latency[key])))
        fail(`${where}.latency`, 'an object of milliseconds { p50, p95, max }', latency);
    });
  }
  // Reports written before tags existed have no "tags".
  if (data.tags !== undefined) {
    if (!Array.isArray(data.tags)) return fail('"tags"', 'an array', data.tags);
    data.tags.forEach((row: unknown, index: number) => checkTagRow(row, `tags[${index}]`, fail));
  }
  if (!Array.isArray(data.missing)) return fail('"missing"', 'an array', data.missing);
  data.missing.forEach((row: unknown, index: number) => {
    const where = `missing[${index}]`;
    if (!isObject(row)) return fail(where, 'an object', row);
    if (typeof row.suite !== 'string') fail(`${where}.suite`, 'a string', row.suite);
    if (typeof row.measure !== 'string') fail(`${where}.measure`, 'a string', row.measure);
    if (!isCount(row.count)) fail(`${where}.count`, 'a whole number ≥ 0', row.count);
    if (!isFinite(row.mean)) fail(`${where}.mean`, 'a number', row.mean);
  });
  checkChurn(data.churn, fail);
  return data as unknown as JsonReport;
}

/** The ranking churn (absent in reports written before it, null without rankings) as far as the HTML report reads it. */
function checkChurn(churn: unknown, fail: (where: string, expected: string, got: unknown) => never): void {
  if (churn === undefined || churn === null) return;
  if (!isObject(churn) || !isObject(churn.settings) || !isCount(churn.settings.k) || !Array.isArray(churn.suites))
    return fail('"churn"', 'null or an object { settings: { k, p, depth }, suites: [...] }', churn);
  churn.suites.forEach((suite: unknown, index: number) => {
    const where = `churn.suites[${index}]`;
    if (!isObject(suite)) return fail(where, 'an object', suite);
    if (typeof suite.suite !== 'string') fail(`${where}.suite`, 'a string', suite.suite);
    if (!isCount(suite.questions)) fail(`${where}.questions`, 'a whole number ≥ 0', suite.questions);
    for (const name of ['meanRbo', 'meanOverlap', 'topChangedShare'] as const)
      if (!isFinite(suite[name])) fail(`${where}.${name}`, 'a number', suite[name]);
    if (
      !Array.isArray(suite.changes) ||
      !suite.changes.every((change) => isObject(change) && typeof change.question === 'string' && isFinite(change.rbo))
    )
      fail(`${where}.changes`, 'an array of { question, rbo, … }', suite.changes);
  });
}

/** The verdict (src/report/verdict.ts) as far as the HTML report reads it. */
function checkVerdict(
  verdict: unknown,
  findings: number,
  fail: (where: string, expected: string, found: unknown) => never,
): void {
  if (!isObject(verdict)) return fail('"verdict"', 'an object', verdict);
  if (typeof verdict.headline !== 'string') fail('verdict.headline', 'a string', verdict.headline);
  if (typeof verdict.passed !== 'boolean') fail('verdict.passed', 'true or false', verdict.passed);
  if (!isStrings(verdict.tally)) fail('verdict.tally', 'an array of strings', verdict.tally);
  if (verdict.remark !== null && typeof verdict.remark !== 'string')
    fail('verdict.remark', 'null or a string', verdict.remark);
  if (!Array.isArray(verdict.clears) || verdict.clears.length !== findings)
    fail('verdict.clears', `an array of ${findings} (one per finding)`, verdict.clears);
  if (!Array.isArray(verdict.sections)) return fail('verdict.sections', 'an array', verdict.sections);
  verdict.sections.forEach((section: unknown, index: number) => {
    const where = `verdict.sections[${index}]`;
    if (!isObject(section)) return fail(where, 'an object', section);
    if (typeof section.heading !== 'string') fail(`${where}.heading`, 'a string', section.heading);
    const indexes = section.findings;
    if (!Array.isArray(indexes) || !indexes.every((at) => isCount(at) && at < findings))
      fail(`${where}.findings`, `an array of indexes below ${findings}`, indexes);
  });
}

function isStrings(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

const STATUSES = new Set(['regressed', 'improved', 'unchanged', 'new']);

/** What a suite row and a tag row share: measure, status, count, mean, interval, baseline, Δ, comparison. */
function checkMeasuredFields(
  row: Record<string, unknown>,
  where: string,
  fail: (where: string, expected: string, found: unknown) => never,
): void {
  if (typeof row.measure !== 'string') fail(`${where}.measure`, 'a string', row.measure);
  if (typeof row.status !== 'string' || !STATUSES.has(row.status))
    fail(`${where}.status`, 'one of regressed, improved, unchanged, new', row.status);
  if (!isCount(row.count)) fail(`${where}.count`, 'a whole number ≥ 0', row.count);
  for (const key of ['mean', 'tolerance'] as const)
    if (!isFinite(row[key])) fail(`${where}.${key}`, 'a finite number', row[key]);
  const interval = row.interval;
  if (!isObject(interval) || !isFinite(interval.lower) || !isFinite(interval.upper) || !isFinite(interval.confidence)) {
    fail(`${where}.interval`, 'an object with finite lower, upper and confidence', interval);
  }
  const baseline = row.baseline;
  if (baseline !== null && (!isObject(baseline) || !isFinite(baseline.mean) || !isCount(baseline.count))) {
    fail(`${where}.baseline`, 'null or { mean: number, count: number }', baseline);
  }
  if (row.delta !== null && !isFinite(row.delta)) fail(`${where}.delta`, 'null or a finite number', row.delta);
  const comparison = row.comparison;
  if (comparison !== null) {
    if (!isObject(comparison)) return fail(`${where}.comparison`, 'null or an object', comparison);
    for (const key of ['shared', 'wins', 'losses', 'ties'] as const)
      if (!isCount(comparison[key])) fail(`${where}.comparison.${key}`, 'a whole number ≥ 0', comparison[key]);
    for (const key of ['meanBefore', 'meanAfter'] as const)
      if (!isFinite(comparison[key])) fail(`${where}.comparison.${key}`, 'a finite number', comparison[key]);
    for (const key of ['p', 'adjustedP'] as const)
      if (comparison[key] !== null && !isFinite(comparison[key]))
        fail(`${where}.comparison.${key}`, 'null or a number', comparison[key]);
  }
}

/** A tag row (JsonReportTagRow): the measured fields, its tag and suites, and the units that got worse. */
function checkTagRow(
  row: unknown,
  where: string,
  fail: (where: string, expected: string, found: unknown) => never,
): void {
  if (!isObject(row)) return fail(where, 'an object', row);
  if (typeof row.tag !== 'string') fail(`${where}.tag`, 'a string', row.tag);
  if (!isCount(row.suites)) fail(`${where}.suites`, 'a whole number ≥ 0', row.suites);
  checkMeasuredFields(row, where, fail);
  if (!Array.isArray(row.worse)) return fail(`${where}.worse`, 'an array', row.worse);
  row.worse.forEach((change: unknown, index: number) => {
    const ok =
      isObject(change) &&
      typeof change.suite === 'string' &&
      typeof change.sampleId === 'string' &&
      isFinite(change.before) &&
      isFinite(change.after);
    if (!ok) fail(`${where}.worse[${index}]`, 'an object { suite, sampleId, before, after, delta }', change);
  });
}

function checkRow(row: unknown, where: string, fail: (where: string, expected: string, found: unknown) => never): void {
  if (!isObject(row)) return fail(where, 'an object', row);
  if (typeof row.suite !== 'string') fail(`${where}.suite`, 'a string', row.suite);
  checkMeasuredFields(row, where, fail);
  for (const key of ['min', 'max'] as const)
    if (!isFinite(row[key])) fail(`${where}.${key}`, 'a finite number', row[key]);
  if (!isCount(row.failures)) fail(`${where}.failures`, 'a whole number ≥ 0', row.failures);
  for (const key of ['worse', 'better'] as const) {
    const changes = row[key];
    if (!Array.isArray(changes)) return fail(`${where}.${key}`, 'an array', changes);
    changes.forEach((change: unknown, index: number) => {
      const at = `${where}.${key}[${index}]`;
      if (!isObject(change)) return fail(at, 'an object', change);
      if (typeof change.sampleId !== 'string') fail(`${at}.sampleId`, 'a string', change.sampleId);
      if (typeof change.test !== 'string') fail(`${at}.test`, 'a string', change.test);
      for (const field of ['before', 'after', 'delta'] as const)
        if (!isFinite(change[field])) fail(`${at}.${field}`, 'a finite number', change[field]);
    });
  }
  if (row.evidence !== undefined) {
    if (!isObject(row.evidence)) return fail(`${where}.evidence`, 'an object of question evidence', row.evidence);
    for (const [id, evidence] of Object.entries(row.evidence)) {
      const ok =
        isObject(evidence) &&
        Array.isArray(evidence.before) &&
        Array.isArray(evidence.after) &&
        isObject(evidence.moves) &&
        Object.values(evidence.moves).length === 4 &&
        Object.values(evidence.moves).every((part) => Array.isArray(part));
      if (!ok)
        fail(`${where}.evidence[${JSON.stringify(id)}]`, 'a question evidence { before, after, moves }', evidence);
    }
  }
  for (const key of ['newSamples', 'missingSamples'] as const) {
    const ids = row[key];
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string'))
      fail(`${where}.${key}`, 'an array of strings', ids);
  }
  const samples = row.samples;
  if (!Array.isArray(samples)) return fail(`${where}.samples`, 'an array', samples);
  samples.forEach((sample: unknown, index: number) => {
    const at = `${where}.samples[${index}]`;
    if (!isObject(sample)) return fail(at, 'an object', sample);
    if (typeof sample.id !== 'string') fail(`${at}.id`, 'a string', sample.id);
    if (!isFinite(sample.value)) fail(`${at}.value`, 'a finite number', sample.value);
    if (sample.before !== null && !isFinite(sample.before))
      fail(`${at}.before`, 'null or a finite number', sample.before);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFinite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  return jsonPreview(value);
}
