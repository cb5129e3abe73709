// The catalogue of report formats: each one's name, what messages call it, whether the user names its
// file, and a file name to suggest. The option names (REPORT_FILE_OPTIONS, the reporter options
// json/markdown/html), writeReports' options and its result type are derived from this table. It holds
// no renderer, so that checking the options does not load every renderer; the renderers are the
// modules of this folder, listed in ./index.ts (test/unit/report/formats.test.ts checks both agree).

export const REPORT_CATALOGUE = {
  json: { title: 'the JSON report', path: true, exampleFile: 'rag-report.json' },
  markdown: { title: 'the Markdown report', path: true, exampleFile: 'rag-report.md' },
  githubStepSummary: {
    title: 'the Markdown report in $GITHUB_STEP_SUMMARY',
    path: false,
    exampleFile: 'step-summary.md',
  },
  html: { title: 'the HTML report', path: true, exampleFile: 'rag-report.html' },
} as const satisfies Record<string, { title: string; path: boolean; exampleFile: string }>;

/** Every format, in the order a run writes them. */
export type ReportFormatName = keyof typeof REPORT_CATALOGUE;

/** The formats written to a file whose path the user gives as an option of the same name. */
export type ReportFileOption = {
  [Name in ReportFormatName]: (typeof REPORT_CATALOGUE)[Name]['path'] extends true ? Name : never;
}[ReportFormatName];

/** The options that name a report file, each with a file name to suggest: `{ json: 'rag-report.json', … }`. */
export const REPORT_FILE_OPTIONS = Object.fromEntries(
  Object.entries(REPORT_CATALOGUE)
    .filter(([, entry]) => entry.path)
    .map(([name, entry]) => [name, entry.exampleFile]),
) as { readonly [Name in ReportFileOption]: (typeof REPORT_CATALOGUE)[Name]['exampleFile'] };

/** The formats turned on or off by a boolean option of the same name (the step summary: default on). */
type ReportSwitchOption = Exclude<ReportFormatName, ReportFileOption>;

/** One option per report file: its path (relative to the project root), or false (or absent) for none. */
export type ReportFileOptions = { [Name in ReportFileOption]?: string | false } & {
  [Name in ReportSwitchOption]?: boolean;
};

/** What writeReports wrote: for each format written, the absolute path of its file (the step summary: the file appended to). */
export type WrittenReports = { [Name in ReportFormatName]?: string };
