// Pure statistics for retrieval evaluation: confidence intervals for a measure's mean and paired tests
// for comparing two runs on the same queries. Every randomised result carries its seed and number of
// resamples, so a figure printed in a report can be reproduced exactly. See docs/statistics.md.
import { standardNormalQuantile, studentTCdf } from './distributions.js';
import { mean } from './mean.js';
import { assertSeed, Xoshiro128StarStar } from './random.js';

export const DEFAULT_CONFIDENCE = 0.95;
export const DEFAULT_RESAMPLES = 10_000;
export const DEFAULT_SEED = 42;
/** Largest number of resamples accepted (80 MB of Float64 resample means). */
const MAX_RESAMPLES = 10_000_000;
/** With `exact: 'auto'`, the randomization test enumerates every sign assignment up to this many non-zero differences. */
const AUTO_EXACT_MAX_PAIRS = 16;
/** With `exact: true`, enumeration is allowed up to this many non-zero differences (2^20 assignments). */
const EXACT_MAX_PAIRS = 20;

// Two statistics that are equal in exact arithmetic can differ in the last bits after summation in a
// different order. Comparisons treat values this close (relative to the data's scale) as equal.
const RELATIVE_FLOAT_TOLERANCE = 1e-12;
const TWO_POW_32 = 4294967296;

// ---------------------------------------------------------------------------------------------------
// Intervals

export interface WilsonInterval {
  lower: number;
  upper: number;
  /** successes / trials (0 when trials = 0). */
  estimate: number;
  confidence: number;
  method: 'wilson';
}

/**
 * Wilson score interval for a proportion (e.g. a hit rate). With no trials there is no information:
 * the interval is [0, 1] and the estimate is reported as 0.
 */
export function wilsonInterval(
  successes: number,
  trials: number,
  confidence: number = DEFAULT_CONFIDENCE,
): WilsonInterval {
  assertCount(trials, 'trials', 'the number of queries or observations');
  assertCount(successes, 'successes', 'the number of hits (values equal to 1)');
  if (successes > trials) {
    throw new RangeError(
      `successes (${successes}) is greater than trials (${trials}); successes counts the trials that succeeded, so it must be at most trials.`,
    );
  }
  assertConfidence(confidence, 'confidence');
  if (trials === 0) return { lower: 0, upper: 1, estimate: 0, confidence, method: 'wilson' };

  const z = twoSidedNormalCriticalValue(confidence);
  const zSquaredOverN = (z * z) / trials;
  const estimate = successes / trials;
  const denominator = 1 + zSquaredOverN;
  const centre = (estimate + zSquaredOverN / 2) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((estimate * (1 - estimate)) / trials + zSquaredOverN / (4 * trials));
  // At 0/n and n/n the exact bound is 0 or 1; rounding could otherwise give 1.0000000000000002.
  const lower = successes === 0 ? 0 : Math.max(0, centre - halfWidth);
  const upper = successes === trials ? 1 : Math.min(1, centre + halfWidth);
  return { lower, upper, estimate, confidence, method: 'wilson' };
}

export interface BootstrapOptions {
  /** Two-sided coverage, 0 < confidence < 1. Default 0.95. */
  confidence?: number;
  /** Number of bootstrap resamples. Default 10,000. */
  resamples?: number;
  /** Integer seed in [0, 2^32 − 1]. Default 42. */
  seed?: number;
}

export interface BootstrapMeanInterval {
  mean: number;
  lower: number;
  upper: number;
  confidence: number;
  resamples: number;
  seed: number;
  method: 'bootstrap-percentile';
}

/**
 * Percentile bootstrap interval for the mean: resample the values with replacement, take each
 * resample's mean, and cut the sorted means at (1 − confidence)/2 and (1 + confidence)/2 (linear
 * interpolation between order statistics, R's quantile type 7). One value gives the interval [v, v].
 */
export function bootstrapMeanInterval(
  values: readonly number[],
  options: BootstrapOptions = {},
): BootstrapMeanInterval {
  return bootstrapMeanIntervals([values], options)[0]!;
}

