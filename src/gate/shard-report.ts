// The partial report a Jest shard (`jest --shard=i/n`) writes instead of judging itself: every sample it
// collected, the test files it ran, and the reporter options, so `rag-matchers merge` can combine the
// shards and apply the baseline comparison and the gate once, on the whole run, with the same settings.
//
//   {
//     "generatedBy": "rag-matchers",
//     "kind": "shard-samples",
//     "schemaVersion": 1,
//     "runner": "jest",
//     "shard": { "count": 2, "index": 1 },
//     "options": { "baseline": "rag-baseline.json", … },   // the reporter options as configured
//     "files": ["test/a.test.js", …],                       // test files that ran in full
//     "stamp": { "commit": "…", "declaration": "…" },        // the run's identity (schema 2)
//     "outcomes": [                                          // every test file the shard ran (schema 2)
//       { "file": "…", "incomplete": [{ "describePath": […], "reason": "skipped", "test": "…" }] },
//       …
//     ],
//     "samples": [
//       { "describePath": […], "file": "…", "measure": "recall@5", "pass": true, "test": "…", "value": 1 },
//       …                                                    // one sample per line
//     ]
//   }
import { readFile } from 'node:fs/promises';
import { MAX_JSON_NESTING, scanJsonText } from '../files/json-text.js';
import { jsonPreview } from '../core/describe.js';
import { wordFor } from '../core/present.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { cleanSample, splitCosts, type CollectedRun, type CollectedSample } from '../recording/collected.js';
import { NOT_JUDGED_REASONS, type FileOutcome, type NotJudgedReason } from '../recording/outcomes.js';
import type { RunStamp } from '../recording/run-stamp.js';
import { SHARED_REPORTER_OPTIONS, type RagReporterOptions } from './user-options.js';

const SHARD_REPORT_KIND = 'shard-samples';
/** 2 added `stamp` and `outcomes`; version 1 files are still read (nothing to check them against). */
const SHARD_REPORT_SCHEMA_VERSION = 2;

export interface ShardReport {
  generatedBy: 'rag-matchers';
  kind: typeof SHARD_REPORT_KIND;
  schemaVersion: typeof SHARD_REPORT_SCHEMA_VERSION;
  runner: 'jest';
  shard: { index: number; count: number };
  options: RagReporterOptions;
  files: string[];
  /** The run's identity: shards of one run share it, and a merge at another commit refuses them. */
  stamp?: RunStamp;
  /** Every test file the shard ran and the tests that did not run to the end (schema 2). */
  outcomes?: FileOutcome[];
  samples: CollectedSample[];
}

/** `rag-shard-1-of-3.json`: the default file name of shard `index` of `count`. */
export function shardReportName(index: number, count: number): string {
  return `rag-shard-${index}-of-${count}.json`;
}

export function createShardReport(
  run: CollectedRun,
  shard: { index: number; count: number },
  options: RagReporterOptions,
  stamp?: RunStamp,
): ShardReport {
  return {
    generatedBy: 'rag-matchers',
    kind: SHARD_REPORT_KIND,
    schemaVersion: SHARD_REPORT_SCHEMA_VERSION,
    runner: 'jest',
    shard,
    options,
    files: [...(run.files ?? [...new Set(run.samples.map((sample) => sample.file))])],
    ...(stamp !== undefined ? { stamp } : {}),
    outcomes: run.outcomes?.files ?? [],
    // A question's cost travels as the record it was recorded as; the merge moves it out again.
    samples: run.costs === undefined ? run.samples : [...run.samples, ...run.costs],
  };
}

function sortedObject(value: object): string {
  const record = value as Record<string, unknown>;
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    ),
  );
}

