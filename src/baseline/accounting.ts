// The one rule that decides, for a baseline question a run did not produce, whether the run judged it
// gone or did not judge it at all:
//
//   missing     its test file was deleted, or its Vitest project no longer exists (no --project
//               filter), or its file ran and every test that could produce it ran to the end;
//   not judged  anything else, with the reason (filtered, skipped, failed before measuring, the file
//               failed to load or crashed, the file did not run, a shard is missing or stale).
//
// The summary (what fails CI), the baseline update (what prune removes) and rename detection (which
// suites are gone) all ask this module, so they cannot disagree.
import type { CollectedRun, SuiteIdentity } from '../recording/collected.js';
import { fileOutcomeKey, type FileOutcome, type NotJudgedReason, type RunOutcomes } from '../recording/outcomes.js';

type QuestionStatus = { kind: 'missing' } | { kind: 'not-judged'; reason: NotJudgedReason; detail?: string };

export interface BaselineAccounting {
  /**
   * The status of a baseline question of suite `identity` that this run did not produce (for one
   * measure, or at all). `suiteRows`: the suite's rows in this run (groupRun), which tell the tests
   * that produced the same question for other measures.
   */
  statusOf(identity: SuiteIdentity, questionId: string, suiteRows?: ReadonlyMap<string, ProducedRow>): QuestionStatus;
  /** True when the whole suite can be missing: its file ran with no incomplete test in it, or is gone. */
  suiteCanBeMissing(identity: SuiteIdentity): boolean;
}

/** What statusOf reads of a GroupedRow: the row's question ids and the samples (their tests) behind them. */
interface ProducedRow {
  readonly ids: readonly string[];
  readonly sources: readonly { readonly test: string }[];
}

function producersOf(questionId: string, rows: ReadonlyMap<string, ProducedRow> | undefined): string[] {
  const tests: string[] = [];
  for (const row of rows?.values() ?? []) {
    const index = row.ids.indexOf(questionId);
    if (index >= 0) tests.push(row.sources[index]!.test);
  }
  return tests;
}

const MISSING: QuestionStatus = { kind: 'missing' };

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((title, index) => title === b[index]);
}

/**
 * The run's outcomes: as collected, or, for a CollectedRun built without them (older callers of the
 * library API), from `run.files` (files that ran in full) and the files that recorded samples.
 */
export function outcomesOf(run: CollectedRun): RunOutcomes {
  if (run.outcomes !== undefined) return run.outcomes;
  const complete = new Set(run.files ?? run.samples.map((sample) => sample.file));
  const files: FileOutcome[] = [...complete].map((file) => ({ file, incomplete: [] }));
  for (const file of new Set(run.samples.map((sample) => sample.file))) {
    if (!complete.has(file))
      files.push({
        file,
        notJudged: { reason: 'failed', detail: 'the test file did not run in full' },
        incomplete: [],
      });
  }
  return { files };
}

/**
 * The accounting of `run` for a baseline. `fileExists` tells whether a test file (relative,
 * '/'-separated) still exists; without it every file is taken to exist, so nothing of a file the run
 * did not start is ever called missing.
 */
export function accountFor(run: CollectedRun, fileExists?: (file: string) => boolean): BaselineAccounting {
  const outcomes = outcomesOf(run);
  const byFile = new Map<string, FileOutcome>();
  for (const outcome of outcomes.files) byFile.set(fileOutcomeKey(outcome.file, outcome.project), outcome);
  const projectNames = outcomes.projects === undefined ? undefined : new Set(outcomes.projects.names);

  /** Whether the run looked at the suite's file at all: a status when it did not, else its outcome. */
  const fileStatus = (identity: SuiteIdentity): QuestionStatus | FileOutcome => {
    if (projectNames !== undefined && !projectNames.has(identity.project ?? '')) {
      if (outcomes.projects!.filtered)
        return {
          kind: 'not-judged',
          reason: 'filtered',
          detail: `project ${identity.project ?? '(unnamed)'} was not selected (--project)`,
        };
      return MISSING;
    }
    const outcome = byFile.get(fileOutcomeKey(identity.file, identity.project));
    if (outcome === undefined) {
      if (fileExists !== undefined && !fileExists(identity.file)) return MISSING;
      const absent = outcomes.absent ?? { reason: 'not-run' as const };
      return { kind: 'not-judged', ...absent };
    }
    if (outcome.notJudged !== undefined) return { kind: 'not-judged', ...outcome.notJudged };
    return outcome;
  };

  return {
    statusOf(identity, questionId, suiteRows) {
      const file = fileStatus(identity);
      if ('kind' in file) return file;
      const incomplete = file.incomplete.filter((test) => samePath(test.describePath, identity.describe));
      if (incomplete.length === 0) return MISSING;
      const producers = producersOf(questionId, suiteRows);
      if (producers.length > 0) {
        // The question ran: only its own tests decide whether the rest of its measures are gone.
        const own = incomplete.find((test) => producers.includes(test.test));
        return own === undefined ? MISSING : { kind: 'not-judged', reason: own.reason };
      }
      // A test named after the question (no queryId) says exactly why; else any test of the suite
      // that did not run to the end may have been the one that measures it.
      const named = incomplete.find((test) => test.test === questionId) ?? incomplete[0]!;
      return { kind: 'not-judged', reason: named.reason };
    },
    suiteCanBeMissing(identity) {
      const file = fileStatus(identity);
      if ('kind' in file) return file.kind === 'missing';
      return !file.incomplete.some((test) => samePath(test.describePath, identity.describe));
    },
  };
}
