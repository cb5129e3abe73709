// trec_eval's measures over a query's judged list that the library's measure table does not hold
// (Rprec_mult, utility, 11pt_avg, binG, G, dcg, ideal_dcg, ndcg_rel, Rndcg, the set_ measures, yaap,
// rbp with gain parameters — the table's rbp@p is the same without them —, rbp_resid, unj, relstring):
// each a small pure function of one JudgedList, written from the definitions in trec_eval 10's
// m_*.c, edge cases included. The engine builds the list only when a
// plan asks for one of them, so the official set pays nothing for them.

/** A retrieved document that is not in the qrels (trec_eval's RELVALUE_NONPOOL). */
export const NOT_IN_POOL = -1;
/** A retrieved document judged with a negative grade: in the pool, not judged (RELVALUE_UNJUDGED). */
export const IN_POOL_UNJUDGED = -2;

/** One query's ranking as trec_eval's measures read it (its RES_RELS). */
export interface JudgedList {
  /** Documents ranked (after -M and -J): trec_eval's num_ret. */
  retrieved: number;
  /** Per rank (0-based): the grade (≥ 0), NOT_IN_POOL or IN_POOL_UNJUDGED. */
  grades: Float64Array;
  /** Ranked documents with grade ≥ relevanceLevel. */
  relevantRetrieved: number;
  notInPool: number;
  inPoolUnjudged: number;
  /** Judged documents (grade ≥ relevanceLevel) of the query, ranked or not: trec_eval's num_rel. */
  relevantCount: number;
  /** Per grade 0…max: how many judgments have it (trec_eval's rel_levels; negative grades are not counted). */
  levelCounts: readonly number[];
  /** -l. */
  relevanceLevel: number;
  /** -N: documents in the collection (utility's fourth term). */
  documentsInCollection: number;
}

/** A level's gain (trec_eval's G, ndcg_rel, Rndcg and rbp parameters `level=gain`). */
export interface GainOverride {
  level: number;
  gain: number;
}

interface LevelGain {
  level: number;
  gain: number;
  /** Judgments at this level. */
  count: number;
}

/**
 * trec_eval's gain table (setup_gains): the levels given as parameters, then every level 0…max
 * judged with gain = level; sorted by increasing gain. trec_eval compares gains by their difference
 * truncated to an integer (C's int conversion) with a stable sort, so gains less than 1 apart keep
 * their order: the same here.
 */
export function gainTable(list: JudgedList, overrides: readonly GainOverride[]): LevelGain[] {
  const table: LevelGain[] = overrides.map(({ level, gain }) => ({ level, gain, count: 0 }));
  list.levelCounts.forEach((count, level) => {
    const given = table.find((entry) => entry.level === level);
    if (given !== undefined) given.count = count;
    else table.push({ level, gain: level, count });
  });
  return table.sort((a, b) => Math.trunc(a.gain - b.gain));
}

function gainOf(table: readonly LevelGain[], grade: number): number {
  for (const entry of table) if (entry.level === grade) return entry.gain;
  return 0;
}

/**
 * The ideal ranking's gains, rank by rank, as trec_eval walks them: highest gain level first, each
 * level for as many ranks as it has judgments, then 0 (or the gain of a level whose gain is ≤ 0,
 * where trec_eval's walk stops).
 */
class IdealWalk {
  private level: number;
  private atLevel = 0;
  gain: number;

  constructor(private readonly table: readonly LevelGain[]) {
    this.level = table.length - 1;
    this.gain = this.level >= 0 ? (table[this.level] as LevelGain).gain : 0;
  }

  /** Moves to the next rank; returns its ideal gain. */
  next(): number {
    this.atLevel++;
    while (this.level >= 0 && this.atLevel > (this.table[this.level] as LevelGain).count) {
      this.atLevel = 1;
      this.level--;
      this.gain = this.level >= 0 ? (this.table[this.level] as LevelGain).gain : 0;
    }
    return this.gain;
  }
}

function isRelevant(list: JudgedList, grade: number): boolean {
  return grade >= list.relevanceLevel;
}

/**
 * Precision at ranks that are multiples of R (Rprec_mult_0.20 …): the cutoff of multiple m is
 * ⌊m·R + 0.9⌋; past the last retrieved document the missing ranks count as non-relevant.
 */