/**
 * bootstrapMeanInterval of each list of values, with the same options: the same results, bit for bit.
 * With one seed, lists of one length resample the same indices, so those are drawn once per resample
 * and each list sums its values at them in the order bootstrapMeanInterval does.
 */
export function bootstrapMeanIntervals(
  valueLists: readonly (readonly number[])[],
  options: BootstrapOptions = {},
  draws?: ResampleDraws,
): BootstrapMeanInterval[] {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? DEFAULT_SEED;
  for (const values of valueLists) {
    assertFiniteNumbers(values, 'values');
    if (values.length === 0) {
      throw new RangeError(
        'values is empty; a mean and its interval need at least one value (skip the measure when no query was evaluated).',
      );
    }
  }
  assertConfidence(confidence, 'options.confidence');
  assertResamples(resamples, 'options.resamples');
  assertSeed(seed, 'options.seed');

  const data = valueLists.map((values) => Float64Array.from(values));
  const means = new Array<Float64Array>(data.length);
  for (const indices of listsByLength(data)) {
    const sameLength = indices.map((index) => data[index]!);
    const kept = draws?.indicesOf(sameLength[0]!.length, resamples, seed);
    const resampled = resampleMeans(sameLength, resamples, seed, kept);
    indices.forEach((index, position) => (means[index] = resampled[position]!));
  }
  const tail = (1 - confidence) / 2;
  return data.map((values, index) => {
    const sorted = means[index]!.sort();
    return {
      mean: mean(values),
      lower: sortedQuantile(sorted, tail),
      upper: sortedQuantile(sorted, 1 - tail),
      confidence,
      resamples,
      seed,
      method: 'bootstrap-percentile',
    };
  });
}

/** The positions of `lists`, grouped by the lists' lengths (in the order each length first appears). */
function listsByLength(lists: readonly Float64Array[]): number[][] {
  const byLength = new Map<number, number[]>();
  lists.forEach((list, index) => {
    const group = byLength.get(list.length);
    if (group === undefined) byLength.set(list.length, [index]);
    else group.push(index);
  });
  return [...byLength.values()];
}

// The draws: floor(draw · count / 2^32) is floor(random() · count), a uniform index in [0, count). count / 2^32
// is exact (a power-of-two divisor) and draw · count < 2^53, so draw · scale is the same double, and its floor,
// below 2^31, is `| 0`. Resample r reads draws r · count to (r + 1) · count − 1, in that order.

/** The first `length` of `indices`: the generator's next draws, as indices into `count` values (in place). */
function drawIndices(indices: Int32Array, length: number, count: number, generator: Xoshiro128StarStar): void {
  const draws = new Uint32Array(indices.buffer, 0, length);
  generator.fillUint32(draws);
  const scale = count / TWO_POW_32;
  for (let i = 0; i < length; i++) indices[i] = (draws[i]! * scale) | 0;
}

/**
 * The resample means of lists of one length, each sum over its resample's indices in order. Four
 * resamples a pass, their sums independent chains of additions the processor overlaps, their indices
 * drawn for the pass or read from `kept` (every resample's, drawn beforehand by ResampleDraws).
 */
function resampleMeans(
  lists: readonly Float64Array[],
  resamples: number,
  seed: number,
  kept: Int32Array | undefined,
): Float64Array[] {
  const count = lists[0]!.length;
  const means = lists.map(() => new Float64Array(resamples));
  const generator = Xoshiro128StarStar.fromSeed(seed);
  const indices = kept ?? new Int32Array(4 * count);
  for (let first = 0; first < resamples; first += 4) {
    const inPass = Math.min(4, resamples - first);
    let start = first * count;
    if (kept === undefined) {
      drawIndices(indices, inPass * count, count, generator);
      start = 0;
    }
    for (let list = 0; list < lists.length; list++) {
      const data = lists[list]!;
      const listMeans = means[list]!;
      if (inPass === 4) {
        let sumA = 0;
        let sumB = 0;
        let sumC = 0;
        let sumD = 0;
        for (let i = start; i < start + count; i++) {
          sumA += data[indices[i]!]!;
          sumB += data[indices[i + count]!]!;
          sumC += data[indices[i + 2 * count]!]!;
          sumD += data[indices[i + 3 * count]!]!;
        }
        listMeans.set([sumA / count, sumB / count, sumC / count, sumD / count], first);
        continue;
      }
      for (let resample = 0, at = start; resample < inPass; resample++) {
        let total = 0;
        for (const end = at + count; at < end; at++) total += data[indices[at]!]!;
        listMeans[first + resample] = total / count;
      }
    }
  }
  return means;
}

