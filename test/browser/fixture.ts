// A realistic run for the HTML report tests: two suites × three measures × 40 questions against a
// baseline, with regressions, improvements, questions new to the baseline and missing from it, an
// obsolete baseline row, and hostile strings (script tags, quotes, an img with onerror) in a suite name,
// a question id and a test name. Deterministic (a fixed linear congruential generator).
import { baselineFile } from '../unit/baseline/keyed.js';
import type { BaselineFile } from '../../src/baseline/file/types.js';
import type { CollectedRun, CollectedSample } from '../../src/recording/collected.js';
import { renderJson, type JsonReport } from '../../src/report/json.js';
import { summarize } from '../../src/report/summary.js';

export const HOSTILE_SUITE = '<script>window.__pwned = "suite"</script> & "quotes"';
export const HOSTILE_QUESTION = '<img src=x onerror="window.__pwned=\'question\'">';
export const HOSTILE_TEST = '</title><script>window.__pwned="test"</script>';

export interface Fixture {
  run: CollectedRun;
  baseline: BaselineFile;
  report: JsonReport;
}

export function realisticFixture(questions = 40): Fixture {
  let seed = 7;
  const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const samples: CollectedSample[] = [];
  const suites: BaselineFile['suites'] = {};
  const layout: [string, string[]][] = [
    ['test/orders.test.ts', ['orders API']],
    ['test/search.test.ts', [HOSTILE_SUITE]],
  ];
  for (const [file, describePath] of layout) {
    const suite = [file, ...describePath].join(' > ');
    suites[suite] = {};
    for (const measure of ['mrr', 'ndcg@10', 'recall@5']) {
      const baselineSamples: Record<string, number> = {};
      for (let q = 1; q <= questions; q++) {
        const id = q === 3 ? HOSTILE_QUESTION : `q${q}`;
        const binary = measure === 'recall@5';
        let before = binary ? (random() < 0.75 ? 1 : 0) : Math.round(random() * 1000) / 1000;
        let after = before;
        const roll = random();
        if (roll < 0.18) after = binary ? 0 : Math.max(0, Math.round((before - 0.35 * random()) * 1000) / 1000);
        else if (roll < 0.26) after = binary ? 1 : Math.min(1, Math.round((before + 0.2 * random()) * 1000) / 1000);
        if (q === 3) {
          // The hostile question always got worse, so it shows in the change chart and its table.
          before = binary ? 1 : 0.9;
          after = binary ? 0 : 0.1;
        }
        if (q <= questions - 3) baselineSamples[id] = before;
        samples.push({
          file,
          describePath,
          measure,
          value: after,
          pass: after >= 0.2,
          threshold: 0.2,
          queryId: id,
          test: q === 3 ? HOSTILE_TEST : `answers ${id}`,
        });
      }
      baselineSamples['retired question'] = 0.5;
      suites[suite]![measure] = baselineSamples;
    }
  }
  suites['test/orders.test.ts > orders API']!['precision@5'] = { q1: 0.2, q2: 0.4 };
  const baseline: BaselineFile = baselineFile(suites);
  const run: CollectedRun = { runner: 'vitest', samples, files: ['test/orders.test.ts', 'test/search.test.ts'] };
  const summary = summarize(run, baseline, { baselinePath: 'rag-baseline.json' });
  return { run, baseline, report: renderJson(summary, run) };
}