/** The file's text: one sample per line, keys sorted, a final newline. */
export function formatShardReport(report: ShardReport): string {
  const head = [
    `  "generatedBy": ${JSON.stringify(report.generatedBy)}`,
    `  "kind": ${JSON.stringify(report.kind)}`,
    `  "schemaVersion": ${report.schemaVersion}`,
    `  "runner": ${JSON.stringify(report.runner)}`,
    `  "shard": ${sortedObject(report.shard)}`,
    `  "options": ${JSON.stringify(report.options)}`,
    `  "files": ${JSON.stringify(report.files)}`,
    ...(report.stamp !== undefined ? [`  "stamp": ${sortedObject(report.stamp)}`] : []),
    ...(report.outcomes !== undefined
      ? [
          report.outcomes.length === 0
            ? '  "outcomes": []'
            : `  "outcomes": [\n${report.outcomes.map((outcome) => `    ${sortedObject(outcome)}`).join(',\n')}\n  ]`,
        ]
      : []),
  ];
  const samples =
    report.samples.length === 0
      ? '  "samples": []'
      : `  "samples": [\n${report.samples.map((sample) => `    ${sortedObject(sample)}`).join(',\n')}\n  ]`;
  return `{\n${[...head, samples].join(',\n')}\n}\n`;
}

export async function writeShardReport(path: string, report: ShardReport): Promise<void> {
  await writeFileAtomic(path, formatShardReport(report));
}

/** A file that is not a usable shard report; the message names the file. */
export class ShardReportError extends Error {
  override name = 'ShardReportError';
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Checks a parsed shard report; `path` names the file in errors. */
export function validateShardReport(data: unknown, path: string): ShardReport {
  const fail = (problem: string): never => {
    throw new ShardReportError(`${path}: ${problem}`);
  };
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return fail('not a rag-matchers shard report (expected a JSON object).');
  const raw = data as Record<string, unknown>;
  if (raw.generatedBy !== 'rag-matchers' || raw.kind !== SHARD_REPORT_KIND) {
    const hint =
      raw.generatedBy === 'rag-matchers' && raw.kind === 'retrieval-report'
        ? ' It is a JSON report (option `json`); merge reads the rag-shard-<i>-of-<n>.json files a `jest --shard` run writes.'
        : '';
    return fail(`not a rag-matchers shard report (expected "kind": "${SHARD_REPORT_KIND}").${hint}`);
  }
  if (typeof raw.schemaVersion !== 'number' || !Number.isInteger(raw.schemaVersion) || raw.schemaVersion < 1)
    return fail('"schemaVersion" must be a whole number ≥ 1.');
  if (raw.schemaVersion > SHARD_REPORT_SCHEMA_VERSION) {
    return fail(
      `written by a newer rag-matchers (shard report schema ${raw.schemaVersion}; this version reads up to ${SHARD_REPORT_SCHEMA_VERSION}); use the same rag-matchers version for the shards and the merge.`,
    );
  }
  if (raw.runner !== 'jest') return fail(`"runner" must be "jest", found ${jsonPreview(raw.runner)}.`);
  const shard = raw.shard as Record<string, unknown> | null | undefined;
  const index = shard?.index;
  const count = shard?.count;
  if (
    typeof count !== 'number' ||
    !Number.isInteger(count) ||
    count < 1 ||
    typeof index !== 'number' ||
    !Number.isInteger(index) ||
    index < 1 ||
    index > count
  ) {
    return fail('"shard" must be { "index": i, "count": n } with 1 ≤ i ≤ n.');
  }
  if (raw.options === null || typeof raw.options !== 'object' || Array.isArray(raw.options))
    return fail('"options" must be an object.');
  if (!isStringArray(raw.files)) return fail('"files" must be an array of test file paths.');
  let stamp: RunStamp | undefined;
  if (raw.stamp !== undefined) {
    const candidate = raw.stamp as Record<string, unknown> | null;
    if (candidate === null || typeof candidate.commit !== 'string' || typeof candidate.declaration !== 'string')
      return fail('"stamp" must be { "commit": "…", "declaration": "…" }.');
    stamp = { commit: candidate.commit, declaration: candidate.declaration };
  }
  let outcomes: FileOutcome[] | undefined;
  if (raw.outcomes !== undefined) {
    if (!Array.isArray(raw.outcomes)) return fail('"outcomes" must be an array.');
    outcomes = raw.outcomes.map(
      (item, position) => validateFileOutcome(item) ?? fail(`outcomes[${position}] is not a test file's outcome.`),
    );
  }
  if (!Array.isArray(raw.samples)) return fail('"samples" must be an array.');
  const samples = raw.samples.map((item, position): CollectedSample => {
    const sample = cleanSample(item);
    const located = item as Record<string, unknown>;
    if (
      sample === undefined ||
      typeof located.file !== 'string' ||
      typeof located.test !== 'string' ||
      !isStringArray(located.describePath)
    ) {
      return fail(`samples[${position}] is not a sample ({ measure, value, pass, file, describePath, test }).`);
    }
    return {
      ...sample,
      file: located.file,
      describePath: located.describePath,
      test: located.test,
      ...(typeof located.line === 'number' && Number.isInteger(located.line) ? { line: located.line } : {}),
    };
  });
  return {
    generatedBy: 'rag-matchers',
    kind: SHARD_REPORT_KIND,
    schemaVersion: SHARD_REPORT_SCHEMA_VERSION,
    runner: 'jest',
    shard: { index, count },
    options: raw.options as RagReporterOptions,
    files: raw.files,
    ...(stamp !== undefined ? { stamp } : {}),
    ...(outcomes !== undefined ? { outcomes } : {}),
    samples,
  };
}

/** A FileOutcome read from a shard report, checked field by field; undefined when it is not one. */
function validateFileOutcome(value: unknown): FileOutcome | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const raw = value as Record<string, unknown>;
  if (typeof raw.file !== 'string' || !Array.isArray(raw.incomplete)) return undefined;
  if (raw.project !== undefined && typeof raw.project !== 'string') return undefined;
  const isReason = (reason: unknown): reason is NotJudgedReason =>
    typeof reason === 'string' && (NOT_JUDGED_REASONS as readonly string[]).includes(reason);
  const incomplete: FileOutcome['incomplete'] = [];
  for (const test of raw.incomplete as unknown[]) {
    const entry = test as Record<string, unknown> | null;
    if (entry === null || typeof entry !== 'object' || typeof entry.test !== 'string') return undefined;
    if (!isStringArray(entry.describePath) || !isReason(entry.reason)) return undefined;
    incomplete.push({ describePath: entry.describePath, test: entry.test, reason: entry.reason });
  }
  const outcome: FileOutcome = {
    file: raw.file,
    ...(raw.project !== undefined ? { project: raw.project as string } : {}),
    incomplete,
  };
  if (raw.notJudged !== undefined) {
    const notJudged = raw.notJudged as Record<string, unknown> | null;
    if (notJudged === null || typeof notJudged !== 'object' || !isReason(notJudged.reason)) return undefined;
    if (notJudged.detail !== undefined && typeof notJudged.detail !== 'string') return undefined;
    outcome.notJudged = {
      reason: notJudged.reason,
      ...(typeof notJudged.detail === 'string' ? { detail: notJudged.detail } : {}),
    };
  }
  return outcome;
}

