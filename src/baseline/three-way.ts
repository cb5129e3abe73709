// The three-way merge of two branches' baselines with their common ancestor, sample by sample, for the
// merge driver (rag-matchers merge-baseline). A sample is one row: suite × question × measure. Each row
// takes the side that changed it; a row both sides changed, to different values, is a conflict.
//
// The merged file is written the way an update writes one: what theirs changed becomes a diff of ours
// (./diff.ts: a cell per suite × measure × question), applied by applyDiff (./apply.ts) with prune on —
// a row theirs added is `new`, one theirs changed is `judged` (relabelled, so its value and audit are
// written as they are), one theirs removed is `missing`, and every other row of ours is kept as it is.

import { suiteKeyOf, suiteNameOf, type SuiteIdentity } from '../recording/collected.js';
import { applyDiff } from './apply.js';
import { driverConflictMarkers } from './conflict-markers.js';
import type { CellDiff, RowDiff } from './diff.js';
import { createRecord, own, type BaselineFile, type QuestionRanking, type SampleAudit } from './file/types.js';
import {
  baselineRows,
  rankingLineBefore,
  compareRows,
  formatBaselineRow,
  formatBaselineRows,
  schemaVersionFor,
  type BaselineRow,
} from './file/write.js';

/** One row both sides changed differently. A value is undefined where that side has no such row. */
export interface BaselineConflict {
  identity: SuiteIdentity;
  question: string;
  measure: string;
  base: number | undefined;
  ours: number | undefined;
  theirs: number | undefined;
}

export interface ThreeWayMerge {
  /** The merged rows; where they conflict, ours (so the file stays a baseline that can be written). */
  file: BaselineFile;
  /** In the file's order. */
  conflicts: BaselineConflict[];
}

/** Merges `ours` and `theirs`, two versions of one baseline, given the version both started from. */
export function mergeBaselineVersions(base: BaselineFile, ours: BaselineFile, theirs: BaselineFile): ThreeWayMerge {
  const versions = new Map<string, BaselineConflict>();
  const versionOf = (row: BaselineRow): BaselineConflict => {
    const key = JSON.stringify([suiteKeyOf(row.identity), row.question, row.measure]);
    let version = versions.get(key);
    if (version === undefined) {
      const { identity, question, measure } = row;
      version = { identity, question, measure, base: undefined, ours: undefined, theirs: undefined };
      versions.set(key, version);
    }
    return version;
  };
  // A row's audit (schema version 4) changes with it: each side's row is compared whole.
  const audits = new Map<BaselineConflict, { base?: SampleAudit; ours?: SampleAudit; theirs?: SampleAudit }>();
  for (const [side, file] of [
    ['base', base],
    ['ours', ours],
    ['theirs', theirs],
  ] as const) {
    for (const row of baselineRows(file)) {
      const version = versionOf(row);
      version[side] = row.value;
      if (row.audit === undefined) continue;
      let sides = audits.get(version);
      if (sides === undefined) audits.set(version, (sides = {}));
      sides[side] = row.audit;
    }
  }

  const conflicts: BaselineConflict[] = [];
  const rows = new Map<string, RowDiff>();
  for (const version of [...versions.values()].sort(compareVersions)) {
    const sides = audits.get(version) ?? {};
    const merged = mergedSide(version, sides);
    if (merged === 'conflict') conflicts.push(version);
    const cell = cellOf(version, sides, merged === 'theirs');
    if (cell === undefined) continue;
    const suiteKey = suiteKeyOf(version.identity);
    const rowKey = JSON.stringify([suiteKey, version.measure]);
    let row = rows.get(rowKey);
    if (row === undefined) {
      row = {
        suiteKey,
        identity: version.identity,
        measure: version.measure,
        cells: new Map(),
        withinTolerance: false,
      };
      rows.set(rowKey, row);
    }
    row.cells.set(version.question, cell);
  }
  const { file } = applyDiff(
    { against: ours, baseline: ours, rows: [...rows.values()], renames: new Map() },
    { prune: true },
  );
  const rankings = mergeRankings(base, ours, theirs);
  if (rankings !== undefined) file.rankings = rankings;
  const latency = mergeLatency(base, ours, theirs);
  if (latency !== undefined) file.latency = latency;
  return { file, conflicts };
}

