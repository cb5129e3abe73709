// Reading, writing and updating the baseline file. Writes are atomic (temp file + rename in the same
// directory): a crash or kill leaves the old file or the new one, never a half-written one. A file that
// cannot be read as a baseline is an error and is never overwritten.

import fs from 'node:fs';

import { writeFileAtomic, writeFileAtomicSync } from '../files/atomic-write.js';
import {
  movementOfMeans,
  resolveTolerance,
  toleranceFor,
  valuesDiffer,
  type ResolvedTolerance,
  type ToleranceOption,
} from '../core/regression-rule.js';
import { plural } from '../core/present.js';
import { parseSuiteKey, suiteNameOf, type CollectedRun, type SuiteIdentity } from '../recording/collected.js';
import { groupRun } from './group.js';
import { auditOfSample, auditsOf, labelsChanged, setAudit } from './audits.js';
import { coverageOf, findRenamedSuites, resolveLegacySuites, type LegacyResolution } from './identity.js';
import { LockTimeoutError, withFileLock, type FileLockOptions } from '../files/lock.js';
import {
  BaselineError,
  compareIdentities,
  createRecord,
  own,
  emptyBaseline,
  formatBaseline,
  parseBaseline,
  sortedKeys,
  type BaselineFile,
  type BaselineSamples,
  type SampleAudit,
} from './schema.js';

/** Reads and checks the baseline at `path`; undefined when there is no file there. */
export async function readBaseline(path: string): Promise<BaselineFile | undefined> {
  assertPath(path, 'readBaseline');
  let text: string;
  try {
    text = await fs.promises.readFile(path, 'utf8');
  } catch (error) {
    return handleReadError(error, path);
  }
  return parseBaseline(text, path);
}

/** The version of a file a read saw: what tells a later look whether the file changed since. */
type FileVersion = string;

function versionOf(path: string): FileVersion {
  try {
    const stat = fs.statSync(path, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch (error) {
    return `missing:${(error as { code?: unknown } | null)?.code ?? ''}`;
  }
}

/** A baseline read ahead of need (while the tests run); `current()` gives what readBaseline would give now. */
export interface BaselineReadAhead {
  current(): Promise<BaselineFile | undefined>;
}

/**
 * Starts reading the baseline at `path` now. `current()` returns that read when the file is still the
 * version it saw (same inode, size, modification and change times), else reads it again: a baseline
 * edited, replaced or removed in the meantime is read as it is at the end.
 */
export function readBaselineAhead(path: string): BaselineReadAhead {
  assertPath(path, 'readBaselineAhead');
  const version = versionOf(path);
  const early = readBaseline(path).then(
    (file) => ({ file }),
    (error: unknown) => ({ error }),
  );
  return {
    async current() {
      const outcome = await early;
      if (versionOf(path) !== version) return readBaseline(path);
      if ('error' in outcome) throw outcome.error;
      return outcome.file;
    },
  };
}

/** Synchronous twin of readBaseline. */
export function readBaselineSync(path: string): BaselineFile | undefined {
  assertPath(path, 'readBaselineSync');
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    return handleReadError(error, path);
  }
  return parseBaseline(text, path);
}

function handleReadError(error: unknown, path: string): undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return undefined;
  if (code === 'EISDIR')
    throw new BaselineError(
      path,
      'unreadable',
      'is a directory, not a baseline file; point the `baseline` option at a file such as rag-baseline.json.',
      { cause: error },
    );
  throw new BaselineError(
    path,
    'unreadable',
    `cannot be read (${error instanceof Error ? error.message : String(error)}).`,
    { cause: error },
  );
}

/** Writes `file` to `path` atomically in the format of formatBaseline. */
export async function writeBaseline(path: string, file: BaselineFile): Promise<void> {
  assertPath(path, 'writeBaseline');
  await writeFileAtomic(path, formatBaseline(file));
}

/** Synchronous twin of writeBaseline. */
export function writeBaselineSync(path: string, file: BaselineFile): void {
  assertPath(path, 'writeBaselineSync');
  writeFileAtomicSync(path, formatBaseline(file));
}

