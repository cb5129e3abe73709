// Judging hits given as strings (evaluate(), evaluateMeasures()): the judgments into the key table,
// then each hit's key looked up once, which finds its grade and whether it was ranked before; the
// judged keys found go to the scratch's found list for the kernel (measure-ranking.ts).
import { describeValue } from './describe.js';
import { isPlainKey } from './keys.js';
import { reserveScratch, type MeasureScratch } from './measure-scratch.js';
import {
  LONG_PROBE,
  addJudgedId,
  hashOf,
  reserveSlots,
  resetKeyTable,
  switchToFullHash,
  type KeyTable,
} from './key-table.js';

/**
 * Judgments the kernel reads as they are: a clean Map, a plain object of id → finite grade, or an
 * array or Set of relevant ids (grade 1 each, a repeated id counted once).
 */
export type GradeSource =
  ReadonlyMap<unknown, unknown> | Readonly<Record<string, unknown>> | readonly unknown[] | ReadonlySet<unknown>;
/** Which kind a GradeSource is (checked once by the caller, not again per query step). */
export type GradeSourceKind = 'map' | 'record' | 'ids' | 'idSet';

/** A judgment the kernel reads as it is: a non-blank string id with a finite grade. */
function isCleanJudgment(id: unknown, grade: unknown): boolean {
  return typeof grade === 'number' && grade - grade === 0 && isPlainKey(id);
}

/** Makes room for `count` judgments in an empty key table and in the scratch. */
function reserveJudged(scratch: MeasureScratch, count: number): void {
  const table = scratch.keys;
  reserveScratch(scratch, count);
  reserveSlots(table, count);
  if (table.seen.length < count) table.seen = new Uint8Array(Math.max(count, table.seen.length * 2));
}

/**
 * What loadGrades or judgeKeys did: 'done'; 'notPlainKeys' when an id or key is not a non-blank
 * string or a grade is not finite (read the source first, or key the hits, and start again);
 * 'rehashed' after a long probe (the table now hashes every character: load the grades again and
 * start again). The counts are in the scratch: keys.count judgments, duplicateCount repeats.
 */
export type JudgingOutcome = 'done' | 'notPlainKeys' | 'rehashed';

/**
 * Starts a query: puts the ids of `source` into the key table (scratch.keys.count of them) and their
 * grades into scratch.judgedGrades, in iteration order; 'notPlainKeys' when the source must be read
 * (readJudgedGrades) first: an id that is not a non-blank string, a grade that is not finite.
 */
export function loadGrades(
  scratch: MeasureScratch,
  source: GradeSource,
  kind: GradeSourceKind,
): Exclude<JudgingOutcome, 'rehashed'> {
  const outcome = loadGradesOnce(scratch, source, kind);
  return outcome === 'rehashed' ? (loadGradesOnce(scratch, source, kind) as 'done' | 'notPlainKeys') : outcome;
}

/**
 * The Map or Set loadGradesOnce is reading. Its entries come through its forEach, the quickest way
 * through either, to loadJudgment: a function made once, which no user code can call back into.
 */
const loading: {
  table: KeyTable | undefined;
  judgedGrades: Float64Array;
  entry: number;
  outcome: JudgingOutcome;
} = {
  table: undefined,
  judgedGrades: new Float64Array(0),
  entry: 0,
  outcome: 'done',
};
/** Map's and Set's own forEach, called on the judgments with `.call` (an overridden one is never run). */
type ForEach = (this: unknown, load: (value: unknown, key: unknown) => void) => void;
const mapForEach = Map.prototype.forEach as ForEach;
const setForEach = Set.prototype.forEach as ForEach;

/** loadJudgment for a Set of relevant ids (its elements are distinct): grade 1 each. */
function loadRelevantSetId(id: unknown): void {
  loadJudgment(1, id);
}

function loadJudgment(grade: unknown, id: unknown): void {
  if (loading.outcome !== 'done') return;
  if (!isPlainKey(id) || typeof grade !== 'number' || grade - grade !== 0) {
    loading.outcome = 'notPlainKeys';
    return;
  }
  const table = loading.table as KeyTable;
  const entry = loading.entry++;
  table.judgedIds[entry] = id;
  loading.judgedGrades[entry] = grade;
  if (!addJudgedId(table, id)) loading.outcome = switchToFullHash(table);
}

