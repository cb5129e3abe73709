import { closestName } from './suggest.js';
import { describeValue } from './describe.js';
import {
  CUT_ONLY_ALIASES,
  MEASURE_ALIASES,
  MEASURE_NAMES,
  definitionOf,
  type CutoffRule,
  type MeasureDefinition,
  type MEASURE_TABLE,
  type MeasureName,
} from './measure-table.js';

export type { MeasureName } from './measure-table.js';

type CutoffOf<N extends MeasureName> = (typeof MEASURE_TABLE)[N]['cutoff'];

/** A measure's canonical spellings, by its cutoff rule: `recall@5`; `ndcg` and `ndcg@10`; `rprec`. */
type CanonicalSpelling<N extends MeasureName> =
  CutoffOf<N> extends 'required'
    ? `${N}@${number}`
    : CutoffOf<N> extends 'optional' | 'parameter'
      ? N | `${N}@${number}`
      : N;

type Spread<T> = T extends string ? T : never;

/** `Form` with its cutoff digits after `Separator` made any number: `ndcg_cut_10` → `ndcg_cut_${number}`. */
type CutPattern<Form extends string, Separator extends string> = Form extends `${infer Head}${Separator}${infer Tail}`
  ? Tail extends `${number}`
    ? `${Head}${Separator}${number}`
    : `${Head}${Separator}${CutPattern<Tail, Separator>}`
  : never;

/** How one example form of the table (`P@5`, `RR@10`, `ndcg_cut.10`, `Rprec`) is written with any cutoff, or none. */
type FormPattern<Form extends string, Rule extends CutoffRule> = Form extends string
  ? [CutPattern<Form, '@'> | CutPattern<Form, '_'> | CutPattern<Form, '.'>] extends [never]
    ? Form
    : | CutPattern<Form, '@'>
      | CutPattern<Form, '_'>
      | CutPattern<Form, '.'>
      // An optional cutoff may be left out: `nDCG` as well as `nDCG@10`.
      | (Rule extends 'optional' ? (Form extends `${infer Head}@${number}` ? Head : never) : never)
  : never;

/** A measure's ir_measures and trec_eval forms in the table. */
type TableForm<Definition> =
  | (Definition extends { irMeasuresForms: readonly (infer Form extends string)[] } ? Form : never)
  | (Definition extends { trecEvalForms: readonly (infer Form extends string)[] } ? Form : never);

// The union sits in an interface property and is read through it, so that a compile error lists the
// spellings ('"mrr" | `recall@${number}` | …') instead of naming an alias.
interface MeasureSpellings {
  spelling: Spread<
    | { [N in MeasureName]: CanonicalSpelling<N> }[MeasureName]
    // The ir_measures and trec_eval spellings of the table's forms (`P@${number}`, `RR`, `ndcg_cut_${number}`).
    | { [N in MeasureName]: FormPattern<TableForm<(typeof MEASURE_TABLE)[N]>, CutoffOf<N>> }[MeasureName]
  >;
}

/**
 * A measure name as users write one (`'recall@5'`, `'mrr'`, `'nDCG@10'`, `'P_5'`): the canonical forms
 * of the measure table and the ir_measures and trec_eval spellings of VALID_MEASURE_FORMS, so that a
 * typo (`'recal@5'`) does not compile. parseMeasure still checks every name at run time (the cutoff
 * must be a whole number ≥ 1; any letter case is accepted): a name built at run time is passed with
 * `name as MeasureSpelling`.
 */
export type MeasureSpelling = MeasureSpellings['spelling'];

/**
 * A measure with its cutoff. `k` undefined means the whole list (trec_eval's uncut measure). For a
 * measure whose cutoff rule is 'parameter' (`rbp@0.8`), `k` holds that parameter and the measure is
 * over the whole list: read its rank cutoff with rankCutoffOf.
 */
export interface Measure {
  name: MeasureName;
  k?: number;
}

/** The rank cutoff of a measure: its `k`, or undefined for the whole list (and for `rbp@p`, whose `k` is p). */
export function rankCutoffOf(measure: Measure): number | undefined {
  return definitionOf(measure.name).cutoff === 'parameter' ? undefined : measure.k;
}

/** How a measure is written here: `hit@k`; `mrr, mrr@k`; `rprec`. */
function ourForms(name: MeasureName, definition: MeasureDefinition): string[] {
  if (definition.cutoff === 'required') return [`${name}@k`];
  if (definition.cutoff === 'parameter') return [name, `${name}@p`];
  return definition.cutoff === 'optional' ? [name, `${name}@k`] : [name];
}

