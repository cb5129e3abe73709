// `npm run bench`: every benchmark, each reporting ratios against a reference measured in the same run.
// Figures depend on the machine and its load; compare ratios, not absolute times, across machines.
import { benchBaselineRankings } from './baseline-rankings.js';
import { benchCore } from './core.js';
import { benchGeneration } from './generation.js';
import { benchMatchers } from './matchers.js';
import { benchRecording } from './recording.js';
import { benchReport } from './report.js';
import { benchStats } from './stats.js';
import { benchTrecIo } from './trec-io.js';
import { benchVmContext } from './vm-context.js';

const benches: [string, () => Promise<void>][] = [
  ['metric core', benchCore],
  ['matcher overhead', benchMatchers],
  ['recording on a real Vitest run', benchRecording],
  ['the CommonJS build in vm contexts (Jest)', benchVmContext],
  ['TREC run parsing', benchTrecIo],
  ['report summary and baseline', benchReport],
  ['baseline rankings: file size and parse time', benchBaselineRankings],
  ['statistics', benchStats],
  ['faithfulness on large passages', benchGeneration],
];

for (const [name, bench] of benches) {
  console.log(`\n## ${name}`);
  await bench();
}
