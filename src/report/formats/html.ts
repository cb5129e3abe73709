// The HTML report (option `html`): one self-contained page drawn from the JSON report.
import { renderHtml } from '../html/run-report.js';
import { catalogueFileFormat } from './report-format.js';
import { jsonReportOf } from './json.js';

export const htmlFormat = catalogueFileFormat('html', (input) => renderHtml(jsonReportOf(input)));
