// trec_eval 10's preference measures (`-R prefs`, `-R qrels_prefs`): their names, sets, print order
// and values from one query's counts (prefs-counts.ts). "ranked" preferences have both documents in
// the ranking; "implied" ones one of them; a measure without a suffix also counts the preferences
// whose documents are both missing, as failures; `_ret` counts only ranked ones, `_imp` ranked and
// implied ones.
import type { GroupCounts, QueryPreferences } from './prefs-counts.js';

/** trec_eval's preference measures in its print order (measures.c). */
export const PREFERENCE_MEASURES = [
  'prefs_num_prefs_poss',
  'prefs_num_prefs_ful',
  'prefs_num_prefs_ful_ret',
  'prefs_simp',
  'prefs_pair',
  'prefs_avgjg',
  'prefs_avgjg_Rnonrel',
  'prefs_simp_ret',
  'prefs_pair_ret',
  'prefs_avgjg_ret',
  'prefs_avgjg_Rnonrel_ret',
  'prefs_simp_imp',
  'prefs_pair_imp',
  'prefs_avgjg_imp',
] as const;

export type PreferenceMeasure = (typeof PREFERENCE_MEASURES)[number];

/** The counts: printed as whole numbers and summed (not averaged) in the summary. */
export const PREFERENCE_COUNTS: ReadonlySet<string> = new Set([
  'prefs_num_prefs_poss',
  'prefs_num_prefs_ful',
  'prefs_num_prefs_ful_ret',
]);

/** Which preferences a ratio counts. */
type Scope = 'all' | 'ranked' | 'ranked-or-implied';

function fulfilledIn(group: GroupCounts, scope: Scope): number {
  return group.fulfilledRanked + (scope === 'ranked' ? 0 : group.fulfilledImplied);
}

function possibleIn(group: GroupCounts, scope: Scope): number {
  if (scope === 'ranked') return group.possibleRanked;
  const rankedOrImplied = group.possibleRanked + group.possibleImplied;
  return scope === 'all' ? rankedOrImplied + group.possibleNotOccurring : rankedOrImplied;
}

function sumOver(query: QueryPreferences, count: (group: GroupCounts) => number): number {
  return query.groups.reduce((sum, group) => sum + count(group), 0);
}

/** Preferences fulfilled ÷ possible, all groups' preferences pooled (0 when none is possible). */
function simpleRatio(query: QueryPreferences, scope: Scope): number {
  const possible = sumOver(query, (group) => possibleIn(group, scope));
  return possible === 0 ? 0 : sumOver(query, (group) => fulfilledIn(group, scope)) / possible;
}

/** Each group's fulfilled ÷ possible, averaged over the groups (a group with none possible adds 0). */
function groupAverage(query: QueryPreferences, scope: Scope): number {
  const sum = sumOver(query, (group) => {
    const possible = possibleIn(group, scope);
    return possible === 0 ? 0 : fulfilledIn(group, scope) / possible;
  });
  return sum > 0 ? sum / query.groups.length : 0;
}

/**
 * Each pair of documents some group orders: the share of the groups' preferences on it the ranking
 * fulfils, averaged over the pairs. `ranked`: pairs of ranked documents only; `ranked-or-implied`:
 * also pairs of one ranked document; `all`: also pairs of two unranked ones, each scoring 0.
 */
function pairAverage({ judged, judgedRanked, pairCounts }: QueryPreferences, scope: Scope): number {
  let sum = 0;
  let pairs = 0;
  const firstLimit = scope === 'ranked' ? judgedRanked : judged;
  for (let first = 0; first < judged; first++) {
    const ranked = first < judgedRanked;
    const secondLimit = ranked ? firstLimit : scope === 'all' ? judged : 0;
    for (let second = first + 1; second < secondLimit; second++) {
      const forward = pairCounts[first * judged + second] as number;
      const backward = pairCounts[second * judged + first] as number;
      if (forward === 0 && backward === 0) continue;
      pairs++;
      if (ranked) sum += forward / (forward + backward);
    }
  }
  return pairs === 0 ? 0 : sum / pairs;
}

/**
 * prefs_avgjg_Rnonrel(_ret): each group's ratio as if it judged exactly as many non-relevant
 * documents as relevant ones (R): with fewer (N < R), the missing R − N count as fulfilled below every
 * ranked relevant document; with more, only the first R non-relevant ones count (recounted).
 */
