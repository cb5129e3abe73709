// Turns what Vitest reports at the end of a run (test modules → suites → test cases, each test case
// carrying the samples its matchers pushed to `task.meta`) into the runner-agnostic CollectedRun.
// Works the same on a live run and on `--merge-reports`, where the tasks (meta included) come from
// the shards' blob files.
import { isAbsolute, join, relative } from 'node:path';
import type { MetricSample } from '../recording/sample.js';
import { TASK_META_KEY } from '../recording/sample.js';
import {
  cleanSample,
  cleanTags,
  mergeTags,
  splitCosts,
  toPosixPath,
  type CollectedCost,
  type CollectedRun,
  type CollectedSample,
} from '../recording/collected.js';
import { fileOutcomeKey, type FileOutcome, type NotJudgedReason, type RunOutcomes } from '../recording/outcomes.js';
import { applyTestQuestion } from '../recording/question.js';
import { parseRunStamp, RUN_META_KEY, type RunStamp } from '../recording/run-stamp.js';
import { staleStampReason } from '../gate/run-identity.js';

// The few parts of Vitest's reported tasks read here, structurally (so the collector does not load
// vitest and unit tests can build plain objects).
export interface ReportedModuleLike {
  readonly type: 'module';
  readonly moduleId: string;
  /** Module id relative to its project's root. */
  readonly relativeModuleId: string;
  readonly project?: { readonly name?: string; readonly config: { readonly root: string } };
  readonly children: { allTests(): Iterable<ReportedTestLike> };
  /** 'passed' | 'failed' | 'skipped' | 'pending' | 'queued'. */
  state?(): string;
  /** Errors outside the tests (the file did not load, say). */
  errors?(): readonly unknown[];
}

export interface ReportedSuiteLike {
  readonly type: 'suite';
  readonly name: string;
  readonly parent: ReportedSuiteLike | ReportedModuleLike;
}

export interface ReportedTestLike {
  readonly type: 'test';
  readonly name: string;
  readonly parent: ReportedSuiteLike | ReportedModuleLike;
  meta(): object;
  /** Vitest ≥ 4.1: the test's own tags (`test(name, { tags })`); absent in older versions. */
  readonly tags?: readonly string[];
  /** Where the test is defined (Vitest reports it with `includeTaskLocation`). */
  readonly location?: { readonly line: number } | undefined;
  /** 'passed' | 'failed' | 'skipped' | 'pending'; the errors of a failed test. */
  result?(): { readonly state: string; readonly errors?: readonly { readonly message?: string }[] };
}

/**
 * The module's file relative to the run's root. A module id outside the root (a merged blob written
 * on another machine, where the absolute paths differ) falls back to the id relative to its project,
 * placed where that project sits under the root.
 */
export function moduleFileOf(module: ReportedModuleLike, root: string): string {
  const direct = relative(root, module.moduleId);
  if (isAbsolute(module.moduleId) && direct !== '' && !direct.startsWith('..') && !isAbsolute(direct))
    return toPosixPath(direct);
  const projectRoot = module.project?.config.root;
  const projectDir = projectRoot === undefined ? '' : relative(root, projectRoot);
  const viaProject =
    projectDir === '' || projectDir.startsWith('..') || isAbsolute(projectDir)
      ? module.relativeModuleId
      : join(projectDir, module.relativeModuleId);
  return toPosixPath(viaProject);
}

/** describe titles from the outermost to the test's own parent. */
export function describePathOf(test: ReportedTestLike): string[] {
  const path: string[] = [];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) path.unshift(parent.name);
  return path;
}

/** The samples a test recorded, from its meta (none when it recorded nothing or the meta holds something else). */
function samplesOf(meta: Record<string, unknown>): MetricSample[] {
  const recorded = meta[TASK_META_KEY];
  const samples: MetricSample[] = [];
  if (!Array.isArray(recorded)) return samples;
  for (const value of recorded as unknown[]) {
    const sample = cleanSample(value);
    if (sample !== undefined) samples.push(sample);
  }
  return samples;
}

/**
 * The tags the runner knows for a test: Vitest's own (`test(name, { tags })`, read only where the version
 * has them) and `meta.tags` (`test(name, { meta: { tags } })`); undefined when neither holds a tag.
 */
function runnerTagsOf(test: ReportedTestLike, meta: Record<string, unknown>): string[] | undefined {
  return mergeTags(cleanTags(test.tags), cleanTags(meta.tags));
}

/** What the collector needs to know of the run to say why a test did not run to the end. */
export interface VitestRunContext {
  /** A `-t` pattern was given: a skipped test was filtered out rather than skipped in the code. */
  testNamePattern?: boolean;
}

/** Why a test that did not pass did not run to the end; undefined for one that did. */
function incompleteReason(test: ReportedTestLike, context: VitestRunContext): NotJudgedReason | undefined {
  const result = test.result?.();
  const state = result?.state ?? 'passed';
  if (state === 'passed') return undefined;
  if (state === 'skipped') return context.testNamePattern === true ? 'filtered' : 'skipped';
  if (state === 'failed') return /^Test timed out/.test(result?.errors?.[0]?.message ?? '') ? 'timed-out' : 'failed';
  // 'pending' or 'queued' once the run is over: the file never finished.
  return 'crashed';
}

/**
 * The file's outcome: whether it loaded and finished, and `incomplete`, the tests that did not run to the
 * end (worked out by the caller, in its one pass over the tests).
 */
