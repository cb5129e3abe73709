// trec_eval's measure names, parameters and print order, for the measures `trec-eval` supports.
// trec_eval prints measures in the order of its internal table (measures.c), whatever the order of
// the -m flags, and each measure's cutoffs in ascending order (`-m P.10,5` prints P_5 then P_10).
import type { Measure } from '../core/measures.js';

const DEFAULT_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000] as const;

interface TrecMeasureSpec {
  /** trec_eval's name (`P`, `ndcg_cut`, …). */
  name: string;
  kind: 'count' | 'single' | 'cutoffs';
  /** The core measure it maps to (cutoffs get `k`). */
  base?: Measure['name'];
  defaults?: readonly number[];
}

/** The supported measures, in trec_eval's print order. */
const SUPPORTED: readonly TrecMeasureSpec[] = [
  { name: 'num_ret', kind: 'count' },
  { name: 'num_rel', kind: 'count' },
  { name: 'num_rel_ret', kind: 'count' },
  { name: 'map', kind: 'single', base: 'map' },
  { name: 'Rprec', kind: 'single', base: 'rprec' },
  { name: 'recip_rank', kind: 'single', base: 'mrr' },
  { name: 'P', kind: 'cutoffs', base: 'precision', defaults: DEFAULT_CUTOFFS },
  { name: 'recall', kind: 'cutoffs', base: 'recall', defaults: DEFAULT_CUTOFFS },
  { name: 'ndcg', kind: 'single', base: 'ndcg' },
  { name: 'ndcg_cut', kind: 'cutoffs', base: 'ndcg', defaults: DEFAULT_CUTOFFS },
  { name: 'map_cut', kind: 'cutoffs', base: 'map', defaults: DEFAULT_CUTOFFS },
  { name: 'success', kind: 'cutoffs', base: 'hit', defaults: [1, 5, 10] },
];

export const SUPPORTED_TREC_MEASURES = SUPPORTED.map((spec) => spec.name);

/** trec_eval measures (and nicknames) this command does not compute, to name them in errors. */
const KNOWN_UNSUPPORTED = new Set([
  'runid', 'num_q', 'gm_map', 'bpref', 'iprec_at_recall', 'relstring', 'infAP', 'gm_bpref', 'Rprec_mult', 'utility',
  '11pt_avg', 'binG', 'G', 'dcg', 'ideal_dcg', 'ndcg_rel', 'Rndcg', 'relative_P', 'set_P', 'set_relative_P',
  'set_recall', 'set_map', 'set_F', 'num_nonrel_judged_ret', 'official', 'all_trec', 'set', 'prefs', 'all_prefs', 'qrels_jg',
]);

/** The count a `count` row prints. */
export type TrecCount = 'num_ret' | 'num_rel' | 'num_rel_ret';

/** One printed line per query: `P_5`, `map`, `num_ret`. */
export interface TrecRow {
  /** As printed: `P_5`, `ndcg_cut_10`, `map`. */
  label: string;
  kind: 'count' | 'value';
  count?: TrecCount;
  /** For value rows: the core measure. */
  measure?: Measure;
}

export interface TrecMeasurePlan {
  rows: TrecRow[];
  /** Distinct core measures behind the value rows. */
  measures: Measure[];
  /** Notes for stderr (parameters trec_eval would silently ignore). */
  warnings: string[];
}

export class MeasureSpecError extends Error {
  override name = 'MeasureSpecError';
}

interface MeasureRequest {
  name: string;
  parameters: string | undefined;
}

function splitRequest(text: string): MeasureRequest {
  const dot = text.indexOf('.');
  if (dot === -1) return { name: text, parameters: undefined };
  const parameters = text.slice(dot + 1);
  if (parameters === '') throw new MeasureSpecError(`measure '${text}' has an empty parameter list after '.'; write e.g. P.5,10 or just P`);
  return { name: text.slice(0, dot), parameters };
}

