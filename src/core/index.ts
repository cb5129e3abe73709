export type { Hit, Relevance, KeySelector, KeyOptions, EvaluateOptions, RetrievalEvaluation } from './types.js';
export { stableKey, documentKeyOf, KEY_RULES } from './keys.js';
export { explainRanking, type RankedRow, type RankingExplanation } from './explain.js';
export {
  evaluate,
  evaluateMeasures,
  precisionAtK,
  recallAtK,
  f1AtK,
  hitAtK,
  ndcgAtK,
  reciprocalRank,
  averagePrecision,
  rPrecision,
} from './evaluate.js';
export {
  parseMeasure,
  formatMeasure,
  isBinaryMeasure,
  rankCutoffOf,
  VALID_MEASURE_FORMS,
  type Measure,
  type MeasureName,
  type MeasureSpelling,
} from './measures.js';
export { MEASURE_NAMES } from './measure-table.js';
export {
  wilsonInterval,
  bootstrapMeanInterval,
  meanInterval,
  signTest,
  pairedRandomizationTest,
  pairedTTest,
  pairedComparison,
  holmCorrection,
  DEFAULT_CONFIDENCE,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  type WilsonInterval,
  type BootstrapOptions,
  type BootstrapMeanInterval,
  type MeanIntervalOptions,
  type WilsonMeanInterval,
  type MeanInterval,
  type RandomizationTestOptions,
  type RandomizationTestResult,
  type PairedTTestResult,
  type PairedTestName,
  type PairedComparisonOptions,
  type PairedComparison,
} from './stats.js';
export { createRandom, randomInt, type Random } from './random.js';
export { planMeasures, type MeasurePlan } from './evaluate.js';
