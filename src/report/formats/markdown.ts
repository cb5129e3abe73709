// The Markdown report (option `markdown`): the table for a pull-request comment.
import { renderMarkdown } from '../markdown.js';
import { catalogueFileFormat, perInput, type ReportInput } from './report-format.js';

/** The Markdown text of a run, rendered once and shared with the step summary. */
export const markdownOf: (input: ReportInput) => string = perInput((input) =>
  renderMarkdown(input.summary, input.markdownOptions),
);

export const markdownFormat = catalogueFileFormat('markdown', markdownOf);