/** The baseline this run would record: every suite × measure × sample it measured. */
export function baselineFromRun(run: CollectedRun): BaselineFile {
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
  return file;
}

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
  /** Renamed suites (new key → old key, from findRenamedSuites): the old suite's entries move to the new one. Default: found here. */
  renames?: ReadonlyMap<string, string>;
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
  /** Suites whose entries moved to a new name: display names. */
  renamed: { from: string; to: string }[];
  counts: { addedSamples: number; updatedSamples: number; obsoleteSamples: number };
}

/**
 * Merges what this run measured (`current`, from baselineFromRun) into the previous baseline: the suites
 * seen in this run take this run's values (unless the row moved within tolerance: then its shared
 * questions keep their values), renamed suites move, the other suites are kept as they are. Entries of the
 * files that ran which this run did not produce again are obsolete: reported, and removed only with `prune`.
 * A version-1 `previous` is matched to this run's suites first (resolveLegacySuites).
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
  // Which files ran in full: the run's own account, else given by the caller, else the files of the
  // suites this run produced.
  const run: CollectedRun = options.run ?? {
    runner: 'merged',
    samples: [],
    files:
      options.files !== undefined
        ? [...options.files]
        : Object.keys(current.suites).map((key) => parseSuiteKey(key).file),
  };
  const coverage = coverageOf(run, options.fileExists);
  const producedRows = options.run === undefined ? undefined : groupRun(options.run).suites;
  const isGoneIn =
    (key: string, identity: SuiteIdentity) =>
    (sampleId: string): boolean =>
      coverage.accounting.statusOf(identity, sampleId, producedRows?.get(key)).kind === 'missing';
  let before = previous ?? emptyBaseline();
  if (before.legacy !== undefined)
    before = resolveLegacySuites(before, Object.keys(current.suites).map(parseSuiteKey), coverage).file;
  const renames = options.renames ?? findRenamedSuites(before, suitesAsRows(current), coverage);
  const movedAway = new Set(renames.values());

  const result = emptyBaseline();
  const obsolete: BaselineEntryRef[] = [];
  const added: BaselineEntryRef[] = [];
  const updated: BaselineEntryRef[] = [];
  const renamed: { from: string; to: string }[] = [];
  const counts = { addedSamples: 0, updatedSamples: 0, obsoleteSamples: 0 };

  const allSuites = new Set([...Object.keys(before.suites), ...Object.keys(current.suites)]);
  const ordered = [...allSuites]
    .map((key) => ({ key, identity: parseSuiteKey(key) }))
    .sort((a, b) => compareIdentities(a.identity, b.identity));
  for (const { key, identity } of ordered) {
    if (movedAway.has(key) && own(current.suites, key) === undefined) continue;
    const name = suiteNameOf(identity);
    const renamedFrom = renames.get(key);
    if (renamedFrom !== undefined) renamed.push({ from: suiteNameOf(parseSuiteKey(renamedFrom)), to: name });
    const oldSuite = own(before.suites, renamedFrom ?? key);
    const newSuite = own(current.suites, key);
    // Entries this run did not produce are obsolete only when it found their questions missing.
    if (newSuite === undefined) {
      const kept = createRecord<BaselineSamples>();
      const refs: BaselineEntryRef[] = [];
      let wholeSuite = true;
      for (const measure of Object.keys(oldSuite!)) {
        const { samples, gone } = keepSamples(oldSuite![measure]!, isGoneIn(key, identity), prune);
        counts.obsoleteSamples += gone.length;
        if (gone.length > 0) refs.push({ suite: name, suiteKey: key, measure, sampleIds: gone });
        wholeSuite &&= gone.length === Object.keys(oldSuite![measure]!).length;
        if (Object.keys(samples).length > 0 || !prune) kept[measure] = samples;
        keepAudits(result, key, measure, samples, auditsOf(before, renamedFrom ?? key, measure));
      }
      obsolete.push(...(wholeSuite && refs.length > 0 ? [{ suite: name, suiteKey: key }] : refs));
      if (Object.keys(kept).length > 0) result.suites[key] = kept;
      continue;
    }
    const merged = createRecord<BaselineSamples>();
    const measures = new Set([...Object.keys(oldSuite ?? {}), ...Object.keys(newSuite)]);
    for (const measure of [...measures].sort()) {
      const oldSamples = oldSuite === undefined ? undefined : own(oldSuite, measure);
      const newSamples = own(newSuite, measure);
      if (newSamples === undefined) {
        const { samples, gone } = keepSamples(oldSamples!, isGoneIn(key, identity), prune);
        counts.obsoleteSamples += gone.length;
        if (gone.length === Object.keys(oldSamples!).length) obsolete.push({ suite: name, suiteKey: key, measure });
        else if (gone.length > 0) obsolete.push({ suite: name, suiteKey: key, measure, sampleIds: gone });
        if (Object.keys(samples).length > 0 || !prune) merged[measure] = samples;
        keepAudits(result, key, measure, samples, auditsOf(before, renamedFrom ?? key, measure));
        continue;
      }
      const oldAudits = auditsOf(before, renamedFrom ?? key, measure);
      const newAudits = auditsOf(current, key, measure);
      // A question measured against other judgments takes its new value whatever the row's movement.
      const relabelled = new Set<string>();
      for (const sampleId of Object.keys(newSamples)) {
        const oldAudit = oldAudits === undefined ? undefined : own(oldAudits, sampleId);
        const newAudit = newAudits === undefined ? undefined : own(newAudits, sampleId);
        if (labelsChanged(oldAudit, newAudit?.labels)) relabelled.add(sampleId);
      }
      const keepOld =
        oldSamples !== undefined && movedWithin(oldSamples, newSamples, toleranceFor(tolerance, measure), relabelled);
      const samples = createRecord<number>();
      const addedIds: string[] = [];
      const updatedIds: string[] = [];
      const obsoleteIds: string[] = [];
      for (const sampleId of sortedKeys(newSamples)) {
        const value = newSamples[sampleId]!;
        const oldValue = oldSamples === undefined ? undefined : own(oldSamples, sampleId);
        const newAudit = newAudits === undefined ? undefined : own(newAudits, sampleId);
        if (oldValue === undefined) addedIds.push(sampleId);
        else if (keepOld && !relabelled.has(sampleId)) {
          samples[sampleId] = oldValue;
          // The value stays, and so do the unjudged ids measured with it; a baseline without a
          // fingerprint gains this run's.
          const oldAudit = oldAudits === undefined ? undefined : own(oldAudits, sampleId);
          setAudit(result, key, measure, sampleId, keptAudit(oldAudit, newAudit));
          continue;
        } else if (!Object.is(oldValue, value)) updatedIds.push(sampleId);
        samples[sampleId] = value;
        setAudit(result, key, measure, sampleId, newAudit);
      }
      if (oldSamples !== undefined) {
        for (const sampleId of sortedKeys(oldSamples)) {
          if (own(newSamples, sampleId) !== undefined) continue;
          if (isGoneIn(key, identity)(sampleId)) {
            obsoleteIds.push(sampleId);
            if (prune) continue;
          }
          samples[sampleId] = oldSamples[sampleId]!;
          setAudit(result, key, measure, sampleId, oldAudits === undefined ? undefined : own(oldAudits, sampleId));
        }
      }
      if (addedIds.length > 0) added.push({ suite: name, suiteKey: key, measure, sampleIds: addedIds });
      if (updatedIds.length > 0) updated.push({ suite: name, suiteKey: key, measure, sampleIds: updatedIds });
      if (obsoleteIds.length > 0) obsolete.push({ suite: name, suiteKey: key, measure, sampleIds: obsoleteIds });
      counts.addedSamples += addedIds.length;
      counts.updatedSamples += updatedIds.length;
      counts.obsoleteSamples += obsoleteIds.length;
      merged[measure] = samples;
    }
    result.suites[key] = merged;
  }
  return { file: result, obsolete, pruned: prune && obsolete.length > 0, added, updated, renamed, counts };
}

/** What an update keeps of `samples`: all of them, less the ones found gone when pruning; and the gone ids. */
function keepSamples(
  samples: BaselineSamples,
  isGone: (sampleId: string) => boolean,
  prune: boolean,
): { samples: BaselineSamples; gone: string[] } {
  const kept = createRecord<number>();
  const gone: string[] = [];
  for (const sampleId of sortedKeys(samples)) {
    const obsolete = isGone(sampleId);
    if (obsolete) gone.push(sampleId);
    if (!(obsolete && prune)) kept[sampleId] = samples[sampleId]!;
  }
  return { samples: kept, gone };
}

