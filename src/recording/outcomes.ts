// What a run did with each test file and test, beyond the samples: which files it started, which tests
// did not run to the end and why. The collectors (src/vitest, src/jest) fill it in; the baseline's
// accounting (src/baseline/accounting.ts) reads it to tell, for every baseline question the run did not
// produce, whether it is missing (its tests ran in full and no longer produce it) or not judged (and why).

/** Why a baseline question was not judged by a run. */
export type NotJudgedReason =
  /** Left out on purpose: `-t`, file arguments, `--project`, a shard's own files. */
  | 'filtered'
  /** `.skip`, `.todo`, `skipIf`, or `.only` elsewhere in its file. */
  | 'skipped'
  /** Its test failed or threw before its first recording matcher. */
  | 'failed'
  /** Its test timed out before measuring. */
  | 'timed-out'
  /** Its test file failed to load (a syntax or import error, a failing beforeAll). */
  | 'load-failed'
  /** Its test file did not finish: the worker died or the run was cut short. */
  | 'crashed'
  /** Its test file exists but this run did not start it. */
  | 'not-run'
  /** Its test file belongs to a shard whose report was not given to the merge. */
  | 'shard-missing'
  /** Its test file's samples come from another commit or another declaration than the merge's. */
  | 'shard-stale';

/** Every reason, in the order reports list them. */
export const NOT_JUDGED_REASONS: readonly NotJudgedReason[] = [
  'filtered',
  'skipped',
  'failed',
  'timed-out',
  'load-failed',
  'crashed',
  'not-run',
  'shard-missing',
  'shard-stale',
];

/** A test that did not run to the end, so the questions it measures may be absent for that reason. */
export interface IncompleteTest {
  /** The describe path inside the file, outermost first. */
  describePath: string[];
  /** The test's own name. */
  test: string;
  reason: NotJudgedReason;
}

/** One test file as the run saw it (one per project for a file run in several Vitest projects). */
export interface FileOutcome {
  /** Relative to the project root, '/'-separated. */
  file: string;
  /** The Vitest project, when named. */
  project?: string;
  /** Set when nothing the file measures can be judged (it did not load, or did not finish). */
  notJudged?: { reason: NotJudgedReason; detail?: string };
  /** Tests that did not run to the end (skipped, filtered, failed before or while measuring). */
  incomplete: IncompleteTest[];
}

/** The run's account of its test files: with it, every baseline question is judged, missing or not judged. */
export interface RunOutcomes {
  /** Every test file the run started. */
  files: FileOutcome[];
  /**
   * The Vitest projects that ran ('' for an unnamed one), and whether a `--project` filter chose them:
   * a baseline suite of another project is then filtered out, not missing.
   */
  projects?: { names: string[]; filtered: boolean };
  /**
   * Why a test file that still exists but is not in `files` was not judged (default 'not-run'): a
   * shard's own run ('filtered'), a merge that lacks a shard ('shard-missing'), file arguments ('filtered').
   */
  absent?: { reason: NotJudgedReason; detail?: string };
}

/** `file` in project `project`: the key of a FileOutcome. */
export function fileOutcomeKey(file: string, project: string | undefined): string {
  return JSON.stringify([file, project ?? '']);
}
