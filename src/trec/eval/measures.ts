// trec_eval's measure names, parameters and print order, for the measures `trec-eval` supports.
// trec_eval prints measures in the order of its internal table (measures.c), whatever the order of
// the -m flags, and each measure's cutoffs in ascending order (`-m P.10,5` prints P_5 then P_10).
// Measures of the library take their trec_eval names from the measure table (core/measure-table.ts);
// the rest (runid, the counts, gm_map, gm_bpref, iprec_at_recall, and the list measures of
// list-measures.ts) are trec_eval's own and defined here once.
import { MEASURE_TABLE, type MeasureDefinition, type MeasureName } from '../../core/measure-table.js';
import type { Measure } from '../../core/measures.js';
import { formatFixed } from './format.js';
import { DEFAULT_PERSISTENCE, type GainOverride, type ListMeasureName, type ListMeasureRow } from './list-measures.js';
import { PREFERENCE_MEASURES } from './prefs-measures.js';

export const DEFAULT_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000] as const;
/** trec_eval's default recall levels of iprec_at_recall. */
const DEFAULT_RECALL_LEVELS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0] as const;

/** trec_eval's default levels of 11pt_avg (its iprec_at_recall levels). */
const ELEVEN_POINTS = DEFAULT_RECALL_LEVELS;
/** trec_eval's default multiples of R of Rprec_mult. */
export const DEFAULT_R_MULTIPLES = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0] as const;

/** The count a `count` row prints. */
type TrecCount = 'num_q' | 'num_ret' | 'num_rel' | 'num_rel_ret' | 'num_nonrel_judged_ret';

/**
 * How a list measure takes parameters, as trec_eval reads them: none; numbers (`utility.1,-1,0,0`,
 * printed `utility_1,-1,0,0`); `name=value` pairs (`rbp.p=0.8`, `G.1=3,2=9`); whole cutoffs
 * (`unj.5,10`: one row each); or multiples of R (`Rprec_mult.0.5,1`: one row each, `%.2f` names).
 */
type ListParameters = 'none' | 'numbers' | 'pairs' | 'cutoffs' | 'multiples';

interface TrecMeasureSpec {
  /** trec_eval's name (`P`, `ndcg_cut`, …). */
  name: string;
  /**
   * runid: the run's tag; count: a whole number, summed; single/cutoffs: a library measure, averaged;
   * gm: a library measure, geometric mean (floor 0.00001); recall-levels: iprec_at_recall.
   */
  kind: 'runid' | 'count' | 'single' | 'cutoffs' | 'gm' | 'recall-levels' | 'list' | 'relstring';
  count?: TrecCount;
  /** For list rows: the measure, how it takes parameters. */
  list?: ListMeasureName;
  parameters?: ListParameters;
  /** A library measure that trec_eval also takes `level=gain` pairs for: with them, this list measure. */
  withGains?: ListMeasureName;
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

/** A measure of list-measures.ts under its trec_eval name. */
function list(
  name: ListMeasureName,
  parameters: ListParameters = 'none',
  defaults?: readonly number[],
): TrecMeasureSpec {
  return { name, kind: 'list', list: name, parameters, ...(defaults === undefined ? {} : { defaults }) };
}

/** The supported measures, in trec_eval's print order (its measures.c table). */
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
  // relstring: printed per query only, as a quoted string (default length 10).
  { name: 'relstring', kind: 'relstring', parameters: 'numbers', defaults: [10] },
  library('recall', DEFAULT_CUTOFFS),
  library('infap'),
  { name: 'gm_bpref', kind: 'gm', base: 'bpref', summaryOnly: true },
  list('Rprec_mult', 'multiples', DEFAULT_R_MULTIPLES),
  list('utility', 'numbers', [1, -1, 0, 0]),
  list('11pt_avg', 'numbers', ELEVEN_POINTS),
  list('binG'),
  list('G', 'pairs'),
  list('dcg', 'pairs'),
  list('ideal_dcg', 'pairs'),
  // ndcg with gains (`ndcg.1=3,2=9`) is measured as trec_eval's list measure; without, by the library.
  { ...library('ndcg'), withGains: 'ndcg' },
  list('ndcg_rel', 'pairs'),
  list('Rndcg', 'pairs'),
  library('ndcg', DEFAULT_CUTOFFS),
  library('map', DEFAULT_CUTOFFS),
  library('capped_recall', DEFAULT_CUTOFFS),
  library('hit', [1, 5, 10]),
  list('set_P'),
  list('set_relative_P'),
  list('set_recall'),
  list('set_map'),
  list('set_F', 'numbers', [1]),
  { name: 'num_nonrel_judged_ret', kind: 'count', count: 'num_nonrel_judged_ret' },
  list('yaap'),
  list('rbp', 'pairs'),
  list('rbp_resid', 'pairs'),
  list('unj', 'cutoffs', [5, 10, 20]),
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
    'set',
    [
      'runid',
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'utility',
      'set_P',
      'set_recall',
      'set_relative_P',
      'set_map',
      'set_F',
    ],
  ],
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

