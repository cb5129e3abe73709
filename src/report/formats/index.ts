// Every report format, in the order a run writes them. A new format is a module in this folder
// (a ReportFormat, see ./report-format.ts), an entry in ./catalogue.ts and one here.
import type { ReportFormat } from './report-format.js';
import { htmlFormat } from './html.js';
import { jsonFormat } from './json.js';
import { markdownFormat } from './markdown.js';
import { stepSummaryFormat } from './step-summary.js';

export const REPORT_FORMATS: readonly ReportFormat[] = [jsonFormat, markdownFormat, stepSummaryFormat, htmlFormat];

/** The names of the formats written to a path the user names: reporter options and `merge` flags. */
export const REPORT_PATH_OPTIONS: readonly string[] = REPORT_FORMATS.filter((format) => format.path).map(
  (format) => format.name,
);

export type { ReportFormat, ReportInput, ReportPlace } from './report-format.js';
