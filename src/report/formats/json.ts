// The JSON report (option `json`): every row with its samples, for CI artifacts, dashboards and the HTML report.
import { renderJson, formatJsonReport, type JsonReport } from '../json.js';
import { catalogueFileFormat, perInput, type ReportInput } from './report-format.js';

/** The report object of a run, made once and shared with the HTML format. */
export const jsonReportOf: (input: ReportInput) => JsonReport = perInput((input) =>
  renderJson(input.summary, input.run, input.markdownOptions?.acceptCommand),
);

export const jsonFormat = catalogueFileFormat('json', (input) => formatJsonReport(jsonReportOf(input)));