/** Loads the `count` judgments of a Map or a Set, whose own forEach hands each to `load` (no closure per query). */
function loadEach(
  scratch: MeasureScratch,
  count: number,
  forEach: ForEach,
  source: ReadonlyMap<unknown, unknown> | ReadonlySet<unknown>,
  load: (value: unknown, key: unknown) => void,
): JudgingOutcome {
  reserveJudged(scratch, count);
  loading.table = scratch.keys;
  loading.judgedGrades = scratch.judgedGrades;
  loading.entry = 0;
  loading.outcome = 'done';
  forEach.call(source, load);
  loading.table = undefined;
  return loading.outcome;
}

function loadGradesOnce(scratch: MeasureScratch, source: GradeSource, kind: GradeSourceKind): JudgingOutcome {
  const table = scratch.keys;
  resetKeyTable(table);
  if (kind === 'ids') return loadRelevantIds(scratch, source as readonly unknown[]);
  if (kind === 'idSet') {
    const set = source as ReadonlySet<unknown>;
    return loadEach(scratch, set.size, setForEach, set, loadRelevantSetId);
  }
  if (kind === 'map') {
    const map = source as ReadonlyMap<unknown, unknown>;
    return loadEach(scratch, map.size, mapForEach, map, loadJudgment);
  }
  const record = source as Readonly<Record<string, unknown>>;
  // Own enumerable keys, as for…in with hasOwnProperty would see them, but without a property
  // lookup per key to filter them: judgments built one key at a time are dictionary-mode objects.
  const ids = Object.keys(record);
  const count = ids.length;
  reserveJudged(scratch, count);
  const judgedGrades = scratch.judgedGrades;
  for (let entry = 0; entry < count; entry++) {
    const id = ids[entry] as string;
    const grade = record[id];
    if (!isCleanJudgment(id, grade)) return 'notPlainKeys';
    judgedGrades[entry] = grade as number;
    if (!addJudgedId(table, id)) return switchToFullHash(table);
  }
  table.judgedIds = ids;
  return 'done';
}

/** addRelevantId's answer when the probe was long (the table should hash every character). */
const LONG_PROBE_FOUND = -2;

/**
 * loadGradesOnce for an array of relevant ids: each a judgment of grade 1, in first-seen order (as
 * readJudgedGrades's Map would hold them), without building that Map.
 */
function loadRelevantIds(scratch: MeasureScratch, ids: readonly unknown[]): JudgingOutcome {
  const table = scratch.keys;
  const length = ids.length;
  reserveJudged(scratch, length);
  const judgedGrades = scratch.judgedGrades;
  for (let index = 0; index < length; index++) {
    const id = ids[index];
    if (!isPlainKey(id)) return 'notPlainKeys';
    const entry = addRelevantId(table, id);
    if (entry === LONG_PROBE_FOUND) return switchToFullHash(table);
    if (entry >= 0) judgedGrades[entry] = 1;
  }
  return 'done';
}

/**
 * Adds an id that may be in the table already (an array of ids can repeat one): returns its new
 * entry, -1 when it was there, or LONG_PROBE_FOUND, adding nothing.
 */
function addRelevantId(table: KeyTable, id: string): number {
  const full = table.fullHash;
  const hash = hashOf(id, full);
  const { stamps, hashes, refs, generation, judgedIds } = table;
  const mask = stamps.length - 1;
  let slot = hash & mask;
  for (let probe = 0; stamps[slot] === generation; probe++) {
    if (hashes[slot] === hash && judgedIds[refs[slot] as number] === id) return -1;
    if (probe === LONG_PROBE && !full) return LONG_PROBE_FOUND;
    slot = (slot + 1) & mask;
  }
  stamps[slot] = generation;
  hashes[slot] = hash;
  const entry = table.count++;
  refs[slot] = entry;
  judgedIds[entry] = id;
  table.seen[entry] = 0;
  table.used++;
  return entry;
}

/** How judgeKeys reads the keys and their repeats. */
export interface JudgeKeysOptions {
  /** Check that each key is a non-blank string (the usual hits are their own keys). */
  checkKeys: boolean;
  /** Find repeats of unjudged keys too (rankCount must then be every key), not only of judged ones. */
  trackEveryKey: boolean;
  /** Throw on any repeat. */
  duplicatesError: boolean;
  /** When given, set to 1 at each rank whose key a higher rank holds already (explainRanking). */
  duplicateAtRank?: Uint8Array;
}

