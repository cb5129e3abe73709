// A query id cut from a chunk of a run file must not keep the chunk alive: trec-eval keeps every query
// id until the end, and a run with a new query in every 64 kB chunk would keep the whole file.
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

import { detachedSlice } from '../../../src/trec/text.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const CHUNKS = 200;
const CHUNK_CHARACTERS = 1 << 16;

/** Heap bytes still used after cutting a UUID query id out of each of 200 chunks of 64 kB and dropping the chunks. */
function heapKeptBy(cut: (text: string, start: number, end: number) => string): number {
  const kept: string[] = [];
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    const line = `${randomUUID()} Q0 doc-${chunk} 1 0.5 run\r\n`;
    // Built from parts, then cut: V8 flattens it into one string of 64 kB, which a plain slice views.
    const text = line + 'x'.repeat(CHUNK_CHARACTERS - line.length);
    kept.push(cut(text, 0, 36));
  }
  collectGarbage();
  const used = process.memoryUsage().heapUsed - before;
  expect(kept.every((id) => id.length === 36)).toBe(true);
  return used;
}

describe('detachedSlice', () => {
  it('is the slice, character for character, at any length', () => {
    const text = 'q1 Q0 d 1 1 r\n0123456789abcdef-\u00e9\u4e2d\ud83d\ude00 tail';
    for (const [start, end] of [
      [0, 2],
      [14, 26],
      [14, 27],
      [14, 40],
      [0, text.length],
      [5, 5],
    ] as const)
      expect(detachedSlice(text, start, end)).toBe(text.slice(start, end));
  });

  it('keeps none of the chunk it was cut from (a plain slice keeps them all)', () => {
    const chunksBytes = CHUNKS * CHUNK_CHARACTERS;
    // The control: V8's slice of 36 characters views its source, so the chunks stay (one byte per character).
    expect(heapKeptBy((text, start, end) => text.slice(start, end))).toBeGreaterThan(chunksBytes * 0.8);
    expect(heapKeptBy(detachedSlice)).toBeLessThan(chunksBytes * 0.1);
  });
});
