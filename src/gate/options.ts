// The reporter options resolved for one run: paths made absolute, the baseline mode and CI decided
// (mode.ts), the declaration checked, and the SummaryOptions the summary is built with.
import { existsSync } from 'node:fs';
import path from 'node:path';

import { resolveTolerance, type ResolvedTolerance } from '../core/regression-rule.js';
import type { PairedTestName } from '../core/stats.js';
import { resolveDeclaration, type WorkerDeclaration } from '../recording/declaration.js';
import type { CollectedRun } from '../recording/collected.js';
import { MAX_TOP_HITS, type LatencyBudget } from '../recording/sample.js';
import { optionFilesProblem } from './option-files.js';
import { withBaselineMode } from '../report/wording.js';
import {
  DEFAULT_BASELINE_PATH,
  DEFAULT_SOURCE,
  REPORT_FILE_OPTIONS,
  validateReporterOptions,
  type RagReporterOptions,
  type ReportFileOption,
} from './user-options.js';
import type { SummaryOptions } from '../report/summary.js';
import type { ChurnLimits } from '../report/churn.js';
import { resolveBaselineMode, resolvePartial, runCommandFor, type BaselineMode } from './mode.js';

/** The options resolved; the report files (json, markdown, html: REPORT_FILE_OPTIONS) as absolute paths. */
export interface ResolvedReporterOptions extends Partial<Record<ReportFileOption, string>> {
  /** The project root (test files and report paths are relative to it). */
  rootDir: string;
  /** Absolute path of the baseline file. */
  baselinePath: string;
  /** As given (relative), for messages. */
  baselineDisplayPath: string;
  mode: BaselineMode;
  ci: boolean;
  notice?: string;
  tolerance: ResolvedTolerance;
  significance?: number;
  test: PairedTestName;
  failOnRegression: boolean;
  failOnNew: boolean;
  /** A regressed tag fails the run. */
  failOnTagRegression: boolean;
  /** A row that can never fail under the rule fails the run. */
  failOnInsensitive: boolean;
  /** The baseline must be up to date (default: CI). */
  strict: boolean;
  /** A deliberate subset (RAG_PARTIAL=1 or the option): questions not judged do not fail it. */
  partial: boolean;
  githubStepSummary: boolean;
  /** Workflow-command annotations under GitHub Actions. */
  annotations: boolean;
  /** The Markdown report is one line when nothing changed. */
  quiet: boolean;
  maxWorse: number;
  /** Top ranked keys the baseline keeps per question (0: none). */
  rankingDepth: number;
  /** The baseline keeps each question's text. */
  questionTexts: boolean;
  seed?: number;
  resamples?: number;
  intervalResamples?: number;
  /** Repeated runs, in CI: the fewest runs of a question, the largest spread. */
  minRepeats?: number;
  maxSpread?: number;
  /** A change in calls per question fails the run (absent: it does not). */
  failOnCallChange?: true;
  /** The latency budget of suites that set none. */
  latency?: LatencyBudget;
  /** The least churn a suite may show (see RagReporterOptions.maxChurn). */
  maxChurn?: ChurnLimits;
  /** `RAG_BASELINE=update npx vitest run`, `… npx jest`, or the package script that ran the tests (mode.ts, runCommandFor). */
  acceptCommand: string;
  /** The same with `RAG_BASELINE=prune`. */
  pruneCommand: string;
  /** The measures recorded for every question, as the test workers receive them. */
  declaration: WorkerDeclaration;
}