/**
 * The resample indices of bootstrapMeanIntervals kept from one call to the next, for a caller that
 * bootstraps lists of one length with one seed over several calls (the Vitest reporter, a test file at a
 * time): drawn once. The intervals are the same kept or not. It keeps the last length's, up to 2^21
 * indices (8 MB), until clear().
 */
export class ResampleDraws {
  private key = '';
  private kept: Int32Array | undefined;

  /** Every resample's indices into `count` values (resample r's at r · count), or undefined past the bound. */
  indicesOf(count: number, resamples: number, seed: number): Int32Array | undefined {
    const key = `${count} ${resamples} ${seed}`;
    if (key !== this.key && count * resamples <= 2 ** 21) {
      this.key = key;
      this.kept = new Int32Array(count * resamples);
      drawIndices(this.kept, this.kept.length, count, Xoshiro128StarStar.fromSeed(seed));
    }
    return key === this.key ? this.kept : undefined;
  }

  clear(): void {
    this.key = '';
    this.kept = undefined;
  }
}

/** Quantile of already-sorted values, linear interpolation between order statistics (R type 7). */
function sortedQuantile(sorted: Float64Array, probability: number): number {
  const position = (sorted.length - 1) * probability;
  const below = Math.floor(position);
  const lowerValue = sorted[below]!;
  const upperValue = sorted[Math.min(below + 1, sorted.length - 1)]!;
  return lowerValue + (position - below) * (upperValue - lowerValue);
}

export interface MeanIntervalOptions extends BootstrapOptions {
  /**
   * true: the values are 0/1 and get a Wilson interval (anything else is an error). false: always
   * bootstrap. Omitted: Wilson when every value is 0 or 1, bootstrap otherwise.
   */
  binary?: boolean;
}

export interface WilsonMeanInterval {
  mean: number;
  lower: number;
  upper: number;
  confidence: number;
  successes: number;
  trials: number;
  method: 'wilson';
}

export type MeanInterval = WilsonMeanInterval | BootstrapMeanInterval;

/**
 * Interval for the mean of a measure over queries: Wilson for 0/1 measures (hit@k), percentile
 * bootstrap for graded ones (nDCG, recall, RR). Discriminate the result on `method`.
 */
export function meanInterval(values: readonly number[], options: MeanIntervalOptions = {}): MeanInterval {
  assertFiniteNumbers(values, 'values');
  if (values.length === 0) {
    throw new RangeError(
      'values is empty; a mean and its interval need at least one value (skip the measure when no query was evaluated).',
    );
  }
  const { binary, ...bootstrapOptions } = options;
  if (binary === true) {
    const index = values.findIndex((value) => value !== 0 && value !== 1);
    if (index >= 0) {
      throw new RangeError(
        `values[${index}] is ${values[index]}, but options.binary is true and every value must be 0 or 1; leave binary unset to use the bootstrap for graded values.`,
      );
    }
  }
  const useWilson = binary ?? values.every((value) => value === 0 || value === 1);
  if (!useWilson) return bootstrapMeanInterval(values, bootstrapOptions);

  const successes = values.reduce((count, value) => count + value, 0);
  const interval = wilsonInterval(successes, values.length, bootstrapOptions.confidence ?? DEFAULT_CONFIDENCE);
  return {
    mean: interval.estimate,
    lower: interval.lower,
    upper: interval.upper,
    confidence: interval.confidence,
    successes,
    trials: values.length,
    method: 'wilson',
  };
}

