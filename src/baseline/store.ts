// Reading, writing and updating the baseline file. Writes are atomic (temp file + rename in the same
// directory): a crash or kill leaves the old file or the new one, never a half-written one. A file that
// cannot be read as a baseline is an error and is never overwritten.

import fs from 'node:fs';

import { writeFileAtomic, writeFileAtomicSync } from '../dataset/atomic-write.js';
import { LockTimeoutError, withFileLock, type FileLockOptions } from '../files/lock.js';
import type { CollectedRun } from '../report/collected.js';
import { belongsToFiles, fileOfSuite, groupRun } from './group.js';
import {
  BaselineError,
  compareKeys,
  createRecord,
  own,
  emptyBaseline,
  formatBaseline,
  parseBaseline,
  sortedKeys,
  type BaselineFile,
  type BaselineSamples,
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
  if (code === 'EISDIR') throw new BaselineError(path, 'unreadable', 'is a directory, not a baseline file; point the `baseline` option at a file such as rag-baseline.json.', { cause: error });
  throw new BaselineError(path, 'unreadable', `cannot be read (${error instanceof Error ? error.message : String(error)}).`, { cause: error });
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
  for (const [suiteId, measures] of grouped.suites) {
    const suite = createRecord<BaselineSamples>();
    for (const [measure, row] of measures) {
      const samples = createRecord<number>();
      row.ids.forEach((id, index) => {
        samples[id] = row.values[index]!;
      });
      suite[measure] = samples;
    }
    file.suites[suiteId] = suite;
  }
  return file;
}

/**
 * An entry of the baseline: a whole suite (no measure), a whole suite × measure (no sampleIds), or some
 * samples of one suite × measure.
 */
export interface BaselineEntryRef {
  suite: string;
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
  counts: { addedSamples: number; updatedSamples: number; obsoleteSamples: number };
}

/**
 * Merges what this run measured (`current`, from baselineFromRun) into the previous baseline: the suites
 * seen in this run take this run's values, the other suites are kept as they are. Entries of the files
 * that ran which this run did not produce again are obsolete: reported, and removed only with `prune`.
 */
export function mergeBaseline(previous: BaselineFile | undefined, current: BaselineFile, options: MergeOptions = {}): MergeResult {
  const prune = options.prune ?? false;
  if (typeof prune !== 'boolean') throw new TypeError(`mergeBaseline: options.prune must be true or false, got ${String(prune)}.`);
  if (options.fileExists !== undefined && typeof options.fileExists !== 'function') {
    throw new TypeError('mergeBaseline: options.fileExists must be a function (file) => boolean when given.');
  }
  const before = previous ?? emptyBaseline();
  // Which files ran in full: given by the caller, else the files of the suites this run produced.
  const ranFiles = new Set<string>();
  if (options.files !== undefined) for (const file of options.files) ranFiles.add(file);
  else for (const suiteId of Object.keys(current.suites)) ranFiles.add(fileOfSuite(suiteId, ranFiles));

  const result = emptyBaseline();
  const obsolete: BaselineEntryRef[] = [];
  const added: BaselineEntryRef[] = [];
  const updated: BaselineEntryRef[] = [];
  const counts = { addedSamples: 0, updatedSamples: 0, obsoleteSamples: 0 };
  const countSamples = (samples: BaselineSamples | undefined): number => (samples === undefined ? 0 : Object.keys(samples).length);

  const allSuites = new Set([...Object.keys(before.suites), ...Object.keys(current.suites)]);
  for (const suiteId of [...allSuites].sort(compareKeys)) {
    const oldSuite = own(before.suites, suiteId);
    const newSuite = own(current.suites, suiteId);
    // Entries this run did not produce are obsolete only when their file ran in full, or was deleted.
    const complete =
      belongsToFiles(suiteId, ranFiles) ||
      (options.fileExists !== undefined && oldSuite !== undefined && newSuite === undefined && !options.fileExists(fileOfSuite(suiteId, ranFiles)));
    if (newSuite === undefined) {
      if (complete) {
        obsolete.push({ suite: suiteId });
        for (const measure of Object.keys(oldSuite!)) counts.obsoleteSamples += countSamples(own(oldSuite!, measure));
        if (prune) continue;
      }
      result.suites[suiteId] = copySuite(oldSuite!);
      continue;
    }
    const merged = createRecord<BaselineSamples>();
    const measures = new Set([...Object.keys(oldSuite ?? {}), ...Object.keys(newSuite)]);
    for (const measure of [...measures].sort(compareKeys)) {
      const oldSamples = oldSuite === undefined ? undefined : own(oldSuite, measure);
      const newSamples = own(newSuite, measure);
      if (newSamples === undefined) {
        if (complete) {
          obsolete.push({ suite: suiteId, measure });
          counts.obsoleteSamples += countSamples(oldSamples);
          if (prune) continue;
        }
        merged[measure] = Object.assign(createRecord<number>(), oldSamples);
        continue;
      }
      const samples = createRecord<number>();
      const addedIds: string[] = [];
      const updatedIds: string[] = [];
      const obsoleteIds: string[] = [];
      for (const sampleId of sortedKeys(newSamples)) {
        const value = newSamples[sampleId]!;
        const oldValue = oldSamples === undefined ? undefined : own(oldSamples, sampleId);
        if (oldValue === undefined) addedIds.push(sampleId);
        else if (!Object.is(oldValue, value)) updatedIds.push(sampleId);
        samples[sampleId] = value;
      }
      if (oldSamples !== undefined) {
        for (const sampleId of sortedKeys(oldSamples)) {
          if (own(newSamples, sampleId) !== undefined) continue;
          if (complete) {
            obsoleteIds.push(sampleId);
            if (prune) continue;
          }
          samples[sampleId] = oldSamples[sampleId]!;
        }
      }
      if (addedIds.length > 0) added.push({ suite: suiteId, measure, sampleIds: addedIds });
      if (updatedIds.length > 0) updated.push({ suite: suiteId, measure, sampleIds: updatedIds });
      if (obsoleteIds.length > 0) obsolete.push({ suite: suiteId, measure, sampleIds: obsoleteIds });
      counts.addedSamples += addedIds.length;
      counts.updatedSamples += updatedIds.length;
      counts.obsoleteSamples += obsoleteIds.length;
      merged[measure] = samples;
    }
    result.suites[suiteId] = merged;
  }
  return { file: result, obsolete, pruned: prune && obsolete.length > 0, added, updated, counts };
}

