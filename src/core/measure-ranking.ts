// The metric kernel: every measure of one ranking in a single pass, from the ranks and grades of the
// judged keys found (first sightings only) and the query's judged grades. The formulas are the measure
// table's (measure-table.ts); this module only keeps the running counts they read. Its callers:
//   evaluate() and evaluateMeasures() (evaluate.ts), through judgeKeys below;
//   trec-eval (src/trec/eval/engine.ts), through loadJudgedSpans and judgeSpans below: the same key
//   table, its keys spans of the files' text rather than strings (no string per run line).
import { describeValue } from './describe.js';
import { isPlainKey } from './keys.js';
import { formatMeasure, rankCutoffOf, type Measure } from './measures.js';
import { definitionOf, type RankingState } from './measure-table.js';
import { gainOf, type JudgmentSettings } from './relevance.js';

/** Gains that are whole numbers below this are sorted by counting (grades are usually 0–3). */
const COUNTED_GAIN_LIMIT = 64;

/**
 * The largest nDCG gain accepted. Beyond it a sum of gains (the DCG, the ideal DCG) could overflow
 * to Infinity and nDCG become NaN; with gain 'exponential' that is a grade above 996.
 */
export const MAX_GAIN = 1e300;

/** Measures with their canonical names and the distinct cutoffs they need: computed once, reused per query. */
export interface MeasurePlan {
  measures: readonly Measure[];
  names: readonly string[];
  /** Per measure: its formula (from the measure table). */
  formulas: readonly ((state: RankingState, parameter?: number) => number)[];
  /** Per measure: its parameter (`rbp@0.8`'s 0.8), undefined for the others. */
  parameters: readonly (number | undefined)[];
  /** Per measure: index into `cutoffs`, or -1 for an uncut measure (rprec and bpref are always uncut). */
  cutoffIndex: Int32Array;
  /** Distinct cutoffs, ascending. */
  cutoffs: readonly number[];
  /** Some measure is uncut (whole list, trec_eval's uncut ideal). */
  needsUncut: boolean;
  /** Per cutoff, then one more for the uncut measures: the indices of the measures measured there. */
  cutoffMembers: readonly (readonly number[])[];
  /** Every name set to NaN, in measure order: copied per query, so each result has the same shape. */
  template: Readonly<Record<string, number>>;
}

export function planMeasures(measures: readonly Measure[]): MeasurePlan {
  const definitions = measures.map((measure) => definitionOf(measure.name));
  const cutOf = (index: number) => rankCutoffOf(measures[index] as Measure);
  const cutoffs = [
    ...new Set(measures.flatMap((_, index) => (cutOf(index) === undefined ? [] : [cutOf(index) as number]))),
  ].sort((a, b) => a - b);
  const cutoffIndex = Int32Array.from(measures, (_, index) => {
    const k = cutOf(index);
    return k === undefined ? -1 : cutoffs.indexOf(k);
  });
  const cutoffMembers = Array.from({ length: cutoffs.length + 1 }, () => [] as number[]);
  cutoffIndex.forEach((cutoff, measureIndex) =>
    (cutoffMembers[cutoff === -1 ? cutoffs.length : cutoff] as number[]).push(measureIndex),
  );
  const names = measures.map(formatMeasure);
  const template: Record<string, number> = {};
  for (const name of names) template[name] = Number.NaN; // a double, not a small integer: the fields hold doubles from the start
  const formulas = definitions.map((definition) => definition.formula);
  const parameters = measures.map((measure, index) =>
    (definitions[index] as { cutoff: string }).cutoff === 'parameter' ? measure.k : undefined,
  );
  return {
    measures,
    names,
    formulas,
    parameters,
    cutoffIndex,
    cutoffs,
    needsUncut: cutoffIndex.includes(-1),
    cutoffMembers,
    template,
  };
}

/**
 * The running counts, with the kernel's cursor into the ideal list. Its cursor into the found list is
 * judgedInTopK: the found keys before it are the judged ones ranked in the top k.
 */
interface KernelState extends RankingState {
  idealRank: number;
  nonRelevantSoFar: number;
}

