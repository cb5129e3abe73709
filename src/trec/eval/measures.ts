// trec_eval's measure names, parameters and print order, for the measures `trec-eval` supports.
// trec_eval prints measures in the order of its internal table (measures.c), whatever the order of
// the -m flags, and each measure's cutoffs in ascending order (`-m P.10,5` prints P_5 then P_10).
// Measures of the library take their trec_eval names from the measure table (core/measure-table.ts);
// the rest (runid, the counts, gm_map, iprec_at_recall) are trec_eval's own and defined here once.
import { MEASURE_TABLE, type MeasureDefinition, type MeasureName } from '../../core/measure-table.js';
import type { Measure } from '../../core/measures.js';
import { formatFixed } from './format.js';

const DEFAULT_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000] as const;
/** trec_eval's default recall levels of iprec_at_recall. */
const DEFAULT_RECALL_LEVELS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0] as const;

/** The count a `count` row prints. */
export type TrecCount = 'num_q' | 'num_ret' | 'num_rel' | 'num_rel_ret';

interface TrecMeasureSpec {
  /** trec_eval's name (`P`, `ndcg_cut`, …). */
  name: string;
  /**
   * runid: the run's tag; count: a whole number, summed; single/cutoffs: a library measure, averaged;
   * gm: a library measure, geometric mean (floor 0.00001); recall-levels: iprec_at_recall.
   */
  kind: 'runid' | 'count' | 'single' | 'cutoffs' | 'gm' | 'recall-levels';
  count?: TrecCount;
  /** The library measure it prints (cutoffs get `k`). */
  base?: MeasureName;
  defaults?: readonly number[];
  /** Printed in the summary only, never per query (trec_eval's te_print_single_meas_empty). */
  summaryOnly?: boolean;
}

/** A library measure under its trec_eval name (uncut, or cut at cutoffs), from the measure table. */
function library(base: MeasureName, cut?: readonly number[]): TrecMeasureSpec {
  const definition: MeasureDefinition = MEASURE_TABLE[base];
  const name = cut === undefined ? definition.trecName : definition.trecCutName;
  if (name === undefined)
    throw new Error(
      `rag-matchers: measure ${base} has no trec_eval name${cut === undefined ? '' : ' for cutoffs'} (a bug)`,
    );
  return cut === undefined ? { name, kind: 'single', base } : { name, kind: 'cutoffs', base, defaults: cut };
}

/** The supported measures, in trec_eval's print order. */
const SUPPORTED: readonly TrecMeasureSpec[] = [
  { name: 'runid', kind: 'runid', summaryOnly: true },
  { name: 'num_q', kind: 'count', count: 'num_q', summaryOnly: true },
  { name: 'num_ret', kind: 'count', count: 'num_ret' },
  { name: 'num_rel', kind: 'count', count: 'num_rel' },
  { name: 'num_rel_ret', kind: 'count', count: 'num_rel_ret' },
  library('map'),
  // gm_map: per query log(max(AP, 0.00001)), summed; the summary prints exp(mean), the geometric mean.
  { name: 'gm_map', kind: 'gm', base: 'map', summaryOnly: true },
  library('rprec'),
  library('bpref'),
  library('mrr'),
  { name: 'iprec_at_recall', kind: 'recall-levels', defaults: DEFAULT_RECALL_LEVELS },
  library('precision', DEFAULT_CUTOFFS),
  library('recall', DEFAULT_CUTOFFS),
  library('ndcg'),
  library('ndcg', DEFAULT_CUTOFFS),
  library('map', DEFAULT_CUTOFFS),
  library('hit', [1, 5, 10]),
];

export const SUPPORTED_TREC_MEASURES = SUPPORTED.map((spec) => spec.name);

/** trec_eval's `official` set: what it prints with no -m. */
const OFFICIAL: readonly string[] = [
  'runid',
  'num_q',
  'num_ret',
  'num_rel',
  'num_rel_ret',
  'map',
  'gm_map',
  'Rprec',
  'bpref',
  'recip_rank',
  'iprec_at_recall',
  'P',
];

/** trec_eval's measure sets (nicknames): what `-m official` and `-m all_trec` stand for, in its order. */
const NICKNAMES: ReadonlyMap<string, readonly string[]> = new Map([
  ['official', OFFICIAL],
  [
    'all_trec',
    [
      ...OFFICIAL,
      'relstring',
      'recall',
      'unj',
      'rbp',
      'rbp_resid',
      'infAP',
      'gm_bpref',
      'utility',
      '11pt_avg',
      'ndcg',
      'relative_P',
      'Rprec_mult',
      'success',
      'map_cut',
      'ndcg_cut',
      'ndcg_rel',
      'Rndcg',
      'binG',
      'G',
      'set_P',
      'set_recall',
      'set_relative_P',
      'set_map',
      'set_F',
      'num_nonrel_judged_ret',
    ],
  ],
]);