/** The audits of `samples` (the ones kept) from `audits`, into `file`. */
function keepAudits(
  file: BaselineFile,
  suiteKey: string,
  measure: string,
  samples: BaselineSamples,
  audits: Readonly<Record<string, SampleAudit>> | undefined,
): void {
  if (audits === undefined) return;
  for (const sampleId of Object.keys(samples)) setAudit(file, suiteKey, measure, sampleId, own(audits, sampleId));
}

/** A kept value's audit: its own unjudged count, and its fingerprint (this run's when it had none: same labels, as far as anyone knows). */
function keptAudit(oldAudit: SampleAudit | undefined, newAudit: SampleAudit | undefined): SampleAudit | undefined {
  const labels = oldAudit?.labels ?? newAudit?.labels;
  if (labels === undefined) return oldAudit;
  return { ...oldAudit, labels };
}

/**
 * True when the mean over the questions both sides have moved by no more than `tolerance` (and at least
 * one is shared). Questions in `relabelled` (measured against other judgments) are left out.
 */
function movedWithin(
  oldSamples: BaselineSamples,
  newSamples: BaselineSamples,
  tolerance: number,
  relabelled: ReadonlySet<string>,
): boolean {
  let shared = 0;
  let before = 0;
  let after = 0;
  let changed = false;
  for (const sampleId of Object.keys(newSamples)) {
    const oldValue = own(oldSamples, sampleId);
    if (oldValue === undefined || relabelled.has(sampleId)) continue;
    const value = newSamples[sampleId]!;
    shared++;
    before += oldValue;
    after += value;
    changed ||= valuesDiffer(oldValue, value);
  }
  if (shared === 0) return false;
  if (!changed) return true;
  const meanBefore = before / shared;
  const meanAfter = after / shared;
  return movementOfMeans({ delta: meanAfter - meanBefore, meanBefore, meanAfter }, tolerance) === 'within';
}

