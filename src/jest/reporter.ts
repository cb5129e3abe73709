// `reporters: ['default', ['rag-matchers/jest-reporter', { baseline: 'rag-baseline.json' }]]`
//
// Jest 30 has no channel from a test to a reporter, so at the start of every run this reporter creates
// a fresh run directory under the system temp directory and names it in RAG_MATCHERS_RUN_DIR. Jest
// starts its workers after onRunStart, so they inherit the variable (with --runInBand the tests run in
// this very process); the matchers (rag-matchers/jest) append their samples there, one file per worker.
// At the end the reporter reads the files, removes the directory, and then summarises, compares with
// the baseline, prints, writes the reports, updates the baseline when asked and fails the run on a
// regression (getLastError). A fresh directory per run keeps two Jest runs in one project apart.
//
// Under `jest --shard=i/n` it writes rag-shard-<i>-of-<n>.json with every sample instead of judging a
// part of the run; `npx rag-matchers merge rag-shard-*.json` judges the whole.
import { writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { finishRun, PREFIX, readBaselineAhead, type BaselineReadAhead } from '../gate/finish.js';
import { checkSuiteOverrides, publishDeclaration } from '../recording/declaration.js';
import { publishGate } from '../recording/gate-presence.js';
import { publishCallSiteLines } from '../recording/call-site.js';
import { annotationsShown } from '../gate/annotations.js';
import { JEST_REPORTER_STARTED } from '../gate/reporter-options.js';
import { shouldUseColor } from '../report/console.js';
import { validateReporterOptions, type RagReporterOptions } from '../gate/user-options.js';
import { resolveReporterOptions, type ResolvedReporterOptions } from '../gate/options.js';
import { asMistake, isMistake } from '../gate/mistake.js';
import {
  collectJestRun,
  createRunDirectory,
  readSidecars,
  removeRunDirectory,
  type JestFileOutcome,
  type JestRunContext,
} from './collect.js';
import type { RunOutcomes } from '../recording/outcomes.js';
import { runStampOf } from '../gate/run-identity.js';
import { RUN_DIRECTORY_ENV } from './recorder.js';
import { createShardReport, shardReportName, writeShardReport } from '../gate/shard-report.js';
import { missingSetupNote } from '../gate/setup-diagnosis.js';
import { jestSetupDiagnosisInput, type JestFileWithProject, type JestTestContextLike } from './setup-check.js';

export type { RagReporterOptions } from '../gate/user-options.js';

const SOURCE = 'rag-matchers/jest-reporter options';

/** The parts of Jest's global config this reporter reads. */
interface JestGlobalConfigLike {
  rootDir: string;
  shard?: { shardIndex: number; shardCount: number } | undefined;
  watch?: boolean;
  watchAll?: boolean;
  /** `-t`. */
  testNamePattern?: string;
  /** Jest 30: the file arguments (`TestPathPatterns`, whose `patterns` are the strings given). */
  testPathPatterns?: { patterns?: readonly string[] } | undefined;
  /** `--selectProjects`. */
  selectProjects?: readonly string[] | undefined;
}

/** The parts of Jest's aggregated results this reporter reads. */
interface JestAggregatedResultsLike {
  testResults: readonly JestFileOutcome[];
  wasInterrupted?: boolean;
}

export default class RagMatchersJestReporter {
  private readonly rootDir: string;
  private readonly shard: { index: number; count: number } | undefined;
  private readonly watching: boolean;
  private readonly context: JestRunContext & { absent?: RunOutcomes['absent'] };
  private readonly options: RagReporterOptions;
  private readonly resolved: ResolvedReporterOptions;
  private runDirectory: string | undefined;
  private previousRunDirectory: string | undefined;
  private error: Error | undefined;
  /** The baseline, read once the first test file has finished (by then the workers have started). */
  private baseline: BaselineReadAhead | undefined;
  private readonly cleanUpOnExit = (): void => {
    if (this.runDirectory !== undefined) removeRunDirectory(this.runDirectory);
  };
  /**
   * Ctrl-C (SIGINT) or SIGTERM end the process without 'exit' handlers: remove the run directory, then,
   * when no one else handles the signal, raise it again so the process ends as it would have.
   */
  private readonly cleanUpOnSignal = (signal: NodeJS.Signals): void => {
    this.cleanUpOnExit();
    this.stopWatchingExit();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };

  private watchExit(): void {
    this.stopWatchingExit();
    process.on('exit', this.cleanUpOnExit);
    process.on('SIGINT', this.cleanUpOnSignal);
    process.on('SIGTERM', this.cleanUpOnSignal);
  }

  private stopWatchingExit(): void {
    process.off('exit', this.cleanUpOnExit);
    process.off('SIGINT', this.cleanUpOnSignal);
    process.off('SIGTERM', this.cleanUpOnSignal);
  }

  constructor(globalConfig: JestGlobalConfigLike, options?: RagReporterOptions) {
    this.rootDir = globalConfig.rootDir;
    this.shard =
      globalConfig.shard === undefined
        ? undefined
        : { index: globalConfig.shard.shardIndex, count: globalConfig.shard.shardCount };
    this.watching = globalConfig.watch === true || globalConfig.watchAll === true;
    this.context = runContextOf(globalConfig);
    // Wrong options, an unknown RAG_BASELINE value or a report path over the baseline stop Jest before
    // any test runs; Jest prints the error's stack, which asMistake makes its one line.
    try {
      this.options = validateReporterOptions(options, SOURCE);
      this.resolved = resolveReporterOptions(this.options, {
        rootDir: this.rootDir,
        runner: 'jest',
        env: process.env,
        source: SOURCE,
      });
    } catch (error) {
      throw isMistake(error) ? asMistake(error) : error;
    }
    // Jest starts its workers after the reporters: they inherit the declared measures and record them,
    // and know that a reporter judges what they record.
    publishDeclaration(this.resolved.declaration);
    publishGate('jest');
    // A shard's samples go to `rag-matchers merge`, which may annotate them.
    publishCallSiteLines(annotationsShown(this.resolved.annotations, process.env) || this.shard !== undefined);
    (globalThis as Record<symbol, unknown>)[JEST_REPORTER_STARTED] = true;
  }

  /** Before Jest starts its workers: a fresh run directory for this run's samples. */
  onRunStart(): void {
    this.error = undefined;
    this.baseline = undefined;
    if (this.runDirectory !== undefined) removeRunDirectory(this.runDirectory);
    else this.previousRunDirectory = process.env[RUN_DIRECTORY_ENV];
    this.runDirectory = createRunDirectory();
    process.env[RUN_DIRECTORY_ENV] = this.runDirectory;
    // A run ended by Ctrl-C, SIGTERM or a crash does not reach onRunComplete: leave no directory behind.
    this.watchExit();
  }

  onTestFileResult(): void {
    // A shard writes its samples and compares nothing.
    if (this.shard === undefined) this.baseline ??= readBaselineAhead(this.resolved.baselinePath);
  }

  async onRunComplete(
    testContexts: Iterable<JestTestContextLike> | undefined,
    results: JestAggregatedResultsLike,
  ): Promise<void> {
    const directory = this.runDirectory;
    if (directory === undefined) return;
    const { records, skippedLines } = readSidecars(directory);
    removeRunDirectory(directory);
    this.runDirectory = undefined;
    this.stopWatchingExit();
    if (this.previousRunDirectory === undefined) delete process.env[RUN_DIRECTORY_ENV];
    else process.env[RUN_DIRECTORY_ENV] = this.previousRunDirectory;

    const print = (text: string): void => {
      // Jest's own reporters write to stderr (stdout may carry --json).
      process.stderr.write(`${text}\n`);
    };
    if (results.wasInterrupted === true) {
      print(`\n${PREFIX} the run was interrupted: no retrieval summary, and the baseline was not touched.`);
      return;
    }
    if (skippedLines > 0)
      print(
        `${PREFIX} ${skippedLines} unreadable sample line${skippedLines === 1 ? '' : 's'} skipped (a worker ended while writing?).`,
      );
    const run = collectJestRun(records, results.testResults, this.rootDir, this.context);
    const overrideProblem = checkSuiteOverrides(this.resolved.declaration, run);
    if (overrideProblem !== undefined) {
      print(`\n${overrideProblem}`);
      this.error = Object.assign(new Error(overrideProblem), { stack: overrideProblem });
    }

    if (this.shard !== undefined) {
      const path = resolve(this.rootDir, shardReportName(this.shard.index, this.shard.count));
      await writeShardReport(
        path,
        createShardReport(run, this.shard, this.options, runStampOf(this.rootDir, this.resolved.declaration)),
      );
      print(
        `\n${PREFIX} shard ${this.shard.index}/${this.shard.count}: ${run.samples.length} sample${run.samples.length === 1 ? '' : 's'} written to ${shardReportName(this.shard.index, this.shard.count)}; ` +
          `the baseline is compared once all shards are merged: npx rag-matchers merge rag-shard-*-of-${this.shard.count}.json`,
      );
      return;
    }

    const setupNote = missingSetupNote(
      jestSetupDiagnosisInput(
        this.rootDir,
        testContexts,
        results.testResults as readonly JestFileWithProject[],
        run.samples,
      ),
    );
    const result = await finishRun(run, {
      rootDir: this.rootDir,
      options: this.resolved,
      ...(setupNote === undefined ? {} : { notes: [setupNote] }),
      print: (text) => print(`\n${text}`),
      printError: (text) => print(`\n${text}`),
      printAnnotations: (text) => process.stdout.write(`${text}\n`),
      color: shouldUseColor(process.stderr),
      // Jest prints its summary after every reporter: the line that says how to accept the change is
      // printed when the process exits, so that it is the last line (in watch mode, right away).
      holdLastLine: !this.watching,
      baseline: this.baseline,
    });
    this.baseline = undefined;
    const lastLine = result.lastLine;
    if (lastLine !== undefined) {
      process.once('exit', () => {
        try {
          writeSync(2, `\n${lastLine}\n`);
        } catch {
          // stderr closed: nothing to tell
        }
      });
    }
    if (result.failed) {
      const error = new Error(`${PREFIX} ${result.reason ?? 'the retrieval gate failed'}`);
      // Jest prints nothing for it; the stack would only point here.
      error.stack = error.message;
      this.error = error;
    }
  }

  /** Jest fails the run (exit code 1) when a reporter has an error. */
  getLastError(): Error | undefined {
    return this.error;
  }
}

/** What the collector needs of Jest's configuration: -t, and why a file that exists did not run. */
function runContextOf(globalConfig: JestGlobalConfigLike): JestRunContext & { absent?: RunOutcomes['absent'] } {
  const patterns = globalConfig.testPathPatterns?.patterns ?? [];
  const projects = globalConfig.selectProjects ?? [];
  const filters = [
    ...(patterns.length > 0 ? [`file arguments: ${patterns.join(' ')}`] : []),
    ...(projects.length > 0 ? [`--selectProjects ${projects.join(' ')}`] : []),
  ];
  return {
    testNamePattern: typeof globalConfig.testNamePattern === 'string' && globalConfig.testNamePattern !== '',
    ...(filters.length > 0 ? { absent: { reason: 'filtered' as const, detail: filters.join('; ') } } : {}),
  };
}
