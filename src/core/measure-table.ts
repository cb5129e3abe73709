// The measure table: every measure of the library defined once — its canonical name, the spellings
// it is known by (ours, ir_measures', trec_eval's), its trec_eval output name, its cutoff rule and its
// formula. parseMeasure, evaluate, evaluateMeasures (and so evaluateRun and the matchers) and the CLI's
// trec-eval all read it; the kernel (measure-ranking.ts) computes the running counts the formulas read.

/** The running counts of one ranking at one cutoff: what every formula reads. */
export interface RankingState {
  /** The cutoff (the number of ranked hits for an uncut measure). */
  k: number;
  /** min(k, retrievedCount). */
  evaluatedAtK: number;
  retrievedCount: number;
  /** Judged ids with grade ≥ minGrade (trec_eval's num_rel, R). */
  relevantCount: number;
  /** Judged ids with 0 ≤ grade < minGrade (trec_eval's judged non-relevant; negative grades are not counted). */
  judgedNonRelevantCount: number;
  /** Relevant ids (first sightings) in the top k. */
  truePositiveCount: number;
  /** Judged ids (first sightings, any grade: 0 and negative included) in the top k. */
  judgedInTopK: number;
  /** Rank (1-based) of the first relevant hit in the top k, 0 when none. */
  firstRelevantRank: number;
  /** Σ precision at the rank of each relevant hit in the top k. */
  precisionSum: number;
  /** Relevant hits among the first min(k, R) ranks. */
  relevantInTopR: number;
  /** Σ over the relevant hits in the top k of bpref's preference fraction. */
  bprefSum: number;
  dcg: number;
  /** The ideal DCG this cutoff divides by. */
  idealDcg: number;
  /** Precision divides by the hits evaluated instead of k. */
  precisionOverRetrieved: boolean;
  /**
   * The judged hits found, first sightings in rank order: their 0-based ranks and grades, [0, foundCount).
   * For the formulas that walk the ranking (infap, rbp); the running counts above serve the others.
   */
  foundRanks: Int32Array;
  foundGrades: Float64Array;
  foundCount: number;
  /** The grade at or above which a judged id is relevant (minGrade). */
  minGrade: number;
  /** The query's highest judged grade (0 when none is positive). */
  highestGrade: number;
}

/** How a measure takes a cutoff. */
export type CutoffRule =
  /** `precision@5`: only at a cutoff. */
  | 'required'
  /** `ndcg` or `ndcg@10`. */
  | 'optional'
  /** Never: `rprec` (its cutoff is R), `bpref` (trec_eval's has none). */
  | 'none'
  /** Over the whole list, with a parameter after the `@` instead of a cutoff: `rbp@0.8` (its persistence). */
  | 'parameter';

export interface MeasureDefinition {
  /** Lower-cased spellings (ours, ir_measures, trec_eval) that name this measure. */
  aliases: readonly string[];
  /** trec_eval spellings that take a cutoff only in their `_cut` form (`ndcg_cut_10`). */
  cutOnlyAliases?: readonly string[];
  cutoff: CutoffRule;
  /** With cutoff 'none': why, as parseMeasure's error for `name@k` says it. */
  noCutoffReason?: string;
  /** How ir_measures and trec_eval write it, as the list of valid forms in messages shows it. */
  irMeasuresForms?: readonly string[];
  trecEvalForms?: readonly string[];
  /** trec_eval's output name of the uncut measure, and of the cut one (`ndcg`, `ndcg_cut`). */
  trecName?: string;
  trecCutName?: string;
  /** Per-query values are 0 or 1: their mean is a proportion (Wilson intervals apply). */
  binary: boolean;
  /** With cutoff 'parameter': what the parameter is, its open range and its value when left out. */
  parameter?: { name: string; min: number; max: number; default: number };
  /** The value from the running counts at the measure's cutoff (and its parameter, for cutoff 'parameter'). */
  formula: (state: RankingState, parameter?: number) => number;
}

function precision(state: RankingState): number {
  const base = state.precisionOverRetrieved ? state.evaluatedAtK : state.k;
  return base === 0 ? 0 : state.truePositiveCount / base;
}

function recall(state: RankingState): number {
  return state.relevantCount === 0 ? 0 : state.truePositiveCount / state.relevantCount;
}

/** trec_eval's INFAP_EPSILON: keeps infAP's estimate of precision finite when nothing above was judged. */
const INFAP_EPSILON = 0.00001;

