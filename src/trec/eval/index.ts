// The trec-eval engine: trec_eval 10's measures, output and query rules over TREC files, on one
// thread or several. The CLI's `trec-eval` command reads flags into a TrecEvalInvocation and makes
// one call, evaluateTrec; the errors it throws are in ../errors.ts.
export { evaluateTrec, type TrecEvalInvocation } from './evaluate.js';
export { MeasureSpecError, SUPPORTED_TREC_MEASURES, planTrecMeasures, type TrecMeasurePlan } from './measures.js';