export function precisionAtRMultiple(list: JudgedList, multiple: number): number {
  const cutoff = Math.trunc(multiple * list.relevantCount + 0.9);
  if (cutoff > list.retrieved) return list.relevantRetrieved / cutoff;
  // trec_eval walks up from the bottom and stops at the first relevant document: a cutoff above it keeps 0.
  let relevantSoFar = list.relevantRetrieved;
  for (let rank = list.retrieved; rank > 0 && relevantSoFar > 0; rank--) {
    if (rank === cutoff) return relevantSoFar / rank;
    if (isRelevant(list, list.grades[rank - 1] as number)) relevantSoFar--;
  }
  return 0;
}

/** utility = a·relevant retrieved + b·non-relevant retrieved + c·relevant missed + d·non-relevant missed (-N for d). */
export function utility(list: JudgedList, [a, b, c, d]: readonly number[]): number {
  const { relevantRetrieved, retrieved, relevantCount, documentsInCollection } = list;
  return (
    (a as number) * relevantRetrieved +
    (b as number) * (retrieved - relevantRetrieved) +
    (c as number) * (relevantCount - relevantRetrieved) +
    (d as number) * (documentsInCollection + relevantRetrieved - retrieved - relevantCount)
  );
}

/**
 * Interpolated precision at each recall level (iprec_at_recall's definition, levels in their given
 * order as trec_eval walks them): the highest precision at or below the rank where round(level·R)
 * relevant documents are reached. With nothing retrieved, trec_eval divides 0 by 0: NaN at the
 * levels it reaches.
 */
function interpolatedPrecisions(list: JudgedList, levels: readonly number[]): number[] {
  const values = levels.map(() => 0);
  const targets = levels.map((level) => Math.round(level * list.relevantCount));
  let current = levels.length - 1;
  while (current >= 0 && (targets[current] as number) > list.relevantRetrieved) current--;
  let best = list.relevantRetrieved / list.retrieved;
  let relevantSoFar = list.relevantRetrieved;
  for (let rank = list.retrieved; rank > 0 && relevantSoFar > 0; rank--) {
    const precision = relevantSoFar / rank;
    if (best < precision) best = precision;
    if (isRelevant(list, list.grades[rank - 1] as number)) {
      while (current >= 0 && relevantSoFar === targets[current]) values[current--] = best;
      relevantSoFar--;
    }
  }
  while (current >= 0) values[current--] = best;
  return values;
}

/** 11pt_avg: the mean of the interpolated precisions at its levels (default 0, 0.1, …, 1). */
export function elevenPointAverage(list: JudgedList, levels: readonly number[]): number {
  const values = interpolatedPrecisions(list, levels);
  return values.reduce((sum, value) => sum + value, 0) / levels.length;
}

/** binG: over the relevant documents retrieved, 1 / log2(2 + non-relevant above it), divided by R. */
export function binaryG(list: JudgedList): number {
  let relevantSoFar = 0;
  let sum = 0;
  for (let rank = 0; rank < list.retrieved; rank++) {
    if (!isRelevant(list, list.grades[rank] as number)) continue;
    relevantSoFar++;
    sum += 1 / Math.log2(3 + rank - relevantSoFar);
  }
  return relevantSoFar === 0 ? 0 : sum / list.relevantCount;
}

/** G: each document's gain over log2(2 + ideal cost so far − gain so far), normalised by the ideal gain. */
export function normalizedGain(list: JudgedList, overrides: readonly GainOverride[]): number {
  const table = gainTable(list, overrides);
  const ideal = new IdealWalk(table);
  const minCost = 1;
  let resultsSum = 0;
  let idealSum = 0;
  let costSum = 0;
  let g = 0;
  let rank = 0;
  for (; rank < list.retrieved && ideal.gain > 0; rank++) {
    const gain = gainOf(table, list.grades[rank] as number);
    resultsSum += gain;
    const idealGain = ideal.next();
    if (idealGain > 0) idealSum += idealGain;
    costSum += idealGain >= minCost ? idealGain : minCost;
    if (gain !== 0) g += gain / Math.log2(2 + costSum - resultsSum);
  }
  for (; rank < list.retrieved; rank++) {
    const gain = gainOf(table, list.grades[rank] as number);
    resultsSum += gain;
    costSum += minCost;
    if (gain !== 0) g += gain / Math.log2(2 + costSum - resultsSum);
  }
  while (ideal.gain > 0) {
    const idealGain = ideal.next();
    if (idealGain > 0) idealSum += idealGain;
  }
  return idealSum > 0 ? g / idealSum : 0;
}

