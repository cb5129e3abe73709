// Writing the reports of a run: every format in the list (./formats/index.ts) that the options turn on,
// each replaced atomically (temp file + rename, parent folders created) or, for the step summary,
// appended to. Neither this module nor the end of a run (src/gate/finish.ts) knows a format by name.
import fs from 'node:fs';
import path from 'node:path';

import { writeFileAtomic } from '../files/atomic-write.js';
import type { CollectedRun } from '../recording/collected.js';
import type { ReportFileOptions, WrittenReports } from './formats/catalogue.js';
import { REPORT_FORMATS, type ReportFormat, type ReportInput, type ReportPlace } from './formats/index.js';
import type { MarkdownRenderOptions } from './markdown.js';
import type { RunSummary } from './summary.js';

/**
 * One option per format of the catalogue (./formats/catalogue.ts): `json`, `markdown`, `html` (a path
 * relative to rootDir; false or absent: none) and `githubStepSummary` (append the Markdown report to
 * $GITHUB_STEP_SUMMARY when that is set; default true), and where and what to write.
 */
export interface WriteReportsOptions extends ReportFileOptions {
  /** Base of relative paths. Default process.cwd(). */
  rootDir?: string;
  /** Environment to read GITHUB_STEP_SUMMARY from. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Passed to renderMarkdown (and acceptCommand to renderJson). */
  markdownOptions?: MarkdownRenderOptions;
  /** The collected run (for the list of files in the JSON report). */
  run?: Pick<CollectedRun, 'files'>;
}

export type { WrittenReports } from './formats/catalogue.js';

/** A format that is on, and the file it goes to. */
export interface PlannedReport {
  format: ReportFormat;
  target: string;
}

/** The formats of `formats` that `place` turns on, with their files, in list order. Throws a TypeError naming a bad option before anything is written. */
export function plannedReports(formats: readonly ReportFormat[], place: ReportPlace): PlannedReport[] {
  return formats.flatMap((format) => {
    const target = format.target(place);
    return target === undefined ? [] : [{ format, target }];
  });
}

/** Renders one report and writes it: atomically, creating the parent folders, or appended to its file. */
export async function writeReport({ format, target }: PlannedReport, input: ReportInput): Promise<void> {
  const text = format.render(input);
  if (format.append === true) {
    await fs.promises.appendFile(target, text, 'utf8');
    return;
  }
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  await writeFileAtomic(target, text);
}

/**
 * Writes the JSON, Markdown and HTML reports atomically (temp file + rename; parent directories created)
 * and appends the Markdown report to $GITHUB_STEP_SUMMARY when set. The step summary is appended to, not
 * replaced: GitHub gives each step that file to add to, and other tools may have written to it already.
 */
export async function writeReports(
  summary: RunSummary,
  run: Pick<CollectedRun, 'files'> | undefined,
  options: WriteReportsOptions = {},
): Promise<WrittenReports> {
  return writeReportsOf(REPORT_FORMATS, summary, run, options);
}

/** writeReports with the list of formats given (a test adds one of its own). */
export async function writeReportsOf(
  formats: readonly ReportFormat[],
  summary: RunSummary,
  run: Pick<CollectedRun, 'files'> | undefined,
  options: WriteReportsOptions = {},
): Promise<WrittenReports> {
  const planned = plannedReports(formats, {
    options,
    rootDir: options.rootDir ?? process.cwd(),
    env: options.env ?? process.env,
  });
  const input: ReportInput = { summary, run: run ?? options.run, markdownOptions: options.markdownOptions };
  const written: Record<string, string> = {};
  for (const report of planned) {
    await writeReport(report, input);
    written[report.format.name] = report.target;
  }
  return written as WrittenReports;
}
