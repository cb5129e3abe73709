// The one diff between a run and its baseline. A run is prepared once (grouped, its coverage worked out)
// and compared with the baseline once: every suite × measure × question of either side gets one cell —
// judged (before and after, relabelled or not), new, missing, or not judged (with the reason). The
// summary and every report read the cells; an update, a prune and a merge apply them (applyDiff), so
// what a report says an update would change is what the update writes.
//
// Accounting is per question × measure: a baseline cell this run did not produce is missing or not
// judged by the one rule of ./accounting.ts, even when its question was produced for other measures (a
// test that failed at its first assertion never ran its second: that measure is not judged, not kept
// silently).

import {
  movementOfMeans,
  resolveTolerance,
  toleranceFor,
  valuesDiffer,
  type ResolvedTolerance,
  type ToleranceOption,
} from '../core/regression-rule.js';
import { parseSuiteKey, type CollectedRun, type SuiteIdentity } from '../recording/collected.js';
import type { NotJudgedReason } from '../recording/outcomes.js';
import { outcomesOf } from './accounting.js';
import { auditOfSample, auditsOf, labelsChanged } from './audits.js';
import { groupRun, type GroupedRow, type GroupedRun } from './group.js';
import { coverageOf, findRenamedSuites, type FileCoverage } from './identity.js';
import { own, type BaselineFile, type SampleAudit } from './file/types.js';
import { compareIdentities } from './file/write.js';

/** A run grouped once and its coverage worked out once, for the diff, the summary and the update to share. */
export interface PreparedRun {
  readonly run: CollectedRun;
  readonly grouped: GroupedRun;
  readonly coverage: FileCoverage;
  /** Whether a test file (relative, '/'-separated) still exists, when the caller knows. */
  readonly fileExists?: (file: string) => boolean;
}

/** Groups `run` and works out its coverage: once per run. */
export function prepareRun(run: CollectedRun, fileExists?: (file: string) => boolean): PreparedRun {
  if (fileExists !== undefined && typeof fileExists !== 'function')
    throw new TypeError('prepareRun: fileExists must be a function (file) => boolean when given.');
  return {
    run,
    grouped: groupRun(run),
    coverage: coverageOf(run, fileExists),
    ...(fileExists !== undefined ? { fileExists } : {}),
  };
}

/** One suite × measure × question of the baseline or of the run. */
export type CellDiff =
  /** In both: the baseline's value and audit, this run's value and audit; `relabelled` when measured against other judgments. */
  | { kind: 'judged'; before: number; after: number; relabelled: boolean; oldAudit?: SampleAudit; audit?: SampleAudit }
  /** Only in this run. */
  | { kind: 'new'; after: number; audit?: SampleAudit }
  /** Only in the baseline, and gone: its tests ran to the end and no longer produce it (prune removes it). */
  | { kind: 'missing'; before: number; oldAudit?: SampleAudit }
  /** Only in the baseline, and this run did not judge it (why: `reason`): an update keeps it. */
  | { kind: 'not-judged'; before: number; oldAudit?: SampleAudit; reason: NotJudgedReason; detail?: string };

/** One suite × measure of the diff. */
export interface RowDiff {
  /** The suite's key in this run (the baseline's, for a suite this run did not produce). */
  suiteKey: string;
  identity: SuiteIdentity;
  /** The suite's key in the baseline when this run renamed it (same questions). */
  renamedFrom?: string;
  measure: string;
  /** This run's row, when it produced the suite × measure. */
  produced?: GroupedRow;
  /** Question id → cell: this run's questions in recording order, then the baseline's others in its order. */
  cells: Map<string, CellDiff>;
  /**
   * True when the mean over the judged questions (relabelled ones left out) moved by no more than the
   * tolerance: an update keeps their baseline values, so a run within tolerance leaves the file as it is.
   */
  withinTolerance: boolean;
}