/** DCG of the ranking and of the ideal ranking over the whole list (trec_eval's ndcg, dcg, ideal_dcg). */
export function discountedGains(
  list: JudgedList,
  overrides: readonly GainOverride[],
): { dcg: number; idealDcg: number } {
  const table = gainTable(list, overrides);
  const ideal = new IdealWalk(table);
  let dcg = 0;
  let idealDcg = 0;
  let rank = 0;
  for (; rank < list.retrieved; rank++) {
    const gain = gainOf(table, list.grades[rank] as number);
    if (gain !== 0) dcg += gain / Math.log2(rank + 2);
    if (ideal.gain > 0) {
      const idealGain = ideal.next();
      if (idealGain > 0) idealDcg += idealGain / Math.log2(rank + 2);
    }
  }
  while (ideal.gain > 0) {
    const idealGain = ideal.next();
    if (idealGain > 0) idealDcg += idealGain / Math.log2(rank + 2);
    rank++;
  }
  return { dcg, idealDcg };
}

/** yaap (Robertson): log((1 + Σ precision at each relevant rank) / (1 + R − that sum)). */
export function yetAnotherAveragePrecision(list: JudgedList): number {
  let relevantSoFar = 0;
  let sum = 0;
  for (let rank = 0; rank < list.retrieved; rank++) {
    if (!isRelevant(list, list.grades[rank] as number)) continue;
    relevantSoFar++;
    sum += relevantSoFar / (rank + 1);
  }
  return Math.log((1 + sum) / (1 + list.relevantCount - sum));
}

/** ndcg_rel: nDCG averaged at each relevant document (gain > 0); a relevant one not retrieved counts the final DCG. */
export function ndcgAtRelevant(list: JudgedList, overrides: readonly GainOverride[]): number {
  const table = gainTable(list, overrides);
  const ideal = new IdealWalk(table);
  let dcg = 0;
  let idealDcg = 0;
  let sum = 0;
  let relevantRetrieved = 0;
  let relevantIdeal = 0;
  let rank = 0;
  const addRanked = (gain: number) => {
    if (gain !== 0) dcg += gain / Math.log2(rank + 2);
  };
  for (; rank < list.retrieved && ideal.gain > 0; rank++) {
    const gain = gainOf(table, list.grades[rank] as number);
    addRanked(gain);
    const idealGain = ideal.next();
    if (idealGain > 0) {
      relevantIdeal++;
      idealDcg += idealGain / Math.log2(rank + 2);
    }
    if (gain > 0) {
      sum += dcg / idealDcg;
      relevantRetrieved++;
    }
  }
  for (; rank < list.retrieved; rank++) {
    const gain = gainOf(table, list.grades[rank] as number);
    addRanked(gain);
    if (gain > 0) {
      sum += dcg / idealDcg;
      relevantRetrieved++;
    }
  }
  while (ideal.gain > 0) {
    const idealGain = ideal.next();
    if (idealGain > 0) {
      relevantIdeal++;
      idealDcg += idealGain / Math.log2(rank + 2);
    }
    rank++;
  }
  sum += ((relevantIdeal - relevantRetrieved) * dcg) / idealDcg;
  return sum > 0 ? sum / relevantIdeal : 0;
}

