// Updating the baseline file: this run merged into the previous baseline, read and written by ./file/
// under a lock. Writes are atomic (temp file + rename in the same directory): a crash or kill leaves the
// old file or the new one, never a half-written one. A file that cannot be read as a baseline is an error
// and is never overwritten.

import { writeFileAtomic } from '../files/atomic-write.js';
import { resolveTolerance, type ResolvedTolerance, type ToleranceOption } from '../core/regression-rule.js';
import { plural } from '../core/present.js';
import { parseSuiteKey, type CollectedRun, type CollectedSample } from '../recording/collected.js';
import { NOT_JUDGED_REASONS, type NotJudgedReason } from '../recording/outcomes.js';
import { groupRun } from './group.js';
import {
  changedRankings,
  changedTags,
  latencyOfRun,
  rankingsOfRun,
  withLatency,
  withRankings,
  type RankingOptions,
} from './rankings.js';
import { auditOfSample, auditsOf, setAudit } from './audits.js';
import { applyDiff, type BaselineEntryRef, type MergeResult } from './apply.js';
import { diffRun, prepareRun, refusalToWrite, type BaselineDiff, type PreparedRun } from './diff.js';
import { coverageOf } from './identity.js';
import { LockTimeoutError, withFileLock, type FileLockOptions } from '../files/lock.js';
import { assertBaselinePath, BaselineError } from './file/errors.js';
import { parseBaseline, readBaseline, readBaselineText } from './file/read.js';
import { createRecord, own, emptyBaseline, type BaselineFile, type BaselineSamples } from './file/types.js';
import { formatBaseline } from './file/write.js';

/** The baseline this run would record: every suite × measure × sample it measured, and each question's ranking. */
export function baselineFromRun(run: CollectedRun, options: RankingOptions = {}): BaselineFile {
  const grouped = groupRun(run);
  const file = emptyBaseline();
  for (const [key, measures] of grouped.suites) {
    const suite = createRecord<BaselineSamples>();
    for (const [measure, row] of measures) {
      const samples = createRecord<number>();
      row.ids.forEach((id, index) => {
        samples[id] = row.values[index]!;
        setAudit(file, key, measure, id, auditOfSample(row.sources[index]!));
      });
      suite[measure] = samples;
    }
    file.suites[key] = suite;
  }
  const rankings = rankingsOfRun(grouped, options, run.costs);
  if (rankings !== undefined) file.rankings = rankings;
  const latency = latencyOfRun(run.costs ?? []);
  if (latency !== undefined) file.latency = latency;
  return file;
}

export type { MergeResult } from './apply.js';

export interface MergeOptions {
  /** Remove obsolete entries (RAG_BASELINE=prune). Default false: report them and keep them. */
  prune?: boolean;
  /**
   * Test files this run executed in full (relative, '/' separated). Only their entries can be obsolete:
   * a run of some files never marks other files' suites obsolete. Default: the files of the suites in
   * `current` (CollectedRun.files when the reporter knows them better; see filesOfRun).
   */
  files?: Iterable<string>;
  /** When given, every suite of a file for which it returns false is obsolete (the test file was deleted). */
  fileExists?: (file: string) => boolean;
  /**
   * The run `current` was made from. With it, an entry is obsolete only when the run found its question
   * missing (src/baseline/accounting.ts): never a question it filtered, skipped, or whose test failed
   * before measuring, nor one of a file or project it did not run. `files` is then not read.
   */
  run?: CollectedRun;
  /**
   * A suite × measure whose mean over the shared questions moved by no more than this keeps the baseline's
   * values for those questions, so an update within tolerance leaves the file as it is. Default 0.01
   * (the regression rule's tolerance grammar).
   */
  tolerance?: ToleranceOption | ResolvedTolerance;
}

/**
 * Merges what this run measured (`current`, from baselineFromRun) into the previous baseline: the diff
 * of the run against it (diffRun), applied (applyDiff). The suites seen in this run take this run's
 * values (unless the row moved within tolerance: then its shared questions keep their values), renamed
 * suites move, the other suites are kept as they are. Entries of the files that ran which this run did
 * not produce again are obsolete: reported, and removed only with `prune`.
 */
