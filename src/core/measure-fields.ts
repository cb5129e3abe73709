// The named fields of evaluate()'s result, read from its `values` by canonical measure name: the one
// place that links the field names users know (`recallAtK`, `ndcgAtK`) to the measure table's names.
// A measure needs no field here: every measure of the table is in `values` (a field is a convenience,
// declared and documented in NamedMeasureFields, types.ts). One object literal, not a loop over a
// field list: evaluate() runs once per query, and storing fields by a name read from a list is several
// times slower than building them in place.
import type { EvaluationCounts, MeasureValues, RetrievalEvaluation } from './types.js';

export function evaluationOf(
  counts: EvaluationCounts,
  values: MeasureValues,
  unmatchedRelevantIds: string[],
): RetrievalEvaluation {
  return {
    k: counts.k,
    evaluatedAtK: counts.evaluatedAtK,
    retrievedCount: counts.retrievedCount,
    relevantCount: counts.relevantCount,
    truePositiveCount: counts.truePositiveCount,
    duplicateCount: counts.duplicateCount,
    precisionAtK: values.precision,
    recallAtK: values.recall,
    f1AtK: values.f1,
    hitAtK: values.hit,
    reciprocalRankAtK: values.mrr,
    ndcgAtK: values.ndcg,
    averagePrecisionAtK: values.map,
    judgedAtK: values.judged,
    rPrecision: values.rprec,
    bpref: values.bpref,
    values,
    unmatchedRelevantIds,
  };
}
