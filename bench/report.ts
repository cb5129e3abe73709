// Benchmark of the runner-agnostic report: summarize() of 100,000 samples over 200 suites against a
// baseline (sign test, then a 10,000-resample randomization test, both with significance and Holm), the
// baseline format/parse round trip, and the renderers. The reference is the straightforward
// implementation of the same summary (filter the samples per suite × measure, look every id up, the same
// statistics calls with the same settings), measured in the same run; its results are checked against
// summarize() before any time is reported.
// Run: npx tsx bench/report.ts   (npm run bench runs it too)
import { pathToFileURL } from 'node:url';

import { parseBaseline } from '../src/baseline/file/read.js';
import { type BaselineFile } from '../src/baseline/file/types.js';
import { formatBaseline } from '../src/baseline/file/write.js';
import { baselineFromRun } from '../src/baseline/store.js';
import { createRandom } from '../src/core/random.js';
import { holmCorrection, meanInterval, pairedComparison, type PairedTestName } from '../src/core/stats.js';
import {
  sampleIdOf,
  suiteIdOf,
  suiteIdentityOf,
  suiteKeyOf,
  type CollectedRun,
  type CollectedSample,
} from '../src/recording/collected.js';
import { renderConsole } from '../src/report/console.js';
import { formatJsonReport, renderJson } from '../src/report/json.js';
import { renderMarkdown } from '../src/report/markdown.js';
import { DEFAULT_INTERVAL_RESAMPLES, summarize, type RunSummary, type SummaryOptions } from '../src/report/summary.js';

const SUITES = 200;
const QUESTIONS = 100;
const MEASURES = ['hit@5', 'recall@5', 'precision@5', 'mrr@10', 'ndcg@10'] as const;
const CHANGED_SHARE = 0.15;
const SEED = 2024;
const BUDGET_MS = 1000;

/** A run and its baseline: 15% of the questions changed, and in every tenth suite 45%, drifting down. */
export function generateBenchData(): { run: CollectedRun; baseline: BaselineFile; previous: CollectedRun } {
  const random = createRandom(SEED);
  const value = (measure: (typeof MEASURES)[number]): number => {
    if (measure === 'hit@5') return random() < 0.8 ? 1 : 0;
    if (measure === 'recall@5') return Math.floor(random() * 5) / 4 > 1 ? 1 : Math.floor(random() * 5) / 4;
    if (measure === 'precision@5') return Math.floor(random() * 6) / 5;
    if (measure === 'mrr@10') return random() < 0.2 ? 0 : 1 / (1 + Math.floor(random() * 10));
    return Math.round(random() * 1e6) / 1e6;
  };
  const before: CollectedSample[] = [];
  const after: CollectedSample[] = [];
  for (let suite = 0; suite < SUITES; suite++) {
    const file = `test/retrieval/area-${Math.floor(suite / 10)}.test.ts`;
    const describePath = ['orders API', `topic ${suite}`];
    const drift = suite % 10 === 0 ? -0.35 : 0;
    for (const measure of MEASURES) {
      for (let question = 0; question < QUESTIONS; question++) {
        const test = `answers question ${question}`;
        const queryId = `q${suite}-${question}`;
        const old = value(measure);
        let now = old;
        if (random() < (drift < 0 ? 3 * CHANGED_SHARE : CHANGED_SHARE)) {
          now =
            measure === 'hit@5'
              ? random() < 0.5 + drift
                ? 1
                : 0
              : Math.min(1, Math.max(0, old + (random() - 0.5 + drift) * 0.5));
        }
        before.push({ file, describePath, test, queryId, measure, value: old, pass: old >= 0.5 });
        after.push({ file, describePath, test, queryId, measure, value: now, pass: now >= 0.5 });
      }
    }
  }
  const previous: CollectedRun = { runner: 'vitest', samples: before };
  return { run: { runner: 'vitest', samples: after }, baseline: baselineFromRun(previous), previous };
}

interface ReferenceRow {
  suite: string;
  measure: string;
  mean: number;
  lower: number;
  upper: number;
  p: number | undefined;
  adjustedP: number | undefined;
  status: string;
}

/**
 * The straightforward summary: list the suite × measure keys, filter the whole sample list for each, look
 * each id up in the baseline, call meanInterval and pairedComparison on every compared row, Holm over the
 * rows with a changed question. Same statistics and settings as summarize(), so the figures must agree.
 */