export function mergeBaseline(
  previous: BaselineFile | undefined,
  current: BaselineFile,
  options: MergeOptions = {},
): MergeResult {
  const prune = options.prune ?? false;
  if (typeof prune !== 'boolean')
    throw new TypeError(`mergeBaseline: options.prune must be true or false, got ${String(prune)}.`);
  if (options.fileExists !== undefined && typeof options.fileExists !== 'function') {
    throw new TypeError('mergeBaseline: options.fileExists must be a function (file) => boolean when given.');
  }
  const tolerance = resolveTolerance(options.tolerance, 'mergeBaseline: options.tolerance');
  // The run's own grouping when it holds the samples `current` was made from (its tests tell which
  // questions stopped early); else `current` as a run, each question its own test.
  const prepared =
    options.run !== undefined && options.run.samples.length > 0
      ? prepareRun(options.run, options.fileExists)
      : preparedFromFile(current, options);
  const result = applyDiff(diffRun(prepared, previous, { tolerance }), { prune });
  const file = withLatency(withRankings(result.file, previous, current.rankings), previous, current.latency);
  return { ...result, file };
}

/**
 * A run that produced exactly `current`'s samples (each question its own test), accounted as
 * `options.run` says, else as one in which the files of `options.files` (default: those of `current`'s
 * suites) ran in full.
 */
function preparedFromFile(current: BaselineFile, options: MergeOptions): PreparedRun {
  const samples: CollectedSample[] = [];
  for (const key of Object.keys(current.suites)) {
    const identity = parseSuiteKey(key);
    const suite = current.suites[key]!;
    for (const measure of Object.keys(suite)) {
      const audits = auditsOf(current, key, measure);
      for (const id of Object.keys(suite[measure]!)) {
        const audit = audits === undefined ? undefined : own(audits, id);
        samples.push({
          file: identity.file,
          describePath: [...identity.describe],
          ...(identity.project !== undefined ? { project: identity.project } : {}),
          test: id,
          queryId: id,
          measure,
          value: suite[measure]![id]!,
          ...(audit?.labels !== undefined ? { labels: audit.labels } : {}),
          ...(audit?.unjudged !== undefined ? { unjudgedCount: audit.unjudged, unjudgedIds: [] } : {}),
        });
      }
    }
  }
  const files =
    options.files !== undefined
      ? [...options.files]
      : Object.keys(current.suites).map((key) => parseSuiteKey(key).file);
  const run: CollectedRun = { runner: 'merged', samples, files };
  const accounted = options.run ?? { ...run, samples: [] };
  return {
    run,
    grouped: groupRun(run),
    coverage: coverageOf(accounted, options.fileExists),
    ...(options.fileExists !== undefined ? { fileExists: options.fileExists } : {}),
  };
}

export interface UpdateBaselineOptions extends RankingOptions {
  /** Remove obsolete entries. Default false. */
  prune?: boolean;
  /** Rows that moved within it keep their values (see MergeOptions.tolerance). Default 0.01. */
  tolerance?: ToleranceOption | ResolvedTolerance;
  /** Marks the suites of deleted test files obsolete (e.g. `(file) => fs.existsSync(path.join(root, file))`). */
  fileExists?: (file: string) => boolean;
  /** How long to wait for another run's update of the same file, and when its lock counts as abandoned. */
  lock?: FileLockOptions;
}

/**
 * The run prepared and diffed already (for the summary) against the baseline the file held: applied as
 * it is when the file under the lock is still that baseline as written, made again otherwise.
 */
export interface DiffMade {
  prepared: PreparedRun;
  diff: BaselineDiff;
}

export interface UpdateBaselineResult extends MergeResult {
  path: string;
  /** False when the merged file is byte-identical to the one on disk (nothing was written). */
  written: boolean;
  /** Why nothing was written although the run was an update: it recorded nothing while its test files failed (refusalToWrite). */
  refused?: string;
  /** The baseline before the update (undefined when there was none). */
  previous: BaselineFile | undefined;
  /** Questions whose stored ranking (text and top keys, schema 5) this update wrote anew. */
  rankingsChanged?: number;
  /** Questions of the previous baseline whose tags this update changed (they gate nothing; counted apart). */
  tagsChanged?: number;
}