/** Rndcg: nDCG averaged at the ranks where the ideal ranking's gain changes (and at the end of the run). */
export function ndcgAtRLevels(list: JudgedList, overrides: readonly GainOverride[]): number {
  const table = gainTable(list, overrides);
  if (list.relevantCount === 0) return 0;
  const ideal = new IdealWalk(table);
  let previousIdealGain = ideal.gain;
  let dcg = 0;
  let idealDcg = 0;
  let sum = 0;
  let points = 0;
  const notePoint = () => {
    if (idealDcg > 0) {
      sum += dcg / idealDcg;
      points++;
    }
  };
  let rank = 0;
  for (; rank < list.retrieved && ideal.gain > 0; rank++) {
    const gain = gainOf(table, list.grades[rank] as number);
    const idealGain = ideal.next();
    if (previousIdealGain !== idealGain) {
      notePoint();
      previousIdealGain = idealGain;
    }
    if (gain !== 0) dcg += gain / Math.log2(rank + 2);
    if (idealGain > 0) idealDcg += idealGain / Math.log2(rank + 2);
  }
  if (rank < list.retrieved) {
    for (; rank < list.retrieved; rank++) {
      const gain = gainOf(table, list.grades[rank] as number);
      if (gain !== 0) dcg += gain / Math.log2(rank + 2);
    }
    notePoint();
  }
  while (ideal.gain > 0) {
    const idealGain = ideal.next();
    if (previousIdealGain !== idealGain) {
      notePoint();
      previousIdealGain = idealGain;
    }
    if (idealGain > 0) idealDcg += idealGain / Math.log2(rank + 2);
    rank++;
  }
  return sum / points;
}

/** set_P: relevant retrieved ÷ retrieved. */
export function setPrecision(list: JudgedList): number {
  return list.retrieved === 0 ? 0 : list.relevantRetrieved / list.retrieved;
}

/** set_recall: relevant retrieved ÷ R. */
export function setRecall(list: JudgedList): number {
  return list.relevantCount === 0 ? 0 : list.relevantRetrieved / list.relevantCount;
}

/** set_relative_P: relevant retrieved ÷ min(retrieved, R). */
export function setRelativePrecision(list: JudgedList): number {
  return list.retrieved === 0 || list.relevantCount === 0
    ? 0
    : list.relevantRetrieved / Math.min(list.retrieved, list.relevantCount);
}

/** set_map: set precision × set recall. */
export function setAveragePrecision(list: JudgedList): number {
  return list.retrieved === 0 || list.relevantCount === 0
    ? 0
    : (list.relevantRetrieved * list.relevantRetrieved) / (list.retrieved * list.relevantCount);
}

/** set_F: (β + 1)·P·R / (β·P + R) over the retrieved set (trec_eval names β the relative weight of recall). */
export function setF(list: JudgedList, beta: number): number {
  if (list.relevantRetrieved === 0) return 0;
  const precision = list.relevantRetrieved / list.retrieved;
  const recall = list.relevantRetrieved / list.relevantCount;
  return ((beta + 1) * precision * recall) / (beta * precision + recall);
}

/** trec_eval's rbp persistence when none is given. */
export const DEFAULT_PERSISTENCE = 0.9;

/**
 * Rank-biased precision (Moffat & Zobel): (1 − p) Σ gain(rank i) · p^(i−1). Gains are the grades (or
 * the `level=gain` overrides), rescaled to [0, 1] by (gain − min) / (max − min) when one lies outside it.
 */
export function rankBiasedPrecision(list: JudgedList, persistence: number, overrides: readonly GainOverride[]): number {
  const table = gainTable(list, overrides);
  let min = Infinity;
  let max = -Infinity;
  for (const { gain } of table) {
    if (gain < min) min = gain;
    if (gain > max) max = gain;
  }
  if (min < 0 || max > 1) for (const entry of table) entry.gain = (entry.gain - min) / (max - min);
  let sum = 0;
  let weight = 1;
  for (let rank = 0; rank < list.retrieved; rank++) {
    const gain = gainOf(table, list.grades[rank] as number);
    if (gain !== 0) sum += gain * weight;
    weight *= persistence;
  }
  return (1 - persistence) * sum;
}

/**
 * rbp_resid as trec_eval computes it: with any unjudged document ranked (not in the pool or judged
 * negative), p^n + (1 − p) Σ over the unjudged ranks of p^(i−1); 0 when every ranked document is judged.
 */
export function rankBiasedResidual(list: JudgedList, persistence: number): number {
  let unjudged = 0;
  let sum = 0;
  let weight = 1;
  for (let rank = 0; rank < list.retrieved; rank++) {
    if ((list.grades[rank] as number) < 0) {
      unjudged++;
      sum += weight;
    }
    weight *= persistence;
  }
  return unjudged === 0 ? 0 : weight + (1 - persistence) * sum;
}