/** The files a run covered in full: `run.files` when the reporter listed them, else the files that recorded samples. */
export function filesOfRun(run: CollectedRun): string[] {
  if (run.files !== undefined) return [...run.files];
  return [...new Set(run.samples.map((sample) => sample.file))];
}

export interface UpdateBaselineOptions {
  /** Remove obsolete entries. Default false. */
  prune?: boolean;
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
}

/**
 * Reads the baseline at `path`, merges this run into it and writes it back atomically. A baseline that
 * cannot be read (corrupt, newer schema, not a baseline) throws BaselineError and is left untouched.
 * Callers decide whether writing is allowed (never under CI: see resolveBaselineMode).
 */
export async function updateBaseline(path: string, run: CollectedRun, options: UpdateBaselineOptions = {}): Promise<UpdateBaselineResult> {
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

async function readMergeWrite(path: string, run: CollectedRun, options: UpdateBaselineOptions): Promise<UpdateBaselineResult> {
  let existingText: string | undefined;
  try {
    existingText = await fs.promises.readFile(path, 'utf8');
  } catch (error) {
    handleReadError(error, path);
  }
  const previous = existingText === undefined ? undefined : parseBaseline(existingText, path);
  const merged = mergeBaseline(previous, baselineFromRun(run), {
    prune: options.prune ?? false,
    files: filesOfRun(run),
    fileExists: options.fileExists,
  });
  const text = formatBaseline(merged.file);
  const written = text !== existingText;
  if (written) await writeFileAtomic(path, text);
  return { ...merged, path, written, previous };
}

/** One line for the console after an update, e.g. `Updated rag-baseline.json: 3 samples added, 2 changed; 1 obsolete entry kept (RAG_BASELINE=prune removes it).` */
export function describeUpdate(result: Pick<UpdateBaselineResult, 'path' | 'written' | 'counts' | 'obsolete' | 'pruned'>): string {
  const { addedSamples, updatedSamples, obsoleteSamples } = result.counts;
  const parts: string[] = [];
  if (addedSamples > 0) parts.push(`${plural(addedSamples, 'sample')} added`);
  if (updatedSamples > 0) parts.push(`${plural(updatedSamples, 'sample')} changed`);
  const head = result.written ? `Updated ${result.path}` : `${result.path} is up to date`;
  let line = parts.length > 0 ? `${head}: ${parts.join(', ')}` : head;
  if (result.obsolete.length > 0) {
    const what = `${plural(result.obsolete.length, 'obsolete entry', 'obsolete entries')} (${plural(obsoleteSamples, 'sample')})`;
    line += result.pruned ? `; removed ${what}` : `; kept ${what}: RAG_BASELINE=prune removes them`;
  }
  return `${line}.`;
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

function copySuite(suite: Record<string, BaselineSamples>): Record<string, BaselineSamples> {
  const copy = createRecord<BaselineSamples>();
  for (const measure of Object.keys(suite)) copy[measure] = Object.assign(createRecord<number>(), suite[measure]);
  return copy;
}

function assertPath(path: unknown, caller: string): asserts path is string {
  if (typeof path !== 'string' || path.length === 0) {
    throw new TypeError(`${caller}: path must be a non-empty string (the baseline file, e.g. rag-baseline.json), got ${JSON.stringify(path)}.`);
  }
}
