export type { Hit, Relevance, KeySelector, KeyOptions, EvaluateOptions, RetrievalEvaluation } from './types.js';
export { stableKey, documentKeyOf, KEY_RULES } from './keys.js';
export { prepareJudgments, type Judgments, type JudgmentOptions } from './relevance.js';
export { compareUtf8, rankedKeys, judgeRanking, collapseToDocuments, type JudgedRanking } from './ranking.js';
export { explainRanking, type RankedRow, type RankingExplanation } from './explain.js';
export { measureAtCutoff, type MeasuresAtCutoff } from './metrics.js';
export {
  evaluate,
  evaluateMeasures,
  measureJudged,
  judgeHits,
  validateK,
  precisionAtK,
  recallAtK,
  f1AtK,
  hitAtK,
  ndcgAtK,
  reciprocalRank,
  averagePrecision,
  rPrecision,
} from './evaluate.js';
export { parseMeasure, formatMeasure, isBinaryMeasure, VALID_MEASURE_FORMS, type Measure, type MeasureName } from './measures.js';