/** unj_k: unjudged documents (not in the pool, or judged negative) in the top k, over k. */
export function unjudgedAt(list: JudgedList, cutoff: number): number {
  let unjudged = 0;
  const end = Math.min(cutoff, list.retrieved);
  for (let rank = 0; rank < end; rank++) if ((list.grades[rank] as number) < 0) unjudged++;
  return unjudged / cutoff;
}

/**
 * relstring: one character per top document: its grade 0–9, '>' above 9, '-' not in the pool, '.'
 * in the pool but unjudged.
 */
export function relevanceString(list: JudgedList, length: number): string {
  let text = '';
  const end = Math.max(0, Math.min(Math.trunc(length), list.retrieved));
  for (let rank = 0; rank < end; rank++) {
    const grade = list.grades[rank] as number;
    text +=
      grade > 9
        ? '>'
        : grade >= 0
          ? String(grade)
          : grade === NOT_IN_POOL
            ? '-'
            : grade === IN_POOL_UNJUDGED
              ? '.'
              : '<';
  }
  return text;
}

/** The trec_eval measures computed here, by trec_eval name. */
export type ListMeasureName =
  | 'Rprec_mult'
  | 'utility'
  | '11pt_avg'
  | 'binG'
  | 'G'
  | 'dcg'
  | 'ideal_dcg'
  | 'ndcg'
  | 'ndcg_rel'
  | 'Rndcg'
  | 'set_P'
  | 'set_relative_P'
  | 'set_recall'
  | 'set_map'
  | 'set_F'
  | 'yaap'
  | 'rbp'
  | 'rbp_resid'
  | 'unj';

/** One printed value of a list measure: which, with its parameters (plain data: it crosses to worker threads). */
export interface ListMeasureRow {
  measure: ListMeasureName;
  /** The cutoff (unj), multiple of R (Rprec_mult), coefficients (utility), levels (11pt_avg) or β (set_F). */
  numbers: readonly number[];
  /** `level=gain` overrides (G, ndcg_rel, Rndcg, rbp). */
  gains: readonly GainOverride[];
  /** rbp and rbp_resid's p. */
  persistence: number;
}

/** The value of one list-measure row for one query. */
export function listMeasureValue(list: JudgedList, row: ListMeasureRow): number {
  const first = row.numbers[0] as number;
  switch (row.measure) {
    case 'Rprec_mult':
      return precisionAtRMultiple(list, first);
    case 'utility':
      return utility(list, row.numbers);
    case '11pt_avg':
      return elevenPointAverage(list, row.numbers);
    case 'binG':
      return binaryG(list);
    case 'G':
      return normalizedGain(list, row.gains);
    case 'dcg':
      return discountedGains(list, row.gains).dcg;
    case 'ideal_dcg':
      return discountedGains(list, row.gains).idealDcg;
    case 'ndcg': {
      const { dcg, idealDcg } = discountedGains(list, row.gains);
      return idealDcg > 0 ? dcg / idealDcg : 0;
    }
    case 'ndcg_rel':
      return ndcgAtRelevant(list, row.gains);
    case 'Rndcg':
      return ndcgAtRLevels(list, row.gains);
    case 'set_P':
      return setPrecision(list);
    case 'set_relative_P':
      return setRelativePrecision(list);
    case 'set_recall':
      return setRecall(list);
    case 'set_map':
      return setAveragePrecision(list);
    case 'set_F':
      return setF(list, first);
    case 'yaap':
      return yetAnotherAveragePrecision(list);
    case 'rbp':
      return rankBiasedPrecision(list, row.persistence, row.gains);
    case 'rbp_resid':
      return rankBiasedResidual(list, row.persistence);
    case 'unj':
      return unjudgedAt(list, first);
  }
}

/**
 * Whether trec_eval resets a row to 0 (relstring: to '') for a qrels query missing from the run
 * (-c): it measures such a query as a ranking of one document outside the pool, then zeroes these
 * leftovers by their printed name — unj by prefix, utility, rbp_resid and relstring only when they
 * print under their bare name (with parameters, `utility_2,-1,0,0`, the leftover stays).
 */
export function zeroedWhenMissing(label: string): boolean {
  return label.startsWith('unj') || label === 'utility' || label === 'rbp_resid' || label === 'relstring';
}
