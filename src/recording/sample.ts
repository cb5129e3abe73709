/**
 * What a metric matcher measured, recorded on the running test so the reporters can average it per
 * suite and compare it with the baseline. Pure data: JSON-serialisable, no runner types.
 */
export interface MetricSample {
  /** Canonical measure name: `recall@5`, `ndcg@10`, `faithfulness`, `judge:<name>`. */
  measure: string;
  value: number;
  /** The minimum the assertion asked for, when it had one. */
  threshold?: number;
  /** Whether the assertion passed (after `.not`). */
  pass: boolean;
  /** True when the assertion was negated with `.not`. */
  negated?: boolean;
  /** The question this sample belongs to (`options.queryId`); else the test name identifies it. */
  queryId?: string;
}

/** The parts of a Vitest/Jest matcher context that recording reads. */
export interface RecordingContext {
  /** Vitest ≥ 4.1: the running test, whose `meta` reaches reporters. */
  task?: { readonly meta?: object } | undefined;
  currentTestName?: string | undefined;
  testPath?: string | undefined;
}

export type SampleRecorder = (sample: MetricSample, context: RecordingContext) => void;

/** Key under which samples are stored in Vitest's `task.meta`. */
export const TASK_META_KEY = 'ragMatchers';

let recorder: SampleRecorder | undefined;

/** Installed by a runner entry (`rag-matchers/jest`) that needs its own channel. */
export function setSampleRecorder(next: SampleRecorder | undefined): void {
  recorder = next;
}

/** Vitest carries samples on the test itself; elsewhere the installed recorder (if any) takes them. */
export function recordSample(sample: MetricSample, context: RecordingContext): void {
  const meta = context.task?.meta as Record<string, unknown> | undefined;
  if (meta !== undefined) {
    const samples = (meta[TASK_META_KEY] ??= []) as MetricSample[];
    samples.push(sample);
    return;
  }
  recorder?.(sample, context);
}
