// Sets of queries and runs: JSON Lines readers and writers, evaluation of a whole run, paired
// comparison of two evaluations, and running a retriever over a set. The TREC readers and writers
// are src/trec's (its barrel, src/trec/index.ts).
export {
  parseEvalSetJsonl,
  readEvalSetFile,
  formatEvalSetJsonl,
  parseRunJsonl,
  readRunJsonlFile,
  formatRunJsonl,
  toQrels,
  fromQrels,
  type EvalQuery,
  type EvalQueryRecord,
  type EvalSet,
  type JsonlRun,
  type JsonlParseOptions,
} from './jsonl.js';
export { DatasetFormatError, JsonlFormatError, type DatasetFormatErrorDetails } from './errors.js';
export {
  evaluateRun,
  isRunEvaluation,
  measureValues,
  rankTrecRun,
  type Run,
  type QuerySet,
  type EvaluateRunOptions,
  type MissingQueryPolicy,
  type RunEvaluation,
  type RunQueryCounts,
} from './evaluate-run.js';
export {
  compareEvaluations,
  DEFAULT_TOLERANCE,
  type CompareEvaluationsOptions,
  type MeasureComparison,
  type QueryChange,
  type RunComparison,
} from './compare-runs.js';
export {
  runRetriever,
  RetrieverError,
  type Retriever,
  type RetrieverContext,
  type RunRetrieverOptions,
  type RunRetrieverResult,
  type RetrieverFailure,
  type LatencySummary,
} from './run-retriever.js';
