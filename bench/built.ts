// The benchmarks time the built package, as users run it: under tsx every call between two source
// modules goes through an export getter, which the bundle does not have. `npm run bench` builds first.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/index.js', import.meta.url);
if (!existsSync(entry))
  throw new Error('bench: dist/index.js is missing; run `npm run build` first (npm run bench does).');

export const built = (await import(entry.href)) as typeof import('../src/index.js');
export const builtTrec = (await import(
  new URL('../dist/trec.js', import.meta.url).href
)) as typeof import('../src/entries/trec.js');