/**
 * The questions' rankings (schema version 5), question by question: the side that changed one wins; when
 * both changed it differently, ours (a ranking explains a value, it gates nothing, so it is no conflict).
 */
function mergeRankings(
  base: BaselineFile,
  ours: BaselineFile,
  theirs: BaselineFile,
): Record<string, Record<string, QuestionRanking>> | undefined {
  const rankingOf = (file: BaselineFile, suite: string, question: string): QuestionRanking | undefined => {
    const suiteRankings = file.rankings === undefined ? undefined : own(file.rankings, suite);
    return suiteRankings === undefined ? undefined : own(suiteRankings, question);
  };
  const text = (file: BaselineFile, suite: string, question: string): string | undefined => {
    const ranking = rankingOf(file, suite, question);
    return ranking === undefined ? undefined : JSON.stringify(ranking);
  };
  let merged: Record<string, Record<string, QuestionRanking>> | undefined;
  const seen = new Set<string>();
  for (const file of [ours, theirs]) {
    for (const suite of Object.keys(file.rankings ?? {})) {
      for (const question of Object.keys(file.rankings![suite]!)) {
        const id = JSON.stringify([suite, question]);
        if (seen.has(id)) continue;
        seen.add(id);
        const theirsChanged = text(theirs, suite, question) !== text(base, suite, question);
        const winner = theirsChanged && text(ours, suite, question) === text(base, suite, question) ? theirs : ours;
        const ranking = rankingOf(winner, suite, question);
        if (ranking !== undefined) ((merged ??= createRecord())[suite] ??= createRecord())[question] = ranking;
      }
    }
  }
  return merged;
}

/** The suites' latency (schema version 6), suite by suite as rankings are: the side that changed it wins, else ours. */
function mergeLatency(base: BaselineFile, ours: BaselineFile, theirs: BaselineFile): BaselineFile['latency'] {
  const text = (file: BaselineFile, suite: string): string | undefined => {
    const latency = file.latency === undefined ? undefined : own(file.latency, suite);
    return latency === undefined ? undefined : JSON.stringify(latency);
  };
  let merged: BaselineFile['latency'];
  for (const suite of new Set([...Object.keys(ours.latency ?? {}), ...Object.keys(theirs.latency ?? {})])) {
    const winner = text(theirs, suite) !== text(base, suite) && text(ours, suite) === text(base, suite) ? theirs : ours;
    const latency = winner.latency === undefined ? undefined : own(winner.latency, suite);
    if (latency !== undefined) (merged ??= createRecord())[suite] = latency;
  }
  return merged;
}

/** The side whose row the merge takes (its value undefined: removed), or 'conflict'. */
function mergedSide(
  version: BaselineConflict,
  audits: { base?: SampleAudit; ours?: SampleAudit; theirs?: SampleAudit },
): 'ours' | 'theirs' | 'conflict' {
  const content = (side: 'base' | 'ours' | 'theirs'): string => {
    const value = version[side];
    return `${value === undefined ? '' : Object.is(value, -0) ? '-0' : String(value)} ${JSON.stringify(audits[side] ?? null)}`;
  };
  const [baseRow, ourRow, theirRow] = [content('base'), content('ours'), content('theirs')];
  if (ourRow === theirRow || baseRow === theirRow) return 'ours';
  if (baseRow === ourRow) return 'theirs';
  return 'conflict';
}

function compareVersions(a: BaselineConflict, b: BaselineConflict): number {
  return compareRows({ ...a, value: 0 }, { ...b, value: 0 });
}

/**
 * The row of the merge as a cell of a diff of ours: theirs' row when theirs changed it alone (added,
 * changed, removed), else ours kept as it is (a conflict keeps ours too); undefined where neither side
 * has the row (nothing to write).
 */