/** Validates the options and resolves paths (against `rootDir`) and the baseline mode (from `env`). */
export function resolveReporterOptions(
  options: unknown,
  context: {
    rootDir: string;
    runner: CollectedRun['runner'];
    env?: Record<string, string | undefined>;
    updateSnapshots?: boolean;
    source?: string;
  },
): ResolvedReporterOptions {
  const checked = validateReporterOptions(options, context.source);
  const mode = resolveBaselineMode(context.env ?? process.env, { updateSnapshots: context.updateSnapshots });
  const baseline = checked.baseline ?? DEFAULT_BASELINE_PATH;
  const baselinePath = path.resolve(context.rootDir, baseline);
  const reportFiles = resolvedReportFiles(checked, context.rootDir);
  const fileProblem = optionFilesProblem([
    { option: 'baseline', given: baseline, path: baselinePath },
    ...(Object.keys(reportFiles) as ReportFileOption[]).map((option) => ({
      option,
      given: checked[option] as string,
      path: reportFiles[option]!,
    })),
  ]);
  if (fileProblem !== undefined) throw new TypeError(`${context.source ?? DEFAULT_SOURCE}: ${fileProblem}`);
  const rankingDepth = checked.rankingDepth ?? MAX_TOP_HITS;
  return {
    rootDir: context.rootDir,
    baselinePath,
    baselineDisplayPath: baseline,
    mode: mode.mode,
    ci: mode.ci,
    ...(mode.notice !== undefined ? { notice: mode.notice } : {}),
    tolerance: resolveTolerance(checked.tolerance),
    ...(checked.significance !== undefined ? { significance: checked.significance } : {}),
    test: checked.test ?? 'sign',
    failOnRegression: checked.failOnRegression ?? true,
    failOnNew: checked.failOnNew ?? false,
    failOnTagRegression: checked.failOnTagRegression ?? false,
    failOnInsensitive: checked.failOnInsensitive ?? false,
    strict: checked.strict ?? mode.ci,
    partial: resolvePartial(context.env ?? process.env, checked.partial),
    ...reportFiles,
    githubStepSummary: checked.githubStepSummary ?? true,
    annotations: checked.annotations ?? true,
    quiet: checked.quiet ?? false,
    maxWorse: checked.maxWorse ?? 10,
    rankingDepth,
    questionTexts: checked.questionTexts ?? true,
    ...definedEntries({
      seed: checked.seed,
      resamples: checked.resamples,
      intervalResamples: checked.intervalResamples,
      minRepeats: checked.minRepeats,
      maxSpread: checked.maxSpread,
      latency: checked.latency,
      maxChurn: checked.maxChurn,
    }),
    ...(checked.failOnCallChange === true ? { failOnCallChange: true as const } : {}),
    ...acceptCommands(context),
    declaration: {
      ...resolveDeclaration(checked, context.rootDir, context.source),
      // The workers record no more top hits than the baseline keeps.
      ...(rankingDepth < MAX_TOP_HITS ? { rankingDepth } : {}),
    },
  };
}

/** The update and prune commands, as the run was started. */
function acceptCommands(context: {
  rootDir: string;
  runner: CollectedRun['runner'];
  env?: Record<string, string | undefined>;
}): { acceptCommand: string; pruneCommand: string } {
  const command = runCommandFor(context.runner, {
    env: context.env ?? process.env,
    rootDir: context.rootDir,
    execArgv: process.execArgv,
  });
  return { acceptCommand: withBaselineMode('update', command), pruneCommand: withBaselineMode('prune', command) };
}

/**
 * SummaryOptions for summarize. In update/prune mode the run records the change rather than judging it,
 * so neither regressions nor new questions fail it.
 */
export function summaryOptionsFrom(resolved: ResolvedReporterOptions): SummaryOptions {
  const updating = resolved.mode !== 'compare';
  return {
    tolerance: resolved.tolerance,
    test: resolved.test,
    failOnRegression: updating ? false : resolved.failOnRegression,
    failOnNew: updating ? false : resolved.failOnNew,
    failOnTagRegression: updating ? false : resolved.failOnTagRegression,
    failOnInsensitive: updating ? false : resolved.failOnInsensitive,
    strict: updating ? false : resolved.strict,
    updatingBaseline: updating,
    pruning: resolved.mode === 'prune',
    partial: resolved.partial,
    baselinePath: resolved.baselineDisplayPath,
    fileExists: (file) => existsSync(path.join(resolved.rootDir, file)),
    ...(resolved.significance !== undefined ? { significance: resolved.significance } : {}),
    ...definedEntries({
      seed: resolved.seed,
      resamples: resolved.resamples,
      intervalResamples: resolved.intervalResamples,
      minRepeats: resolved.minRepeats,
      maxSpread: resolved.maxSpread,
      latency: resolved.latency,
      maxChurn: resolved.maxChurn,
    }),
    ...(resolved.failOnCallChange === true && !updating ? { failOnCallChange: true } : {}),
  };
}

/** The report files the options name, as absolute paths (none for an absent or false option). */
function resolvedReportFiles(options: RagReporterOptions, rootDir: string): Partial<Record<ReportFileOption, string>> {
  const files: Partial<Record<ReportFileOption, string>> = {};
  for (const name of Object.keys(REPORT_FILE_OPTIONS) as ReportFileOption[]) {
    const file = options[name];
    if (typeof file === 'string') files[name] = path.resolve(rootDir, file);
  }
  return files;
}

function definedEntries<T extends Record<string, unknown>>(record: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
