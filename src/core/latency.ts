// Latency statistics: nearest-rank percentiles and the maximum. One definition for runRetriever
// (src/dataset), the reports (src/report/costs.ts) and the baseline (src/baseline/rankings.ts).

/** Latency statistics in milliseconds: nearest-rank percentiles and the maximum. */
export interface LatencyStatistics {
  p50: number;
  p95: number;
  max: number;
}

/**
 * The value at nearest rank ⌈p/100 · n⌉ (1-based) of ascending values: 20 values → p95 is the 19th; NaN
 * when there are none.
 */
export function nearestRankPercentile(sortedAscending: readonly number[], percentile: number): number {
  if (sortedAscending.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((percentile / 100) * sortedAscending.length));
  return sortedAscending[Math.min(rank, sortedAscending.length) - 1]!;
}

/** p50, p95 and max of `latencies` (any order; at least one). */
export function latencyStatistics(latencies: readonly number[]): LatencyStatistics {
  if (latencies.length === 0) throw new RangeError('latencyStatistics: no values.');
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50: nearestRankPercentile(sorted, 50),
    p95: nearestRankPercentile(sorted, 95),
    max: sorted[sorted.length - 1]!,
  };
}