/** Buffers one caller reuses from query to query. */
export interface MeasureScratch {
  /** The judged keys found, first sightings only, in rank order: their ranks (0-based) and grades. */
  foundRanks: Int32Array;
  foundGrades: Float64Array;
  foundCount: number;
  /** The query's judged grades, any order. */
  judgedGrades: Float64Array;
  /** After measureGradedRanking: per plan measure, its value. */
  values: Float64Array;
  /** After prepareRanking: how many judged grades reach minGrade (trec_eval's num_rel). */
  relevantCount: number;
  idealGains: number[];
  /** How many of idealGains are in use. */
  gainCount: number;
  /** Per whole gain below COUNTED_GAIN_LIMIT, how many judgments have it; all zero between queries. */
  gainCounts: Int32Array;
  /** The keys of the query being judged: its judged ids first (entry i ↔ judgedGrades[i]), then unjudged hits. */
  keys: KeyTable;
  /** After judgeKeys: how many keys were ranked again lower down. */
  duplicateCount: number;
  /** The judged ids as spans, for loadJudgedSpans (trec-eval). */
  judgedSpans: JudgedSpans;
  state: KernelState;
  settings: JudgmentSettings;
}

export function createMeasureScratch(): MeasureScratch {
  return {
    foundRanks: new Int32Array(64),
    foundGrades: new Float64Array(64),
    foundCount: 0,
    judgedGrades: new Float64Array(64),
    values: new Float64Array(16),
    relevantCount: 0,
    idealGains: [],
    gainCount: 0,
    gainCounts: new Int32Array(COUNTED_GAIN_LIMIT),
    keys: createKeyTable(),
    duplicateCount: 0,
    judgedSpans: { texts: [], starts: new Int32Array(64), ends: new Int32Array(64) },
    state: {
      k: 0,
      evaluatedAtK: 0,
      retrievedCount: 0,
      relevantCount: 0,
      judgedNonRelevantCount: 0,
      truePositiveCount: 0,
      judgedInTopK: 0,
      firstRelevantRank: 0,
      precisionSum: 0,
      relevantInTopR: 0,
      bprefSum: 0,
      dcg: 0,
      idealDcg: 0,
      precisionOverRetrieved: false,
      foundRanks: new Int32Array(0),
      foundGrades: new Float64Array(0),
      foundCount: 0,
      minGrade: 1,
      highestGrade: 0,
      idealRank: 0,
      nonRelevantSoFar: 0,
    },
    settings: { minGrade: 1, gain: 'linear', applyMinGradeToNdcg: false },
  };
}

/** Makes room for `judgedCount` judgments (and as many found) and `measureCount` values (contents are not kept). */
export function reserveScratch(scratch: MeasureScratch, judgedCount: number, measureCount = 0): void {
  if (scratch.judgedGrades.length < judgedCount) {
    const capacity = Math.max(judgedCount, scratch.judgedGrades.length * 2);
    scratch.judgedGrades = new Float64Array(capacity);
    scratch.foundRanks = new Int32Array(capacity);
    scratch.foundGrades = new Float64Array(capacity);
  }
  if (scratch.values.length < measureCount) scratch.values = new Float64Array(measureCount);
}

/** How many top ranks the plan reads: all of them when some measure is uncut, else its largest cutoff. */
export function ranksNeeded(plan: MeasurePlan, retrievedCount: number): number {
  if (plan.needsUncut || plan.cutoffs.length === 0) return plan.needsUncut ? retrievedCount : 0;
  return Math.min(retrievedCount, plan.cutoffs[plan.cutoffs.length - 1] as number);
}

/** The highest grade whose nDCG gain stays within MAX_GAIN (996 with exponential gain). */
export function largestGrade(gain: JudgmentSettings['gain']): number {
  return gain === 'exponential' ? Math.floor(Math.log2(MAX_GAIN)) : MAX_GAIN;
}

/** The error for a grade whose gain could overflow nDCG (`where` names the judgment). */
export function gradeTooLargeError(where: string, grade: number, gain: JudgmentSettings['gain']): RangeError {
  return new RangeError(
    `${where} has the grade ${grade}, too large for nDCG with gain '${gain}' (at most ${largestGrade(gain)}: a larger gain could overflow the DCG sum). ` +
      `Use grades on a small scale such as 0–3${gain === 'exponential' ? ", or gain: 'linear'" : ''}.`,
  );
}

/**
 * Puts the ideal gains highest first into idealGains[0, count): from the counts when every gain was
 * a small whole number (highestCounted ≥ 0; the counts are cleared on the way), else by sorting.
 */