/**
 * Inferred AP (Yilmaz & Aslam; trec_eval's infAP): at each relevant hit in the top k, precision
 * estimated from the judged hits above it, hits without a judgment counting 0 and hits judged with a
 * negative grade ("in the pool, not judged") counting in the proportion of the judged ones; ÷ R.
 */
function inferredAveragePrecision(state: RankingState): number {
  const { foundRanks, foundGrades, foundCount, minGrade, evaluatedAtK } = state;
  let relevantSoFar = 0;
  let nonRelevantSoFar = 0;
  let unjudgedSoFar = 0;
  let sum = 0;
  for (let found = 0; found < foundCount; found++) {
    const rank = foundRanks[found] as number;
    if (rank >= evaluatedAtK) break;
    const grade = foundGrades[found] as number;
    if (grade < 0) unjudgedSoFar++;
    else if (grade < minGrade) nonRelevantSoFar++;
    else {
      relevantSoFar++;
      if (rank === 0) {
        sum += 1;
        continue;
      }
      const judgedAbove = relevantSoFar - 1 + nonRelevantSoFar;
      sum +=
        1 / (rank + 1) +
        (rank / (rank + 1)) *
          ((judgedAbove + unjudgedSoFar) / rank) *
          ((relevantSoFar - 1 + INFAP_EPSILON) / (judgedAbove + 2 * INFAP_EPSILON));
    }
  }
  return state.relevantCount === 0 ? sum : sum / state.relevantCount;
}

/** trec_eval's rbp persistence when none is given. */
const DEFAULT_PERSISTENCE = 0.9;

/**
 * Rank-biased precision (Moffat & Zobel; trec_eval's rbp): (1 − p) Σ gain · p^(rank − 1) over the
 * ranking. A hit's gain is its grade (0 when negative), divided by the query's highest grade when that
 * is above 1, as trec_eval rescales gains to [0, 1]; with binary judgments, 1 per relevant hit.
 */
function rankBiasedPrecision(state: RankingState, persistence = DEFAULT_PERSISTENCE): number {
  const { foundRanks, foundGrades, foundCount, evaluatedAtK, highestGrade } = state;
  const scale = highestGrade > 1 ? highestGrade : 1;
  let sum = 0;
  // p^rank by repeated multiplication, as trec_eval keeps it (Math.pow may differ in the last bit).
  let weight = 1;
  let weightRank = 0;
  for (let found = 0; found < foundCount; found++) {
    const rank = foundRanks[found] as number;
    if (rank >= evaluatedAtK) break;
    const grade = foundGrades[found] as number;
    if (grade <= 0) continue;
    for (; weightRank < rank; weightRank++) weight *= persistence;
    sum += (grade / scale) * weight;
  }
  return (1 - persistence) * sum;
}

