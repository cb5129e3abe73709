// `rag-matchers`: what a test author needs — the matchers, the retrieval measures, evaluating and comparing
// a set of queries, and the answer checks. The rest of the public API sits in named entries (src/entries/):
// rag-matchers/trec (file formats), /stats (intervals and paired tests), /generation (the answer checks'
// building blocks), /report (summaries, renderers, the baseline file). Every export of every entry is
// pinned by test/package/exports.test.ts; docs/architecture.md says how the entries are chosen.
export { matchers } from '../matchers/index.js';
export type * from '../matchers/index.js';

// One ranking against its judgments.
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
  explainRanking,
  parseMeasure,
  formatMeasure,
  isBinaryMeasure,
  VALID_MEASURE_FORMS,
  stableKey,
  documentKeyOf,
  KEY_RULES,
  planMeasures,
  type MeasurePlan,
  type Hit,
  type Relevance,
  type KeySelector,
  type KeyOptions,
  type EvaluateOptions,
  type RetrievalEvaluation,
  type RankedRow,
  type RankingExplanation,
  type Measure,
  type MeasureName,
  type MeasureSpelling,
} from './core/index.js';

// A set of queries: load it, run the retriever over it, evaluate and compare the runs.
export {
  readEvalSetFile,
  parseEvalSetJsonl,
  runRetriever,
  RetrieverError,
  evaluateRun,
  isRunEvaluation,
  measureValues,
  compareEvaluations,
  DEFAULT_TOLERANCE,
  DatasetFormatError,
  JsonlFormatError,
  type EvalQuery,
  type EvalQueryRecord,
  type EvalSet,
  type JsonlParseOptions,
  type DatasetFormatErrorDetails,
  type Retriever,
  type RetrieverContext,
  type RunRetrieverOptions,
  type RunRetrieverResult,
  type RetrieverFailure,
  type LatencySummary,
  type Run,
  type QuerySet,
  type EvaluateRunOptions,
  type MissingQueryPolicy,
  type RunEvaluation,
  type RunQueryCounts,
  type CompareEvaluationsOptions,
  type MeasureComparison,
  type QueryChange,
  type RunComparison,
} from './dataset/index.js';

// A labelled file is the suite: one test per question, its measures, latency and calls recorded.
export {
  describeRetrieval,
  type DescribeRetrievalOptions,
  type RetrievalContext,
  type RetrievalMeasures,
  type QuestionSource,
} from './suite/index.js';

// The answer: faithfulness to the context, citations, abstention, judges.
export {
  faithfulness,
  checkCitations,
  extractCitations,
  detectAbstention,
  openAiCompatibleJudge,
  validateJudgeResult,
  JudgeError,
  type ContextPassage,
  type FaithfulnessContexts,
  type FaithfulnessOptions,
  type FaithfulnessResult,
  type SentenceSupport,
  type SkippedSentence,
  type Citation,
  type CitationKind,
  type CitationExtractor,
  type CheckedCitation,
  type CitationCheckOptions,
  type CitationCheckResult,
  type AbstentionOptions,
  type AbstentionResult,
  type RagJudge,
  type JudgeInput,
  type JudgeResult,
  type JudgeErrorKind,
  type JudgeErrorDetails,
  type OpenAiCompatibleJudgeOptions,
} from './generation/index.js';

// Latency and calls beside quality: time a question's retrieval, count the calls it makes by kind.
export { timeRetrieval, countCall, withCallCount, type TimeRetrievalOptions } from './recording/timing.js';
export type { LatencyBudget } from './recording/sample.js';

// Reporter options, typed: `reporters: ['default', ragVitestReporter({ baseline: 'rag-baseline.json', measures: […] })]`.
export {
  defineRagOptions,
  ragVitestReporter,
  ragJestReporter,
  type RagReporterOptions,
  type ReporterEntryOptions,
  type MeasureDeclaration,
  type SuiteDeclaration,
} from './gate/reporter-options.js';