function orderIdealGains(scratch: MeasureScratch, count: number, highestCounted: number): void {
  const { idealGains, gainCounts } = scratch;
  if (highestCounted >= 0) {
    let filled = 0;
    for (let gain = highestCounted; filled < count; gain--) {
      for (let left = gainCounts[gain] as number; left > 0; left--) idealGains[filled++] = gain;
      gainCounts[gain] = 0;
    }
    return;
  }
  gainCounts.fill(0);
  const sorted = idealGains.slice(0, count).sort((a, b) => b - a);
  for (let index = 0; index < count; index++) idealGains[index] = sorted[index] as number;
}

/**
 * Starts a ranking of `retrievedCount` keys: reads scratch.judgedGrades[0, judgedCount) (relevant and
 * judged non-relevant counts, the ideal gains) and resets the running counts to rank 0. The judged
 * keys found must be in scratch.foundRanks/foundGrades/foundCount (at least those the cutoffs reach).
 * Returns the index of a judgment whose gain exceeds MAX_GAIN, else -1 (the caller names it).
 */
export function prepareRanking(
  scratch: MeasureScratch,
  retrievedCount: number,
  judgedCount: number,
  settings: JudgmentSettings,
  precisionOverRetrieved: boolean,
): number {
  const { minGrade, gain } = settings;
  // nDCG gains come from every positive grade (trec_eval), or from relevant ones only (applyMinGradeToNdcg).
  const gainFloor = settings.applyMinGradeToNdcg ? minGrade : Number.MIN_VALUE;
  const { judgedGrades, idealGains, gainCounts } = scratch;
  let relevantCount = 0;
  let judgedNonRelevantCount = 0;
  let gainCount = 0;
  let highestCounted = 0; // the highest gain counted so far; -1 once some gain cannot be counted
  let overflowing = -1;
  const highestGrade = largestGrade(gain);
  let highestJudged = 0;
  for (let index = 0; index < judgedCount; index++) {
    const grade = judgedGrades[index] as number;
    if (grade > highestJudged) highestJudged = grade;
    if (grade >= minGrade) relevantCount++;
    else if (grade >= 0) judgedNonRelevantCount++;
    if (grade >= gainFloor) {
      const value = gainOf(grade, gain);
      if (grade > highestGrade && overflowing === -1) overflowing = index;
      idealGains[gainCount++] = value;
      if (highestCounted >= 0 && value === Math.floor(value) && value < COUNTED_GAIN_LIMIT) {
        gainCounts[value] = (gainCounts[value] as number) + 1;
        if (value > highestCounted) highestCounted = value;
      } else {
        highestCounted = -1;
      }
    }
  }
  orderIdealGains(scratch, gainCount, highestCounted);
  scratch.relevantCount = relevantCount;
  scratch.gainCount = gainCount;
  scratch.settings = settings;
  const state = scratch.state;
  state.k = 0;
  state.evaluatedAtK = 0;
  state.retrievedCount = retrievedCount;
  state.relevantCount = relevantCount;
  state.judgedNonRelevantCount = judgedNonRelevantCount;
  state.truePositiveCount = 0;
  state.judgedInTopK = 0;
  state.firstRelevantRank = 0;
  state.precisionSum = 0;
  state.relevantInTopR = 0;
  state.bprefSum = 0;
  state.dcg = 0;
  state.idealDcg = 0;
  state.precisionOverRetrieved = precisionOverRetrieved;
  state.foundRanks = scratch.foundRanks;
  state.foundGrades = scratch.foundGrades;
  state.foundCount = scratch.foundCount;
  state.minGrade = minGrade;
  state.highestGrade = highestJudged;
  state.idealRank = 0;
  state.nonRelevantSoFar = 0;
  return overflowing;
}

/** log2(rank + 1) for ranks 1…, cached: the nDCG discount. */
const discounts: number[] = [];
function discount(rank: number): number {
  let value = discounts[rank];
  if (value === undefined) {
    value = Math.log2(rank + 1);
    discounts[rank] = value;
  }
  return value;
}

/**
 * Moves the running counts on to cutoff `k` (never back: cutoffs come ascending); `uncut` divides
 * nDCG by the ideal over every judged gain (trec_eval's `ndcg`), else by the ideal's top k.
 */