function describeStampDifference(stamp: RunStamp, other: RunStamp): string {
  if (stamp.commit !== other.commit)
    return `commit ${stamp.commit.slice(0, 12) || '(unknown)'} against ${other.commit.slice(0, 12) || '(unknown)'}`;
  return 'other declared measures';
}

export async function readShardReport(path: string): Promise<ShardReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ShardReportError(`${path}: cannot be read (${(error as Error).message}).`);
  }
  // The checks below compare options as JSON text: a value nested thousands deep would overflow the stack.
  const tooDeep = scanJsonText(text, MAX_JSON_NESTING).tooDeep;
  if (tooDeep !== undefined) {
    throw new ShardReportError(
      `${path}: nests objects and arrays more than ${MAX_JSON_NESTING} levels deep (at character ${tooDeep + 1}); not a shard report a rag-matchers reporter wrote.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ShardReportError(`${path}: not valid JSON (${(error as Error).message}).`);
  }
  return validateShardReport(data, path);
}

/**
 * One run from the shards of one `jest --shard=i/n` family: every shard exactly once (no sample lost or
 * counted twice), no test file in two shards, the same options in all. Samples are ordered by file, and
 * within a file as the shard recorded them, as an unsharded run orders them.
 */
export function mergeShardReports(
  reports: readonly { path: string; report: ShardReport }[],
  expected: { commit?: string } = {},
): {
  run: CollectedRun;
  options: RagReporterOptions;
  count: number;
} {
  if (reports.length === 0) throw new ShardReportError('no shard reports given.');
  const count = reports[0]!.report.shard.count;
  const byIndex = new Map<number, string>();
  for (const { path, report } of reports) {
    if (report.shard.count !== count) {
      throw new ShardReportError(
        `${path} is shard ${report.shard.index}/${report.shard.count}, but ${reports[0]!.path} is one of ${count} shards: merge the reports of one sharded run.`,
      );
    }
    const seen = byIndex.get(report.shard.index);
    if (seen !== undefined)
      throw new ShardReportError(
        `${path} and ${seen} are both shard ${report.shard.index}/${count}: each shard must be given once, or its samples would count twice.`,
      );
    byIndex.set(report.shard.index, path);
  }
  const missing = Array.from({ length: count }, (_, position) => position + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) {
    throw new ShardReportError(
      `${wordFor(missing.length, 'shard')} ${missing.map((index) => `${index}/${count}`).join(', ')} missing: all ${count} shard reports are needed, or their samples would be lost.`,
    );
  }
  const options = reports[0]!.report.options;
  const verdictOptions = (source: RagReporterOptions): string =>
    JSON.stringify(SHARED_REPORTER_OPTIONS.map((name) => source[name] ?? null));
  for (const { path, report } of reports) {
    const differing = SHARED_REPORTER_OPTIONS.filter(
      (name) => JSON.stringify(report.options[name] ?? null) !== JSON.stringify(options[name] ?? null),
    );
    if (verdictOptions(report.options) !== verdictOptions(options)) {
      throw new ShardReportError(
        `${path} was written with other reporter options than ${reports[0]!.path} (${differing.join(', ')}): the shards of one run must share the settings that decide the verdict.`,
      );
    }
  }
  // One run's shards share one stamp; a stamp from another commit than the merge's is a stale shard.
  const stamped = reports.filter(({ report }) => report.stamp !== undefined);
  for (const { path, report } of stamped) {
    const stamp = report.stamp!;
    const first = stamped[0]!;
    if (stamp.commit !== first.report.stamp!.commit || stamp.declaration !== first.report.stamp!.declaration) {
      throw new ShardReportError(
        `${path} (shard ${report.shard.index}/${count}) comes from another run than ${first.path}: ${describeStampDifference(stamp, first.report.stamp!)}. Merge the shard reports of one run.`,
      );
    }
    if (expected.commit && stamp.commit && stamp.commit !== expected.commit) {
      throw new ShardReportError(
        `${path} (shard ${report.shard.index}/${count}) is stale: recorded at commit ${stamp.commit.slice(0, 12)}, and this merge runs at ${expected.commit.slice(0, 12)}. Run the shards again on this commit, then merge.`,
      );
    }
  }
  const fileOwner = new Map<string, string>();
  for (const { path, report } of reports) {
    for (const file of new Set([...report.files, ...report.samples.map((sample) => sample.file)])) {
      const owner = fileOwner.get(file);
      if (owner !== undefined && owner !== path)
        throw new ShardReportError(`${file} appears in both ${owner} and ${path}: a test file belongs to one shard.`);
      fileOwner.set(file, path);
    }
  }
  const ordered = [...reports].sort((a, b) => a.report.shard.index - b.report.shard.index);
  const located = ordered.flatMap(({ report }) => report.samples).map((sample, order) => ({ sample, order }));
  located.sort((a, b) => (a.sample.file < b.sample.file ? -1 : a.sample.file > b.sample.file ? 1 : a.order - b.order));
  const files = [...new Set(ordered.flatMap(({ report }) => report.files))].sort();
  // A version-1 shard has no outcomes: its files that ran in full stand in for them.
  const outcomes = ordered.flatMap(
    ({ report }) => report.outcomes ?? report.files.map((file): FileOutcome => ({ file, incomplete: [] })),
  );
  outcomes.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const samples = located.map((entry) => entry.sample);
  const costs = splitCosts(samples);
  return {
    run: {
      runner: 'merged',
      samples,
      files,
      outcomes: { files: outcomes },
      ...(costs.length > 0 ? { costs } : {}),
    },
    options,
    count,
  };
}
