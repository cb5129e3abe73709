// The interface every report format (JSON, Markdown, the GitHub step summary, HTML, …) implements: where
// it goes for the given options, and its text; its name, title and example file come from ./catalogue.ts.
// writeReports (src/report/write.ts) and the end of a run (src/gate/finish.ts) loop over the list in
// ./index.ts and know no format by name.
import path from 'node:path';

import type { CollectedRun } from '../../recording/collected.js';
import type { MarkdownRenderOptions } from '../markdown.js';
import type { RunSummary } from '../summary.js';
import { REPORT_CATALOGUE, type ReportFileOption, type ReportFormatName } from './catalogue.js';

/** What a format renders. One object per run: formats that share a rendering cache it on this object. */
export interface ReportInput {
  summary: RunSummary;
  /** The collected run (for the list of files that ran). */
  run?: Pick<CollectedRun, 'files'>;
  /** maxWorse, acceptCommand, … (the JSON report takes acceptCommand from here too). */
  markdownOptions?: MarkdownRenderOptions;
}

/** Where reports go: the options (as given to writeReports, or the resolved reporter options), the root, the environment. */
export interface ReportPlace {
  /** Read by name: a path format reads `options[format.name]`. */
  options: object;
  /** Base of relative paths. */
  rootDir: string;
  env: Record<string, string | undefined>;
}

export interface ReportFormat {
  /**
   * Its key in WrittenReports. For a format written to a file the user names (`path: true`), also the
   * option that names it: reporter option, writeReports option, `rag-matchers merge --<name>`.
   */
  readonly name: string;
  /** What it is, for messages and help: "the Markdown report". */
  readonly title: string;
  /** True when option `name` is the path of the file (a string, or false for none). */
  readonly path: boolean;
  /** A file name to suggest in messages, e.g. "rag-report.md". */
  readonly exampleFile: string;
  /** The absolute path this run's report goes to, or undefined when the format is off. Throws a TypeError naming the option for a bad value. */
  target(place: ReportPlace): string | undefined;
  /** How messages name it: "the Markdown report /repo/rag-report.md". */
  describe(target: string): string;
  /** The text to write. */
  render(input: ReportInput): string;
  /** Add to the end of the file (the step summary) instead of replacing it atomically. */
  readonly append?: boolean;
}

/** A format written to the file that option `name` names (relative to the root), replaced atomically. */
export function pathFormat(spec: {
  name: string;
  /** "the JSON report" */
  title: string;
  exampleFile: string;
  render: (input: ReportInput) => string;
}): ReportFormat {
  return {
    name: spec.name,
    title: spec.title,
    path: true,
    exampleFile: spec.exampleFile,
    target: ({ options, rootDir }) => {
      const value = (options as Record<string, unknown>)[spec.name];
      if (value === undefined || value === false) return undefined;
      if (typeof value !== 'string' || value.trim() === '') {
        throw new TypeError(
          `${spec.name} must be a file path such as "${spec.exampleFile}" (or false for none), got ${JSON.stringify(value)}.`,
        );
      }
      return path.resolve(rootDir, value);
    },
    describe: (target) => `${spec.title} ${target}`,
    render: spec.render,
  };
}

/** The format of the catalogue's entry `name` written to the file that option names. */
export function catalogueFileFormat(name: ReportFileOption, render: (input: ReportInput) => string): ReportFormat {
  return pathFormat({ name, ...REPORT_CATALOGUE[name], render });
}

/** The catalogue's name, title and example file of format `name`, for a format that is not written to a path. */
export function catalogueEntry(name: ReportFormatName): Pick<ReportFormat, 'name' | 'title' | 'path' | 'exampleFile'> {
  return { name, ...REPORT_CATALOGUE[name] };
}

/** `compute(input)` once per input object: for renderings that more than one format uses. */
export function perInput<T>(compute: (input: ReportInput) => T): (input: ReportInput) => T {
  const cache = new WeakMap<ReportInput, T>();
  return (input) => {
    if (cache.has(input)) return cache.get(input)!;
    const value = compute(input);
    cache.set(input, value);
    return value;
  };
}
