// `reporters: ['default', ['rag-matchers/vitest-reporter', { baseline: 'rag-baseline.json' }]]`
//
// At the end of the run: collects the samples the matchers recorded on each test's `task.meta`,
// averages them per suite × measure, compares with the baseline, prints the table, writes the reports,
// updates the baseline when asked (RAG_BASELINE=update or -u; never under CI) and fails the run
// (exit code 1) on a regression. Also runs on `vitest --merge-reports`, where the tests (meta included)
// come from the shards' blob reports, so sharded runs are judged once, on the whole.
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { finishRun, PREFIX, readBaselineAhead, type BaselineReadAhead } from '../gate/finish.js';
import { checkSuiteOverrides, publishDeclaration } from '../recording/declaration.js';
import { publishGate } from '../recording/gate-presence.js';
import { publishCallSiteLines } from '../recording/call-site.js';
import { annotationsShown } from '../gate/annotations.js';
import { shouldUseColor } from '../report/console.js';
import { IntervalCache, precomputeIntervals } from '../report/summary.js';
import { validateReporterOptions, type RagReporterOptions } from '../gate/user-options.js';
import { resolveReporterOptions, summaryOptionsFrom, type ResolvedReporterOptions } from '../gate/options.js';
import { collectVitestModule, collectVitestRun, type CollectedModule, type VitestRunContext } from './collect.js';
import { missingBlobShards } from './blobs.js';
import { publishRunStamp, type RunStamp } from '../recording/run-stamp.js';
import type { NotJudgedReason } from '../recording/outcomes.js';
import { runStampOf } from '../gate/run-identity.js';
import { missingSetupNote } from '../gate/setup-diagnosis.js';
import { vitestSetupDiagnosisInput } from './setup-check.js';
import { resolve } from 'node:path';
import { asMistake, isMistake } from '../gate/mistake.js';

export type { RagReporterOptions } from '../gate/user-options.js';

const SOURCE = 'rag-matchers/vitest-reporter options';

export default class RagMatchersVitestReporter implements Reporter {
  private readonly options: RagReporterOptions;
  private vitest: Vitest | undefined;
  private resolved: ResolvedReporterOptions | undefined;
  /** Modules that ended and are not collected yet (see onTestModuleEnd). */
  private ended: TestModule[] = [];
  /** Modules collected while later files still ran: less work after the last test. */
  private readonly collected = new Map<TestModule, CollectedModule>();
  /** The baseline, read along with the first module collected while later files run. */
  private baseline: BaselineReadAhead | undefined;
  /** Each ended file's intervals, worked out while later files run, for the summary at the end. */
  private readonly intervals = new IntervalCache();
  /** This run's stamp (commit, declared measures): a merge leaves out samples stamped otherwise. */
  private stamp: RunStamp | undefined;

  /** A mistake in the options, said in onInit, where the run can be stopped with one line. */
  private readonly mistake: unknown;

  constructor(options?: RagReporterOptions) {
    try {
      this.options = validateReporterOptions(options, SOURCE);
    } catch (error) {
      this.options = {};
      this.mistake = error;
    }
  }

  async onInit(vitest: Vitest): Promise<void> {
    this.vitest = vitest;
    // Wrong options, an unknown RAG_BASELINE value or a report path over the baseline stop the run
    // here, before any test runs, rather than comparing when an update was meant.
    try {
      if (this.mistake !== undefined) throw this.mistake;
      this.resolved = resolveReporterOptions(this.options, {
        rootDir: vitest.config.root,
        runner: 'vitest',
        env: process.env,
        // `vitest -u` (or UPDATE_SNAPSHOT) asks to update snapshots: the baseline is updated with them.
        updateSnapshots: vitest.config.snapshotOptions?.updateSnapshot === 'all',
        source: SOURCE,
      });
    } catch (error) {
      if (!isMistake(error)) throw error;
      throw await stopWithOneLine(vitest, asMistake(error));
    }
    // Before Vitest starts its workers: they inherit the declared measures and the run's stamp, and
    // know that a reporter judges what they record.
    publishDeclaration(this.resolved.declaration);
    publishGate('vitest');
    publishCallSiteLines(annotationsShown(this.resolved.annotations, process.env) || writesBlobReport(vitest));
    this.stamp = runStampOf(vitest.config.root, this.resolved.declaration);
    publishRunStamp(this.stamp);
  }

  onTestRunStart(): void {
    this.ended = [];
    this.collected.clear();
    this.baseline = undefined;
    this.intervals.clear();
  }

  /**
   * Only notes the module. Vitest awaits this hook before it answers the worker's last report, and
   * the worker waits for that answer before the next file can start: work done here would hold up the
   * whole run (with one worker, as on two cores, every file). The module is collected once the next
   * file has started (onTestModuleStart), while its tests run, or at the end of the run.
   */
  onTestModuleEnd(testModule: TestModule): void {
    this.ended.push(testModule);
  }

  onTestModuleStart(): void {
    this.collectEnded();
  }

