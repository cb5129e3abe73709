// Groups a collected run into suite × measure rows of samples keyed by sample id: the one place where
// sample ids are decided, so the baseline and the summary always agree on them.
//
// Sample id = the sample's queryId, else its test name (sampleIdOf). When the same id occurs again in one
// suite × measure (a test that records a measure twice without queryId, two tests with the same name,
// it.each rows with the same title), the first keeps the id and the next ones get ` #2`, ` #3`, … in
// recording order, skipping any suffix that is already a real id in that row. The reporters deliver
// samples in recording order (file, then test order, then order of the assertions), so the ids are stable
// from run to run.
//
// Repeated runs: samples of one id recorded by different runs of tests — Vitest's `repeats` (the sample's
// `repeat`), or tests of different names that give the same queryId (`test.each` over a repeat index) —
// are one question with several values, not ordinals: its value is their mean, and `repeats` keeps them.
// Within one run the ordinal rule above still tells a question's first and second recording apart.

import type { CollectedRun, CollectedSample } from '../recording/collected.js';
import { sampleIdOf, suiteKeyOf, suiteNameOf, type SuiteIdentity } from '../recording/collected.js';

/** One suite × measure. Parallel arrays in recording order: `ids[i]` is the id of `values[i]`, measured by `sources[i]`. */
export interface GroupedRow {
  /** The suite's exact key (suiteKeyOf). */
  key: string;
  /** The suite's display name (suiteNameOf). */
  suite: string;
  identity: SuiteIdentity;
  file: string;
  describePath: string[];
  measure: string;
  ids: string[];
  /** A question's value; for a question run several times, the mean over its runs. */
  values: number[];
  /** The sample that measured it (of a question run several times, its first failed run, else its first). */
  sources: CollectedSample[];
  /**
   * Only when some question of the row ran more than once: each question's values in recording order
   * (undefined for a question run once).
   */
  repeats?: (number[] | undefined)[];
}

export interface GroupedRun {
  /** suite key → measure → row, in first-seen order. */
  suites: Map<string, Map<string, GroupedRow>>;
  /** Files that recorded at least one sample. */
  files: Set<string>;
  sampleCount: number;
}

/** Validates the run and groups it. Throws a TypeError naming `run.samples[i].<field>` for bad input. */
export function groupRun(run: CollectedRun): GroupedRun {
  if (typeof run !== 'object' || run === null || !Array.isArray(run.samples)) {
    throw new TypeError(
      `run must be a CollectedRun ({ samples: CollectedSample[], runner }), got ${run === null ? 'null' : typeof run === 'object' ? 'an object without a samples array' : typeof run}.`,
    );
  }
  const suites = new Map<string, Map<string, GroupedRow>>();
  const files = new Set<string>();
  const rows: GroupedRow[] = [];
  const samples = run.samples;
  // Consecutive samples of one test share file, describe path and project: compute the key once for them.
  let previous: CollectedSample | undefined;
  let key = '';
  let verdicts = 0;
  for (let index = 0; index < samples.length; index++) {
    const sample = samples[index];
    validateSample(sample, index);
    if (
      previous === undefined ||
      previous.file !== sample.file ||
      !samePath(previous.describePath, sample.describePath) ||
      previous.project !== sample.project
    ) {
      key = suiteKeyOf(identityOf(sample));
    }
    previous = sample;
    let measures = suites.get(key);
    if (measures === undefined) {
      measures = new Map();
      suites.set(key, measures);
    }
    let row = measures.get(sample.measure);
    if (sample.verdictOnly === true) {
      if (row !== undefined) foldVerdict(row, sample);
      verdicts++;
      continue;
    }
    if (row === undefined) {
      const identity = identityOf(sample);
      row = {
        key,
        suite: suiteNameOf(identity),
        identity,
        file: sample.file,
        describePath: [...sample.describePath],
        measure: sample.measure,
        ids: [],
        values: [],
        sources: [],
      };
      measures.set(sample.measure, row);
      rows.push(row);
    }
    row.ids.push(sampleIdOf(sample));
    row.values.push(sample.value);
    row.sources.push(sample);
    files.add(sample.file);
  }
  for (const row of rows) assignQuestions(row);
  return { suites, files, sampleCount: samples.length - verdicts };
}

/**
 * A later failed assertion on a sample already recorded (MetricSample.verdictOnly): the latest sample of
 * the same test and question in the row fails, counts it and, when it is its first failure, takes its
 * threshold. The sample is replaced by a copy, so that
 * grouping the same run twice gives the same rows.
 */
function foldVerdict(row: GroupedRow, verdict: CollectedSample): void {
  if (verdict.pass !== false) return;
  for (let index = row.sources.length - 1; index >= 0; index--) {
    const source = row.sources[index]!;
    if (source.test !== verdict.test || source.queryId !== verdict.queryId || source.file !== verdict.file) continue;
    const failed = (source.failedAssertions ?? (source.pass === false ? 1 : 0)) + 1;
    const updated: CollectedSample = { ...source, pass: false, failedAssertions: failed };
    if (source.pass !== false) {
      // Its first failure: the sample now reports that assertion (its threshold, its negation).
      if (verdict.threshold === undefined) delete updated.threshold;
      else updated.threshold = verdict.threshold;
      if (verdict.negated === true) updated.negated = true;
      else delete updated.negated;
    }
    row.sources[index] = updated;
    return;
  }
}

