// The interval printed beside each mean (Wilson for 0/1 values, else the seeded percentile bootstrap),
// and the cache that lets a reporter work them out while later test files still run.
import { bootstrapMeanIntervals, meanInterval, ResampleDraws } from '../core/stats.js';

export interface RowInterval {
  lower: number;
  upper: number;
  method: 'wilson' | 'bootstrap-percentile';
  confidence: number;
  /** Bootstrap only. */
  resamples?: number;
  seed?: number;
}

/** What an interval depends on besides the values. */
export interface IntervalSettings {
  confidence: number;
  seed: number;
  intervalResamples: number;
}

export type RowIntervalWithMean = RowInterval & { mean: number };

/** What a row's interval is worked out from: its values, their least and greatest. */
export interface IntervalInput {
  values: readonly number[];
  min: number;
  max: number;
}

/** `values` with their least and greatest (±Infinity when there are none). */
export function withRange(values: readonly number[]): IntervalInput {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { values, min, max };
}

/**
 * Each row's interval: meanInterval (Wilson when every value is 0/1, else the seeded bootstrap); all-equal
 * values give [v, v] under either, without resampling. The bootstraps of all rows run together
 * (bootstrapMeanIntervals draws the resample indices once for the rows of one length, and once for all
 * calls given the same `cache`).
 */
export function intervalsOf(
  rows: readonly IntervalInput[],
  settings: IntervalSettings,
  cache?: IntervalCache,
): RowIntervalWithMean[] {
  const intervals = new Array<RowIntervalWithMean>(rows.length);
  const resampled: number[] = [];
  rows.forEach(({ values, min, max }, index) => {
    const binary = values.every((value) => value === 0 || value === 1);
    if (binary) {
      const interval = meanInterval(values, { confidence: settings.confidence, binary });
      intervals[index] = {
        mean: interval.mean,
        lower: interval.lower,
        upper: interval.upper,
        method: 'wilson',
        confidence: interval.confidence,
      };
    } else if (min === max) {
      intervals[index] = { mean: min, lower: min, upper: min, ...bootstrapShape(settings) };
    } else {
      resampled.push(index);
    }
  });
  if (resampled.length === 0) return intervals;
  const bootstraps = bootstrapMeanIntervals(
    resampled.map((index) => rows[index]!.values),
    { confidence: settings.confidence, seed: settings.seed, resamples: settings.intervalResamples },
    cache && (drawsOf.get(cache) ?? drawsOf.set(cache, new ResampleDraws()).get(cache)),
  );
  resampled.forEach((index, position) => {
    const { mean, lower, upper } = bootstraps[position]!;
    intervals[index] = { mean, lower, upper, ...bootstrapShape(settings) };
  });
  return intervals;
}

function bootstrapShape(settings: IntervalSettings): Omit<RowIntervalWithMean, 'mean' | 'lower' | 'upper'> {
  return {
    method: 'bootstrap-percentile',
    confidence: settings.confidence,
    resamples: settings.intervalResamples,
    seed: settings.seed,
  };
}

/**
 * Intervals worked out before summarize, each with the values and settings it was worked out for: a row
 * takes one only when both are exactly its own, and takes it once. One per run, owned by its caller (the
 * Vitest reporter), cleared when a run starts or ends: nothing is kept between callers.
 */
export class IntervalCache {
  private readonly ahead = new Map<string, { values: readonly number[]; interval: RowIntervalWithMean }>();

  /** Keeps `interval`, worked out for these values and settings. */
  keep(values: readonly number[], settings: IntervalSettings, interval: RowIntervalWithMean): void {
    this.ahead.set(keyOf(values, settings), { values: [...values], interval });
  }

  /** The interval kept for exactly these values (same order) and settings, removed from the cache; undefined when none. */
  take(values: readonly number[], settings: IntervalSettings): RowIntervalWithMean | undefined {
    if (this.ahead.size === 0) return undefined;
    const key = keyOf(values, settings);
    const kept = this.ahead.get(key);
    if (kept === undefined || kept.values.length !== values.length) return undefined;
    for (let index = 0; index < values.length; index++)
      if (!Object.is(kept.values[index], values[index])) return undefined;
    this.ahead.delete(key);
    return kept.interval;
  }

  /** How many intervals are kept and not yet taken. */
  get size(): number {
    return this.ahead.size;
  }

  /** Drops what no summary took (a run cut short, a file run again). */
  clear(): void {
    this.ahead.clear();
    drawsOf.delete(this);
  }
}

/** Each cache's resample indices: its run's suites of one length resample the same ones, drawn once. */
const drawsOf = new WeakMap<IntervalCache, ResampleDraws>();

function keyOf(values: readonly number[], settings: IntervalSettings): string {
  let sum = 0;
  for (const value of values) sum += value;
  return `${settings.confidence} ${settings.seed} ${settings.intervalResamples} ${values.length} ${sum}`;
}
