// The baseline file: schema, atomic store, merging and the per-row comparison.
export {
  BASELINE_GENERATED_BY,
  BASELINE_SCHEMA_VERSION,
  BaselineError,
  compareIdentities,
  emptyBaseline,
  findJsonErrorOffset,
  findRepeatedKey,
  formatBaseline,
  parseBaseline,
  validateBaseline,
  type BaselineErrorKind,
  type BaselineFile,
  type BaselineSamples,
  type BaselineSuite,
} from './schema.js';
export {
  baselineFromRun,
  describeUpdate,
  filesOfRun,
  mergeBaseline,
  readBaseline,
  readBaselineAhead,
  readBaselineSync,
  updateBaseline,
  writeBaseline,
  writeBaselineSync,
  type BaselineEntryRef,
  type BaselineReadAhead,
  type MergeOptions,
  type MergeResult,
  type UpdateBaselineOptions,
  type UpdateBaselineResult,
} from './store.js';
export {
  findRenamedSuites,
  isCovered,
  resolveLegacySuites,
  type FileCoverage,
  type LegacyResolution,
} from './identity.js';
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
