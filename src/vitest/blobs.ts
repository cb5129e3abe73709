// The blob reports `vitest --merge-reports` reads: `blob-<i>-<n>.json` (Vitest 5 puts a label between:
// `blob-<label>-<i>-<n>.json`). A merge that lacks one of a sharded run's blobs would judge part of the
// run as if it were the whole; the names tell which shard is missing.
import { readdirSync } from 'node:fs';

const BLOB_NAME = /^blob(?:-(.+))?-(\d+)-(\d+)\.json$/;

/** The blob file names of shards missing from `directory` (none when it holds no sharded blobs). */
export function missingBlobShards(directory: string): string[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  // label → shard count → indices present
  const present = new Map<string, Map<number, Set<number>>>();
  for (const name of names) {
    const match = BLOB_NAME.exec(name);
    if (match === null) continue;
    const label = match[1] ?? '';
    const index = Number(match[2]);
    const count = Number(match[3]);
    if (!(index >= 1 && index <= count)) continue;
    const byCount = present.get(label) ?? new Map<number, Set<number>>();
    present.set(label, byCount);
    const indices = byCount.get(count) ?? new Set<number>();
    byCount.set(count, indices);
    indices.add(index);
  }
  const missing: string[] = [];
  for (const [label, byCount] of present) {
    for (const [count, indices] of byCount) {
      for (let index = 1; index <= count; index++)
        if (!indices.has(index)) missing.push(`blob-${label === '' ? '' : `${label}-`}${index}-${count}.json`);
    }
  }
  return missing;
}