/** Every measure, by canonical name. Adding a name to MeasureName without a definition here does not compile. */
export const MEASURE_TABLE = {
  hit: {
    aliases: ['hit', 'success', 'hitrate', 'hit_rate'],
    cutoff: 'required',
    irMeasuresForms: ['Success@5'],
    trecEvalForms: ['success_5'],
    trecCutName: 'success',
    binary: true,
    formula: (state) => (state.truePositiveCount > 0 ? 1 : 0),
  },
  precision: {
    aliases: ['precision', 'p'],
    cutoff: 'required',
    irMeasuresForms: ['P@5'],
    trecEvalForms: ['P_5', 'P.5'],
    trecCutName: 'P',
    binary: false,
    formula: precision,
  },
  recall: {
    aliases: ['recall', 'r'],
    cutoff: 'required',
    irMeasuresForms: ['R@10'],
    trecEvalForms: ['recall_10'],
    trecCutName: 'recall',
    binary: false,
    formula: recall,
  },
  f1: {
    aliases: ['f1'],
    cutoff: 'required',
    binary: false,
    formula: (state) => {
      const p = precision(state);
      const r = recall(state);
      return p + r === 0 ? 0 : (2 * p * r) / (p + r);
    },
  },
  mrr: {
    aliases: ['mrr', 'rr', 'recip_rank'],
    cutoff: 'optional',
    irMeasuresForms: ['RR', 'RR@10'],
    trecEvalForms: ['recip_rank'],
    trecName: 'recip_rank',
    binary: false,
    formula: (state) => (state.firstRelevantRank === 0 ? 0 : 1 / state.firstRelevantRank),
  },
  ndcg: {
    aliases: ['ndcg', 'ndcg_cut'],
    cutOnlyAliases: ['ndcg_cut'],
    cutoff: 'optional',
    irMeasuresForms: ['nDCG@10'],
    trecEvalForms: ['ndcg_cut_10', 'ndcg_cut.10'],
    trecName: 'ndcg',
    trecCutName: 'ndcg_cut',
    binary: false,
    formula: (state) => (state.idealDcg === 0 ? 0 : state.dcg / state.idealDcg),
  },
  map: {
    aliases: ['map', 'ap', 'map_cut'],
    cutOnlyAliases: ['map_cut'],
    cutoff: 'optional',
    irMeasuresForms: ['AP', 'AP@10'],
    trecEvalForms: ['map_cut_10'],
    trecName: 'map',
    trecCutName: 'map_cut',
    binary: false,
    formula: (state) => (state.relevantCount === 0 ? 0 : state.precisionSum / state.relevantCount),
  },
  rprec: {
    aliases: ['rprec', 'r-prec'],
    cutoff: 'none',
    noCutoffReason: 'its cutoff is the number of relevant ids',
    irMeasuresForms: ['Rprec'],
    trecEvalForms: ['Rprec'],
    trecName: 'Rprec',
    binary: false,
    formula: (state) => (state.relevantCount === 0 ? 0 : state.relevantInTopR / state.relevantCount),
  },
  bpref: {
    aliases: ['bpref'],
    cutoff: 'none',
    noCutoffReason: 'trec_eval defines it over the whole list',
    irMeasuresForms: ['Bpref'],
    trecEvalForms: ['bpref'],
    trecName: 'bpref',
    binary: false,
    formula: (state) => (state.relevantCount === 0 ? 0 : state.bprefSum / state.relevantCount),
  },
  judged: {
    aliases: ['judged'],
    cutoff: 'optional',
    irMeasuresForms: ['Judged@10'],
    binary: false,
    // ir_measures' Judged@k divides by the hits in the top k, not by k, since 0.3.1 (its #48); 0 with no hits.
    formula: (state) => (state.evaluatedAtK === 0 ? 0 : state.judgedInTopK / state.evaluatedAtK),
  },
  capped_recall: {
    aliases: ['capped_recall', 'relative_p', 'r_cap'],
    cutoff: 'required',
    trecEvalForms: ['relative_P_5', 'relative_P.5'],
    trecCutName: 'relative_P',
    binary: false,
    // trec_eval's relative_P (BEIR's R_cap@k): relevant in the top k ÷ the most the top k can hold, min(k, R).
    formula: (state) => {
      const best = Math.min(state.k, state.relevantCount);
      return best === 0 ? 0 : state.truePositiveCount / best;
    },
  },
  infap: {
    aliases: ['infap'],
    cutoff: 'none',
    noCutoffReason: 'trec_eval defines it over the whole list',
    trecEvalForms: ['infAP'],
    trecName: 'infAP',
    binary: false,
    formula: inferredAveragePrecision,
  },
  rbp: {
    aliases: ['rbp'],
    cutoff: 'parameter',
    parameter: { name: 'persistence p', min: 0, max: 1, default: DEFAULT_PERSISTENCE },
    trecEvalForms: ['rbp'],
    trecName: 'rbp',
    binary: false,
    formula: rankBiasedPrecision,
  },
} as const satisfies Record<string, MeasureDefinition>;

export type MeasureName = keyof typeof MEASURE_TABLE;

/** The table in definition order, as [name, definition] pairs. */
export const MEASURE_NAMES = Object.freeze(Object.keys(MEASURE_TABLE)) as readonly MeasureName[];

/** Lower-cased spelling → canonical name. A Map: `constructor` or `__proto__` is no measure. */
export const MEASURE_ALIASES: ReadonlyMap<string, MeasureName> = new Map(
  MEASURE_NAMES.flatMap((name) => MEASURE_TABLE[name].aliases.map((alias) => [alias, name] as const)),
);

/** trec_eval names that take a cutoff only in their `_cut` form. */
export const CUT_ONLY_ALIASES: ReadonlySet<string> = new Set(
  MEASURE_NAMES.flatMap((name) =>
    'cutOnlyAliases' in MEASURE_TABLE[name] ? ((MEASURE_TABLE[name] as MeasureDefinition).cutOnlyAliases ?? []) : [],
  ),
);

/** The definition of a canonical name (from a Map, so inherited names are never found). */
const DEFINITIONS: ReadonlyMap<MeasureName, MeasureDefinition> = new Map(
  MEASURE_NAMES.map((name) => [name, MEASURE_TABLE[name]]),
);

export function definitionOf(name: MeasureName): MeasureDefinition {
  const definition = DEFINITIONS.get(name);
  if (definition === undefined) throw new RangeError(`unknown measure ${JSON.stringify(name)}`);
  return definition;
}