export function referenceSummary(
  run: CollectedRun,
  baseline: BaselineFile,
  options: {
    test: PairedTestName;
    significance: number;
    intervalResamples: number;
    resamples: number;
    seed: number;
    tolerance: number;
  },
): ReferenceRow[] {
  const keys: [string, string][] = [];
  const seen = new Set<string>();
  for (const sample of run.samples) {
    const key = `${suiteIdOf(sample)}\u0000${sample.measure}`;
    if (!seen.has(key)) {
      seen.add(key);
      keys.push([suiteIdOf(sample), sample.measure]);
    }
  }
  const rows = keys.map(([suite, measure]) => {
    const samples = run.samples.filter((sample) => suiteIdOf(sample) === suite && sample.measure === measure);
    const values = samples.map((sample) => sample.value);
    const interval = meanInterval(values, { seed: options.seed, resamples: options.intervalResamples });
    const baselineSamples = baseline.suites[suiteKeyOf(suiteIdentityOf(samples[0]!))]?.[measure] ?? {};
    const pairs = samples.filter((sample) => sampleIdOf(sample) in baselineSamples);
    const beforeValues = pairs.map((sample) => baselineSamples[sampleIdOf(sample)]!);
    const afterValues = pairs.map((sample) => sample.value);
    const comparison =
      pairs.length > 0
        ? pairedComparison(beforeValues, afterValues, {
            test: options.test,
            resamples: options.resamples,
            seed: options.seed,
          })
        : undefined;
    return { suite, measure, mean: interval.mean, lower: interval.lower, upper: interval.upper, comparison };
  });
  const family = rows.filter((row) => row.comparison !== undefined && row.comparison.wins + row.comparison.losses > 0);
  const adjusted = holmCorrection(family.map((row) => row.comparison!.p));
  return rows.map((row) => {
    const index = family.indexOf(row);
    const adjustedP = index >= 0 ? adjusted[index] : row.comparison?.p;
    const delta = row.comparison?.meanDifference;
    let status = 'new';
    if (delta !== undefined) {
      const beyond =
        Math.abs(delta) > options.tolerance + 1e-12 && adjustedP !== undefined && adjustedP <= options.significance;
      status = beyond ? (delta < 0 ? 'regressed' : 'improved') : 'unchanged';
    }
    return {
      suite: row.suite,
      measure: row.measure,
      mean: row.mean,
      lower: row.lower,
      upper: row.upper,
      p: row.comparison?.p,
      adjustedP,
      status,
    };
  });
}

function checkAgreement(summary: RunSummary, reference: ReferenceRow[]): void {
  if (summary.rows.length !== reference.length)
    throw new Error(`bench: ${summary.rows.length} rows, reference ${reference.length}`);
  const byKey = new Map(reference.map((row) => [`${row.suite}\u0000${row.measure}`, row]));
  for (const row of summary.rows) {
    const expected = byKey.get(`${row.suite}\u0000${row.measure}`);
    const close = (a: number | undefined, b: number | undefined): boolean =>
      a === undefined ? b === undefined : b !== undefined && Math.abs(a - b) <= 1e-12;
    if (
      !expected ||
      !close(row.mean, expected.mean) ||
      !close(row.interval.lower, expected.lower) ||
      !close(row.interval.upper, expected.upper) ||
      !close(row.comparison?.p, expected.p) ||
      !close(row.comparison?.adjustedP, expected.adjustedP) ||
      row.status !== expected.status
    ) {
      throw new Error(`bench: summarize() and the reference disagree on ${row.suite} · ${row.measure}`);
    }
  }
}

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** Best of `runs` by CPU time (wall time on a shared machine mostly measures the neighbours), with its wall time. */
function bestOf(runs: number, work: () => unknown): Timing {
  let best: Timing = { wallMs: Infinity, cpuMs: Infinity };
  for (let run = 0; run < runs; run++) {
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    work();
    const wallMs = performance.now() - wallStart;
    const cpu = process.cpuUsage(cpuStart);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    if (cpuMs < best.cpuMs) best = { wallMs, cpuMs };
  }
  return best;
}

function line(label: string, timing: Timing, note = ''): string {
  return `  ${label.padEnd(46)}${timing.wallMs.toFixed(0).padStart(7)} ms wall${timing.cpuMs.toFixed(0).padStart(7)} ms cpu${note ? `  ${note}` : ''}`;
}

