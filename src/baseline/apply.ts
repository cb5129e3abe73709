// Applying the diff of a run (./diff.ts) to its baseline: the file an update or a prune writes, and
// what changed in it row by row. Pure: the same diff gives the same file and the same counts, so a
// report that reads the diff says what the update writes.
//
// A row (suite × question × measure) keeps its cell as it is — value and audit — unless this run
// changed it: a new question is added, a value that moved is written with its new audit (unless the
// row moved within tolerance), a question measured against other judgments is relabelled, and a
// question found gone is removed by a prune. A question this run did not judge keeps its value.

import { valuesDiffer } from '../core/regression-rule.js';
import { suiteNameOf, parseSuiteKey } from '../recording/collected.js';
import { setAudit } from './audits.js';
import type { NotJudgedReason } from '../recording/outcomes.js';
import type { BaselineDiff, CellDiff, RowDiff } from './diff.js';
import {
  compareKeys,
  createRecord,
  emptyBaseline,
  type BaselineFile,
  type BaselineSamples,
  type SampleAudit,
} from './file/types.js';

/**
 * An entry of the baseline: a whole suite (no measure), a whole suite × measure (no sampleIds), or some
 * samples of one suite × measure. `suite` is the display name, `suiteKey` the exact identity (suiteKeyOf).
 */
export interface BaselineEntryRef {
  suite: string;
  suiteKey: string;
  measure?: string;
  sampleIds?: string[];
}

/** How the rows of the file changed, by kind, and the rows an update kept although this run did not confirm them. */
interface UpdateCounts {
  /** Rows written that the file did not have. */
  addedSamples: number;
  /** Rows whose value (or audit) changed, measured against the same judgments. */
  updatedSamples: number;
  /** Rows measured against other judgments than before, written with their new value. */
  relabelledSamples: number;
  /** Rows found gone (removed when pruning, else kept). */
  obsoleteSamples: number;
  /** Rows this run did not judge, kept as they were. */
  notJudgedSamples: number;
}

export interface MergeResult {
  file: BaselineFile;
  /** Entries of the files that ran (or of deleted files) that this run no longer produced. */
  obsolete: BaselineEntryRef[];
  /** True when the obsolete entries were removed from `file`. */
  pruned: boolean;
  /** Samples that were not in the previous baseline, per suite × measure. */
  added: BaselineEntryRef[];
  /** Samples whose value changed, per suite × measure. */
  updated: BaselineEntryRef[];
  /** Samples measured against other judgments, written with their new values, per suite × measure. */
  relabelled: BaselineEntryRef[];
  /** Samples this run did not judge, kept as they were, per suite × measure, with why. */
  notJudged: (BaselineEntryRef & { reason: NotJudgedReason })[];
  /** Suites whose entries moved to a new name: display names. */
  renamed: { from: string; to: string }[];
  counts: UpdateCounts;
}

interface ApplyOptions {
  /** Remove the rows found gone (RAG_BASELINE=prune). Default false: report them and keep them. */
  prune?: boolean;
}