function parseCutoffs(name: string, parameters: string): number[] {
  const cutoffs = parameters.split(',').map((part) => {
    if (!/^\+?\d+$/.test(part.trim())) {
      throw new MeasureSpecError(`cutoff '${part}' in '${name}.${parameters}' is not a whole number; write e.g. ${name}.5,10`);
    }
    return Number(part.trim());
  });
  cutoffs.sort((a, b) => a - b);
  if ((cutoffs[0] as number) <= 0) throw new MeasureSpecError(`cutoffs of '${name}.${parameters}' must be positive (trec_eval: "Negative cutoff detected")`);
  for (let index = 1; index < cutoffs.length; index++) {
    if (cutoffs[index] === cutoffs[index - 1]) {
      throw new MeasureSpecError(`'${name}.${parameters}' repeats the cutoff ${cutoffs[index]} (trec_eval: "duplicate cutoffs detected")`);
    }
  }
  return cutoffs;
}

function unknownMeasure(name: string): MeasureSpecError {
  const supported = SUPPORTED_TREC_MEASURES.join(', ');
  if (KNOWN_UNSUPPORTED.has(name)) {
    return new MeasureSpecError(
      `trec_eval measure '${name}' is not supported by rag-matchers trec-eval. Supported: ${supported}. Use trec_eval itself for the others.`,
    );
  }
  const caseMatch = SUPPORTED_TREC_MEASURES.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  const hint = caseMatch === undefined ? '' : ` Measure names are case-sensitive, as in trec_eval: did you mean '${caseMatch}'?`;
  return new MeasureSpecError(`unknown measure '${name}'.${hint} Supported: ${supported} (with cutoffs as in trec_eval: -m P.5,10).`);
}

/**
 * The rows `-m` flags ask for, in trec_eval's print order. No flag: every supported measure with
 * trec_eval's default cutoffs. As in trec_eval, a measure named twice is printed once and the
 * parameters of the first occurrence that has any win (`-m P -m P.5` prints P_5 alone).
 */
export function planTrecMeasures(requests: readonly string[]): TrecMeasurePlan {
  const warnings: string[] = [];
  const chosen = new Map<string, string | undefined>();
  const all = requests.length === 0;
  for (const text of requests) {
    const { name, parameters } = splitRequest(text);
    const spec = SUPPORTED.find((candidate) => candidate.name === name);
    if (spec === undefined) throw unknownMeasure(name);
    if (parameters !== undefined && spec.kind !== 'cutoffs' && chosen.get(name) === undefined) {
      const cutName = `${name}_cut`;
      const hint = SUPPORTED.some((candidate) => candidate.name === cutName) ? ` Did you mean -m ${cutName}.${parameters}?` : '';
      warnings.push(`'${name}' takes no parameters: '.${parameters}' ignored, as trec_eval does.${hint}`);
    }
    if (chosen.has(name)) {
      // trec_eval takes a measure's parameters from the first `-m NAME.PARAMS`, wherever a bare `-m NAME` stands.
      const earlier = chosen.get(name);
      if (earlier === undefined) chosen.set(name, parameters);
      else if (parameters !== undefined && parameters !== earlier) {
        warnings.push(`'-m ${text}' ignored: '${name}' was already requested as '${name}.${earlier}' (trec_eval uses the first parameters given).`);
      }
      continue;
    }
    chosen.set(name, parameters);
  }

  const rows: TrecRow[] = [];
  const measures: Measure[] = [];
  const seen = new Set<string>();
  const addMeasure = (measure: Measure) => {
    const key = `${measure.name}@${measure.k ?? ''}`;
    if (!seen.has(key)) {
      seen.add(key);
      measures.push(measure);
    }
  };
  for (const spec of SUPPORTED) {
    if (!all && !chosen.has(spec.name)) continue;
    if (spec.kind === 'count') {
      rows.push({ label: spec.name, kind: 'count', count: spec.name as TrecCount });
    } else if (spec.kind === 'single') {
      const measure: Measure = { name: spec.base as Measure['name'] };
      addMeasure(measure);
      rows.push({ label: spec.name, kind: 'value', measure });
    } else {
      const parameters = chosen.get(spec.name);
      const cutoffs = parameters === undefined ? [...(spec.defaults as readonly number[])] : parseCutoffs(spec.name, parameters);
      for (const k of cutoffs) {
        const measure: Measure = { name: spec.base as Measure['name'], k };
        addMeasure(measure);
        rows.push({ label: `${spec.name}_${k}`, kind: 'value', measure });
      }
    }
  }
  return { rows, measures, warnings };
}