// ---------------------------------------------------------------------------------------------------
// Paired tests

/**
 * Exact two-sided sign test: p = min(1, 2 · P(X ≤ min(wins, losses))) for X ~ Binomial(wins + losses, ½).
 * Ties are not passed in (they carry no information about direction). No disagreements → p = 1.
 * Exact in integers up to 53 disagreements, log space above; stays within 1e-10 relative of the exact
 * value up to at least 100,000 pairs.
 */
export function signTest(wins: number, losses: number): number {
  assertCount(wins, 'wins', 'the number of pairs where the second system is better');
  assertCount(losses, 'losses', 'the number of pairs where the second system is worse');
  const trials = wins + losses;
  const smaller = Math.min(wins, losses);
  if (2 * smaller >= trials) return 1; // wins = losses: the tail holds at least half the mass.
  const tail =
    trials <= MAX_EXACT_SIGN_TEST_TRIALS
      ? exactHalfBinomialTail(trials, smaller)
      : logSpaceHalfBinomialTail(trials, smaller);
  return Math.min(1, 2 * tail);
}

const MAX_EXACT_SIGN_TEST_TRIALS = 53;

/**
 * P(X ≤ upTo) for X ~ Binomial(trials, ½) from Pascal's triangle. Up to 53 trials every coefficient and
 * their sum stay below 2^53, so the sum is exact and the division by 2^trials (a power of two) is too.
 */
function exactHalfBinomialTail(trials: number, upTo: number): number {
  const row = new Float64Array(trials + 1);
  row[0] = 1;
  for (let n = 1; n <= trials; n++) {
    for (let i = Math.min(n, upTo); i > 0; i--) row[i] = row[i]! + row[i - 1]!;
  }
  let total = 0;
  for (let i = 0; i <= upTo; i++) total += row[i]!;
  return total / 2 ** trials;
}

/** P(X ≤ upTo) for X ~ Binomial(trials, ½), upTo < trials / 2, summed relative to its largest term. */
function logSpaceHalfBinomialTail(trials: number, upTo: number): number {
  let relativeTailSum = 1;
  let relativeTerm = 1;
  for (let i = upTo; i > 0; i--) {
    relativeTerm *= i / (trials - i + 1); // P(X = i−1) / P(X = i)
    relativeTailSum += relativeTerm;
    if (relativeTerm < relativeTailSum * 1e-17) break;
  }
  const logLargestTerm = logBinomialCoefficient(trials, upTo) - trials * Math.LN2;
  return Math.exp(logLargestTerm + Math.log(relativeTailSum));
}

/** ln C(n, k) as a sum of ln((n − k + i) / i), compensated (Neumaier) so the rounding error does not grow with k. */
function logBinomialCoefficient(n: number, k: number): number {
  let sum = 0;
  let compensation = 0;
  for (let i = 1; i <= k; i++) {
    const term = Math.log((n - k + i) / i);
    const next = sum + term;
    compensation += Math.abs(sum) >= Math.abs(term) ? sum - next + term : term - next + sum;
    sum = next;
  }
  return sum + compensation;
}

export interface RandomizationTestOptions {
  /** Monte Carlo resamples (ignored when the test is exact). Default 10,000. */
  resamples?: number;
  /** Integer seed in [0, 2^32 − 1] for the Monte Carlo version. Default 42. */
  seed?: number;
  /**
   * 'auto' (default): enumerate all sign assignments when there are at most 16 non-zero differences,
   * Monte Carlo otherwise. true: always enumerate (at most 20 non-zero differences). false: always Monte Carlo.
   */
  exact?: boolean | 'auto';
}

export interface RandomizationTestResult {
  /** Two-sided p-value. */
  p: number;
  /** mean(after − before). */
  observedDifference: number;
  /** Sign assignments drawn (Monte Carlo) or enumerated (exact, 2^m for m non-zero differences). */
  resamples: number;
  /** The seed used; null when the test is exact and nothing was random. */
  seed: number | null;
  method: 'randomization-exact' | 'randomization-monte-carlo';
}