function cellOf(
  version: BaselineConflict,
  audits: { ours?: SampleAudit; theirs?: SampleAudit },
  takeTheirs: boolean,
): CellDiff | undefined {
  const { ours, theirs } = version;
  const oldAudit = audits.ours === undefined ? {} : { oldAudit: audits.ours };
  const audit = audits.theirs === undefined ? {} : { audit: audits.theirs };
  if (!takeTheirs)
    // Kept as ours: the kind an update keeps a row under unchanged (its reason is not read here).
    return ours === undefined ? undefined : { kind: 'not-judged', before: ours, ...oldAudit, reason: 'not-run' };
  if (theirs === undefined) return ours === undefined ? undefined : { kind: 'missing', before: ours, ...oldAudit };
  if (ours === undefined) return { kind: 'new', after: theirs, ...audit };
  // Relabelled: applyDiff then writes theirs' value and audit as they are, whatever the tolerance.
  return { kind: 'judged', before: ours, after: theirs, relabelled: true, ...oldAudit, ...audit };
}

/**
 * The merged file's text. Without conflicts, formatBaseline's. With conflicts, each run of conflicting
 * rows of one suite stands between Git's conflict markers, ours above theirs, and the closing marker
 * names the command that re-records that suite (`rerecordCommand`).
 */
export function formatMergedBaseline(
  merge: ThreeWayMerge,
  rerecordCommand: (identity: SuiteIdentity) => string,
): string {
  const conflictsByRow = new Map(merge.conflicts.map((conflict) => [rowKey(conflict), conflict]));
  const rows = baselineRows(merge.file);
  const resolved = rows.filter((row) => !conflictsByRow.has(rowKey(row)));
  const entries = [
    ...resolved.map((row) => ({ row, conflict: undefined })),
    ...merge.conflicts.map((conflict) => ({ row: { ...conflict, value: 0 }, conflict })),
  ].sort((a, b) => compareRows(a.row, b.row));

  const lines: string[] = [];
  let block: BaselineConflict[] = [];
  const closeBlock = (): void => {
    if (block.length === 0) return;
    const markers = driverConflictMarkers(rerecordCommand(block[0]!.identity));
    const side = (pick: 'ours' | 'theirs'): string[] =>
      block.flatMap((conflict) =>
        conflict[pick] === undefined ? [] : [formatBaselineRow({ ...conflict, value: conflict[pick] })],
      );
    lines.push(markers.open, ...side('ours'), markers.separator, ...side('theirs'), markers.close);
    block = [];
  };
  entries.forEach(({ row, conflict }, index) => {
    const ranking = rankingLineBefore(merge.file, entries[index - 1]?.row, row);
    const otherSuite = block.length > 0 && suiteKeyOf(block[0]!.identity) !== suiteKeyOf(row.identity);
    if (conflict === undefined || otherSuite || ranking !== undefined) closeBlock();
    if (ranking !== undefined) lines.push(ranking);
    if (conflict === undefined) lines.push(formatBaselineRow(row));
    else block.push(conflict);
  });
  closeBlock();
  return formatBaselineRows(lines, schemaVersionFor(rows, merge.file));
}

function rowKey(row: Pick<BaselineRow, 'identity' | 'question' | 'measure'>): string {
  return JSON.stringify([suiteKeyOf(row.identity), row.question, row.measure]);
}

/** A conflict as people read it: `test/a.test.ts > refunds · q2 · recall@5: ours 0.5, theirs 1 (was 0.75)`. */
export function describeConflict(conflict: BaselineConflict): string {
  const value = (side: number | undefined): string => (side === undefined ? 'removed' : String(side));
  const was = conflict.base === undefined ? 'new on both sides' : `was ${conflict.base}`;
  return `${suiteNameOf(conflict.identity)} · ${conflict.question} · ${conflict.measure}: ours ${value(conflict.ours)}, theirs ${value(conflict.theirs)} (${was})`;
}
