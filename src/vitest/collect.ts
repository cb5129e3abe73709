// Turns what Vitest reports at the end of a run (test modules → suites → test cases, each test case
// carrying the samples its matchers pushed to `task.meta`) into the runner-agnostic CollectedRun.
// Works the same on a live run and on `--merge-reports`, where the tasks (meta included) come from
// the shards' blob files.
import { isAbsolute, join, relative } from 'node:path';
import type { MetricSample } from '../recording/sample.js';
import { TASK_META_KEY } from '../recording/sample.js';
import { cleanSample, toPosixPath, type CollectedRun, type CollectedSample } from '../recording/collected.js';

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
  result?(): { readonly state: string };
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

/** The samples a test recorded (none when it recorded nothing or the meta holds something else). */
export function samplesOf(test: ReportedTestLike): MetricSample[] {
  const recorded = (test.meta() as Record<string, unknown>)[TASK_META_KEY];
  if (!Array.isArray(recorded)) return [];
  return recorded.map(cleanSample).filter((sample): sample is MetricSample => sample !== undefined);
}

/**
 * Whether every test of the module ran: it loaded, finished, every test passed, and none was skipped (by `-t`, `.only`,
 * `.skip` or `.todo`: the report cannot tell them apart, so any skip makes the file partial). Only such
 * files' baseline entries may be reported missing or pruned.
 */
export function ranInFull(module: ReportedModuleLike): boolean {
  const state = module.state?.() ?? 'passed';
  if (state !== 'passed' && state !== 'failed') return false;
  if ((module.errors?.() ?? []).length > 0) return false;
  // A failed test may have stopped before recording everything it used to: its file's missing entries
  // must not be read as obsolete (RAG_BASELINE=prune would delete them).
  for (const test of module.children.allTests()) {
    const testState = test.result?.().state ?? 'passed';
    if (testState !== 'passed') return false;
  }
  return true;
}

/** What one test module contributes to the run: its file, whether it ran in full, its samples. */
export interface CollectedModule {
  file: string;
  ranInFull: boolean;
  samples: CollectedSample[];
}

/** One module's samples, tests in the order they appear in the file. */
export function collectVitestModule(module: ReportedModuleLike, root: string): CollectedModule {
  const file = moduleFileOf(module, root);
  const samples: CollectedSample[] = [];
  // One file run in several projects (a workspace) is a suite per project: the name keeps them apart.
  const project = module.project?.name;
  for (const test of module.children.allTests()) {
    const describePath = describePathOf(test);
    // samplesOf gives fresh objects: completing them in place (same key order as before) saves a copy per sample.
    for (const sample of samplesOf(test) as CollectedSample[]) {
      if (project !== undefined && project !== '') sample.project = project;
      sample.file = file;
      sample.describePath = describePath;
      sample.test = test.name;
      samples.push(sample);
    }
  }
  return { file, ranInFull: ranInFull(module), samples };
}

/**
 * Every sample of the run, modules in file order. `collected` holds modules already collected (the
 * reporter collects ended files while later files still run); the others are collected here.
 */
export function collectVitestRun(
  modules: Iterable<ReportedModuleLike>,
  root: string,
  collected: ReadonlyMap<ReportedModuleLike, CollectedModule> = new Map(),
): CollectedRun {
  const byFile = [...modules].map((module) => collected.get(module) ?? collectVitestModule(module, root));
  byFile.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const samples: CollectedSample[] = [];
  const files: string[] = [];
  for (const module of byFile) {
    if (module.ranInFull) files.push(module.file);
    for (const sample of module.samples) samples.push(sample);
  }
  return { samples, runner: 'vitest', files };
}
