// The end of a run, the same for the Vitest reporter, the Jest reporter and `rag-matchers merge`: read
// the baseline, summarise, print the table, write the reports, update the baseline when asked (never
// under CI), and say whether the gate passed. The runner-specific parts (collecting the run, printing,
// setting the exit code) stay in the callers.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { wordFor } from '../core/present.js';
import {
  BaselineError,
  describeUpdate,
  readBaseline,
  readBaselineAhead,
  type BaselineReadAhead,
} from '../baseline/index.js';
import { updateBaselineWithDiff } from '../baseline/store.js';
import type { CollectedRun } from '../recording/collected.js';
import { renderConsole } from '../report/console.js';
import { UPDATING_NOTE } from '../report/verdict.js';
import { annotationsShown, workflowAnnotations, workspaceFolder } from './annotations.js';
import { REPORT_FORMATS, type ReportFormat, type ReportInput } from '../report/formats/index.js';
import { DEFAULT_BASELINE_PATH } from './user-options.js';
import { summaryOptionsFrom, type ResolvedReporterOptions } from './options.js';
import { summarizeDiff, type IntervalCache, type RunSummary } from '../report/summary.js';
import { diffRun, prepareRun } from '../baseline/diff.js';
import { plannedReports, writeReport } from '../report/write.js';

export interface FinishContext {
  /** The project root: report paths and test files are relative to it. */
  rootDir: string;
  options: ResolvedReporterOptions;
  /** Where the report goes (a line at a time, without the newline). */
  print: (text: string) => void;
  /** Where errors go. */
  printError: (text: string) => void;
  color: boolean;
  env?: Record<string, string | undefined>;
  /**
   * When the gate fails, return the report's last line (how to accept the change) in `lastLine`
   * instead of printing it, for a runner that prints its own summary after the reporters (Jest) and
   * prints this line after that.
   */
  holdLastLine?: boolean;
  /** Lines the caller adds to the report, printed with the baseline and CI notices before the last line. */
  notes?: readonly string[];
  /** The report formats to write, each when its option turns it on. Default: all of them (REPORT_FORMATS). */
  formats?: readonly ReportFormat[];
  /** The baseline (options.baselinePath) read while the tests ran; read here when absent. */
  baseline?: BaselineReadAhead;
  /** Where GitHub Actions annotations go: the runner reads workflow commands from stdout. Default `print`. */
  printAnnotations?: (text: string) => void;
  /** Intervals the caller worked out while the tests ran (precomputeIntervals), for the summary to take. */
  intervals?: IntervalCache;
}

export interface FinishResult {
  /** True when the run must fail: a regression (or new questions with failOnNew), or an unusable baseline. */
  failed: boolean;
  /** One line saying why, for runners that want an Error message. */
  reason?: string;
  summary?: RunSummary;
  /** True when the baseline file was written. */
  baselineWritten: boolean;
  /** With holdLastLine, on a failed gate: the line still to print, last. */
  lastLine?: string;
}

export const PREFIX = 'rag-matchers:';

/** For the reporters: start reading the baseline while the tests run, then hand it to finishRun. */
export { readBaselineAhead, type BaselineReadAhead };

function baselineProblem(error: unknown, options: ResolvedReporterOptions): string | undefined {
  if (!(error instanceof BaselineError)) return undefined;
  return `${PREFIX} cannot use the baseline ${options.baselineDisplayPath}: ${error.problem}`;
}