/**
 * Paired randomization (sign-flip) test of mean(after − before) = 0, two-sided. Under the null each
 * difference is as likely to have either sign. The statistic is |Σ dᵢ|; assignments whose |Σ ±dᵢ|
 * is at least the observed one, within 1e-12 × Σ|dᵢ| to absorb rounding, count as extreme.
 * Exact: p = extreme / 2^m. Monte Carlo: p = (extreme + 1) / (resamples + 1), never 0.
 * Zero differences are left out of the enumeration: their sign changes nothing, so p is unchanged.
 */
export function pairedRandomizationTest(
  before: readonly number[],
  after: readonly number[],
  options: RandomizationTestOptions = {},
): RandomizationTestResult {
  return randomizationTest(pairedDifferences(before, after), options);
}

function randomizationTest(differences: readonly number[], options: RandomizationTestOptions): RandomizationTestResult {
  if (differences.length === 0) {
    throw new RangeError('before and after are empty; a paired test needs at least one pair of values.');
  }
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? DEFAULT_SEED;
  const exact = options.exact ?? 'auto';
  assertResamples(resamples, 'options.resamples');
  assertSeed(seed, 'options.seed');
  if (exact !== 'auto' && typeof exact !== 'boolean') {
    throw new TypeError(
      `options.exact must be true, false or 'auto', got ${String(exact)}; leave it unset for 'auto'.`,
    );
  }

  const nonZero = Float64Array.from(differences.filter((difference) => difference !== 0));
  const observedSum = sum(nonZero);
  const threshold = Math.abs(observedSum) - RELATIVE_FLOAT_TOLERANCE * sumOfAbsolutes(nonZero);
  const observedDifference = mean(differences);

  const enumerate = exact === true || (exact === 'auto' && nonZero.length <= AUTO_EXACT_MAX_PAIRS);
  if (enumerate) {
    if (nonZero.length > EXACT_MAX_PAIRS) {
      throw new RangeError(
        `options.exact is true but there are ${nonZero.length} non-zero differences; exact enumeration is limited to ${EXACT_MAX_PAIRS} (2^${EXACT_MAX_PAIRS} assignments). Use exact: 'auto' for the Monte Carlo version.`,
      );
    }
    return {
      p: exactSignFlipP(nonZero, threshold),
      observedDifference,
      resamples: 2 ** nonZero.length,
      seed: null,
      method: 'randomization-exact',
    };
  }
  const extreme = countExtremeSignFlips(nonZero, threshold, resamples, seed);
  return {
    p: (extreme + 1) / (resamples + 1),
    observedDifference,
    resamples,
    seed,
    method: 'randomization-monte-carlo',
  };
}

function exactSignFlipP(differences: Float64Array, threshold: number): number {
  const count = differences.length;
  if (count === 0) return 1;
  // |Σ| is the same for an assignment and its mirror image, so fix the last sign and double up.
  const last = differences[count - 1]!;
  const free = count - 1;
  const assignments = 2 ** free;
  let extreme = 0;
  for (let mask = 0; mask < assignments; mask++) {
    let total = last;
    for (let i = 0; i < free; i++) total += (mask >>> i) & 1 ? -differences[i]! : differences[i]!;
    if (Math.abs(total) >= threshold) extreme++;
  }
  return extreme / assignments;
}

function countExtremeSignFlips(differences: Float64Array, threshold: number, resamples: number, seed: number): number {
  const generator = Xoshiro128StarStar.fromSeed(seed);
  const count = differences.length;
  const signBits = new Uint32Array(Math.ceil(count / 32)); // one random bit per difference
  let extreme = 0;
  for (let resample = 0; resample < resamples; resample++) {
    generator.fillUint32(signBits);
    let total = 0;
    for (let i = 0; i < count; i++) {
      const bit = (signBits[i >>> 5]! >>> (i & 31)) & 1;
      total += (1 - 2 * bit) * differences[i]!;
    }
    if (Math.abs(total) >= threshold) extreme++;
  }
  return extreme;
}