/**
 * trec_eval 10 measures (and nicknames) of other judgment formats, to name the format in errors: the
 * preference measures read -R prefs (prefs-evaluate.ts), the judgment-group (`avgjg`) ones -R qrels_jg
 * (judgment-groups.ts).
 */
const KNOWN_UNSUPPORTED = new Set<string>([
  ...PREFERENCE_MEASURES,
  'map_avgjg',
  'P_avgjg',
  'Rprec_mult_avgjg',
  'prefs',
  'all_prefs',
  'qrels_jg',
]);

/** One printed line per query: `P_5`, `map`, `num_ret`. */
interface TrecRow {
  /** As printed: `P_5`, `ndcg_cut_10`, `map`. */
  label: string;
  kind: 'runid' | 'count' | 'value' | 'gm' | 'iprec' | 'list' | 'relstring';
  count?: TrecCount;
  /** For list rows: the measure and its parameters. */
  list?: ListMeasureRow;
  /** For the relstring row: how many top documents it shows. */
  relstringLength?: number;
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
  /** Some row reads the judged list (list and relstring rows): the engine builds it only then. */
  needsList: boolean;
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

export function parseCutoffs(name: string, parameters: string): number[] {
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

/** A number as a measure parameter (trec_eval's atof would read a typo as 0: refused here). */
function parseNumber(name: string, parameters: string, part: string, example: string): number {
  const text = part.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
    throw new MeasureSpecError(`'${part}' in '${name}.${parameters}' is not a number; write e.g. ${name}.${example}`);
  }
  return Number(text);
}

/** Numbers in their given order (utility's coefficients, 11pt_avg's levels, set_F's β, relstring's length). */
function parseNumbers(name: string, parameters: string, example: string): number[] {
  return parameters.split(',').map((part) => parseNumber(name, parameters, part, example));
}

/** Rprec_mult's multiples of R: positive numbers, ascending, no repeats (as trec_eval sorts and checks them). */
export function parseMultiples(name: string, parameters: string): number[] {
  const multiples = parseNumbers(name, parameters, '0.5,1,2').sort((a, b) => a - b);
  rejectRepeats(name, parameters, multiples);
  return multiples;
}

/** The parameters trec_eval checks the count of: utility takes exactly four coefficients. */
function checkNumberCount(name: string, parameters: string, numbers: readonly number[]): void {
  if (name === 'utility' && numbers.length !== 4) {
    throw new MeasureSpecError(
      `'${name}.${parameters}' needs four coefficients a,b,c,d (relevant retrieved, non-relevant retrieved, relevant missed, non-relevant missed), as trec_eval; write e.g. utility.1,-1,0,0`,
    );
  }
  if (name === 'relstring' && !((numbers[0] as number) >= 0)) {
    throw new MeasureSpecError(`'${name}.${parameters}' needs a length of 0 or more; write e.g. relstring.20`);
  }
}

/**
 * `name=value` pairs: `p=0.8` (rbp, rbp_resid) and `level=gain` (G, ndcg_rel, Rndcg, rbp). As in
 * trec_eval, a pair whose name is neither is ignored; a pair without '=' is an error.
 */
function parsePairs(name: string, parameters: string): { gains: GainOverride[]; persistence: number } {
  const gains: GainOverride[] = [];
  let persistence = DEFAULT_PERSISTENCE;
  for (const part of parameters.split(',')) {
    const equals = part.indexOf('=');
    if (equals === -1) {
      throw new MeasureSpecError(
        `'${part}' in '${name}.${parameters}' is not a name=value pair (trec_eval: "malformed pair parameters"); write e.g. ${name === 'rbp' || name === 'rbp_resid' ? `${name}.p=0.8` : `${name}.1=1,2=3`}`,
      );
    }
    const key = part.slice(0, equals).trim();
    const value = parseNumber(name, parameters, part.slice(equals + 1), key === 'p' ? 'p=0.8' : '1=1,2=3');
    if (key === 'p') {
      if (!(value > 0 && value < 1) && (name === 'rbp' || name === 'rbp_resid'))
        throw new MeasureSpecError(
          `p=${part.slice(equals + 1)} in '${name}.${parameters}' must lie between 0 and 1 (exclusive)`,
        );
      persistence = value;
    } else if (/^[+-]?\d+$/.test(key)) {
      gains.push({ level: Number(key), gain: value });
    }
  }
  return { gains, persistence };
}

/** The rows of a list measure (or relstring) with its parameters (undefined: its defaults). */
function listRows(spec: TrecMeasureSpec, parameters: string | undefined): TrecRow[] {
  const name = spec.name;
  const label = parameters === undefined ? name : `${name}_${parameters}`;
  if (spec.kind === 'relstring') {
    const numbers = parameters === undefined ? [...(spec.defaults ?? [])] : parseNumbers(name, parameters, '20');
    checkNumberCount(name, parameters ?? '', numbers);
    return [{ label, kind: 'relstring', relstringLength: numbers[0] as number }];
  }
  const measure = spec.list as ListMeasureName;
  const row = (
    rowLabel: string,
    numbers: readonly number[],
    pairs = { gains: [] as GainOverride[], persistence: DEFAULT_PERSISTENCE },
  ): TrecRow => ({
    label: rowLabel,
    kind: 'list',
    list: { measure, numbers, gains: pairs.gains, persistence: pairs.persistence },
  });
  switch (spec.parameters) {
    case 'cutoffs': {
      const cutoffs = parameters === undefined ? [...(spec.defaults ?? [])] : parseCutoffs(name, parameters);
      return cutoffs.map((k) => row(`${name}_${k}`, [k]));
    }
    case 'multiples': {
      const multiples = parameters === undefined ? [...(spec.defaults ?? [])] : parseMultiples(name, parameters);
      return multiples.map((multiple) => row(`${name}_${formatFixed(multiple, 2)}`, [multiple]));
    }
    case 'numbers': {
      const numbers =
        parameters === undefined
          ? [...(spec.defaults ?? [])]
          : parseNumbers(name, parameters, String(spec.defaults?.join(',')));
      checkNumberCount(name, parameters ?? '', numbers);
      return [row(label, numbers)];
    }
    case 'pairs':
      return [row(label, [], parameters === undefined ? undefined : parsePairs(name, parameters))];
    default:
      return [row(name, [])];
  }
}

/** Whether trec_eval reads parameters of this measure (else they are ignored, with a note). */
function takesParameters(spec: TrecMeasureSpec): boolean {
  return (
    spec.kind === 'cutoffs' ||
    spec.kind === 'recall-levels' ||
    spec.kind === 'relstring' ||
    spec.withGains !== undefined ||
    (spec.kind === 'list' && spec.parameters !== 'none')
  );
}

/** The spec of a supported name (from a Map: `constructor` is no measure). */
const SPECS: ReadonlyMap<string, TrecMeasureSpec> = new Map(SUPPORTED.map((spec) => [spec.name, spec]));

function unknownMeasure(name: string): MeasureSpecError {
  const supported = SUPPORTED_TREC_MEASURES.join(', ');
  if (KNOWN_UNSUPPORTED.has(name)) {
    if (name.includes('prefs'))
      return new MeasureSpecError(
        `trec_eval measure '${name}' reads preference judgments: add -R prefs (or -R qrels_prefs to read a qrels as preferences).`,
      );
    return new MeasureSpecError(`trec_eval measure '${name}' reads judgment groups: add -R qrels_jg.`);
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
    if (parameters !== undefined && !takesParameters(spec) && chosen.get(name) === undefined) {
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
    if (spec.withGains !== undefined && chosen.get(spec.name) !== undefined) {
      rows.push(...listRows(list(spec.withGains, 'pairs'), chosen.get(spec.name)));
    } else if (spec.kind === 'runid') {
      rows.push({ label: spec.name, kind: 'runid', ...summaryOnly });
    } else if (spec.kind === 'count') {
      rows.push({ label: spec.name, kind: 'count', count: spec.count as TrecCount, ...summaryOnly });
    } else if (spec.kind === 'single' || spec.kind === 'gm') {
      const measure: Measure = { name: spec.base as MeasureName };
      addMeasure(measure);
      rows.push({ label: spec.name, kind: spec.kind === 'gm' ? 'gm' : 'value', measure, ...summaryOnly });
    } else if (spec.kind === 'list' || spec.kind === 'relstring') {
      rows.push(...listRows(spec, chosen.get(spec.name)));
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
  const needsList = rows.some((row) => row.kind === 'list' || row.kind === 'relstring');
  return { rows, measures, needsList, warnings };
}