function suitesAsRows(file: BaselineFile): Map<string, Map<string, { ids: string[] }>> {
  const rows = new Map<string, Map<string, { ids: string[] }>>();
  for (const key of Object.keys(file.suites)) {
    const suite = file.suites[key]!;
    rows.set(key, new Map(Object.keys(suite).map((measure) => [measure, { ids: Object.keys(suite[measure]!) }])));
  }
  return rows;
}

/** The files a run covered in full: `run.files` when the reporter listed them, else the files that recorded samples. */
export function filesOfRun(run: CollectedRun): string[] {
  if (run.files !== undefined) return [...run.files];
  return [...new Set(run.samples.map((sample) => sample.file))];
}

export interface UpdateBaselineOptions {
  /** Remove obsolete entries. Default false. */
  prune?: boolean;
  /** Rows that moved within it keep their values (see MergeOptions.tolerance). Default 0.01. */
  tolerance?: ToleranceOption | ResolvedTolerance;
  /** Marks the suites of deleted test files obsolete (e.g. `(file) => fs.existsSync(path.join(root, file))`). */
  fileExists?: (file: string) => boolean;
  /** How long to wait for another run's update of the same file, and when its lock counts as abandoned. */
  lock?: FileLockOptions;
}

export interface UpdateBaselineResult extends MergeResult {
  path: string;
  /** False when the merged file is byte-identical to the one on disk (nothing was written). */
  written: boolean;
  /** The baseline before the update (undefined when there was none). */
  previous: BaselineFile | undefined;
  /** Set when the file on disk was a version-1 baseline, now written as version 2. */
  legacy?: LegacyResolution;
}