/** What trec_eval prints with no -m. */
const DEFAULT_SET = 'official';

/** trec_eval measures (and nicknames) this command does not compute, to name them in errors. */
const KNOWN_UNSUPPORTED = new Set([
  'relstring',
  'infAP',
  'gm_bpref',
  'Rprec_mult',
  'utility',
  'unj',
  'rbp',
  'rbp_resid',
  'yaap',
  '11pt_avg',
  'binG',
  'G',
  'dcg',
  'ideal_dcg',
  'ndcg_rel',
  'Rndcg',
  'relative_P',
  'set_P',
  'set_relative_P',
  'set_recall',
  'set_map',
  'set_F',
  'num_nonrel_judged_ret',
  'set',
  'prefs',
  'all_prefs',
  'qrels_jg',
]);

/** One printed line per query: `P_5`, `map`, `num_ret`. */
export interface TrecRow {
  /** As printed: `P_5`, `ndcg_cut_10`, `map`. */
  label: string;
  kind: 'runid' | 'count' | 'value' | 'gm' | 'iprec';
  count?: TrecCount;
  /** For value and gm rows: the library measure. */
  measure?: Measure;
  /** For iprec rows: the recall level. */
  recallLevel?: number;
  /** Printed in the summary only. */
  summaryOnly?: boolean;
}

export interface TrecMeasurePlan {
  rows: TrecRow[];
  /** Distinct core measures behind the value and gm rows. */
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
  if (parameters === '')
    throw new MeasureSpecError(`measure '${text}' has an empty parameter list after '.'; write e.g. P.5,10 or just P`);
  return { name: text.slice(0, dot), parameters };
}

function parseCutoffs(name: string, parameters: string): number[] {
  const cutoffs = parameters.split(',').map((part) => {
    if (!/^\+?\d+$/.test(part.trim())) {
      throw new MeasureSpecError(
        `cutoff '${part}' in '${name}.${parameters}' is not a whole number; write e.g. ${name}.5,10`,
      );
    }
    if (!Number.isSafeInteger(Number(part.trim())))
      throw new MeasureSpecError(
        `cutoff '${part}' in '${name}.${parameters}' is beyond ${Number.MAX_SAFE_INTEGER} (2^53 − 1), the largest whole number read exactly`,
      );
    return Number(part.trim());
  });
  cutoffs.sort((a, b) => a - b);
  if ((cutoffs[0] as number) <= 0)
    throw new MeasureSpecError(
      `cutoffs of '${name}.${parameters}' must be positive (trec_eval: "Negative cutoff detected")`,
    );
  rejectRepeats(name, parameters, cutoffs);
  return cutoffs;
}

/** iprec_at_recall's parameters: recall levels from 0 to 1 (`-m iprec_at_recall.0.25,0.5`). */
function parseRecallLevels(name: string, parameters: string): number[] {
  const levels = parameters.split(',').map((part) => {
    if (!/^\+?(\d+\.?\d*|\.\d+)$/.test(part.trim()) || Number(part.trim()) > 1) {
      throw new MeasureSpecError(
        `recall level '${part}' in '${name}.${parameters}' is not a number from 0 to 1; write e.g. ${name}.0.25,0.5`,
      );
    }
    return Number(part.trim());
  });
  levels.sort((a, b) => a - b);
  rejectRepeats(name, parameters, levels);
  return levels;
}

function rejectRepeats(name: string, parameters: string, sorted: readonly number[]): void {
  for (let index = 1; index < sorted.length; index++) {
    if (sorted[index] === sorted[index - 1]) {
      throw new MeasureSpecError(
        `'${name}.${parameters}' repeats the cutoff ${sorted[index]} (trec_eval: "duplicate cutoffs detected")`,
      );
    }
  }
}

/** The spec of a supported name (from a Map: `constructor` is no measure). */
const SPECS: ReadonlyMap<string, TrecMeasureSpec> = new Map(SUPPORTED.map((spec) => [spec.name, spec]));

