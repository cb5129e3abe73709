// The trec-eval engine: trec_eval 10's measures, output and query rules over TREC files, on one
// thread or several. The CLI's `trec-eval` command reads flags into a TrecEvalInvocation and makes
// one call, evaluateTrec (or, for preference judgments, -R prefs, evaluatePreferences); the errors
// it throws are in ../errors.ts.
export { evaluateTrec, type TrecEvalInvocation } from './evaluate.js';
export { MeasureSpecError, SUPPORTED_TREC_MEASURES, planTrecMeasures, type TrecMeasurePlan } from './measures.js';
export { evaluatePreferences, planPreferenceMeasures, type PreferenceInvocation } from './prefs-evaluate.js';
export type { PreferenceFormat } from './prefs-read.js';
export { PREFERENCE_MEASURES } from './prefs-measures.js';
export { evaluateJudgmentGroups, planJudgmentGroupMeasures, type JudgmentGroupInvocation } from './judgment-groups.js';
