// Same-run comparisons: each round times two things next to each other (in turn first), so a drift
// of the shared machine's speed moves both; the figure is the median of the rounds' own ratios with a
// distribution-free interval, and a target counts as met or not only when the whole interval is on
// one side of it (a point estimate alone would flip between runs on a noisy machine).

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * A distribution-free confidence interval for the median of `values`: the order statistics whose
 * ranks a Binomial(n, ½) puts outside with at most 2.5% each (for 9 values the 2nd and the 8th:
 * 96.1% coverage). With fewer than 6 values no such pair exists and the range is given, with its
 * smaller coverage.
 */
export function medianInterval(values: readonly number[]): { low: number; high: number; coverage: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const count = sorted.length;
  // Probability that fewer than `rank` of the values fall below the median, summed term by term.
  let below = 0;
  let term = 0.5 ** count;
  let rank = 0;
  while (rank + 1 <= count / 2 && below + term <= 0.025) {
    below += term;
    term = (term * (count - rank)) / (rank + 1);
    rank++;
  }
  const lowRank = Math.max(rank, 1);
  const outside = lowRank === rank ? below : 0.5 ** count;
  return {
    low: sorted[lowRank - 1] as number,
    high: sorted[count - lowRank] as number,
    coverage: 1 - 2 * outside,
  };
}

/**
 * `ratios` against a target they must stay at most (or at least) at: "met" or "NOT met" only when the
 * whole interval is on one side, else "undetermined" (measure again with more rounds).
 */
export function targetVerdict(ratios: readonly number[], target: number, bound: 'at most' | 'at least'): string {
  const { low, high } = medianInterval(ratios);
  const [good, bad] = bound === 'at most' ? [high <= target, low > target] : [low >= target, high < target];
  return good ? 'met' : bad ? 'NOT met' : 'undetermined (the interval spans the target: run more rounds)';
}

/** "1.234 [1.100, 1.300] (96.1% interval, 9 rounds; target ≤ 1.10: met)". */
export function describeRatios(ratios: readonly number[], target: number, bound: 'at most' | 'at least'): string {
  const { low, high, coverage } = medianInterval(ratios);
  const sign = bound === 'at most' ? '≤' : '≥';
  return (
    `${median(ratios).toFixed(3)} [${low.toFixed(3)}, ${high.toFixed(3)}] (${(coverage * 100).toFixed(1)}% interval, ` +
    `${ratios.length} rounds; target ${sign} ${target}: ${targetVerdict(ratios, target, bound)})`
  );
}
