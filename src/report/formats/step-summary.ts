// The Markdown report appended to $GITHUB_STEP_SUMMARY (option `githubStepSummary`, default true), when
// that variable is set. Appended, not replaced: GitHub gives each step that file to add to, and other
// tools may have written to it already.
import { catalogueEntry, type ReportFormat } from './report-format.js';
import { markdownOf } from './markdown.js';

export const stepSummaryFormat: ReportFormat = {
  ...catalogueEntry('githubStepSummary'),
  target: ({ options, env }) => {
    const wanted = (options as { githubStepSummary?: unknown }).githubStepSummary ?? true;
    const file = env.GITHUB_STEP_SUMMARY;
    return wanted !== false && file !== undefined && file !== '' ? file : undefined;
  },
  describe: (target) => `$GITHUB_STEP_SUMMARY (${target})`,
  render: (input) => `${markdownOf(input)}\n`,
  append: true,
};