export function advanceTo(scratch: MeasureScratch, k: number, uncut: boolean): RankingState {
  const state = scratch.state;
  const { foundRanks, foundGrades, foundCount, idealGains, gainCount } = scratch;
  const { minGrade, gain } = scratch.settings;
  const gainFloor = scratch.settings.applyMinGradeToNdcg ? minGrade : Number.MIN_VALUE;
  const relevantCount = state.relevantCount;
  const bprefBase = Math.min(state.judgedNonRelevantCount, relevantCount);
  const evaluatedAtK = k < state.retrievedCount ? k : state.retrievedCount;
  // The found keys are judged, in rank order: those before the cursor are the judged ones in the top k.
  let found = state.judgedInTopK;
  let { truePositiveCount, precisionSum, firstRelevantRank, relevantInTopR, bprefSum, dcg, nonRelevantSoFar } = state;
  for (; found < foundCount; found++) {
    const rank = foundRanks[found] as number;
    if (rank >= evaluatedAtK) break;
    const grade = foundGrades[found] as number;
    if (grade >= gainFloor) dcg += gainOf(grade, gain) / discount(rank + 1);
    if (grade >= minGrade) {
      truePositiveCount++;
      precisionSum += truePositiveCount / (rank + 1);
      if (firstRelevantRank === 0) firstRelevantRank = rank + 1;
      if (rank < relevantCount) relevantInTopR++;
      // bpref (trec_eval): the share of the top min(R, N) judged non-relevant ids ranked below this one.
      bprefSum += nonRelevantSoFar === 0 ? 1 : 1 - Math.min(nonRelevantSoFar, relevantCount) / bprefBase;
    } else if (grade >= 0) {
      nonRelevantSoFar++;
    }
  }
  const idealEnd = uncut || k > gainCount ? gainCount : k;
  let { idealRank, idealDcg } = state;
  for (; idealRank < idealEnd; idealRank++) idealDcg += (idealGains[idealRank] as number) / discount(idealRank + 1);
  state.k = k;
  state.evaluatedAtK = evaluatedAtK;
  state.judgedInTopK = found;
  state.truePositiveCount = truePositiveCount;
  state.precisionSum = precisionSum;
  state.firstRelevantRank = firstRelevantRank;
  state.relevantInTopR = relevantInTopR;
  state.bprefSum = bprefSum;
  state.dcg = dcg;
  state.nonRelevantSoFar = nonRelevantSoFar;
  state.idealRank = idealRank;
  state.idealDcg = idealDcg;
  return state;
}

/**
 * Every measure of `plan` for one ranking of `retrievedCount` keys, into scratch.values (by measure
 * index), from the judged keys found (scratch.foundRanks/foundGrades/foundCount, at least those among
 * the first ranksNeeded(plan, retrievedCount) ranks) and scratch.judgedGrades[0, judgedCount). Sets
 * scratch.relevantCount. Returns prepareRanking's overflowing judgment index (-1: none).
 */
export function measureGradedRanking(
  scratch: MeasureScratch,
  retrievedCount: number,
  judgedCount: number,
  settings: JudgmentSettings,
  plan: MeasurePlan,
  precisionOverRetrieved: boolean,
): number {
  const overflowing = prepareRanking(scratch, retrievedCount, judgedCount, settings, precisionOverRetrieved);
  if (overflowing !== -1) return overflowing;
  const { cutoffs, formulas } = plan;
  const values = scratch.values;
  // Cutoffs ascending, then the whole list (group cutoffs.length) when an uncut measure needs it.
  for (let group = 0; group <= cutoffs.length; group++) {
    const uncut = group === cutoffs.length;
    if (uncut && !plan.needsUncut) break;
    const state = advanceTo(scratch, uncut ? retrievedCount : (cutoffs[group] as number), uncut);
    const members = plan.cutoffMembers[group] as readonly number[];
    for (let member = 0; member < members.length; member++) {
      const measureIndex = members[member] as number;
      values[measureIndex] = (formulas[measureIndex] as MeasurePlan['formulas'][number])(
        state,
        plan.parameters[measureIndex],
      );
    }
  }
  return -1;
}

