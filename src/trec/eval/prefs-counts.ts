// One query's preferences against one ranking, counted as trec_eval 10 counts them (its
// form_prefs_counts): every judged document gets an index — the ranked ones 0, 1, … in rank order,
// then the unranked ones in byte order of docno — and each judgment group's preferences "A before B"
// are counted by where A and B are: both ranked (fulfilled when A is above B), one ranked ("implied":
// fulfilled when it is A), neither ("not occurring": never fulfilled).
//
// A group with one sub-group is a list of equivalence classes (documents of one level), every class
// preferred to each lower one. A group with several sub-groups is a preference matrix: each
// sub-group's pairs plus whatever follows from them transitively.
import { compareUtf8 } from '../../core/ranking.js';
import { TrecEvalStop } from '../errors.js';
import type { PreferenceJudgment } from './prefs-read.js';

/** trec_eval's exit status when a measure cannot be calculated ("Can't calculate measure"). */
const EXIT_CANNOT_CALCULATE = 4;

/** A judgment group's counts (trec_eval's JG). "possible" counts include the fulfilled ones. */
export interface GroupCounts {
  fulfilledRanked: number;
  possibleRanked: number;
  fulfilledImplied: number;
  possibleImplied: number;
  possibleNotOccurring: number;
  relevant: number;
  relevantRanked: number;
  nonRelevant: number;
  nonRelevantRanked: number;
  /** Equivalence classes, best level first, each its document indices ascending; undefined for a matrix group. */
  classes: { level: number; indices: number[] }[] | undefined;
  /** For a matrix group: prefers[i * judged + j] = 1 when i is preferred to j. */
  prefers: Uint8Array | undefined;
  /** For a matrix group: each index's level in this group, -1 where the group does not judge it. */
  levels: Float64Array | undefined;
}

export interface QueryPreferences {
  /** Distinct judged documents. */
  judged: number;
  /** Those of them in the ranking (indices 0 … judgedRanked − 1). */
  judgedRanked: number;
  groups: GroupCounts[];
  /** pairCounts[i * judged + j]: how many groups prefer i to j (16 bits, as trec_eval's). */
  pairCounts: Uint16Array;
}

interface IndexedJudgment extends PreferenceJudgment {
  index: number;
}

function cannotCalculate(queryId: string, problem: string): TrecEvalStop {
  return new TrecEvalStop(
    `query '${queryId}': ${problem} (trec_eval stops too: "Can't calculate measure")`,
    EXIT_CANNOT_CALCULATE,
  );
}

/** Counts one query's preferences against `ranked` (its docnos, best first, already cut by -M). */
export function countPreferences(
  queryId: string,
  judgments: readonly PreferenceJudgment[],
  ranked: readonly string[],
): QueryPreferences {
  const judgedIds = new Set(judgments.map((judgment) => judgment.docId));
  const indexOf = new Map<string, number>();
  for (const docId of ranked) if (judgedIds.has(docId)) indexOf.set(docId, indexOf.size);
  const judgedRanked = indexOf.size;
  for (const docId of [...judgedIds].sort(compareUtf8)) if (!indexOf.has(docId)) indexOf.set(docId, indexOf.size);
  const judged = indexOf.size;

  const sorted: IndexedJudgment[] = judgments
    .map((judgment) => ({ ...judgment, index: indexOf.get(judgment.docId) as number }))
    .sort(
      (a, b) =>
        compareUtf8(a.group, b.group) || compareUtf8(a.subGroup, b.subGroup) || b.level - a.level || a.index - b.index,
    );
  const pairCounts = new Uint16Array(judged * judged);
  const groups: GroupCounts[] = [];
  for (let start = 0; start < sorted.length;) {
    let end = start + 1;
    while (end < sorted.length && sorted[end]?.group === sorted[start]?.group) end++;
    const members = sorted.slice(start, end);
    const subGroups = new Set(members.map((member) => member.subGroup)).size;
    groups.push(
      subGroups > 1
        ? matrixGroup(queryId, members, judged, judgedRanked, pairCounts)
        : classGroup(queryId, members, judged, judgedRanked, pairCounts),
    );
    start = end;
  }
  return { judged, judgedRanked, groups, pairCounts };
}

function emptyCounts(): GroupCounts {
  return {
    fulfilledRanked: 0,
    possibleRanked: 0,
    fulfilledImplied: 0,
    possibleImplied: 0,
    possibleNotOccurring: 0,
    relevant: 0,
    relevantRanked: 0,
    nonRelevant: 0,
    nonRelevantRanked: 0,
    classes: undefined,
    prefers: undefined,
    levels: undefined,
  };
}

