import { describe, expect, it } from 'vitest';
import {
  recordSample,
  recordSamples,
  setSampleRecorder,
  TASK_META_KEY,
  type MetricSample,
} from '../../../src/recording/sample.js';

const sample = (value: number): MetricSample => ({ measure: 'recall@5', value, pass: true });

describe('recordSample on a Vitest task', () => {
  it('appends to task.meta', () => {
    const task = { meta: {} as Record<string, unknown>, result: { retryCount: 0, repeatCount: 0 } };
    recordSample(sample(0.2), { task });
    recordSample(sample(0.4), { task });
    expect((task.meta[TASK_META_KEY] as MetricSample[]).map((entry) => entry.value)).toEqual([0.2, 0.4]);
  });

  it('a retry replaces the failed attempt’s samples instead of counting them twice', () => {
    const task = { meta: {} as Record<string, unknown>, result: { retryCount: 0, repeatCount: 0 } };
    recordSample(sample(0.2), { task });
    recordSample(sample(0.3), { task });
    task.result.retryCount = 1; // Vitest increments it before the next attempt
    recordSample(sample(0.9), { task });
    expect((task.meta[TASK_META_KEY] as MetricSample[]).map((entry) => entry.value)).toEqual([0.9]);
  });

  it('each repeat keeps its samples; a retry inside a repeat replaces only that repeat’s', () => {
    const task = { meta: {} as Record<string, unknown>, result: { retryCount: 0, repeatCount: 0 } };
    recordSample(sample(0.1), { task });
    task.result.repeatCount = 1;
    recordSample(sample(0.2), { task });
    task.result.retryCount = 1;
    recordSample(sample(0.3), { task });
    expect((task.meta[TASK_META_KEY] as MetricSample[]).map((entry) => entry.value)).toEqual([0.1, 0.3]);
  });

  it('a repeat’s samples say which repeat recorded them; the first run’s are stored as given', () => {
    const task = { meta: {} as Record<string, unknown>, result: { retryCount: 0, repeatCount: 0 } };
    const first = sample(0.1);
    recordSample(first, { task });
    task.result.repeatCount = 2;
    recordSample(sample(0.2), { task });
    const recorded = task.meta[TASK_META_KEY] as MetricSample[];
    expect(recorded[0]).toBe(first);
    expect(recorded[0]).not.toHaveProperty('repeat');
    expect(recorded[1]).toEqual({ ...sample(0.2), repeat: 2 });
  });

  it('hands what one matcher call recorded to the installed recorder at once, in order; nothing for no sample', () => {
    const calls: number[][] = [];
    setSampleRecorder((recorded) => calls.push(recorded.map((entry) => entry.value)));
    recordSamples([sample(0.1), sample(0.2)], { currentTestName: 't' });
    recordSamples([], { currentTestName: 't' });
    setSampleRecorder(undefined);
    expect(calls).toEqual([[0.1, 0.2]]);
  });

  it('stores a call’s samples on the Vitest task in order, under one attempt', () => {
    const task = { meta: {} as Record<string, unknown>, result: { retryCount: 0, repeatCount: 0 } };
    recordSamples([sample(0.1), sample(0.2)], { task });
    recordSamples([sample(0.3)], { task });
    expect((task.meta[TASK_META_KEY] as MetricSample[]).map((entry) => entry.value)).toEqual([0.1, 0.2, 0.3]);
  });

  it('without a task, hands the sample to the installed recorder (Jest), and to nobody when none is', () => {
    const received: number[] = [];
    setSampleRecorder((recorded) => received.push(...recorded.map((entry) => entry.value)));
    recordSample(sample(0.5), { currentTestName: 't' });
    setSampleRecorder(undefined);
    recordSample(sample(0.6), { currentTestName: 't' });
    expect(received).toEqual([0.5]);
  });
});
