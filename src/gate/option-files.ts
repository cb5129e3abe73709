// The files the reporter options name (the baseline and each report), checked together when the
// options are resolved, so that no run overwrites a file it should not: two options naming one file
// (after `..` and symlinks are resolved), a report path naming an existing file that is not a report
// of its kind that rag-matchers wrote (a test file, a README), and a named pipe, socket or device
// (reading a named pipe waits forever) are refused before any test runs.
import { readFileSync } from 'node:fs';

import { BaselineError } from '../baseline/file/errors.js';
import { readBaselineSync } from '../baseline/file/read.js';
import { specialFileKind } from '../files/file-kind.js';
import { realPathOfSync } from '../files/real-path.js';
import { REPORT_CATALOGUE, type ReportFileOption } from '../report/formats/catalogue.js';
import { DEFAULT_BASELINE_PATH } from './user-options.js';

/** One option that names a file: its name, the path as written, and the absolute path. */
interface OptionFile {
  option: 'baseline' | ReportFileOption;
  given: string;
  path: string;
}

/** Whether a file's text is a report of that format written by rag-matchers (what a run may overwrite). */
const OUR_REPORT: Record<ReportFileOption, (text: string) => boolean> = {
  json: (text) => {
    try {
      const report = JSON.parse(text) as { generatedBy?: unknown; kind?: unknown } | null;
      return report?.generatedBy === 'rag-matchers' && report.kind === 'retrieval-report';
    } catch {
      return false;
    }
  },
  // renderMarkdown starts every report with its `### ` title.
  markdown: (text) => text.startsWith('### '),
  html: (text) => text.includes('<meta name="generator" content="rag-matchers">'),
};

const exampleFileOf = (option: OptionFile['option']): string =>
  option === 'baseline' ? DEFAULT_BASELINE_PATH : REPORT_CATALOGUE[option].exampleFile;

const titleOf = (option: OptionFile['option']): string =>
  option === 'baseline' ? 'the baseline' : REPORT_CATALOGUE[option].title;

/** The first problem with the files the options name, as one sentence after `source: `; undefined when there is none. */
export function optionFilesProblem(files: readonly OptionFile[]): string | undefined {
  for (const file of files) {
    const kind = specialFileKind(file.path);
    if (kind !== undefined)
      return `${file.option} names ${JSON.stringify(file.given)}, which is ${kind}, not a regular file; name a file such as ${exampleFileOf(file.option)}.`;
  }
  const seen = new Map<string, OptionFile>();
  for (const file of files) {
    const real = realPathOr(file.path);
    const first = seen.get(real);
    if (first !== undefined) {
      const where = real === file.path && real === first.path ? '' : ` (${real})`;
      return (
        `${first.option} and ${file.option} name one file, ${JSON.stringify(file.given)}${where}: ${titleOf(file.option)} would overwrite ${titleOf(first.option)}. ` +
        `Give ${titleOf(file.option)} a file of its own, such as ${exampleFileOf(file.option)}.`
      );
    }
    seen.set(real, file);
  }
  for (const file of files) {
    if (file.option !== 'baseline' && isForeignFile(file.option, file.path))
      return (
        `${file.option} names ${JSON.stringify(file.given)}, an existing file that is not ${titleOf(file.option)} rag-matchers writes, and a run would overwrite it. ` +
        `Name a new file such as ${exampleFileOf(file.option)}, or delete this one if it is an old report.`
      );
  }
  return undefined;
}

/**
 * True when `path` holds a file that rag-matchers did not write for `option` (told by its content), so a
 * run must not overwrite it. A report is ours when it is one of its format; a baseline is foreign only
 * when it parses and is not a baseline: a damaged one (empty, not JSON, conflict markers, too old) is
 * ours, and the end of the run diagnoses it. No file, or one that cannot be read, is not foreign.
 */
export function isForeignFile(option: OptionFile['option'], path: string): boolean {
  if (option === 'baseline') {
    try {
      readBaselineSync(path);
      return false;
    } catch (error) {
      return error instanceof BaselineError && error.kind === 'not-a-baseline';
    }
  }
  const text = existingText(path);
  return text !== undefined && !OUR_REPORT[option](text);
}

/** The real path of `path`, or `path` itself when it cannot be told (ENOTDIR, ELOOP: the write will say why). */
function realPathOr(path: string): string {
  try {
    return realPathOfSync(path);
  } catch {
    return path;
  }
}

/** The text of the regular file at `path`; undefined when there is none (or it cannot be read: the write will say why). */
function existingText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
