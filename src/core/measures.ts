import { describeValue } from './describe.js';

export type MeasureName = 'hit' | 'precision' | 'recall' | 'f1' | 'mrr' | 'ndcg' | 'map' | 'rprec';

/** A measure with its cutoff. `k` undefined means the whole list (trec_eval's uncut measure). */
export interface Measure {
  name: MeasureName;
  k?: number;
}

/** Measures that only make sense at a cutoff. */
const CUTOFF_REQUIRED = new Set<MeasureName>(['hit', 'precision', 'recall', 'f1']);
const NO_CUTOFF = new Set<MeasureName>(['rprec']);

/** Lower-cased spellings → canonical name, from our names, ir_measures and trec_eval. */
const ALIASES: Record<string, MeasureName> = {
  hit: 'hit', success: 'hit', hitrate: 'hit', hit_rate: 'hit',
  precision: 'precision', p: 'precision',
  recall: 'recall', r: 'recall',
  f1: 'f1',
  mrr: 'mrr', rr: 'mrr', recip_rank: 'mrr',
  ndcg: 'ndcg', ndcg_cut: 'ndcg',
  map: 'map', ap: 'map', map_cut: 'map',
  rprec: 'rprec', 'r-prec': 'rprec',
};

/** trec_eval names that take a cutoff only in their `_cut` form. */
const CUT_ONLY_ALIASES = new Set(['ndcg_cut', 'map_cut']);

export const VALID_MEASURE_FORMS =
  'hit@k, precision@k, recall@k, f1@k, mrr, mrr@k, ndcg, ndcg@k, map, map@k, rprec ' +
  '(also ir_measures P@5, R@10, RR, RR@10, nDCG@10, AP, AP@10, Success@5, Rprec, and trec_eval P_5, P.5, recall_10, ' +
  'ndcg_cut_10, ndcg_cut.10, map_cut_10, recip_rank, success_5, Rprec)';

function invalid(text: unknown, why: string): RangeError {
  return new RangeError(`measure ${describeValue(text)} is not valid: ${why}. Valid forms: ${VALID_MEASURE_FORMS}.`);
}

/** Splits `name@k`, `name_k`, `name.k` into base name and cutoff text. */
function splitCutoff(text: string): { base: string; cutoff?: string } {
  const at = text.lastIndexOf('@');
  if (at >= 0) return { base: text.slice(0, at), cutoff: text.slice(at + 1) };
  const match = /^(.*?)[._](\d+)$/.exec(text);
  if (match) return { base: match[1] as string, cutoff: match[2] as string };
  return { base: text };
}

/** Reads a measure name in any supported spelling; rejects anything else, listing the valid forms. */
export function parseMeasure(name: string): Measure {
  if (typeof name !== 'string') throw invalid(name, 'a measure name must be a string');
  const text = name.trim();
  const { base, cutoff } = splitCutoff(text);
  const lowered = base.toLowerCase();
  // Own keys only: 'constructor' or '__proto__' must not find Object.prototype's members.
  const canonical = Object.prototype.hasOwnProperty.call(ALIASES, lowered) ? ALIASES[lowered] : undefined;
  if (canonical === undefined) throw invalid(name, `unknown measure ${JSON.stringify(base)}`);
  if (cutoff === undefined) {
    if (CUT_ONLY_ALIASES.has(lowered)) throw invalid(name, `${base} needs a cutoff, e.g. ${base}_10`);
    if (CUTOFF_REQUIRED.has(canonical)) throw invalid(name, `${canonical} needs a cutoff, e.g. ${canonical}@5`);
    return { name: canonical };
  }
  if (!/^\d+$/.test(cutoff) || Number(cutoff) < 1) throw invalid(name, `the cutoff ${JSON.stringify(cutoff)} must be a positive whole number`);
  if (NO_CUTOFF.has(canonical)) throw invalid(name, 'rprec takes no cutoff (its cutoff is the number of relevant ids)');
  return { name: canonical, k: Number(cutoff) };
}

/** The canonical spelling used everywhere: `recall@5`, `ndcg`, `mrr@10`, `rprec`. */
export function formatMeasure(measure: Measure): string {
  return measure.k === undefined ? measure.name : `${measure.name}@${measure.k}`;
}

/** True for measures whose per-query value is 0 or 1 (their mean is a proportion: Wilson intervals apply). */
export function isBinaryMeasure(measure: Measure): boolean {
  return measure.name === 'hit';
}