function unknownMeasure(name: string): MeasureSpecError {
  const supported = SUPPORTED_TREC_MEASURES.join(', ');
  if (KNOWN_UNSUPPORTED.has(name)) {
    return new MeasureSpecError(
      `trec_eval measure '${name}' is not supported by rag-matchers trec-eval. Supported: ${supported}. Use trec_eval itself for the others.`,
    );
  }
  const caseMatch = [...SUPPORTED_TREC_MEASURES, ...NICKNAMES.keys()].find(
    (candidate) => candidate.toLowerCase() === name.toLowerCase(),
  );
  const hint =
    caseMatch === undefined ? '' : ` Measure names are case-sensitive, as in trec_eval: did you mean '${caseMatch}'?`;
  return new MeasureSpecError(
    `unknown measure '${name}'.${hint} Supported: ${supported}, or the sets official and all_trec (with cutoffs as in trec_eval: -m P.5,10).`,
  );
}

/** The -m requests with trec_eval's nicknames (official, all_trec) replaced by the measures they stand for. */
function expandNicknames(requests: readonly string[], warnings: string[]): string[] {
  const expanded: string[] = [];
  for (const text of requests) {
    const members = NICKNAMES.get(text);
    if (members === undefined) {
      expanded.push(text);
      continue;
    }
    const missing = members.filter((member) => !SPECS.has(member));
    if (missing.length > 0)
      warnings.push(
        `'${text}' includes measures rag-matchers trec-eval does not compute, left out: ${missing.join(', ')}.`,
      );
    expanded.push(...members.filter((member) => SPECS.has(member)));
  }
  return expanded;
}

/**
 * The rows `-m` flags ask for, in trec_eval's print order. No flag: trec_eval's `official` set with
 * its default cutoffs. As in trec_eval, a measure named twice is printed once and the parameters of
 * the first occurrence that has any win (`-m P -m P.5` prints P_5 alone).
 */
export function planTrecMeasures(requests: readonly string[]): TrecMeasurePlan {
  const warnings: string[] = [];
  const chosen = new Map<string, string | undefined>();
  for (const text of expandNicknames(requests.length === 0 ? [DEFAULT_SET] : requests, warnings)) {
    const { name, parameters } = splitRequest(text);
    const spec = SPECS.get(name);
    if (spec === undefined) throw unknownMeasure(name);
    if (
      parameters !== undefined &&
      spec.kind !== 'cutoffs' &&
      spec.kind !== 'recall-levels' &&
      chosen.get(name) === undefined
    ) {
      const cutName = `${name}_cut`;
      const hint = SPECS.has(cutName) ? ` Did you mean -m ${cutName}.${parameters}?` : '';
      warnings.push(`'${name}' takes no parameters: '.${parameters}' ignored, as trec_eval does.${hint}`);
    }
    if (chosen.has(name)) {
      // trec_eval takes a measure's parameters from the first `-m NAME.PARAMS`, wherever a bare `-m NAME` stands.
      const earlier = chosen.get(name);
      if (earlier === undefined) chosen.set(name, parameters);
      else if (parameters !== undefined && parameters !== earlier) {
        warnings.push(
          `'-m ${text}' ignored: '${name}' was already requested as '${name}.${earlier}' (trec_eval uses the first parameters given).`,
        );
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
    if (!chosen.has(spec.name)) continue;
    const summaryOnly = spec.summaryOnly === true ? { summaryOnly: true } : {};
    if (spec.kind === 'runid') {
      rows.push({ label: spec.name, kind: 'runid', ...summaryOnly });
    } else if (spec.kind === 'count') {
      rows.push({ label: spec.name, kind: 'count', count: spec.count as TrecCount, ...summaryOnly });
    } else if (spec.kind === 'single' || spec.kind === 'gm') {
      const measure: Measure = { name: spec.base as MeasureName };
      addMeasure(measure);
      rows.push({ label: spec.name, kind: spec.kind === 'gm' ? 'gm' : 'value', measure, ...summaryOnly });
    } else if (spec.kind === 'recall-levels') {
      const parameters = chosen.get(spec.name);
      const levels =
        parameters === undefined ? [...(spec.defaults as readonly number[])] : parseRecallLevels(spec.name, parameters);
      // trec_eval names them with "%3.2f".
      for (const level of levels)
        rows.push({ label: `${spec.name}_${formatFixed(level, 2)}`, kind: 'iprec', recallLevel: level });
    } else {
      const parameters = chosen.get(spec.name);
      const cutoffs =
        parameters === undefined ? [...(spec.defaults as readonly number[])] : parseCutoffs(spec.name, parameters);
      for (const k of cutoffs) {
        const measure: Measure = { name: spec.base as MeasureName, k };
        addMeasure(measure);
        rows.push({ label: `${spec.name}_${k}`, kind: 'value', measure });
      }
    }
  }
  return { rows, measures, warnings };
}