/** A group of one sub-group: equivalence classes, each preferred to every lower one. */
function classGroup(
  queryId: string,
  members: readonly IndexedJudgment[],
  judged: number,
  judgedRanked: number,
  pairCounts: Uint16Array,
): GroupCounts {
  const counts = emptyCounts();
  const classes: { level: number; indices: number[] }[] = [];
  for (const member of members) {
    const last = classes.at(-1);
    if (last !== undefined && last.level === member.level) last.indices.push(member.index);
    else classes.push({ level: member.level, indices: [member.index] });
  }
  counts.classes = classes;
  classes.forEach((higher, position) => {
    const ranked = higher.indices.filter((index) => index < judgedRanked).length;
    // trec_eval counts a level of 0 or below as not relevant here (a matrix group: exactly 0).
    if (higher.level > 0) {
      counts.relevantRanked += ranked;
      counts.relevant += higher.indices.length;
    } else {
      counts.nonRelevantRanked += ranked;
      counts.nonRelevant += higher.indices.length;
    }
    for (const lower of classes.slice(position + 1)) {
      for (const preferred of higher.indices) {
        for (const other of lower.indices) {
          pairCounts[preferred * judged + other]! += 1;
          if (preferred === other)
            throw cannotCalculate(queryId, `a document has two levels in one judgment sub-group`);
          countPair(counts, preferred, other, judgedRanked);
        }
      }
    }
  });
  counts.possibleRanked += counts.fulfilledRanked;
  counts.possibleImplied += counts.fulfilledImplied;
  return counts;
}

/** Adds the preference "preferred before other" to the group's counts by where the two are ranked. */
function countPair(counts: GroupCounts, preferred: number, other: number, judgedRanked: number): void {
  if (preferred < other) {
    if (other < judgedRanked) counts.fulfilledRanked++;
    else if (preferred < judgedRanked) counts.fulfilledImplied++;
    else counts.possibleNotOccurring++;
  } else if (preferred < judgedRanked) counts.possibleRanked++;
  else if (other < judgedRanked) counts.possibleImplied++;
  else counts.possibleNotOccurring++;
}

/** A group of several sub-groups: a preference matrix closed under transitivity. */
function matrixGroup(
  queryId: string,
  members: readonly IndexedJudgment[],
  judged: number,
  judgedRanked: number,
  pairCounts: Uint16Array,
): GroupCounts {
  const counts = emptyCounts();
  const prefers = new Uint8Array(judged * judged);
  const levels = new Float64Array(judged).fill(-1);
  members.forEach((member, position) => {
    const known = levels[member.index] as number;
    if ((known > 0 && member.level === 0) || (known === 0 && member.level > 0))
      throw cannotCalculate(queryId, `document '${member.docId}' has both level 0 and a level above 0 in one group`);
    levels[member.index] = member.level;
    // Members are sorted by sub-group, then level downwards: the lower ones of this sub-group follow.
    for (let next = position + 1; next < members.length; next++) {
      const other = members[next] as IndexedJudgment;
      if (other.subGroup !== member.subGroup) break;
      if (other.level !== member.level) prefers[member.index * judged + other.index] = 1;
    }
  });
  closeTransitively(queryId, prefers, judged);
  counts.prefers = prefers;
  counts.levels = levels;

  for (let index = 0; index < judged; index++) {
    const level = levels[index] as number;
    const ranked = index < judgedRanked ? 1 : 0;
    if (level > 0) {
      counts.relevant++;
      counts.relevantRanked += ranked;
    } else if (level === 0) {
      counts.nonRelevant++;
      counts.nonRelevantRanked += ranked;
    }
  }
  for (let preferred = 0; preferred < judged; preferred++) {
    for (let other = 0; other < judged; other++) {
      if (prefers[preferred * judged + other] === 0) continue;
      pairCounts[preferred * judged + other]! += 1;
      countPair(counts, preferred, other, judgedRanked);
    }
  }
  counts.possibleRanked += counts.fulfilledRanked;
  counts.possibleImplied += counts.fulfilledImplied;
  return counts;
}

/** Warshall's transitive closure, in place; a cycle (A before B and B before A) is an error, as in trec_eval. */
function closeTransitively(queryId: string, prefers: Uint8Array, judged: number): void {
  for (let via = 0; via < judged; via++) {
    for (let from = 0; from < judged; from++) {
      if (from === via || prefers[from * judged + via] === 0) continue;
      for (let to = 0; to < judged; to++) if (prefers[via * judged + to] === 1) prefers[from * judged + to] = 1;
    }
  }
  for (let index = 0; index < judged; index++) prefers[index * judged + index] = 0;
  for (let from = 0; from < judged; from++) {
    for (let to = from + 1; to < judged; to++) {
      if (prefers[from * judged + to] === 1 && prefers[to * judged + from] === 1)
        throw cannotCalculate(queryId, `its judgment group's preferences contradict each other (a cycle)`);
    }
  }
}