function outcomeOfModule(module: ReportedModuleLike, file: string, incomplete: FileOutcome['incomplete']): FileOutcome {
  const project = module.project?.name;
  const outcome: FileOutcome = { file, ...(project ? { project } : {}), incomplete };
  const errors = module.errors?.() ?? [];
  if (errors.length > 0) {
    const message = (errors[0] as { message?: unknown } | null)?.message;
    outcome.notJudged = {
      reason: 'load-failed',
      ...(typeof message === 'string' ? { detail: message.split('\n')[0]! } : {}),
    };
  }
  const state = module.state?.() ?? 'passed';
  if (state === 'pending' || state === 'queued') outcome.notJudged ??= { reason: 'crashed' };
  return outcome;
}

/** What one test module contributes to the run: its file, its outcome, its samples and their run stamps. */
export interface CollectedModule {
  file: string;
  outcome: FileOutcome;
  samples: CollectedSample[];
  /** Its questions' retrieval costs (moved out of the samples). */
  costs: CollectedCost[];
  /** The distinct run stamps of its tests that recorded (undefined: a test that recorded without one). */
  stamps: (string | undefined)[];
}

/** One module's samples, tests in the order they appear in the file. */
export function collectVitestModule(
  module: ReportedModuleLike,
  root: string,
  context: VitestRunContext = {},
): CollectedModule {
  const file = moduleFileOf(module, root);
  const samples: CollectedSample[] = [];
  const stamps: (string | undefined)[] = [];
  // One file run in several projects (a workspace) is a suite per project: the name keeps them apart.
  const project = module.project?.name;
  const incomplete: FileOutcome['incomplete'] = [];
  for (const test of module.children.allTests()) {
    const reason = incompleteReason(test, context);
    if (reason !== undefined) incomplete.push({ describePath: describePathOf(test), test: test.name, reason });
    const meta = test.meta() as Record<string, unknown>;
    // samplesOf gives fresh objects: completing them in place (same key order as before) saves a copy per sample.
    const recorded = samplesOf(meta) as CollectedSample[];
    if (recorded.length === 0) continue;
    const describePath = describePathOf(test);
    applyTestQuestion(recorded);
    const runnerTags = runnerTagsOf(test, meta);
    const line = test.location?.line;
    const stamp = meta[RUN_META_KEY];
    const text = typeof stamp === 'string' ? stamp : undefined;
    if (!stamps.includes(text)) stamps.push(text);
    for (const sample of recorded) {
      if (project !== undefined && project !== '') sample.project = project;
      sample.file = file;
      sample.describePath = describePath;
      sample.test = test.name;
      if (line !== undefined && sample.line === undefined) sample.line = line;
      if (sample.lineFile !== undefined) sample.lineFile = toPosixPath(relative(root, sample.lineFile));
      if (runnerTags !== undefined) sample.tags = mergeTags(sample.tags, runnerTags)!;
      samples.push(sample);
    }
  }
  const costs = splitCosts(samples);
  return { file, outcome: outcomeOfModule(module, file, incomplete), samples, costs, stamps };
}

/** The run as a whole: what the reporter knows beyond the modules. */
export interface VitestRunOptions extends VitestRunContext {
  /** The projects that ran and whether --project chose them. */
  projects?: RunOutcomes['projects'];
  /** Why a test file that exists but did not run was not judged (a shard's own run, file arguments, a missing shard). */
  absent?: RunOutcomes['absent'];
  /**
   * In a merge of blob reports, the merging run's stamp: a file whose samples carry another stamp (or
   * none, when measures are declared) is not judged ('shard-stale') and its samples are left out.
   */
  expectedStamp?: RunStamp;
}

/**
 * Every sample of the run, modules in file order, and the run's outcomes. `collected` holds modules
 * already collected (the reporter collects ended files while later files still run); the others are
 * collected here.
 */
export function collectVitestRun(
  modules: Iterable<ReportedModuleLike>,
  root: string,
  collected: ReadonlyMap<ReportedModuleLike, CollectedModule> = new Map(),
  options: VitestRunOptions = {},
): CollectedRun {
  const byFile = [...modules].map((module) => collected.get(module) ?? collectVitestModule(module, root, options));
  byFile.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const seen = new Map<string, CollectedModule>();
  for (const module of byFile) {
    const key = fileOutcomeKey(module.file, module.outcome.project);
    const twin = seen.get(key);
    if (twin !== undefined) {
      // Two blob reports ran the same file: which one is this run's cannot be told.
      for (const copy of [twin, module]) {
        copy.outcome.notJudged = { reason: 'shard-stale', detail: 'the test file is in two blob reports' };
        copy.samples = [];
        copy.costs = [];
      }
    }
    seen.set(key, module);
    if (options.expectedStamp !== undefined && module.samples.length > 0) {
      const stale = module.stamps
        .map((stamp) => staleStampReason(parseRunStamp(stamp), options.expectedStamp!))
        .find((reason) => reason !== undefined);
      if (stale !== undefined) {
        module.outcome.notJudged = { reason: 'shard-stale', detail: stale };
        module.samples = [];
        module.costs = [];
      }
    }
  }
  const samples: CollectedSample[] = [];
  const costs: CollectedCost[] = [];
  const files: string[] = [];
  const outcomes: FileOutcome[] = [];
  for (const module of byFile) {
    if (module.outcome.notJudged === undefined && module.outcome.incomplete.length === 0) files.push(module.file);
    outcomes.push(module.outcome);
    for (const sample of module.samples) samples.push(sample);
    for (const cost of module.costs) costs.push(cost);
  }
  return {
    samples,
    runner: 'vitest',
    files: [...new Set(files)],
    outcomes: {
      files: outcomes,
      ...(options.projects !== undefined ? { projects: options.projects } : {}),
      ...(options.absent !== undefined ? { absent: options.absent } : {}),
    },
    ...(costs.length > 0 ? { costs } : {}),
  };
}
