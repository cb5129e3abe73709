// The declarative suite: a labelled file is the suite (describeRetrieval), and what the runners' setup
// files register for it.
export {
  describeRetrieval,
  type DescribeRetrievalOptions,
  type RetrievalContext,
  type RetrievalMeasures,
} from './describe-retrieval.js';
export type { QuestionSource } from './questions.js';
export { registerSuiteRuntime, type SuiteRuntime } from './runtime.js';