/** Every suite × measure of a run and its baseline, in the file's order. */
export interface BaselineDiff {
  /** The baseline as given to diffRun; undefined when there was none. */
  against: BaselineFile | undefined;
  /** What the cells were read from (the same file as `against`). */
  baseline: BaselineFile | undefined;
  rows: RowDiff[];
  /** New suite key → baseline suite key, for suites this run renamed. */
  renames: ReadonlyMap<string, string>;
}

interface DiffOptions {
  /** Rows that moved within it keep their baseline values on update. Default 0.01 (the regression rule's grammar). */
  tolerance?: ToleranceOption | ResolvedTolerance;
}

/** The diff of `prepared` against `baseline` (undefined: no baseline yet, every cell is new). */
export function diffRun(
  prepared: PreparedRun,
  baseline: BaselineFile | undefined,
  options: DiffOptions = {},
): BaselineDiff {
  const tolerance = resolveTolerance(options.tolerance, 'diffRun: options.tolerance');
  const { grouped, coverage } = prepared;
  const before = baseline;
  const renames =
    before === undefined ? new Map<string, string>() : findRenamedSuites(before, grouped.suites, coverage);
  const movedAway = new Set(renames.values());

  const keys = new Set([...Object.keys(before?.suites ?? {}), ...grouped.suites.keys()]);
  const suites = [...keys]
    .filter((key) => grouped.suites.has(key) || !movedAway.has(key))
    .map((key) => ({ key, identity: parseSuiteKey(key) }))
    .sort((a, b) => compareIdentities(a.identity, b.identity));

  const rows: RowDiff[] = [];
  for (const { key, identity } of suites) {
    const renamedFrom = renames.get(key);
    const baselineKey = renamedFrom ?? key;
    const oldSuite = before === undefined ? undefined : own(before.suites, baselineKey);
    const producedRows = grouped.suites.get(key);
    const measures = new Set([...Object.keys(oldSuite ?? {}), ...(producedRows?.keys() ?? [])]);
    for (const measure of [...measures].sort()) {
      const oldSamples = oldSuite === undefined ? undefined : own(oldSuite, measure);
      const oldAudits = auditsOf(before, baselineKey, measure);
      const oldAuditOf = (id: string): SampleAudit | undefined =>
        oldAudits === undefined ? undefined : own(oldAudits, id);
      const produced = producedRows?.get(measure);
      const cells = new Map<string, CellDiff>();
      if (produced !== undefined) {
        // Cells built field by field, without spreads: this runs for every sample of the run.
        const { ids, values, sources } = produced;
        for (let index = 0; index < ids.length; index++) {
          const id = ids[index]!;
          const after = values[index]!;
          const source = sources[index]!;
          const audit = auditOfSample(source);
          const old = oldSamples === undefined ? undefined : own(oldSamples, id);
          if (old === undefined) {
            const cell: CellDiff = { kind: 'new', after };
            if (audit !== undefined) cell.audit = audit;
            cells.set(id, cell);
            continue;
          }
          const oldAudit = oldAuditOf(id);
          const cell: CellDiff = {
            kind: 'judged',
            before: old,
            after,
            relabelled: labelsChanged(oldAudit, source.labels),
          };
          if (oldAudit !== undefined) cell.oldAudit = oldAudit;
          if (audit !== undefined) cell.audit = audit;
          cells.set(id, cell);
        }
      }
      for (const id of Object.keys(oldSamples ?? {})) {
        if (cells.has(id)) continue;
        const oldAudit = oldAuditOf(id);
        const status = coverage.accounting.statusOf(identity, id, producedRows);
        const base = { before: oldSamples![id]!, ...(oldAudit !== undefined ? { oldAudit } : {}) };
        cells.set(
          id,
          status.kind === 'missing'
            ? { kind: 'missing', ...base }
            : {
                kind: 'not-judged',
                ...base,
                reason: status.reason,
                ...(status.detail !== undefined ? { detail: status.detail } : {}),
              },
        );
      }
      rows.push({
        suiteKey: key,
        identity,
        ...(renamedFrom !== undefined ? { renamedFrom } : {}),
        measure,
        ...(produced !== undefined ? { produced } : {}),
        cells,
        withinTolerance: movedWithin(cells, toleranceFor(tolerance, measure)),
      });
    }
  }
  return { against: baseline, baseline: before, rows, renames };
}