function groupAverageRNonRelevant(query: QueryPreferences, rankedOnly: boolean): number {
  let sum = 0;
  for (const group of query.groups) {
    const relevant = rankedOnly ? group.relevantRanked : group.relevant;
    const nonRelevant = rankedOnly ? group.nonRelevantRanked : group.nonRelevant;
    let fulfilled: number;
    let possible: number;
    if (relevant >= nonRelevant) {
      const scope: Scope = rankedOnly ? 'ranked' : 'all';
      fulfilled = fulfilledIn(group, scope) + group.relevantRanked * (relevant - nonRelevant);
      possible = possibleIn(group, scope) + group.relevant * (relevant - nonRelevant);
    } else {
      [fulfilled, possible] = recountWithRNonRelevant(group, query, rankedOnly);
    }
    // 0 ÷ 0 is NaN here as in trec_eval, and then the whole query's value stays 0.
    sum += fulfilled / possible;
  }
  return sum > 0 ? sum / query.groups.length : 0;
}

/** [fulfilled, possible] of a group keeping only its first R non-relevant documents (trec_eval's recalculate). */
function recountWithRNonRelevant(
  group: GroupCounts,
  { judged, judgedRanked }: QueryPreferences,
  rankedOnly: boolean,
): [number, number] {
  const classes = group.classes;
  if (classes !== undefined) {
    // The last class stands for the non-relevant one; it keeps its first R documents. As in trec_eval,
    // every class (that one too) is compared with them, and the classes between each other except the last.
    const keep = rankedOnly ? group.relevantRanked : group.relevant;
    const within = (indices: readonly number[]): readonly number[] =>
      rankedOnly ? indices.filter((index) => index < judgedRanked) : indices;
    const kept = within((classes.at(-1)?.indices ?? []).slice(0, keep));
    let fulfilled = 0;
    let failed = 0;
    const compare = (preferred: number, other: number): void => {
      if (preferred < other && (rankedOnly || preferred < judgedRanked)) fulfilled++;
      else failed++;
    };
    classes.forEach((higher, position) => {
      for (const lower of classes.slice(position + 1, -1))
        for (const preferred of within(higher.indices))
          for (const other of within(lower.indices)) compare(preferred, other);
    });
    for (const higher of classes)
      for (const preferred of within(higher.indices)) for (const other of kept) compare(preferred, other);
    return [fulfilled, fulfilled + failed];
  }
  const prefers = group.prefers as Uint8Array;
  const levels = group.levels as Float64Array;
  const scanned = rankedOnly ? judgedRanked : judged;
  let firstDiscarded = 0;
  let nonRelevantSeen = 0;
  for (; firstDiscarded < scanned; firstDiscarded++) {
    if (levels[firstDiscarded] === 0 && ++nonRelevantSeen === group.relevant + 1) break;
  }
  const discarded = (index: number): boolean => index >= firstDiscarded && levels[index] === 0;
  const limit = rankedOnly ? judgedRanked : judged;
  let fulfilled = 0;
  let failed = 0;
  for (let preferred = 0; preferred < limit; preferred++) {
    if (discarded(preferred)) continue;
    for (let other = 0; other < limit; other++) {
      if (other === preferred || discarded(other) || prefers[preferred * judged + other] === 0) continue;
      // Fulfilled: above the other, or ranked over an unranked one (the rest of trec_eval's areas fail).
      if (preferred < judgedRanked && preferred < other) fulfilled++;
      else failed++;
    }
  }
  return [fulfilled, fulfilled + failed];
}

/** One preference measure's value for one query. */
export function preferenceValue(measure: PreferenceMeasure, query: QueryPreferences): number {
  switch (measure) {
    case 'prefs_num_prefs_poss':
      return sumOver(query, (group) => possibleIn(group, 'all'));
    case 'prefs_num_prefs_ful':
      return sumOver(query, (group) => fulfilledIn(group, 'all'));
    case 'prefs_num_prefs_ful_ret':
      return sumOver(query, (group) => fulfilledIn(group, 'ranked'));
    case 'prefs_simp':
      return simpleRatio(query, 'all');
    case 'prefs_simp_ret':
      return simpleRatio(query, 'ranked');
    case 'prefs_simp_imp':
      return simpleRatio(query, 'ranked-or-implied');
    case 'prefs_pair':
      return pairAverage(query, 'all');
    case 'prefs_pair_ret':
      return pairAverage(query, 'ranked');
    case 'prefs_pair_imp':
      return pairAverage(query, 'ranked-or-implied');
    case 'prefs_avgjg':
      return groupAverage(query, 'all');
    case 'prefs_avgjg_ret':
      return groupAverage(query, 'ranked');
    case 'prefs_avgjg_imp':
      return groupAverage(query, 'ranked-or-implied');
    case 'prefs_avgjg_Rnonrel':
      return groupAverageRNonRelevant(query, false);
    case 'prefs_avgjg_Rnonrel_ret':
      return groupAverageRNonRelevant(query, true);
  }
}