export interface PairedTTestResult {
  t: number;
  degreesOfFreedom: number;
  /** Two-sided p-value. */
  p: number;
  /** mean(after − before). */
  meanDifference: number;
  method: 'paired-t';
}

/**
 * Paired t-test of mean(after − before) = 0, two-sided, with n − 1 degrees of freedom. Assumes the
 * differences are roughly normal. All differences zero → t = 0, p = 1. Identical non-zero differences
 * (standard deviation 0) → t = ±Infinity, p = 0, the limit of the statistic.
 */
export function pairedTTest(before: readonly number[], after: readonly number[]): PairedTTestResult {
  return tTest(pairedDifferences(before, after));
}

function tTest(differences: readonly number[]): PairedTTestResult {
  const count = differences.length;
  if (count < 2) {
    throw new RangeError(
      `before and after hold ${count} pair(s); a t-test needs at least 2 pairs to estimate the variance. Use signTest or pairedRandomizationTest for fewer.`,
    );
  }
  const degreesOfFreedom = count - 1;
  const meanDifference = mean(differences);
  let squaredDeviations = 0;
  for (const difference of differences) squaredDeviations += (difference - meanDifference) ** 2;
  const standardError = Math.sqrt(squaredDeviations / degreesOfFreedom / count);

  if (standardError === 0) {
    if (meanDifference === 0) return { t: 0, degreesOfFreedom, p: 1, meanDifference, method: 'paired-t' };
    return { t: Math.sign(meanDifference) * Infinity, degreesOfFreedom, p: 0, meanDifference, method: 'paired-t' };
  }
  const t = meanDifference / standardError;
  // 2·F(−|t|) rather than 2·(1 − F(|t|)): no cancellation for small p.
  const p = Math.min(1, 2 * studentTCdf(-Math.abs(t), degreesOfFreedom));
  return { t, degreesOfFreedom, p, meanDifference, method: 'paired-t' };
}

export type PairedTestName = 'sign' | 'randomization' | 't';

export interface PairedComparisonOptions {
  /** A pair whose |after − before| ≤ tolerance is a tie. Default 0. */
  tolerance?: number;
  /** Which test gives p. Default 'randomization'. */
  test?: PairedTestName;
  /** Randomization test only. Default 10,000. */
  resamples?: number;
  /** Randomization test only. Default 42. */
  seed?: number;
}

export interface PairedComparison {
  count: number;
  /** Pairs with after > before + tolerance. */
  wins: number;
  /** Pairs with after < before − tolerance. */
  losses: number;
  ties: number;
  meanBefore: number;
  meanAfter: number;
  /** mean(after − before). */
  meanDifference: number;
  /** Two-sided p-value of the chosen test. */
  p: number;
  test: PairedTestName;
  method: 'sign-exact' | RandomizationTestResult['method'] | PairedTTestResult['method'];
  /** Randomization test only (null when it was exact). */
  seed?: number | null;
  /** Randomization test only. */
  resamples?: number;
}

/**
 * Compares two runs on the same queries (index i of `before` and `after` is the same query).
 * The sign test uses wins and losses (ties dropped); the randomization and t-tests use the raw
 * differences, so the tolerance only decides what counts as a win, loss or tie. Differences within
 * 1e-12 (relative to the values) of the tolerance are ties, so that rounding cannot make 0.8 − 0.7
 * a win at tolerance 0.1.
 */
