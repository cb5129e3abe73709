// The baseline file: schema, atomic store, merging and the per-row comparison.
export {
  BASELINE_SCHEMA_VERSION,
  emptyBaseline,
  type BaselineFile,
  type BaselineSamples,
  type BaselineSuite,
  type BaselineSampleAudits,
  type SampleAudit,
} from './file/types.js';
export { BaselineError, type BaselineErrorKind } from './file/errors.js';
export {
  parseBaseline,
  readBaseline,
  readBaselineAhead,
  readBaselineSync,
  validateBaseline,
  type BaselineReadAhead,
} from './file/read.js';
export { formatBaseline, writeBaseline, writeBaselineSync } from './file/write.js';
export {
  baselineFromRun,
  describeUpdate,
  mergeBaseline,
  updateBaseline,
  type MergeOptions,
  type MergeResult,
  type UpdateBaselineOptions,
  type UpdateBaselineResult,
} from './store.js';
