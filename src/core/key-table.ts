// The key table: an open-addressing hash table of one query's keys (judged ids, then hits), reused
// from query to query, and the hashes it probes with. judge-keys.ts and judge-spans.ts fill it.

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

export function createKeyTable(): KeyTable {
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
export function resetKeyTable(table: KeyTable): void {
  table.count = 0;
  table.used = 0;
  if (++table.generation === 0x7fffffff) {
    table.stamps.fill(0);
    table.generation = 1;
  }
}

/** A probe longer than this many slots gives up the sampled hash for the full one (see hashOf). */
export const LONG_PROBE = 32;

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
export function hashOf(key: string, full: boolean): number {
  const length = key.length;
  if (full || length < 4) return fullHash(key);
  const end = length - 1;
  let hash = Math.imul(length ^ (key.charCodeAt(end) | (key.charCodeAt(end - 1) << 16)), 0x9e3779b1);
  hash = Math.imul(hash ^ (hash >>> 16) ^ (key.charCodeAt(end - 2) | (key.charCodeAt(end - 3) << 16)), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 16) ^ (key.charCodeAt(0) | (key.charCodeAt(length >> 1) << 16)), 0xc2b2ae35);
  return finalMix(hash);
}

/** Makes room for `more` keys at a load of at most one half, moving the slots in use. */
export function reserveSlots(table: KeyTable, more: number): void {
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
export function addJudgedId(table: KeyTable, id: string): boolean {
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

export function switchToFullHash(table: KeyTable): 'rehashed' {
  table.fullHash = true;
  return 'rehashed';
}