/**
 * True when the mean over the judged, not relabelled questions moved by no more than `tolerance` (and at
 * least one is judged).
 */
function movedWithin(cells: ReadonlyMap<string, CellDiff>, tolerance: number): boolean {
  let shared = 0;
  let before = 0;
  let after = 0;
  let changed = false;
  for (const cell of cells.values()) {
    if (cell.kind !== 'judged' || cell.relabelled) continue;
    shared++;
    before += cell.before;
    after += cell.after;
    changed ||= valuesDiffer(cell.before, cell.after);
  }
  if (shared === 0) return false;
  if (!changed) return true;
  const meanBefore = before / shared;
  const meanAfter = after / shared;
  return movementOfMeans({ delta: meanAfter - meanBefore, meanBefore, meanAfter }, tolerance) === 'within';
}

/**
 * Why this run must not write the baseline, or undefined when it may: it recorded nothing while no test
 * file loaded, or while test files failed (a baseline written from it would be empty, or would say
 * "up to date" about questions nothing measured). A run that recorded nothing and in which nothing
 * failed (every retrieval test deliberately deleted) may still prune.
 */
export function refusalToWrite(prepared: PreparedRun, prune: boolean): string | undefined {
  if (prepared.grouped.sampleCount > 0) return undefined;
  const files = outcomesOf(prepared.run).files;
  // Files that did not load or did not finish, and files that loaded with failing tests. A file judged
  // for another reason (filtered, a stale shard) failed nothing.
  const broken = files.filter(
    (file) => file.notJudged?.reason === 'load-failed' || file.notJudged?.reason === 'crashed',
  );
  const failing = files.filter(
    (file) =>
      file.notJudged === undefined &&
      file.incomplete.some((test) => test.reason === 'failed' || test.reason === 'timed-out'),
  );
  if (files.length === 0)
    return prune ? undefined : "no test file ran, so nothing was measured (check the runner's test file patterns)";
  if (broken.length === files.length)
    return `no test file loaded, so nothing was measured: ${describeBroken(broken, prepared.run.runner)}`;
  if (broken.length + failing.length === 0) return undefined;
  const parts: string[] = [];
  if (broken.length > 0) parts.push(describeBroken(broken, prepared.run.runner));
  if (failing.length > 0)
    parts.push(
      `${failing.length === 1 ? 'a test file' : `${failing.length} test files`} had failing tests (${namesOf(failing)})`,
    );
  return `the run recorded nothing while ${parts.join('; ')}`;
}

/** Most broken files named in a refusal. */
const NAMED_FILES = 3;

/** The first few files' names, and how many more. */
function namesOf<T extends { file: string }>(
  files: readonly T[],
  describe: (file: T) => string = (file) => file.file,
): string {
  const more = files.length > NAMED_FILES ? `, and ${files.length - NAMED_FILES} more` : '';
  return `${files.slice(0, NAMED_FILES).map(describe).join(', ')}${more}`;
}

function describeBroken(
  broken: readonly { file: string; notJudged?: { reason: NotJudgedReason; detail?: string } }[],
  runner: CollectedRun['runner'],
): string {
  const named = namesOf(
    broken,
    (file) =>
      `${file.file} (${file.notJudged!.detail ?? (file.notJudged!.reason === 'crashed' ? 'it did not finish' : 'it failed to load')})`,
  );
  const count = broken.length === 1 ? 'a test file' : `${broken.length} test files`;
  const esm = broken.some((file) =>
    /Must use import to load ES Module|Cannot use import statement outside a module/.test(file.notJudged!.detail ?? ''),
  );
  const hint =
    esm && runner === 'jest'
      ? '. Jest loads native ES modules only with NODE_OPTIONS=--experimental-vm-modules set'
      : '';
  const what = broken.every((file) => file.notJudged!.reason === 'load-failed')
    ? 'failed to load'
    : 'failed to load or did not finish';
  return `${count} ${what}: ${named}${hint}`;
}
