/** The arithmetic mean, summed left to right; NaN for no values. */
export function mean(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i]!;
  return total / values.length;
}