/** The baseline `diff` makes of its baseline, and what changed in it. */
export function applyDiff(diff: BaselineDiff, options: ApplyOptions = {}): MergeResult {
  const prune = options.prune ?? false;
  if (typeof prune !== 'boolean')
    throw new TypeError(`applyDiff: options.prune must be true or false, got ${String(prune)}.`);
  const file = emptyBaseline();
  const result: Omit<MergeResult, 'file' | 'pruned'> = {
    obsolete: [],
    added: [],
    updated: [],
    relabelled: [],
    notJudged: [],
    renamed: [],
    counts: { addedSamples: 0, updatedSamples: 0, relabelledSamples: 0, obsoleteSamples: 0, notJudgedSamples: 0 },
  };
  let previousSuite: string | undefined;
  let suiteObsolete: { refs: BaselineEntryRef[]; whole: boolean; produced: boolean } | undefined;
  const closeSuite = (): void => {
    if (suiteObsolete === undefined) return;
    const { refs, whole, produced } = suiteObsolete;
    // A suite this run did not produce at all and found wholly gone is one entry.
    if (!produced && whole && refs.length > 0)
      result.obsolete.push({ suite: refs[0]!.suite, suiteKey: refs[0]!.suiteKey });
    else result.obsolete.push(...refs);
  };
  for (const row of diff.rows) {
    const name = suiteNameOf(row.identity);
    if (row.suiteKey !== previousSuite) {
      closeSuite();
      previousSuite = row.suiteKey;
      suiteObsolete = { refs: [], whole: true, produced: false };
      if (row.renamedFrom !== undefined)
        result.renamed.push({ from: suiteNameOf(parseSuiteKey(row.renamedFrom)), to: name });
    }
    suiteObsolete!.produced ||= row.produced !== undefined;
    const applied = applyRow(row, prune);
    const ref = { suite: name, suiteKey: row.suiteKey, measure: row.measure };
    if (applied.added.length > 0) result.added.push({ ...ref, sampleIds: applied.added });
    if (applied.updated.length > 0) result.updated.push({ ...ref, sampleIds: applied.updated });
    if (applied.relabelled.length > 0) result.relabelled.push({ ...ref, sampleIds: applied.relabelled });
    for (const [reason, ids] of applied.notJudged) result.notJudged.push({ ...ref, sampleIds: ids, reason });
    const gone = applied.gone;
    if (gone.length > 0) {
      // A measure wholly gone from a suite this run produced is one entry; else its questions.
      const wholeMeasure = gone.length === row.cells.size;
      suiteObsolete!.refs.push(wholeMeasure && row.produced === undefined ? ref : { ...ref, sampleIds: gone });
    }
    suiteObsolete!.whole &&= gone.length === row.cells.size;
    result.counts.addedSamples += applied.added.length;
    result.counts.updatedSamples += applied.updated.length;
    result.counts.relabelledSamples += applied.relabelled.length;
    result.counts.obsoleteSamples += gone.length;
    for (const ids of applied.notJudged.values()) result.counts.notJudgedSamples += ids.length;
    if (Object.keys(applied.samples).length === 0) continue;
    (file.suites[row.suiteKey] ??= createRecord())[row.measure] = applied.samples;
    for (const [id, audit] of applied.audits) setAudit(file, row.suiteKey, row.measure, id, audit);
  }
  closeSuite();
  return { file, ...result, pruned: prune && result.obsolete.length > 0 };
}

interface AppliedRow {
  samples: BaselineSamples;
  audits: Map<string, SampleAudit>;
  added: string[];
  updated: string[];
  relabelled: string[];
  gone: string[];
  /** Reason → ids. */
  notJudged: Map<NotJudgedReason, string[]>;
}

function applyRow(row: RowDiff, prune: boolean): AppliedRow {
  const applied: AppliedRow = {
    samples: createRecord<number>(),
    audits: new Map(),
    added: [],
    updated: [],
    relabelled: [],
    gone: [],
    notJudged: new Map(),
  };
  const write = (id: string, value: number, audit: SampleAudit | undefined): void => {
    applied.samples[id] = value;
    if (audit !== undefined) applied.audits.set(id, audit);
  };
  for (const id of [...row.cells.keys()].sort(compareKeys)) {
    const cell = row.cells.get(id)!;
    switch (cell.kind) {
      case 'new':
        write(id, cell.after, cell.audit);
        applied.added.push(id);
        break;
      case 'judged': {
        const written = writtenCell(cell, row.withinTolerance);
        write(id, written.value, written.audit);
        if (!sameCell(cell.before, cell.oldAudit, written.value, written.audit))
          (cell.relabelled ? applied.relabelled : applied.updated).push(id);
        break;
      }
      case 'missing':
        applied.gone.push(id);
        if (!prune) write(id, cell.before, cell.oldAudit);
        break;
      case 'not-judged': {
        write(id, cell.before, cell.oldAudit);
        const ids = applied.notJudged.get(cell.reason);
        if (ids === undefined) applied.notJudged.set(cell.reason, [id]);
        else ids.push(id);
        break;
      }
    }
  }
  return applied;
}

/**
 * What an update writes for a question both sides have: measured against other judgments, this run's
 * value and audit; else, when the row moved within tolerance or the value did not change (beyond
 * rounding), the baseline's value and audit, gaining this run's fingerprint when it had none (so an
 * unjudged count that moved alone is no change); else this run's value and audit.
 */
function writtenCell(
  cell: Extract<CellDiff, { kind: 'judged' }>,
  withinTolerance: boolean,
): { value: number; audit: SampleAudit | undefined } {
  if (cell.relabelled || (!withinTolerance && valuesDiffer(cell.before, cell.after)))
    return { value: cell.after, audit: cell.audit };
  const labels = cell.oldAudit?.labels ?? cell.audit?.labels;
  return { value: cell.before, audit: labels === undefined ? cell.oldAudit : { ...cell.oldAudit, labels } };
}

function sameCell(
  value: number,
  audit: SampleAudit | undefined,
  otherValue: number,
  otherAudit: SampleAudit | undefined,
): boolean {
  return (
    Object.is(value, otherValue) &&
    audit?.labels === otherAudit?.labels &&
    (audit?.unjudged ?? 0) === (otherAudit?.unjudged ?? 0)
  );
}
