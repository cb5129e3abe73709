// The baseline file: schema, atomic store, merging and the per-row comparison.
export {
  BASELINE_GENERATED_BY,
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
export { compareIdentities, formatBaseline, writeBaseline, writeBaselineSync } from './file/write.js';
export { findJsonErrorOffset, findRepeatedKey } from '../files/json-text.js';
export {
  baselineFromRun,
  describeUpdate,
  filesOfRun,
  mergeBaseline,
  updateBaseline,
  type BaselineEntryRef,
  type MergeOptions,
  type MergeResult,
  type UpdateBaselineOptions,
  type UpdateBaselineResult,
} from './store.js';
export { findRenamedSuites, isCovered, type FileCoverage } from './identity.js';
export {
  DEFAULT_TOLERANCE,
  canonicalMeasure,
  compareIds,
  resolveTolerance,
  toleranceFor,
  type ResolvedTolerance,
  type RowComparison,
  type SampleChange,
  type ToleranceOption,
} from './compare.js';
export { assignOrdinals, groupRun, type GroupedRow, type GroupedRun } from './group.js';