  /** Collects the modules that ended, works out their intervals and reads the baseline ahead. */
  private collectEnded(): void {
    const vitest = this.vitest;
    const options = this.resolved;
    const ended = this.ended;
    this.ended = [];
    if (vitest === undefined || options === undefined) return;
    for (const testModule of ended) {
      const module = collectVitestModule(testModule, vitest.config.root, runContextOf(vitest));
      this.collected.set(testModule, module);
      this.baseline ??= readBaselineAhead(options.baselinePath);
      // A file's suites are complete when it ends: their intervals (the bootstrap) are worked out now.
      try {
        precomputeIntervals({ runner: 'vitest', samples: module.samples }, summaryOptionsFrom(options), this.intervals);
      } catch {
        // Whatever stops it stops the summary at the end too, which reports it.
      }
    }
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    _unhandledErrors: unknown,
    reason: TestRunEndReason,
  ): Promise<void> {
    const vitest = this.vitest;
    const options = this.resolved;
    if (vitest === undefined || options === undefined) return;
    const print = (text: string): void => vitest.logger.log(text);
    if (reason === 'interrupted') {
      print(`\n${PREFIX} the run was interrupted: no retrieval summary, and the baseline was not touched.`);
      return;
    }
    // Modules still waiting to be collected are collected by collectVitestRun: nothing runs alongside now.
    this.ended = [];
    const shard = vitest.config.shard ?? undefined;
    const merging = typeof vitest.config.mergeReports === 'string' && vitest.config.mergeReports !== '';
    const run = collectVitestRun(testModules, vitest.config.root, this.collected, {
      ...runContextOf(vitest),
      projects: projectsOf(vitest),
      ...absentOf(vitest, shard),
      ...(merging && this.stamp !== undefined ? { expectedStamp: this.stamp } : {}),
    });
    this.collected.clear();
    const overrideProblem = checkSuiteOverrides(options.declaration, run);
    if (overrideProblem !== undefined) {
      vitest.logger.error(`\n${overrideProblem}`);
      process.exitCode = 1;
    }
    // A shard that runs this reporter judges only its own test files (whole suites, so the verdict on
    // them holds): the other shards' files are out of its scope. The whole run is judged by
    // --merge-reports over the shards' blob reports.
    const setupNote = merging ? undefined : missingSetupNote(vitestSetupDiagnosisInput(vitest, testModules));
    const notes =
      shard === undefined
        ? []
        : [
            `Shard ${shard.index}/${shard.count}: only this shard's test files were judged. To judge the whole run, run the shards with --reporter=blob, then vitest --merge-reports.`,
          ];
    const result = await finishRun(run, {
      rootDir: vitest.config.root,
      options: shard === undefined ? options : { ...options, partial: true },
      print: (text) => print(`\n${text}`),
      printError: (text) => vitest.logger.error(`\n${text}`),
      color: shouldUseColor(process.stdout),
      notes: setupNote === undefined ? notes : [setupNote, ...notes],
      baseline: this.baseline,
      intervals: this.intervals,
    });
    this.baseline = undefined;
    this.intervals.clear();
    // Vitest exits with process.exitCode once the run is over (and sets 1 itself when a test failed).
    if (result.failed) process.exitCode = 1;
  }
}

/**
 * What onInit throws to stop the run after printing `mistake` as one line with exit code 1: Vitest
 * (4.1 and 5) ends quietly on its "no test files" error, which vitest/node exports as
 * TestsNotFoundError, and leaves the exit code as set. Without it, the mistake itself (no stack), which
 * Vitest prints under its "Unhandled Error" banner.
 */
async function stopWithOneLine(vitest: Vitest, mistake: Error): Promise<Error> {
  let quiet: (new (mode: string) => Error) | undefined;
  try {
    const node = (await import('vitest/node')) as { TestsNotFoundError?: new (mode: string) => Error };
    quiet = node.TestsNotFoundError;
  } catch {
    // vitest/node out of reach: Vitest prints the mistake itself
  }
  if (typeof quiet !== 'function') return mistake;
  vitest.logger.error(mistake.message);
  process.exitCode = 1;
  return new quiet('test');
}

/**
 * Whether the run leaves a blob report, whose samples a later --merge-reports judges (and may annotate).
 * The resolved config holds the command line's reporters too, each as [name, options].
 */
function writesBlobReport(vitest: Vitest): boolean {
  const reporters = (vitest.config.reporters ?? []) as unknown[];
  return reporters.some((entry) => Array.isArray(entry) && entry[0] === 'blob');
}

/** What the collector needs of the run's configuration. */
function runContextOf(vitest: Vitest): VitestRunContext {
  const pattern = vitest.config.testNamePattern as RegExp | string | undefined;
  return { testNamePattern: pattern !== undefined && String(pattern) !== '' };
}

/** The projects that ran ('' for an unnamed one), and whether --project chose them. */
function projectsOf(vitest: Vitest): { names: string[]; filtered: boolean } {
  const filter = (vitest.config as { project?: unknown }).project;
  return {
    names: vitest.projects.map((project) => project.name),
    filtered: Array.isArray(filter) ? filter.length > 0 : typeof filter === 'string' && filter !== '',
  };
}

/** Why a test file that exists and did not run was not judged. */
function absentOf(
  vitest: Vitest,
  shard: { index: number; count: number } | undefined,
): { absent?: { reason: NotJudgedReason; detail?: string } } {
  const blobs = vitest.config.mergeReports;
  if (typeof blobs === 'string' && blobs !== '') {
    const missing = missingBlobShards(resolve(process.cwd(), blobs));
    if (missing.length > 0)
      return { absent: { reason: 'shard-missing', detail: `${missing.join(', ')} not in ${blobs}` } };
    return {};
  }
  if (shard !== undefined)
    return { absent: { reason: 'filtered', detail: `shard ${shard.index}/${shard.count} runs only its own files` } };
  const fileFilter = (vitest as { filenamePattern?: unknown }).filenamePattern;
  if (Array.isArray(fileFilter) && fileFilter.length > 0)
    return { absent: { reason: 'filtered', detail: `file arguments: ${fileFilter.join(' ')}` } };
  return {};
}
