import type { MetricSample } from '../recording/sample.js';

/**
 * A sample as the reporters collect it: what a matcher recorded, plus where it was recorded.
 * This is the hand-over point between the runner-specific reporters (src/vitest, src/jest) and the
 * runner-agnostic summary, baseline and renderers (src/report, src/baseline).
 */
export interface CollectedSample extends MetricSample {
  /**
   * The Vitest project that ran the test, when the run has named projects (one file run in several
   * projects is one suite per project). Absent with a single unnamed project, and in Jest.
   */
  project?: string;
  /** Test file, relative to the project root, with '/' separators (stable across machines). */
  file: string;
  /** The describe path inside the file, outermost first (empty at top level). */
  describePath: string[];
  /** The test's own name. */
  test: string;
}

/** Everything one run (or several merged shards) measured. */
export interface CollectedRun {
  samples: CollectedSample[];
  /** Which runner produced it, for the report header. */
  runner: 'vitest' | 'jest' | 'merged';
  /**
   * Optional: the test files this run executed in full ('/'-separated, relative to the project root),
   * including files that recorded no sample. Only these files' baseline entries can be reported missing,
   * obsolete or pruned, so leave out a file whose tests were filtered (`-t`, `.only`) or skipped.
   * Absent: the files that recorded samples are taken as run in full.
   */
  files?: string[];
}

/** A suite = a test file plus its describe path: `test/retrieval.test.ts > orders API > refunds`. */
export function suiteIdOf(sample: Pick<CollectedSample, 'file' | 'describePath'>): string {
  return [sample.file, ...sample.describePath].join(' > ');
}

/**
 * The question a sample answers: its queryId when the test gave one, else the test name.
 * With several samples of one measure in a test and no queryId, an ordinal keeps them apart.
 */
export function sampleIdOf(sample: Pick<CollectedSample, 'queryId' | 'test'>): string {
  return sample.queryId ?? sample.test;
}
