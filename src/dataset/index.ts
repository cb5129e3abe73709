// Sets of queries and runs: readers and writers (TREC, JSON Lines), evaluation of a whole run,
// paired comparison of two evaluations, and running a retriever over a set.
export {
  parseQrels,
  readQrelsFile,
  formatQrels,
  writeQrelsFile,
  parseRun,
  readRunFile,
  streamRunByQuery,
  formatRun,
  writeRunFile,
  type Qrels,
  type RunEntry,
  type TrecRun,
  type TrecParseOptions,
  type RunQueryGroup,
  type RunStreamSource,
  type FormatRunOptions,
} from './trec.js';
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
export { DatasetFormatError, TrecFormatError, JsonlFormatError, type DatasetFormatErrorDetails } from './errors.js';
export { writeFileAtomic, writeFileAtomicSync } from './atomic-write.js';
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
  nearestRankPercentile,
  RetrieverError,
  type Retriever,
  type RetrieverContext,
  type RunRetrieverOptions,
  type RunRetrieverResult,
  type RetrieverFailure,
  type LatencySummary,
} from './run-retriever.js';