/** Reads the baseline, summarises `run`, prints and writes the reports, updates the baseline when asked. */
export async function finishRun(run: CollectedRun, context: FinishContext): Promise<FinishResult> {
  const { options, print, printError } = context;
  const env = context.env ?? process.env;

  let baseline;
  try {
    baseline = await (context.baseline?.current() ?? readBaseline(options.baselinePath));
  } catch (error) {
    const problem = baselineProblem(error, options);
    if (problem === undefined) throw error;
    printError(problem);
    return { failed: true, reason: problem, baselineWritten: false };
  }

  // The run is grouped and diffed against the baseline once: the summary reads the diff, an update applies it.
  const summaryOptions = { ...summaryOptionsFrom(options), intervals: context.intervals };
  const prepared = prepareRun(run, summaryOptions.fileExists);
  const diff = diffRun(prepared, baseline, { tolerance: options.tolerance });
  const summary = summarizeDiff(prepared, diff, summaryOptions);
  const text = renderConsole(summary, {
    color: context.color,
    maxWorse: options.maxWorse,
    acceptCommand: options.acceptCommand,
  });
  const lines = text.split('\n');
  // What this adds (baseline updated, CI notice) goes before the report's last line, so that on a
  // regression the very last line still says how to accept the change.
  let last = lines.length > 1 ? lines.pop() : undefined;
  while (lines.at(-1) === '') lines.pop();
  const extra: string[] = [];

  // A report or baseline that cannot be written (read-only folder, a path naming a folder, a full disk)
  // fails the run, with a line on stderr naming the file and the reason: a CI step or a script that
  // commits the baseline must not carry on as if it had been written. The summary is still printed.
  const writeProblems: string[] = [];
  const attempt = async (what: string, exampleFile: string, write: () => Promise<unknown>): Promise<boolean> => {
    try {
      await write();
      return true;
    } catch (error) {
      writeProblems.push(`${PREFIX} could not write ${what}: ${describeWriteError(error, exampleFile)}`);
      return false;
    }
  };
  const input: ReportInput = {
    summary,
    run,
    markdownOptions: { maxWorse: options.maxWorse, acceptCommand: options.acceptCommand, quiet: options.quiet },
  };
  const reports = plannedReports(context.formats ?? REPORT_FORMATS, { options, rootDir: context.rootDir, env });
  for (const report of reports)
    await attempt(report.format.describe(report.target), report.format.exampleFile, () => writeReport(report, input));

  let baselineWritten = false;
  let refused: string | undefined;
  if (options.mode !== 'compare') {
    try {
      const update = await updateBaselineWithDiff(
        options.baselinePath,
        run,
        {
          prune: options.mode === 'prune',
          tolerance: options.tolerance,
          fileExists: (file) => existsSync(join(context.rootDir, file)),
          rankingDepth: options.rankingDepth,
          questionTexts: options.questionTexts,
        },
        { prepared, diff },
      );
      baselineWritten = update.written;
      refused = update.refused;
      // The change was just accepted (or the first baseline recorded): the last line reports the
      // update, not "accept it with …" or "record one with …".
      if (
        refused !== undefined ||
        summary.verdict.sections.length > 0 ||
        (!summary.baselineFound && summary.rows.length > 0)
      )
        last = undefined;
      extra.push(describeUpdate({ ...update, path: options.baselineDisplayPath }));
    } catch (error) {
      const problem = baselineProblem(error, options);
      if (problem === undefined) {
        await attempt(`the baseline ${options.baselineDisplayPath}`, DEFAULT_BASELINE_PATH, () =>
          Promise.reject(error),
        );
      } else {
        printError(problem);
        return { failed: true, reason: problem, summary, baselineWritten: false };
      }
    }
  }
  if (options.notice !== undefined) extra.push(options.notice);
  extra.push(...(context.notes ?? []));

  let output = [...lines];
  // Nothing was recorded if the baseline write failed or was refused; the note would say it was.
  if ((writeProblems.length > 0 || refused !== undefined) && !baselineWritten)
    output = output.filter((line) => line !== UPDATING_NOTE);
  if (writeProblems.length > 0) {
    extra.push(
      `The run fails: ${wordFor(writeProblems.length, 'a file', `${writeProblems.length} files`)} could not be written (see ${wordFor(writeProblems.length, 'the error', 'the errors')} below).`,
    );
  }
  const failed = summary.verdict.exitCode !== 0 || writeProblems.length > 0 || refused !== undefined;
  const held = context.holdLastLine === true && failed && last !== undefined ? last : undefined;
  if (extra.length > 0) output.push('', ...extra);
  if (last !== undefined && held === undefined) output.push('', last);
  print(output.join('\n'));
  for (const problem of writeProblems) printError(problem);
  if (options.mode === 'compare' && annotationsShown(options.annotations, env)) {
    const annotations = workflowAnnotations(summary, workspaceFolder(context.rootDir, env.GITHUB_WORKSPACE));
    if (annotations.length > 0) (context.printAnnotations ?? print)(annotations.join('\n'));
  }

  // An update that recorded nothing while its test files failed wrote nothing: the run fails, saying why.
  if (refused !== undefined)
    return {
      failed: true,
      reason: `${options.baselineDisplayPath} was not updated: ${refused}`,
      summary,
      baselineWritten,
    };
  if (!failed) return { failed: false, summary, baselineWritten };
  const lastLine = held !== undefined ? { lastLine: held } : {};
  if (summary.verdict.passed) {
    const reason = writeProblems[0]!.slice(PREFIX.length + 1);
    return { failed: true, reason, summary, baselineWritten, ...lastLine };
  }
  const reason = `${summary.verdict.headline} — compared with ${options.baselineDisplayPath}`;
  return { failed: true, reason, summary, baselineWritten, ...lastLine };
}

const WRITE_ERROR_HINTS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file is in the way of a folder it needs',
};

/**
 * "permission denied (EACCES)" for file-system errors, else the error's message. A path that names a
 * folder gets a file of the same kind to name instead (`exampleFile`, e.g. rag-report.md).
 */
export function describeWriteError(error: unknown, exampleFile: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EISDIR') return `it is a folder; name a file such as ${exampleFile} (EISDIR).`;
  if (typeof code === 'string' && Object.hasOwn(WRITE_ERROR_HINTS, code))
    return `${WRITE_ERROR_HINTS[code]} (${code}).`;
  const message = error instanceof Error ? error.message : String(error);
  return `${message.split('\n')[0]}${/[.!?]$/.test(message) ? '' : '.'}`;
}
