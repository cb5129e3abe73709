// A test usually asserts several measures of one ranking (`toHaveHitAtK`, then `toHaveRecallAtK`, then
// `toHaveNdcgAtK` on the same hits). The first of those calls measures every declared measure of the
// question; a later call whose measure is among them, given the same hits, judgments and options, takes
// the value already measured instead of judging the hits again. "The same" is checked element by element
// against a copy taken at the first call, so a list changed in between (sorted, pushed to, filtered) is
// judged again; hit objects are compared by reference (one changed in place is not seen), and judgments
// other than a list of ids are always judged again.
import type { Hit, Relevance } from '../core/types.js';

/** What a matcher call measures from: its hits, its judgments, and the core's options (undefined: none but k). */
export interface MeasuredInputs {
  hits: readonly Hit[];
  relevant: Relevance;
  coreOptions: Readonly<Record<string, unknown>> | undefined;
}

/** The inputs of a first measurement, copied, with the values it measured. */
export interface MeasuredSnapshot {
  hits: readonly Hit[];
  relevant: readonly unknown[];
  coreOptions: Readonly<Record<string, unknown>> | undefined;
  values: Readonly<Record<string, number>>;
}

/** A copy of `inputs` with the values measured from them; undefined when the judgments are not a list (never reused). */
export function snapshotOf(
  inputs: MeasuredInputs,
  values: Readonly<Record<string, number>>,
): MeasuredSnapshot | undefined {
  if (!Array.isArray(inputs.relevant)) return undefined;
  return {
    hits: inputs.hits.slice(),
    relevant: (inputs.relevant as readonly unknown[]).slice(),
    coreOptions: inputs.coreOptions === undefined ? undefined : { ...inputs.coreOptions },
    values,
  };
}

/** The value of `measure` measured from inputs equal to `inputs`; undefined when they differ or it was not measured. */
export function valueMeasuredBefore(
  snapshot: MeasuredSnapshot,
  measure: string,
  inputs: MeasuredInputs,
): number | undefined {
  if (!Object.hasOwn(snapshot.values, measure)) return undefined;
  if (!Array.isArray(inputs.relevant)) return undefined;
  if (!sameItems(snapshot.hits, inputs.hits) || !sameItems(snapshot.relevant, inputs.relevant as readonly unknown[]))
    return undefined;
  if (!sameOptions(snapshot.coreOptions, inputs.coreOptions)) return undefined;
  return snapshot.values[measure];
}

function sameItems(kept: readonly unknown[], given: readonly unknown[]): boolean {
  if (kept.length !== given.length) return false;
  for (let index = 0; index < kept.length; index++) if (kept[index] !== given[index]) return false;
  return true;
}

function sameOptions(
  kept: Readonly<Record<string, unknown>> | undefined,
  given: Readonly<Record<string, unknown>> | undefined,
): boolean {
  if (kept === undefined || given === undefined) return kept === given;
  const keptNames = Object.keys(kept);
  if (keptNames.length !== Object.keys(given).length) return false;
  return keptNames.every((name) => Object.hasOwn(given, name) && kept[name] === given[name]);
}