/**
 * The keys of one query in an open-addressing hash table reused from query to query (a generation
 * stamp per slot empties it at once): one probe per hit finds both its grade and whether it was
 * ranked before, with nothing allocated per query. A slot refers to its key rather than holding it:
 * a judged id by its entry (≥ 0), a hit by its rank (as ~rank, < 0, in the keys being judged).
 */
export interface KeyTable {
  /** Per slot: in use when stamps[slot] === generation. */
  stamps: Int32Array;
  /** Per slot: the hash of its key. */
  hashes: Int32Array;
  /** Per slot: the judged entry (≥ 0) or ~rank of the hit (< 0) whose key it holds. */
  refs: Int32Array;
  generation: number;
  /** Slots in use. */
  used: number;
  /** Per judged entry: its id (in judgment order), and whether a hit has matched it. */
  judgedIds: string[];
  seen: Uint8Array;
  count: number;
  /** Hash every character of a key, not a sample (set for good after a long probe). */
  fullHash: boolean;
}

function createKeyTable(): KeyTable {
  return {
    stamps: new Int32Array(256),
    hashes: new Int32Array(256),
    refs: new Int32Array(256),
    generation: 0,
    used: 0,
    judgedIds: [],
    seen: new Uint8Array(64),
    count: 0,
    fullHash: false,
  };
}

/** Starts an empty table (no slot is touched: the generation changes). */
function resetKeyTable(table: KeyTable): void {
  table.count = 0;
  table.used = 0;
  if (++table.generation === 0x7fffffff) {
    table.stamps.fill(0);
    table.generation = 1;
  }
}

/** A probe longer than this many slots gives up the sampled hash for the full one (see hashOf). */
const LONG_PROBE = 32;

/**
 * A 32-bit hash of every character of a key, two a step (a UTF-16 pair fits 32 bits exactly), mixed
 * at the end so that the low bits the table masks depend on every character.
 */
function fullHash(key: string): number {
  const length = key.length;
  let hash = 0x811c9dc5 ^ length;
  let index = 0;
  for (; index + 1 < length; index += 2) {
    hash = Math.imul(hash ^ (key.charCodeAt(index) | (key.charCodeAt(index + 1) << 16)), 0x01000193);
    hash ^= hash >>> 16;
  }
  if (index < length) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  return finalMix(hash);
}

function finalMix(hash: number): number {
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  return hash ^ (hash >>> 12);
}

/**
 * The table's hash of a key: by default its length and six of its characters (the last four, the
 * first, the middle one), read without a loop. Ids usually differ at their end (a number, a chunk
 * index, a random tail), and a loop over every character, whose exit the processor mispredicts as
 * lengths vary, costs more than the rest of a lookup. Ids that differ only elsewhere share a hash
 * and make long probes: the table then hashes every character (`full`) from that query on.
 */
function hashOf(key: string, full: boolean): number {
  const length = key.length;
  if (full || length < 4) return fullHash(key);
  const end = length - 1;
  let hash = Math.imul(length ^ (key.charCodeAt(end) | (key.charCodeAt(end - 1) << 16)), 0x9e3779b1);
  hash = Math.imul(hash ^ (hash >>> 16) ^ (key.charCodeAt(end - 2) | (key.charCodeAt(end - 3) << 16)), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 16) ^ (key.charCodeAt(0) | (key.charCodeAt(length >> 1) << 16)), 0xc2b2ae35);
  return finalMix(hash);
}

/** Makes room for `more` keys at a load of at most one half, moving the slots in use. */
function reserveSlots(table: KeyTable, more: number): void {
  const needed = (table.used + more) * 2;
  let capacity = table.stamps.length;
  if (needed <= capacity) return;
  while (capacity < needed) capacity *= 2;
  const { stamps, hashes, refs, generation } = table;
  const mask = capacity - 1;
  table.stamps = new Int32Array(capacity);
  table.hashes = new Int32Array(capacity);
  table.refs = new Int32Array(capacity);
  table.generation = 1;
  for (let slot = 0; slot < stamps.length; slot++) {
    if (stamps[slot] !== generation) continue;
    let target = (hashes[slot] as number) & mask;
    while (table.stamps[target] === 1) target = (target + 1) & mask;
    table.stamps[target] = 1;
    table.hashes[target] = hashes[slot] as number;
    table.refs[target] = refs[slot] as number;
  }
}

/**
 * Adds a judged id known not to be in the table yet (the ids of a Map or an object are distinct).
 * Returns false, adding nothing, when the probe was long and the table should hash every character.
 */
