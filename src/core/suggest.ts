// "Did you mean …?" for a mistyped name: the closest of the names a caller accepts, when it is close
// enough to be the likely intent (a letter missing, added, changed or two letters swapped per three).

/** The candidate closest to `input` (letter case ignored), or undefined when none is close enough. */
export function closestName(input: string, candidates: Iterable<string>): string | undefined {
  const typed = input.trim().toLowerCase();
  if (typed === '') return undefined;
  const allowed = typed.length <= 4 ? 1 : typed.length <= 9 ? 2 : 3;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (
      distance <= allowed &&
      distance * 3 <= Math.max(3, candidate.length) &&
      (best === undefined || distance < best.distance)
    )
      best = { name: candidate, distance };
  }
  return best?.name;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Math.abs(a.length - b.length);
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = distance;
    }
  }
  return rows[a.length]![b.length]!;
}
