// `rag-matchers/report`: what the reporters do at the end of a run, to script it — the samples the
// matchers recorded, the summary against a baseline, the console/Markdown/JSON/HTML renderers, and the
// baseline file (read, validate, write, update).
export { TASK_META_KEY, type MetricSample } from '../recording/sample.js';
export { suiteIdOf, sampleIdOf, type CollectedRun, type CollectedSample } from '../recording/collected.js';
export {
  summarize,
  type SummaryOptions,
  type RunSummary,
  type SummaryRow,
  type MissingRow,
  type RowStatus,
  type RowInterval,
  type RowComparison,
  type SampleChange,
  type TagRow,
  type TagChange,
} from '../report/summary.js';
export { renderConsole, type ConsoleRenderOptions } from '../report/console.js';
export { renderMarkdown, type MarkdownRenderOptions } from '../report/markdown.js';
export {
  renderJson,
  formatJsonReport,
  REPORT_SCHEMA_VERSION,
  type JsonReport,
  type JsonReportRow,
  type JsonReportSample,
  type JsonReportTagRow,
} from '../report/json.js';
export { writeReports, type WriteReportsOptions, type WrittenReports } from '../report/write.js';
export {
  renderHtml,
  writeHtmlReport,
  parseJsonReport,
  validateJsonReport,
  ReportFormatError,
  type HtmlRenderOptions,
} from '../report/html/run-report.js';
export { DEFAULT_BASELINE_PATH } from '../gate/user-options.js';
export {
  readBaseline,
  readBaselineSync,
  parseBaseline,
  validateBaseline,
  formatBaseline,
  writeBaseline,
  writeBaselineSync,
  emptyBaseline,
  baselineFromRun,
  mergeBaseline,
  updateBaseline,
  BaselineError,
  BASELINE_SCHEMA_VERSION,
  type BaselineFile,
  type BaselineSuite,
  type BaselineSamples,
  type BaselineSampleAudits,
  type SampleAudit,
  type BaselineErrorKind,
  type MergeOptions,
  type MergeResult,
  type UpdateBaselineOptions,
  type UpdateBaselineResult,
} from '../baseline/index.js';
