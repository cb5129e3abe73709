import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricSample, RecordingContext } from '../recording/sample.js';

/** Set by the Jest reporter before workers start: the directory this run's samples go to. */
export const RUN_DIRECTORY_ENV = 'RAG_MATCHERS_RUN_DIR';

/** One line of a sidecar file: a sample and the test it belongs to. */
export interface SidecarRecord {
  testPath: string;
  testName: string;
  sample: MetricSample;
}

/**
 * Jest 30 has no channel from a test to the reporter, so each worker appends JSON lines to its own
 * file in the run directory the reporter owns (one file per process: appends never interleave).
 * Without a reporter (no directory), samples are dropped: the assertions still work.
 */
export function recordToSidecar(sample: MetricSample, context: RecordingContext): void {
  const directory = process.env[RUN_DIRECTORY_ENV];
  if (directory === undefined || directory === '') return;
  const record: SidecarRecord = { testPath: context.testPath ?? '', testName: context.currentTestName ?? '', sample };
  appendFileSync(join(directory, `samples-${process.pid}.jsonl`), `${JSON.stringify(record)}\n`);
}
