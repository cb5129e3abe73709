// The HTML report (option `html`): one self-contained page drawn from the JSON report.
import { renderHtml } from '../html.js';
import { pathFormat } from './format.js';
import { jsonReportOf } from './json.js';

export const htmlFormat = pathFormat({
  name: 'html',
  title: 'the HTML report',
  exampleFile: 'rag-report.html',
  render: (input) => renderHtml(jsonReportOf(input)),
});
