// A measure plan: which measures one caller evaluates per query, with their formulas, parameters and
// the distinct cutoffs the kernel (measure-ranking.ts) stops at; computed once, reused per query.
import { formatMeasure, rankCutoffOf, type Measure } from './measures.js';
import { definitionOf, type RankingState } from './measure-table.js';

/** Measures with their canonical names and the distinct cutoffs they need: computed once, reused per query. */
export interface MeasurePlan {
  measures: readonly Measure[];
  names: readonly string[];
  /** Per measure: its formula (from the measure table). */
  formulas: readonly ((state: RankingState, parameter?: number) => number)[];
  /** Per measure: its parameter (`rbp@0.8`'s 0.8), undefined for the others. */
  parameters: readonly (number | undefined)[];
  /** Per measure: index into `cutoffs`, or -1 for an uncut measure (rprec and bpref are always uncut). */
  cutoffIndex: Int32Array;
  /** Distinct cutoffs, ascending. */
  cutoffs: readonly number[];
  /** Some measure is uncut (whole list, trec_eval's uncut ideal). */
  needsUncut: boolean;
  /** Per cutoff, then one more for the uncut measures: the indices of the measures measured there. */
  cutoffMembers: readonly (readonly number[])[];
  /** Every name set to NaN, in measure order: copied per query, so each result has the same shape. */
  template: Readonly<Record<string, number>>;
}

export function planMeasures(measures: readonly Measure[]): MeasurePlan {
  const definitions = measures.map((measure) => definitionOf(measure.name));
  const cutOf = (index: number) => rankCutoffOf(measures[index] as Measure);
  const cutoffs = [
    ...new Set(measures.flatMap((_, index) => (cutOf(index) === undefined ? [] : [cutOf(index) as number]))),
  ].sort((a, b) => a - b);
  const cutoffIndex = Int32Array.from(measures, (_, index) => {
    const k = cutOf(index);
    return k === undefined ? -1 : cutoffs.indexOf(k);
  });
  const cutoffMembers = Array.from({ length: cutoffs.length + 1 }, () => [] as number[]);
  cutoffIndex.forEach((cutoff, measureIndex) =>
    (cutoffMembers[cutoff === -1 ? cutoffs.length : cutoff] as number[]).push(measureIndex),
  );
  const names = measures.map(formatMeasure);
  const template: Record<string, number> = {};
  for (const name of names) template[name] = Number.NaN; // a double, not a small integer: the fields hold doubles from the start
  const formulas = definitions.map((definition) => definition.formula);
  const parameters = measures.map((measure, index) =>
    (definitions[index] as { cutoff: string }).cutoff === 'parameter' ? measure.k : undefined,
  );
  return {
    measures,
    names,
    formulas,
    parameters,
    cutoffIndex,
    cutoffs,
    needsUncut: cutoffIndex.includes(-1),
    cutoffMembers,
    template,
  };
}

/** How many top ranks the plan reads: all of them when some measure is uncut, else its largest cutoff. */
export function ranksNeeded(plan: MeasurePlan, retrievedCount: number): number {
  if (plan.needsUncut || plan.cutoffs.length === 0) return plan.needsUncut ? retrievedCount : 0;
  return Math.min(retrievedCount, plan.cutoffs[plan.cutoffs.length - 1] as number);
}