export async function benchReport(): Promise<void> {
  const { run, baseline } = generateBenchData();
  const common: SummaryOptions = { significance: 0.05, baselinePath: 'rag-baseline.json' };
  const referenceOptions = {
    significance: 0.05,
    intervalResamples: DEFAULT_INTERVAL_RESAMPLES,
    resamples: 10_000,
    seed: 42,
    tolerance: 0.01,
  };

  // Correctness first: summarize() must agree with the reference under both tests. The reference is
  // slow (it filters the whole run per row), so its one checked call is also its timing.
  const signSummary = summarize(run, baseline, { ...common, test: 'sign' });
  const randomizationSummary = summarize(run, baseline, { ...common, test: 'randomization' });
  let referenceRows: ReferenceRow[] = [];
  const referenceSign = bestOf(
    1,
    () => (referenceRows = referenceSummary(run, baseline, { ...referenceOptions, test: 'sign' })),
  );
  checkAgreement(signSummary, referenceRows);
  const referenceRandomization = bestOf(
    1,
    () => (referenceRows = referenceSummary(run, baseline, { ...referenceOptions, test: 'randomization' })),
  );
  checkAgreement(randomizationSummary, referenceRows);

  const sign = bestOf(5, () => summarize(run, baseline, { ...common, test: 'sign' }));
  const randomization = bestOf(5, () => summarize(run, baseline, { ...common, test: 'randomization' }));
  const fullBootstrap = bestOf(1, () =>
    summarize(run, baseline, { ...common, test: 'sign', intervalResamples: 10_000 }),
  );

  const baselineText = formatBaseline(baseline);
  const format = bestOf(5, () => formatBaseline(baseline));
  const parse = bestOf(5, () => parseBaseline(baselineText, 'rag-baseline.json'));
  const consoleRender = bestOf(5, () => renderConsole(randomizationSummary, { color: false }));
  const markdownRender = bestOf(5, () => renderMarkdown(randomizationSummary));
  const jsonRender = bestOf(3, () => formatJsonReport(renderJson(randomizationSummary, run)));

  const budget = (timing: Timing): string =>
    `${timing.cpuMs < BUDGET_MS ? 'within' : 'OVER'} the ${BUDGET_MS} ms budget (cpu)`;
  const ratio = (reference: Timing, fast: Timing): string =>
    `${(reference.wallMs / fast.wallMs).toFixed(1)}× wall, ${(reference.cpuMs / fast.cpuMs).toFixed(1)}× cpu`;
  const s = randomizationSummary;
  console.log(
    `summarize: ${run.samples.length.toLocaleString('en')} samples, ${SUITES} suites × ${MEASURES.length} measures × ${QUESTIONS} questions, ` +
      `${Math.round(CHANGED_SHARE * 100)}% of questions changed; significance 0.05, Holm over ${s.settings.holmFamily} rows; ` +
      `bootstrap intervals ${DEFAULT_INTERVAL_RESAMPLES} resamples`,
  );
  console.log(
    `  randomization test: ${s.regressions} regressed, ${s.improvements} improved, ${s.unchanged} unchanged; sign test: ${signSummary.regressions} regressed`,
  );
  console.log(line('summarize, sign test (best of 5)', sign, budget(sign)));
  console.log(line('summarize, randomization 10,000 (best of 5)', randomization, budget(randomization)));
  console.log(line('reference, sign test (one run)', referenceSign));
  console.log(line('reference, randomization 10,000 (one run)', referenceRandomization));
  console.log(
    `  ratio, sign test                              ${ratio(referenceSign, sign)} faster than the reference`,
  );
  console.log(
    `  ratio, randomization                          ${ratio(referenceRandomization, randomization)} faster than the reference`,
  );
  console.log(
    line(
      'summarize, sign, bootstrap 10,000 (one run)',
      fullBootstrap,
      'for scale: the interval resamples are the cost',
    ),
  );
  console.log(
    `baseline file: ${(baselineText.length / 1e6).toFixed(1)} MB, ${baselineText.split('\n').length.toLocaleString('en')} lines`,
  );
  console.log(line('formatBaseline', format));
  console.log(line('parseBaseline', parse));
  console.log(line('renderConsole', consoleRender));
  console.log(line('renderMarkdown', markdownRender));
  console.log(line('renderJson + formatJsonReport', jsonRender));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchReport();