/** Every spelling the messages show, from the measure table. */
function validForms(): string {
  const definitions = MEASURE_NAMES.map((name) => [name, definitionOf(name)] as const);
  const ours = definitions.flatMap(([name, definition]) => ourForms(name, definition));
  const irMeasures = definitions.flatMap(([, definition]) => definition.irMeasuresForms ?? []);
  const trecEval = definitions.flatMap(([, definition]) => definition.trecEvalForms ?? []);
  return `${ours.join(', ')} (also ir_measures ${irMeasures.join(', ')}, and trec_eval ${trecEval.join(', ')})`;
}

export const VALID_MEASURE_FORMS = validForms();

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

/** ` (did you mean "recall@5"?)` for `recal` with cutoff 5: the closest name, in its canonical spelling. */
function suggestedMeasure(base: string, cutoff: string | undefined): string {
  const alias = closestName(base, MEASURE_ALIASES.keys());
  if (alias === undefined) return '';
  const canonical = MEASURE_ALIASES.get(alias)!;
  const rule = definitionOf(canonical).cutoff;
  const suggestion = cutoff !== undefined && rule !== 'none' ? `${canonical}@${cutoff}` : canonical;
  return ` (did you mean ${JSON.stringify(suggestion)}?)`;
}

/** Reads a measure name in any supported spelling; rejects anything else, listing the valid forms. */
export function parseMeasure(name: string): Measure {
  if (typeof name !== 'string') throw invalid(name, 'a measure name must be a string');
  const text = name.trim();
  const { base, cutoff } = splitCutoff(text);
  const lowered = base.toLowerCase();
  const canonical = MEASURE_ALIASES.get(lowered);
  if (canonical === undefined)
    throw invalid(name, `unknown measure ${JSON.stringify(base)}${suggestedMeasure(base, cutoff)}`);
  const definition = definitionOf(canonical);
  const rule = definition.cutoff;
  if (cutoff === undefined) {
    if (CUT_ONLY_ALIASES.has(lowered)) throw invalid(name, `${base} needs a cutoff, e.g. ${base}_10`);
    if (rule === 'required') throw invalid(name, `${canonical} needs a cutoff, e.g. ${canonical}@5`);
    return { name: canonical };
  }
  if (rule === 'parameter') return { name: canonical, k: parseParameter(name, canonical, definition, cutoff) };
  if (!/^\d+$/.test(cutoff) || Number(cutoff) < 1)
    throw invalid(name, `the cutoff ${JSON.stringify(cutoff)} must be a positive whole number`);
  if (!Number.isSafeInteger(Number(cutoff)))
    throw invalid(name, `the cutoff ${JSON.stringify(cutoff)} must be at most ${Number.MAX_SAFE_INTEGER} (2^53 − 1)`);
  if (rule === 'none') {
    const why = definition.noCutoffReason ?? 'it is defined over the whole list';
    throw invalid(name, `${canonical} takes no cutoff (${why})`);
  }
  return { name: canonical, k: Number(cutoff) };
}

/** The parameter after `@` of a 'parameter' measure: a decimal number strictly inside its range. */
function parseParameter(text: string, canonical: MeasureName, definition: MeasureDefinition, shown: string): number {
  const parameter = definition.parameter as NonNullable<MeasureDefinition['parameter']>;
  const value = /^(\d+\.?\d*|\.\d+)$/.test(shown) ? Number(shown) : Number.NaN;
  if (!(value > parameter.min && value < parameter.max)) {
    throw invalid(
      text,
      `${canonical}'s ${parameter.name} ${JSON.stringify(shown)} must be a number between ${parameter.min} and ${parameter.max} (exclusive), e.g. ${canonical}@0.8; ${canonical} alone is ${canonical}@${parameter.default}`,
    );
  }
  return value;
}

/** The canonical spelling used everywhere: `recall@5`, `ndcg`, `mrr@10`, `rprec`. */
export function formatMeasure(measure: Measure): string {
  return measure.k === undefined ? measure.name : `${measure.name}@${measure.k}`;
}

/** True for measures whose per-query value is 0 or 1 (their mean is a proportion: Wilson intervals apply). */
export function isBinaryMeasure(measure: Measure): boolean {
  return MEASURE_ALIASES.get(measure.name) === measure.name && definitionOf(measure.name).binary;
}