/**
 * Finds the judged keys among the first `rankCount` of `keys` (after loadGrades put the judgments in)
 * into scratch.foundRanks/foundGrades (first sightings only: a repeat takes its slot and gains
 * nothing) and how many keys were ranked again lower down into scratch.duplicateCount. Returns
 * 'notPlainKeys' at the first key that is not a non-blank string (with options.checkKeys), and
 * 'rehashed' after a long probe: load the grades again and start again.
 */
export function judgeKeys(
  scratch: MeasureScratch,
  keys: readonly unknown[],
  rankCount: number,
  options: JudgeKeysOptions,
): JudgingOutcome {
  const { checkKeys, trackEveryKey, duplicatesError, duplicateAtRank } = options;
  const retrievedCount = keys.length;
  if (checkKeys)
    for (let rank = rankCount; rank < retrievedCount; rank++) if (!isPlainKey(keys[rank])) return 'notPlainKeys';
  const table = scratch.keys;
  if (trackEveryKey) {
    reserveSlots(table, rankCount);
    if (scratch.unjudgedRanks.length < rankCount)
      scratch.unjudgedRanks = new Int32Array(Math.max(rankCount, scratch.unjudgedRanks.length * 2));
  }
  const { foundRanks, foundGrades, judgedGrades, unjudgedRanks } = scratch;
  const { stamps, hashes, refs, generation, judgedIds, seen, fullHash } = table;
  const mask = stamps.length - 1;
  let foundCount = 0;
  let duplicateCount = 0;
  let added = 0; // also the count of unjudgedRanks
  for (let rank = 0; rank < rankCount; rank++) {
    const key = keys[rank];
    if (checkKeys && !isPlainKey(key)) return 'notPlainKeys';
    const hash = hashOf(key as string, fullHash);
    let slot = hash & mask;
    let ref = 0;
    let found = false;
    for (let probe = 0; stamps[slot] === generation; probe++) {
      if (hashes[slot] === hash) {
        ref = refs[slot] as number;
        if ((ref >= 0 ? judgedIds[ref] : keys[~ref]) === key) {
          found = true;
          break;
        }
      }
      if (probe === LONG_PROBE && !fullHash) return switchToFullHash(table);
      slot = (slot + 1) & mask;
    }
    if (!found) {
      if (trackEveryKey) {
        // A new unjudged key: remembered by its rank, to find its repeats (and for the judgment audit).
        stamps[slot] = generation;
        hashes[slot] = hash;
        refs[slot] = ~rank;
        unjudgedRanks[added++] = rank;
      }
      continue;
    }
    if (ref < 0 || seen[ref] === 1) {
      if (duplicatesError) throw repeatedKeyError(rank, key as string);
      if (duplicateAtRank !== undefined) duplicateAtRank[rank] = 1;
      duplicateCount++;
      continue;
    }
    seen[ref] = 1;
    foundRanks[foundCount] = rank;
    foundGrades[foundCount++] = judgedGrades[ref] as number;
  }
  table.used += added;
  scratch.unjudgedCount = added;
  scratch.foundCount = foundCount;
  scratch.duplicateCount = duplicateCount;
  return 'done';
}

/**
 * The judged ids (of the query judgeKeys saw last) with grade ≥ minGrade that no key matched, in
 * judgment order; `count` is how many there are (relevant ids less those found in the whole list).
 */
export function unmatchedJudgedIds(scratch: MeasureScratch, minGrade: number, count: number): string[] {
  const { judgedIds, seen } = scratch.keys;
  const judgedCount = scratch.keys.count;
  const judgedGrades = scratch.judgedGrades;
  const unmatched = new Array<string>(count);
  for (let entry = 0, filled = 0; filled < count && entry < judgedCount; entry++)
    if ((judgedGrades[entry] as number) >= minGrade && seen[entry] === 0)
      unmatched[filled++] = judgedIds[entry] as string;
  return unmatched;
}

function repeatedKeyError(index: number, key: string): RangeError {
  return new RangeError(
    `hits[${index}] repeats the key ${JSON.stringify(key)} already ranked higher, and duplicates is 'error'. ` +
      `De-duplicate the hits, or use duplicates: 'count' to let a repeat take its slot without gaining.`,
  );
}

/** For messages: where a judgment of `source` with this id sits. */
export function judgmentName(isMap: boolean, id: unknown): string {
  return isMap ? `relevant.get(${describeValue(id)})` : `relevant[${JSON.stringify(id)}]`;
}

/** The id of the `index`-th judgment loaded last. */
export function judgedIdAt(scratch: MeasureScratch, index: number): string {
  return scratch.keys.judgedIds[index] as string;
}