/**
 * Reads the baseline at `path`, merges this run into it and writes it back atomically. A baseline that
 * cannot be read (corrupt, newer schema, not a baseline) throws BaselineError and is left untouched.
 * Callers decide whether writing is allowed (never under CI: see resolveBaselineMode).
 */
export async function updateBaseline(
  path: string,
  run: CollectedRun,
  options: UpdateBaselineOptions = {},
): Promise<UpdateBaselineResult> {
  assertPath(path, 'updateBaseline');
  // Concurrent updates (two test runs at once) take turns: each re-reads the file the previous one
  // wrote and merges into it, so neither run's suites are lost.
  try {
    return await withFileLock(path, () => readMergeWrite(path, run, options), options.lock);
  } catch (error) {
    if (error instanceof LockTimeoutError) throw new BaselineError(path, 'locked', error.message, { cause: error });
    throw error;
  }
}

async function readMergeWrite(
  path: string,
  run: CollectedRun,
  options: UpdateBaselineOptions,
): Promise<UpdateBaselineResult> {
  let existingText: string | undefined;
  try {
    existingText = await fs.promises.readFile(path, 'utf8');
  } catch (error) {
    handleReadError(error, path);
  }
  const previous = existingText === undefined ? undefined : parseBaseline(existingText, path);
  const current = baselineFromRun(run);
  let legacy: LegacyResolution | undefined;
  let resolved = previous;
  if (previous?.legacy !== undefined) {
    legacy = resolveLegacySuites(
      previous,
      Object.keys(current.suites).map(parseSuiteKey),
      coverageOf(run, options.fileExists),
    );
    resolved = legacy.file;
  }
  const merged = mergeBaseline(resolved, current, {
    prune: options.prune ?? false,
    run,
    fileExists: options.fileExists,
    ...(options.tolerance !== undefined ? { tolerance: options.tolerance } : {}),
  });
  const text = formatBaseline(merged.file);
  const written = text !== existingText;
  if (written) await writeFileAtomic(path, text);
  return { ...merged, path, written, previous, ...(legacy !== undefined ? { legacy } : {}) };
}

/** One line for the console after an update, e.g. `Updated rag-baseline.json: 3 samples added, 2 changed; 1 obsolete entry kept (RAG_BASELINE=prune removes it).` */
export function describeUpdate(
  result: Pick<UpdateBaselineResult, 'path' | 'written' | 'counts' | 'obsolete' | 'pruned'> &
    Partial<Pick<UpdateBaselineResult, 'renamed' | 'legacy'>>,
): string {
  const { addedSamples, updatedSamples, obsoleteSamples } = result.counts;
  const parts: string[] = [];
  if (addedSamples > 0) parts.push(`${plural(addedSamples, 'sample')} added`);
  if (updatedSamples > 0) parts.push(`${plural(updatedSamples, 'sample')} changed`);
  const renamed = result.renamed?.length ?? 0;
  if (renamed > 0) parts.push(`${plural(renamed, 'suite')} renamed`);
  if (result.legacy !== undefined) parts.push('converted to baseline schema version 2');
  const head = result.written ? `Updated ${result.path}` : `${result.path} is up to date`;
  let line = parts.length > 0 ? `${head}: ${parts.join(', ')}` : head;
  if (result.obsolete.length > 0) {
    const what = `${plural(result.obsolete.length, 'obsolete entry', 'obsolete entries')} (${plural(obsoleteSamples, 'sample')})`;
    line += result.pruned ? `; removed ${what}` : `; kept ${what}: RAG_BASELINE=prune removes them`;
  }
  return `${line}.`;
}

function assertPath(path: unknown, caller: string): asserts path is string {
  if (typeof path !== 'string' || path.length === 0) {
    throw new TypeError(
      `${caller}: path must be a non-empty string (the baseline file, e.g. rag-baseline.json), got ${JSON.stringify(path)}.`,
    );
  }
}