/** Each test's samples carry their own describe path array, so equal paths are compared by content. */
function samePath(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

function identityOf(sample: CollectedSample): SuiteIdentity {
  const describe = [...sample.describePath];
  return sample.project === undefined
    ? { file: sample.file, describe }
    : { file: sample.file, describe, project: sample.project };
}

/** The run of a test a sample came from: its test and, under Vitest's `repeats`, which repeat. */
function runKeyOf(sample: CollectedSample): string {
  return sample.repeat === undefined ? sample.test : `${sample.test}\u0000${sample.repeat}`;
}

/**
 * Decides the row's question ids (in place). Samples of a question recorded by several runs fold into
 * one question, its value the mean of theirs (the k-th recording of an id in one run is the same
 * question as the k-th in another); ids recorded twice within one run get ordinals (assignOrdinals).
 */
function assignQuestions(row: GroupedRow): void {
  const { ids, values, sources } = row;
  if (new Set(ids).size === ids.length) return; // no id recorded twice: the common case
  const timesInRun = new Map<string, number>();
  const questionAt = new Map<string, number>();
  const questionIds: string[] = [];
  const questionValues: number[][] = [];
  const questionSources: CollectedSample[] = [];
  for (let index = 0; index < ids.length; index++) {
    const id = ids[index]!;
    const source = sources[index]!;
    const inRun = JSON.stringify([id, runKeyOf(source)]);
    const occurrence = (timesInRun.get(inRun) ?? 0) + 1;
    timesInRun.set(inRun, occurrence);
    const question = JSON.stringify([id, occurrence]);
    const at = questionAt.get(question);
    if (at === undefined) {
      questionAt.set(question, questionIds.length);
      questionIds.push(id);
      questionValues.push([values[index]!]);
      questionSources.push(source);
      continue;
    }
    questionValues[at]!.push(values[index]!);
    if (source.pass === false && questionSources[at]!.pass !== false) questionSources[at] = source;
  }
  if (questionIds.length === ids.length) {
    assignOrdinals(ids);
    return;
  }
  assignOrdinals(questionIds);
  row.ids = questionIds;
  row.values = questionValues.map(meanOfRuns);
  row.sources = questionSources;
  row.repeats = questionValues.map((runs) => (runs.length > 1 ? runs : undefined));
}

/** The mean of a question's runs, exact when they agree (a sum of n equal values ÷ n can be off in the last bit). */
function meanOfRuns(runs: readonly number[]): number {
  const first = runs[0]!;
  let total = 0;
  let same = true;
  for (const value of runs) {
    total += value;
    if (value !== first) same = false;
  }
  return same ? first : total / runs.length;
}

/** Gives repeated ids ` #2`, ` #3`, … in order (in place), never colliding with an id that occurs in the row. */
function assignOrdinals(ids: string[]): void {
  const taken = new Set(ids);
  if (taken.size === ids.length) return; // no repeats: the common case
  const rawIds = [...ids];
  const used = new Set<string>();
  const nextOrdinal = new Map<string, number>();
  rawIds.forEach((rawId, index) => {
    if (!used.has(rawId)) {
      used.add(rawId);
      return;
    }
    let ordinal = nextOrdinal.get(rawId) ?? 2;
    let id = `${rawId} #${ordinal}`;
    while (taken.has(id) || used.has(id)) id = `${rawId} #${++ordinal}`;
    nextOrdinal.set(rawId, ordinal + 1);
    used.add(id);
    ids[index] = id;
  });
}

function validateSample(sample: unknown, index: number): asserts sample is CollectedSample {
  const where = `run.samples[${index}]`;
  if (typeof sample !== 'object' || sample === null) {
    throw new TypeError(`${where} must be a sample object, got ${sample === null ? 'null' : typeof sample}.`);
  }
  const s = sample as Partial<CollectedSample>;
  if (typeof s.measure !== 'string' || s.measure.length === 0) {
    throw new TypeError(
      `${where}.measure must be a non-empty measure name such as "recall@5", got ${JSON.stringify(s.measure)}.`,
    );
  }
  if (typeof s.value !== 'number' || !Number.isFinite(s.value)) {
    throw new TypeError(
      `${where}.value must be a finite number (the measured value of ${s.measure}), got ${String(s.value)}.`,
    );
  }
  if (typeof s.file !== 'string' || s.file.length === 0) {
    throw new TypeError(
      `${where}.file must be the test file's path relative to the project root, got ${JSON.stringify(s.file)}.`,
    );
  }
  if (!Array.isArray(s.describePath) || !s.describePath.every((name) => typeof name === 'string')) {
    throw new TypeError(`${where}.describePath must be an array of describe-block names (empty at top level).`);
  }
  if (typeof s.test !== 'string') {
    throw new TypeError(`${where}.test must be the test's name, got ${JSON.stringify(s.test)}.`);
  }
  if (s.project !== undefined && (typeof s.project !== 'string' || s.project.length === 0)) {
    throw new TypeError(
      `${where}.project must be the Vitest project's name when given (absent for a single unnamed project), got ${JSON.stringify(s.project)}.`,
    );
  }
  if (s.queryId !== undefined && typeof s.queryId !== 'string') {
    throw new TypeError(`${where}.queryId must be a string when given, got ${JSON.stringify(s.queryId)}.`);
  }
  if (s.repeat !== undefined && !(Number.isInteger(s.repeat) && s.repeat > 0)) {
    throw new TypeError(
      `${where}.repeat must be a whole number ≥ 1 when given (which repeat of its test recorded it), got ${JSON.stringify(s.repeat)}.`,
    );
  }
  if (s.queryId === undefined && s.test.length === 0) {
    throw new TypeError(
      `${where} has neither a queryId nor a test name, so the question it answers cannot be identified.`,
    );
  }
}