export function pairedComparison(
  before: readonly number[],
  after: readonly number[],
  options: PairedComparisonOptions = {},
): PairedComparison {
  const differences = pairedDifferences(before, after);
  const count = differences.length;
  if (count === 0) {
    throw new RangeError('before and after are empty; a paired comparison needs at least one pair of values.');
  }
  const tolerance = options.tolerance ?? 0;
  const test = options.test ?? 'randomization';
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(
      `options.tolerance must be a finite number ≥ 0, got ${String(tolerance)}; use 0 to count every difference, or e.g. 0.01 to ignore tiny ones.`,
    );
  }
  if (test !== 'sign' && test !== 'randomization' && test !== 't') {
    throw new TypeError(`options.test must be 'sign', 'randomization' or 't', got ${String(test)}.`);
  }

  let wins = 0;
  let losses = 0;
  for (let i = 0; i < count; i++) {
    const difference = differences[i]!;
    const scale = Math.max(1, Math.abs(before[i]!), Math.abs(after[i]!));
    if (Math.abs(difference) - tolerance <= RELATIVE_FLOAT_TOLERANCE * scale) continue;
    if (difference > 0) wins++;
    else losses++;
  }
  const summary = {
    count,
    wins,
    losses,
    ties: count - wins - losses,
    meanBefore: mean(before),
    meanAfter: mean(after),
    meanDifference: mean(differences),
  };
  if (test === 'sign') return { ...summary, p: signTest(wins, losses), test, method: 'sign-exact' };
  if (test === 't') return { ...summary, p: tTest(differences).p, test, method: 'paired-t' };
  const randomization = randomizationTest(differences, { resamples: options.resamples, seed: options.seed });
  return {
    ...summary,
    p: randomization.p,
    test,
    method: randomization.method,
    seed: randomization.seed,
    resamples: randomization.resamples,
  };
}

/**
 * Holm–Bonferroni step-down adjustment for testing several measures at once. Returns adjusted
 * p-values in the input order: sorted ascending, the i-th (from 1) of m becomes
 * max over j ≤ i of min(1, (m − j + 1) · p₍ⱼ₎). Reject where adjusted p ≤ α.
 */
export function holmCorrection(pValues: readonly number[]): number[] {
  if (!Array.isArray(pValues)) {
    throw new TypeError(`pValues must be an array of p-values, got ${typeof pValues}.`);
  }
  pValues.forEach((value, index) => {
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
      throw new RangeError(`pValues[${index}] is ${String(value)}; every p-value must be a number from 0 to 1.`);
    }
  });
  const count = pValues.length;
  const order = pValues.map((_, index) => index).sort((a, b) => pValues[a]! - pValues[b]!);
  const adjusted = new Array<number>(count);
  let runningMax = 0;
  order.forEach((originalIndex, rank) => {
    runningMax = Math.max(runningMax, Math.min(1, (count - rank) * pValues[originalIndex]!));
    adjusted[originalIndex] = runningMax;
  });
  return adjusted;
}

// ---------------------------------------------------------------------------------------------------
// Helpers

function twoSidedNormalCriticalValue(confidence: number): number {
  return standardNormalQuantile(1 - (1 - confidence) / 2);
}

function pairedDifferences(before: readonly number[], after: readonly number[]): number[] {
  assertFiniteNumbers(before, 'before');
  assertFiniteNumbers(after, 'after');
  if (before.length !== after.length) {
    throw new RangeError(
      `before has ${before.length} values but after has ${after.length}; paired statistics need one value per query in each, in the same query order.`,
    );
  }
  return after.map((value, index) => value - before[index]!);
}

function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i]!;
  return total;
}

function sumOfAbsolutes(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += Math.abs(values[i]!);
  return total;
}

function assertFiniteNumbers(values: unknown, name: string): asserts values is readonly number[] {
  if (!Array.isArray(values)) {
    throw new TypeError(
      `${name} must be an array of numbers (one per query), got ${values === null ? 'null' : typeof values}.`,
    );
  }
  for (let i = 0; i < values.length; i++) {
    const value: unknown = values[i];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new RangeError(
        `${name}[${i}] is ${String(value)}; every value must be a finite number. Fix or drop that query's value first.`,
      );
    }
  }
}

function assertCount(value: unknown, name: string, meaning: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number ≥ 0 (${meaning}), got ${String(value)}.`);
  }
}

function assertConfidence(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !(value > 0 && value < 1)) {
    throw new RangeError(
      `${name} must be a number strictly between 0 and 1, got ${String(value)}; write 0.95 for a 95% interval.`,
    );
  }
}

function assertResamples(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_RESAMPLES) {
    throw new RangeError(
      `${name} must be an integer from 1 to ${MAX_RESAMPLES}, got ${String(value)}; 10000 is a good default.`,
    );
  }
}
