// Ranking churn without labels: how much of one ranking of keys another keeps, by top-k overlap and by
// rank-biased overlap (Webber, Moffat & Zobel 2010, "A similarity measure for indefinite rankings").
// Rankings are lists of keys in rank order; ties are already broken by that order, and a key repeated
// further down counts at its first rank only.

/** Persistence of rank-biased overlap: the weight of rank d + 1 relative to rank d. */
export const DEFAULT_RBO_PERSISTENCE = 0.9;
/** How deep rank-biased overlap reads each ranking (the depth the baseline keeps). */
export const DEFAULT_RBO_DEPTH = 10;
/** The k of top-k overlap. */
export const DEFAULT_OVERLAP_K = 5;

/** The first `depth` keys of `ranking`, each at its first rank (a repeat is dropped). */
function distinctTop(ranking: readonly string[], depth: number): string[] {
  const seen = new Set<string>();
  const top: string[] = [];
  for (const key of ranking) {
    if (top.length === depth) break;
    if (seen.has(key)) continue;
    seen.add(key);
    top.push(key);
  }
  return top;
}

/**
 * Whether two rankings are the same keys in the same order: then both overlaps are 1, worked out without
 * a set (the common case at the end of a run, most questions ranking as the baseline kept them), and RBO is
 * exactly 1 whatever rounding its sum would leave (0.9999999999999999 at p = 0.98).
 */
function identical(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

function checkDepth(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a whole number ≥ 1, got ${String(value)}.`);
}

/**
 * The share of the top `k` keys the two rankings hold in common: |A_k ∩ B_k| / max(|A_k|, |B_k|), where
 * A_k is the first k distinct keys of `before` (all of them when it holds fewer). 1 when both are empty.
 */
export function topKOverlap(before: readonly string[], after: readonly string[], k = DEFAULT_OVERLAP_K): number {
  checkDepth(k, 'k');
  if (identical(before, after)) return 1;
  const a = distinctTop(before, k);
  const b = distinctTop(after, k);
  const size = Math.max(a.length, b.length);
  if (size === 0) return 1;
  const inA = new Set(a);
  let shared = 0;
  for (const key of b) if (inA.has(key)) shared++;
  return shared / size;
}

/**
 * Extrapolated rank-biased overlap (RBO_EXT, eq. 32 of Webber, Moffat & Zobel 2010) of the first `depth`
 * distinct keys of two rankings, with persistence `p`. With s and l the shorter and longer list's lengths,
 * X_d the keys the two top-d prefixes share and A_d = X_d / d:
 *
 *   RBO_EXT = (1 − p)/p · [ Σ_{d=1..l} (X_d/d) p^d + Σ_{d=s+1..l} X_s (d − s)/(s d) p^d ] + [ (X_l − X_s)/l + X_s/s ] p^l
 *
 * (the short list's prefixes stop growing at s). Identical rankings give 1, rankings sharing no key 0.
 * 1 when both are empty; 0 when only one is.
 */
export function rankBiasedOverlap(
  before: readonly string[],
  after: readonly string[],
  p = DEFAULT_RBO_PERSISTENCE,
  depth = DEFAULT_RBO_DEPTH,
): number {
  if (typeof p !== 'number' || !(p > 0 && p < 1))
    throw new RangeError(`p (persistence) must be a number strictly between 0 and 1, e.g. 0.9, got ${String(p)}.`);
  checkDepth(depth, 'depth');
  if (identical(before, after)) return 1;
  const a = distinctTop(before, depth);
  const b = distinctTop(after, depth);
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const s = short.length;
  const l = long.length;
  if (l === 0) return 1;
  if (s === 0) return 0;
  const seenShort = new Set<string>();
  const seenLong = new Set<string>();
  let overlap = 0; // X_d
  let overlapAtS = 0; // X_s
  let sum = 0;
  let weight = 1; // p^d
  for (let d = 1; d <= l; d++) {
    weight *= p;
    const fromLong = long[d - 1]!;
    if (seenShort.has(fromLong)) overlap++;
    seenLong.add(fromLong);
    if (d <= s) {
      const fromShort = short[d - 1]!;
      if (seenLong.has(fromShort)) overlap++;
      seenShort.add(fromShort);
      if (d === s) overlapAtS = overlap;
    }
    sum += (overlap / d) * weight;
    if (d > s) sum += ((overlapAtS * (d - s)) / (s * d)) * weight;
  }
  const rbo = ((1 - p) / p) * sum + ((overlap - overlapAtS) / l + overlapAtS / s) * weight;
  // Rounding can leave identical lists at 0.9999999999999999.
  return Math.min(1, Math.max(0, rbo));
}