function addJudgedId(table: KeyTable, id: string): boolean {
  const full = table.fullHash;
  const hash = hashOf(id, full);
  const { stamps, generation } = table;
  const mask = stamps.length - 1;
  let slot = hash & mask;
  for (let probe = 0; stamps[slot] === generation; probe++) {
    if (probe === LONG_PROBE && !full) return false;
    slot = (slot + 1) & mask;
  }
  stamps[slot] = generation;
  table.hashes[slot] = hash;
  const entry = table.count++;
  table.refs[slot] = entry;
  table.seen[entry] = 0;
  table.used++;
  return true;
}

function switchToFullHash(table: KeyTable): 'rehashed' {
  table.fullHash = true;
  return 'rehashed';
}

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
  if (trackEveryKey) reserveSlots(table, rankCount);
  const { foundRanks, foundGrades, judgedGrades } = scratch;
  const { stamps, hashes, refs, generation, judgedIds, seen, fullHash } = table;
  const mask = stamps.length - 1;
  let foundCount = 0;
  let duplicateCount = 0;
  let added = 0;
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
        // A new unjudged key: remembered by its rank, to find its repeats.
        stamps[slot] = generation;
        hashes[slot] = hash;
        refs[slot] = ~rank;
        added++;
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
  scratch.foundCount = foundCount;
  scratch.duplicateCount = duplicateCount;
  return 'done';
}

/**
 * Judged ids held as spans of text, never cut out (trec-eval's qrels columns, or each id a whole
 * string): entry i is texts[i][starts[i], ends[i]), its grade scratch.judgedGrades[i]. The caller
 * fills the first `count` entries, then calls loadJudgedSpans.
 */
export interface JudgedSpans {
  texts: string[];
  starts: Int32Array;
  ends: Int32Array;
}

/** Makes room for `count` judged spans (and their grades, and as many found) in the scratch; contents are not kept. */
export function reserveJudgedSpans(scratch: MeasureScratch, count: number): JudgedSpans {
  reserveScratch(scratch, count);
  const spans = scratch.judgedSpans;
  if (spans.starts.length < count) {
    spans.starts = new Int32Array(count * 2);
    spans.ends = new Int32Array(count * 2);
  }
  const table = scratch.keys;
  if (table.seen.length < count) table.seen = new Uint8Array(Math.max(count, table.seen.length * 2));
  return spans;
}

/**
 * A 32-bit hash of text[start, end) for spans: FNV-1a over the length and the last (at most) 12 code
 * units, where doc ids of one collection differ. Equal spans hash equal; lookups compare the spans
 * themselves on a hash match.
 */
