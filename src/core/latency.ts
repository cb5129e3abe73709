// Latency statistics: nearest-rank percentiles and the maximum of a suite's timed retrievals. One
// definition for the reports (src/report/costs.ts) and the baseline (src/baseline/rankings.ts).

/** Latency statistics in milliseconds: nearest-rank percentiles and the maximum. */
export interface LatencyStatistics {
  p50: number;
  p95: number;
  max: number;
}

/** The value at nearest rank ⌈p/100 · n⌉ (1-based) of ascending `sorted`: 20 values → p95 is the 19th. */
export function nearestRank(sorted: readonly number[], percent: number): number {
  if (sorted.length === 0) throw new RangeError('nearestRank: no values.');
  const rank = Math.max(1, Math.ceil((percent / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** p50, p95 and max of `latencies` (any order; at least one). */
export function latencyStatistics(latencies: readonly number[]): LatencyStatistics {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: nearestRank(sorted, 50), p95: nearestRank(sorted, 95), max: sorted[sorted.length - 1]! };
}