/**
 * Reads the baseline at `path`, applies this run's diff to it and writes it back atomically. A baseline
 * that cannot be read (corrupt, newer schema, not a baseline) throws BaselineError and is left untouched;
 * a run that recorded nothing while its test files failed to load or failed writes nothing (`refused`).
 * Callers decide whether writing is allowed (never under CI: see resolveBaselineMode).
 */
export async function updateBaseline(
  path: string,
  run: CollectedRun,
  options: UpdateBaselineOptions = {},
): Promise<UpdateBaselineResult> {
  return updateBaselineWithDiff(path, run, options, undefined);
}

/**
 * updateBaseline at the end of a run (finishRun), which prepared and diffed the run already for its
 * summary (`made`; `run` must be the run it was prepared from, `options.tolerance` the one it was made
 * with). Not part of the package's entries.
 */
export async function updateBaselineWithDiff(
  path: string,
  run: CollectedRun,
  options: UpdateBaselineOptions,
  made: DiffMade | undefined,
): Promise<UpdateBaselineResult> {
  assertBaselinePath(path, 'updateBaseline');
  const prune = options.prune ?? false;
  if (typeof prune !== 'boolean')
    throw new TypeError(`updateBaseline: options.prune must be true or false, got ${String(prune)}.`);
  const prepared = made?.prepared ?? prepareRun(run, options.fileExists);
  const refused = refusalToWrite(prepared, prune);
  if (refused !== undefined) {
    const previous = made?.diff.against ?? (await readBaseline(path));
    return { ...applyDiff(diffRun(prepared, undefined), { prune }), path, written: false, refused, previous };
  }
  // Concurrent updates (two test runs at once) take turns: each re-reads the file the previous one
  // wrote and applies its diff to it, so neither run's suites are lost.
  try {
    return await withFileLock(path, () => readApplyWrite(path, prepared, prune, options, made), options.lock);
  } catch (error) {
    if (error instanceof LockTimeoutError) throw new BaselineError(path, 'locked', error.message, { cause: error });
    throw error;
  }
}

async function readApplyWrite(
  path: string,
  prepared: PreparedRun,
  prune: boolean,
  options: UpdateBaselineOptions,
  made: DiffMade | undefined,
): Promise<UpdateBaselineResult> {
  const existingText = await readBaselineText(path);
  const given = made?.diff;
  // The diff made for the summary holds when the file is still the one it was made against, as written.
  const unchanged = given !== undefined && existingText === textOf(given.against);
  // Parsed only when it is not the file the diff was made against.
  const previous = unchanged
    ? given.against
    : existingText === undefined
      ? undefined
      : parseBaseline(existingText, path);
  const diff = unchanged
    ? given
    : diffRun(prepared, previous, options.tolerance !== undefined ? { tolerance: options.tolerance } : {});
  const result = applyDiff(diff, { prune });
  const costs = prepared.run.costs ?? [];
  const file = withLatency(
    withRankings(result.file, previous, rankingsOfRun(prepared.grouped, options, costs)),
    previous,
    latencyOfRun(costs),
  );
  const valueChanges = [...result.added, ...result.updated, ...result.relabelled];
  const applied = {
    ...result,
    file,
    rankingsChanged: changedRankings(previous, file, valueChanges),
    tagsChanged: changedTags(previous, file),
  };
  const text = formatBaseline(applied.file);
  const written = text !== existingText;
  if (written) await writeFileAtomic(path, text);
  return { ...applied, path, written, previous };
}

/** The text of `file` as the writer writes it (undefined: no file). */
function textOf(file: BaselineFile | undefined): string | undefined {
  return file === undefined ? undefined : formatBaseline(file);
}

/** Why rows were not judged, as the update line counts them (`2 whose test failed before measuring them`). */
const NOT_JUDGED_BRIEF: Record<NotJudgedReason, string> = {
  filtered: 'filtered out',
  skipped: 'skipped',
  failed: 'whose test failed before measuring them',
  'timed-out': 'whose test timed out before measuring them',
  'load-failed': 'in files that failed to load',
  crashed: 'in files that did not finish',
  'not-run': 'in files this run did not run',
  'shard-missing': 'in shards missing from the merge',
  'shard-stale': 'in shards from another run',
};

