// Judging hits given as spans of a file's text (trec-eval): the same key table as judge-keys.ts, its
// keys spans of the qrels and run text rather than strings, so no string is made per run line.
import { reserveScratch, type JudgedSpans, type MeasureScratch } from './measure-scratch.js';
import { reserveSlots, resetKeyTable } from './key-table.js';

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
function spanHash(text: string, start: number, end: number): number {
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
  order: ArrayLike<number>,
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

// Judged and ranked ids as spans of ASCII bytes (trec-eval's usual run and qrels, never decoded): the
// same table and rules as loadJudgedSpans and judgeSpans, with scratch.judgedSpans' starts and ends
// indexing `judgedBytes` (its texts unused). Equal ASCII spans are equal strings, so these find the
// same grades and the same first repeat.

/** spanHash over bytes: equal to spanHash of the same ASCII characters. */
function byteSpanHash(bytes: Uint8Array, start: number, end: number): number {
  let hash = Math.imul(0x811c9dc5 ^ (end - start), 0x01000193);
  for (let position = Math.max(start, end - 12); position < end; position++) {
    hash ^= bytes[position] as number;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}

function byteSpansEqual(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
): boolean {
  const length = aEnd - aStart;
  if (length !== bEnd - bStart) return false;
  for (let index = 0; index < length; index++) if (a[aStart + index] !== b[bStart + index]) return false;
  return true;
}

/** loadJudgedSpans for judged spans of `judgedBytes`. */
export function loadJudgedByteSpans(
  scratch: MeasureScratch,
  judgedBytes: Uint8Array,
  count: number,
  rankCount: number,
): number {
  const table = scratch.keys;
  resetKeyTable(table);
  reserveSlots(table, count + rankCount);
  const { starts, ends } = scratch.judgedSpans;
  const { stamps, hashes, refs, generation, seen } = table;
  const mask = stamps.length - 1;
  for (let entry = 0; entry < count; entry++) {
    const start = starts[entry] as number;
    const end = ends[entry] as number;
    const hash = byteSpanHash(judgedBytes, start, end);
    let slot = hash & mask;
    for (; stamps[slot] === generation; slot = (slot + 1) & mask) {
      const other = refs[slot] as number;
      if (
        hashes[slot] === hash &&
        byteSpansEqual(judgedBytes, start, end, judgedBytes, starts[other] as number, ends[other] as number)
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

/** judgeSpans for a ranking of spans of `runBytes`, after loadJudgedByteSpans. */
export function judgeByteSpans(
  scratch: MeasureScratch,
  judgedBytes: Uint8Array,
  runBytes: Uint8Array,
  docStart: Int32Array,
  docEnd: Int32Array,
  order: ArrayLike<number>,
  rankCount: number,
): number {
  const table = scratch.keys;
  const { foundRanks, foundGrades, judgedGrades } = scratch;
  const { starts, ends } = scratch.judgedSpans;
  const { stamps, hashes, refs, generation, seen } = table;
  const mask = stamps.length - 1;
  let foundCount = 0;
  for (let rank = 0; rank < rankCount; rank++) {
    const entry = order[rank] as number;
    const start = docStart[entry] as number;
    const end = docEnd[entry] as number;
    const hash = byteSpanHash(runBytes, start, end);
    let slot = hash & mask;
    let ref = 0;
    let found = false;
    for (; stamps[slot] === generation; slot = (slot + 1) & mask) {
      if (hashes[slot] !== hash) continue;
      ref = refs[slot] as number;
      const other = ref >= 0 ? -1 : (order[~ref] as number);
      if (
        ref >= 0
          ? byteSpansEqual(runBytes, start, end, judgedBytes, starts[ref] as number, ends[ref] as number)
          : byteSpansEqual(runBytes, start, end, runBytes, docStart[other] as number, docEnd[other] as number)
      ) {
        found = true;
        break;
      }
    }
    if (!found) {
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
