// The Markdown report (option `markdown`): the table for a pull-request comment.
import { renderMarkdown } from '../markdown.js';
import { pathFormat, perInput, type ReportInput } from './format.js';

/** The Markdown text of a run, rendered once and shared with the step summary. */
export const markdownOf: (input: ReportInput) => string = perInput((input) =>
  renderMarkdown(input.summary, input.markdownOptions),
);

export const markdownFormat = pathFormat({
  name: 'markdown',
  title: 'the Markdown report',
  exampleFile: 'rag-report.md',
  render: markdownOf,
});