/** Reasons whose rows the update line names: a test that stopped early is worth seeing row by row. */
const NAMED_REASONS: ReadonlySet<NotJudgedReason> = new Set(['failed', 'timed-out']);

/** Rows not judged named per reason in the update line; more are counted. */
const NAMED_NOT_JUDGED = 3;

/** `2 whose test failed before measuring them: a.test.ts › q07 · recall@3, …` per reason, in NOT_JUDGED_REASONS order. */
function describeNotJudged(entries: readonly (BaselineEntryRef & { reason: NotJudgedReason })[]): string {
  const parts: string[] = [];
  for (const reason of NOT_JUDGED_REASONS) {
    const rows: string[] = [];
    for (const entry of entries)
      if (entry.reason === reason)
        for (const id of entry.sampleIds ?? []) rows.push(`${entry.suite} › ${id} · ${entry.measure!}`);
    if (rows.length === 0) continue;
    const named = NAMED_REASONS.has(reason)
      ? `: ${rows.slice(0, NAMED_NOT_JUDGED).join(', ')}${rows.length > NAMED_NOT_JUDGED ? ', …' : ''}`
      : '';
    parts.push(`${rows.length} ${NOT_JUDGED_BRIEF[reason]}${named}`);
  }
  return parts.join('; ');
}

/**
 * One line for the console after an update: what changed in the file, row by row and by kind, then what
 * it kept that this run did not confirm, e.g. `Updated rag-baseline.json: 3 samples added, 2 changed;
 * kept 1 sample this run did not judge (1 whose test failed before measuring them: test/a.test.ts › q07 ·
 * recall@3); kept 1 obsolete entry (4 samples): RAG_BASELINE=prune removes them.`
 */
export function describeUpdate(
  result: Pick<UpdateBaselineResult, 'path' | 'written' | 'counts' | 'obsolete' | 'pruned'> &
    Partial<
      Pick<UpdateBaselineResult, 'renamed' | 'notJudged' | 'refused' | 'file' | 'rankingsChanged' | 'tagsChanged'>
    >,
): string {
  if (result.refused !== undefined) return `Did not update ${result.path}: ${result.refused}.`;
  const { addedSamples, updatedSamples, relabelledSamples, obsoleteSamples } = result.counts;
  const changes: [number, string][] = [
    [addedSamples, 'added'],
    [updatedSamples, 'changed'],
    [relabelledSamples, 'relabelled'],
    [result.pruned ? obsoleteSamples : 0, 'removed'],
  ];
  const parts: string[] = [];
  for (const [count, kind] of changes) {
    if (count === 0) continue;
    parts.push(parts.length === 0 ? `${plural(count, 'sample')} ${kind}` : `${count} ${kind}`);
  }
  const renamed = result.renamed?.length ?? 0;
  if (renamed > 0) parts.push(`${plural(renamed, 'suite')} renamed`);
  // Rankings explain moves and gate nothing: counted apart, after the values.
  const rankings = result.rankingsChanged ?? 0;
  if (rankings > 0) parts.push(`the ranking${rankings === 1 ? '' : 's'} of ${plural(rankings, 'question')} recorded`);
  const tags = result.tagsChanged ?? 0;
  if (tags > 0) parts.push(`the tags of ${plural(tags, 'question')} recorded`);
  const head = result.written ? `Updated ${result.path}` : `${result.path} is up to date`;
  let line = parts.length > 0 ? `${head}: ${parts.join(', ')}` : head;
  if (result.pruned && result.file !== undefined && Object.keys(result.file.suites).length === 0)
    line += '; it is now empty: no test records a measure any more';
  const notJudged = result.notJudged ?? [];
  if (notJudged.length > 0)
    line += `; kept ${plural(result.counts.notJudgedSamples, 'sample')} this run did not judge (${describeNotJudged(notJudged)})`;
  if (result.obsolete.length > 0 && !result.pruned) {
    const what = `${plural(result.obsolete.length, 'obsolete entry', 'obsolete entries')} (${plural(obsoleteSamples, 'sample')})`;
    line += `; kept ${what}: RAG_BASELINE=prune removes them`;
  }
  return `${line}.`;
}
