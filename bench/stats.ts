// Benchmark of the statistics core: bootstrap interval (10,000 resamples of 500 values) and paired
// randomization test (10,000 sign-flip resamples of 500 pairs), each against a straightforward
// reference (fresh arrays per resample, map/reduce) measured in the same run.
// Run: npx tsx bench/stats.ts   (or npm run bench once bench/run.ts lists it)
import { pathToFileURL } from 'node:url';
import { createRandom, randomInt } from '../src/core/random.js';
import { bootstrapMeanInterval, pairedRandomizationTest, signTest } from '../src/core/stats.js';

const VALUE_COUNT = 500;
const RESAMPLES = 10_000;
const SEED = 42;
const BOOTSTRAP_BUDGET_MS = 50;
const RANDOMIZATION_BUDGET_MS = 100;

/** Graded per-query scores in [0, 1] and a second run that is slightly better on average. */
function generateRuns(): { before: number[]; after: number[] } {
  const random = createRandom(7);
  const before = Array.from({ length: VALUE_COUNT }, () => Math.round(random() * 100) / 100);
  const after = before.map((value) => Math.min(1, Math.max(0, value + (random() - 0.47) * 0.3)));
  return { before, after };
}

/** The obvious bootstrap: a fresh array per resample, reduce for the mean, sort with a comparator. */
function referenceBootstrap(
  values: number[],
  resamples: number,
  seed: number,
  confidence = 0.95,
): { lower: number; upper: number } {
  const random = createRandom(seed);
  const means = Array.from({ length: resamples }, () => {
    const sample = Array.from({ length: values.length }, () => values[randomInt(random, values.length)] as number);
    return sample.reduce((sum, value) => sum + value, 0) / values.length;
  }).sort((a, b) => a - b);
  const quantile = (probability: number) => {
    const position = (means.length - 1) * probability;
    const below = Math.floor(position);
    const next = means[Math.min(below + 1, means.length - 1)] as number;
    return (means[below] as number) + (position - below) * (next - (means[below] as number));
  };
  return { lower: quantile((1 - confidence) / 2), upper: quantile(1 - (1 - confidence) / 2) };
}

/** The obvious randomization test: one random() per sign, map and reduce per resample. */
function referenceRandomization(before: number[], after: number[], resamples: number, seed: number): number {
  const random = createRandom(seed);
  const differences = after.map((value, index) => value - (before[index] as number));
  const sumOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
  const observed = Math.abs(sumOf(differences));
  const tolerance = 1e-12 * sumOf(differences.map(Math.abs));
  let extreme = 0;
  for (let resample = 0; resample < resamples; resample++) {
    const flipped = differences.map((difference) => (random() < 0.5 ? -difference : difference));
    if (Math.abs(sumOf(flipped)) >= observed - tolerance) extreme++;
  }
  return (extreme + 1) / (resamples + 1);
}

function time<T>(work: () => T): { ms: number; result: T } {
  const start = performance.now();
  const result = work();
  return { ms: performance.now() - start, result };
}

function bestOf(runs: number, work: () => unknown): number {
  let best = Infinity;
  for (let run = 0; run < runs; run++) best = Math.min(best, time(work).ms);
  return best;
}

function line(label: string, ms: number, note = ''): string {
  return `  ${label.padEnd(24)}${ms.toFixed(1).padStart(8)} ms${note ? `  ${note}` : ''}`;
}

export async function benchStats(): Promise<void> {
  const { before, after } = generateRuns();

  // Bootstrap. The reference draws the same indices from the same seed, so the intervals must agree.
  const firstBootstrap = time(() => bootstrapMeanInterval(after, { resamples: RESAMPLES, seed: SEED }));
  const reference = referenceBootstrap(after, RESAMPLES, SEED);
  if (
    Math.abs(reference.lower - firstBootstrap.result.lower) > 1e-12 ||
    Math.abs(reference.upper - firstBootstrap.result.upper) > 1e-12
  ) {
    throw new Error('bench: the reference bootstrap disagrees with bootstrapMeanInterval');
  }
  const bootstrapMs = bestOf(7, () => bootstrapMeanInterval(after, { resamples: RESAMPLES, seed: SEED }));
  const referenceBootstrapMs = bestOf(3, () => referenceBootstrap(after, RESAMPLES, SEED));

  // Randomization. The reference spends its random numbers differently, so its p may differ by
  // Monte Carlo error only: allow 4 standard errors of the difference of two estimates.
  const firstRandomization = time(() => pairedRandomizationTest(before, after, { resamples: RESAMPLES, seed: SEED }));
  const referenceP = referenceRandomization(before, after, RESAMPLES, SEED);
  const p = firstRandomization.result.p;
  if (Math.abs(referenceP - p) > 4 * Math.sqrt((2 * p * (1 - p)) / RESAMPLES) + 2 / RESAMPLES) {
    throw new Error(`bench: the reference randomization p ${referenceP} is too far from ${p}`);
  }
  const randomizationMs = bestOf(7, () => pairedRandomizationTest(before, after, { resamples: RESAMPLES, seed: SEED }));
  const referenceRandomizationMs = bestOf(3, () => referenceRandomization(before, after, RESAMPLES, SEED));

  // Two smaller figures for scale: exact enumeration at its 'auto' limit, and a sign test at n = 100,000.
  const exactMs = bestOf(5, () => pairedRandomizationTest(before.slice(0, 16), after.slice(0, 16)));
  const signMs = bestOf(5, () => signTest(49_900, 50_100));

  const budget = (ms: number, limit: number) => `${ms < limit ? 'within' : 'OVER'} the ${limit} ms budget`;
  const { lower, upper, mean } = firstBootstrap.result;
  console.log(`bootstrap percentile interval: ${VALUE_COUNT} values, ${RESAMPLES} resamples, seed ${SEED}`);
  console.log(`  mean ${mean.toFixed(4)}, 95% interval [${lower.toFixed(4)}, ${upper.toFixed(4)}]`);
  console.log(line('first call (cold JIT)', firstBootstrap.ms));
  console.log(line('rag-matchers, best of 7', bootstrapMs, budget(bootstrapMs, BOOTSTRAP_BUDGET_MS)));
  console.log(line('reference, best of 3', referenceBootstrapMs));
  console.log(
    `  ratio                   ${(referenceBootstrapMs / bootstrapMs).toFixed(1)}× faster than the reference`,
  );
  console.log(`paired randomization test: ${VALUE_COUNT} pairs, ${RESAMPLES} resamples, seed ${SEED}`);
  console.log(
    `  p ${p.toFixed(4)} (reference ${referenceP.toFixed(4)}), mean difference ${firstRandomization.result.observedDifference.toFixed(4)}`,
  );
  console.log(line('first call (cold JIT)', firstRandomization.ms));
  console.log(line('rag-matchers, best of 7', randomizationMs, budget(randomizationMs, RANDOMIZATION_BUDGET_MS)));
  console.log(line('reference, best of 3', referenceRandomizationMs));
  console.log(
    `  ratio                   ${(referenceRandomizationMs / randomizationMs).toFixed(1)}× faster than the reference`,
  );
  console.log(line('exact test, 16 pairs', exactMs, '2^16 sign assignments'));
  console.log(line('sign test, n = 100,000', signMs));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchStats();