export function spanHash(text: string, start: number, end: number): number {
  let hash = Math.imul(0x811c9dc5 ^ (end - start), 0x01000193);
  for (let position = Math.max(start, end - 12); position < end; position++) {
    hash ^= text.charCodeAt(position);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}

/** True when a[aStart, aEnd) and b[bStart, bEnd) hold the same characters. */
export function spansEqual(a: string, aStart: number, aEnd: number, b: string, bStart: number, bEnd: number): boolean {
  const length = aEnd - aStart;
  if (length !== bEnd - bStart) return false;
  for (let index = 0; index < length; index++)
    if (a.charCodeAt(aStart + index) !== b.charCodeAt(bStart + index)) return false;
  return true;
}

/**
 * loadGrades for judged spans: starts a query with the first `count` entries of scratch.judgedSpans
 * in the key table (the same table judgeKeys uses, slots referring to entries). It and judgeSpans keep
 * probe loops of their own, beside loadGrades and judgeKeys, on purpose: they compare spans of the file
 * text in place, where a string per doc id (about 2M per trec-eval run) would cost more than the table. Returns the index of
 * the first entry that repeats an earlier one (trec_eval's fatal duplicate), else -1.
 */
export function loadJudgedSpans(scratch: MeasureScratch, count: number, rankCount: number): number {
  const table = scratch.keys;
  resetKeyTable(table);
  reserveSlots(table, count + rankCount);
  const { texts, starts, ends } = scratch.judgedSpans;
  const { stamps, hashes, refs, generation, seen } = table;
  const mask = stamps.length - 1;
  for (let entry = 0; entry < count; entry++) {
    const text = texts[entry] as string;
    const start = starts[entry] as number;
    const end = ends[entry] as number;
    const hash = spanHash(text, start, end);
    let slot = hash & mask;
    for (; stamps[slot] === generation; slot = (slot + 1) & mask) {
      const other = refs[slot] as number;
      if (
        hashes[slot] === hash &&
        spansEqual(text, start, end, texts[other] as string, starts[other] as number, ends[other] as number)
      )
        return entry;
    }
    stamps[slot] = generation;
    hashes[slot] = hash;
    refs[slot] = entry;
    seen[entry] = 0;
  }
  table.count = count;
  table.used = count;
  return -1;
}

/**
 * judgeKeys for a ranking of spans of one text: the key at rank r is text[docStart[e], docEnd[e]) with
 * e = order[r], for the first `rankCount` ranks (after loadJudgedSpans, whose rankCount this must not
 * exceed). Fills scratch.foundRanks/foundGrades/foundCount; every repeat is fatal (trec_eval): returns
 * the first rank whose key a higher rank holds already, else -1.
 */
export function judgeSpans(
  scratch: MeasureScratch,
  text: string,
  docStart: Int32Array,
  docEnd: Int32Array,
  order: readonly number[],
  rankCount: number,
): number {
  const table = scratch.keys;
  const { foundRanks, foundGrades, judgedGrades } = scratch;
  const { texts, starts, ends } = scratch.judgedSpans;
  const { stamps, hashes, refs, generation, seen } = table;
  const mask = stamps.length - 1;
  let foundCount = 0;
  for (let rank = 0; rank < rankCount; rank++) {
    const entry = order[rank] as number;
    const start = docStart[entry] as number;
    const end = docEnd[entry] as number;
    const hash = spanHash(text, start, end);
    let slot = hash & mask;
    let ref = 0;
    let found = false;
    for (; stamps[slot] === generation; slot = (slot + 1) & mask) {
      if (hashes[slot] !== hash) continue;
      ref = refs[slot] as number;
      if (ref >= 0) {
        if (spansEqual(text, start, end, texts[ref] as string, starts[ref] as number, ends[ref] as number)) {
          found = true;
          break;
        }
      } else {
        const other = order[~ref] as number;
        if (spansEqual(text, start, end, text, docStart[other] as number, docEnd[other] as number)) {
          found = true;
          break;
        }
      }
    }
    if (!found) {
      // A new unjudged key: remembered by its rank, to find its repeats.
      stamps[slot] = generation;
      hashes[slot] = hash;
      refs[slot] = ~rank;
      continue;
    }
    if (ref < 0 || seen[ref] === 1) {
      scratch.foundCount = foundCount;
      return rank;
    }
    seen[ref] = 1;
    foundRanks[foundCount] = rank;
    foundGrades[foundCount++] = judgedGrades[ref] as number;
  }
  scratch.foundCount = foundCount;
  return -1;
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

export function repeatedKeyError(index: number, key: string): RangeError {
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

/**
 * trec_eval's iprec_at_recall at `level` (0–1) for the ranking prepared last (every judged key found
 * must be in the found list): the highest precision at or below the rank where recall reaches
 * level × R (rounded to a whole number of relevant ids, half up); 0 when the ranking never gets there.
 */
export function interpolatedPrecision(scratch: MeasureScratch, level: number): number {
  const { foundRanks, foundGrades, foundCount } = scratch;
  const minGrade = scratch.settings.minGrade;
  const retrievedCount = scratch.state.retrievedCount;
  const target = Math.round(level * scratch.relevantCount);
  let relevantFound = 0;
  for (let index = 0; index < foundCount; index++) if ((foundGrades[index] as number) >= minGrade) relevantFound++;
  if (target > relevantFound || retrievedCount === 0) return 0;
  // From the bottom up: precision at each relevant rank, the running maximum reaching up to the target.
  let best = relevantFound / retrievedCount;
  let relevantSoFar = relevantFound;
  for (let index = foundCount - 1; index >= 0 && relevantSoFar >= Math.max(target, 1); index--) {
    if ((foundGrades[index] as number) < minGrade) continue;
    const precision = relevantSoFar / ((foundRanks[index] as number) + 1);
    if (precision > best) best = precision;
    relevantSoFar--;
  }
  return best;
}
