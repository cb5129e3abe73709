// The recording rule. Without a declaration each matcher records its own measure (as it always did).
// With one, the first retrieval matcher that runs for a question records every declared measure of
// that question from the hits, judgments and options it was given, before its own assertion decides
// anything; later matchers for the same question in the same test attempt record no declared measure
// again, and a measure that is not declared is recorded once per question.
import { relative } from 'node:path';
import type { MeasurePlan } from '../core/evaluate.js';
import { measuresFor, planFor, publishedDeclaration, type WorkerDeclaration } from './declaration.js';
import { recordSample, type MetricSample, type RecordingContext } from './sample.js';

/** The running test's place, as far as a matcher can read it in either runner. */
interface TestPlace {
  /** Stable for one test (an object when the runner gives one, else its file and name). */
  key: object | string;
  /** Changes with each retry or repeat of the test. */
  attempt: string;
  /** Absolute test file path, when known. */
  filePath: string | undefined;
  /** Describe titles, outermost first, when known (read only when suite overrides need them). */
  describePath: () => readonly string[] | undefined;
}

interface VitestTaskLike {
  name?: string;
  meta?: object;
  suite?: VitestTaskLike;
  file?: { filepath?: string };
  filepath?: string;
  result?: { retryCount?: number; repeatCount?: number };
}

/** jest-circus's test entry (what `expect.getState().currentTestIdentity()` returns in Jest 30). */
export interface CircusTestLike {
  name: string;
  parent?: { name: string; parent?: unknown };
  invocations?: number;
  concurrent?: boolean;
}

/** The describe titles of a jest-circus test, outermost first (the root block is jest-circus's own). */
export function circusDescribePath(test: CircusTestLike): string[] {
  const path: string[] = [];
  for (
    let block = test.parent as CircusTestLike['parent'];
    block?.parent !== undefined;
    block = block.parent as CircusTestLike['parent']
  )
    path.unshift(block.name);
  return path;
}

/** The Jest test a matcher runs in, read from the expect state (exact even for test.concurrent). */
export function jestTestOf(context: RecordingContext): CircusTestLike | undefined {
  const identity = context.currentTestIdentity;
  if (typeof identity !== 'function') return undefined;
  try {
    const test = identity() as CircusTestLike | undefined;
    return test !== undefined && test !== null && typeof test.name === 'string' ? test : undefined;
  } catch {
    return undefined;
  }
}

function placeOf(context: RecordingContext): TestPlace | undefined {
  const task = context.task as VitestTaskLike | undefined;
  if (task !== undefined && task.meta !== undefined) {
    const result = task.result;
    return {
      key: task,
      attempt: `${result?.repeatCount ?? 0}:${result?.retryCount ?? 0}`,
      filePath: task.file?.filepath,
      describePath: () => vitestDescribePath(task),
    };
  }
  const test = jestTestOf(context);
  if (test !== undefined)
    return {
      key: test,
      attempt: String(test.invocations ?? 0),
      filePath: context.testPath,
      describePath: () => circusDescribePath(test),
    };
  if (context.currentTestName === undefined) return undefined;
  return {
    key: `${context.testPath ?? ''}\n${context.currentTestName}`,
    attempt: '0',
    filePath: context.testPath,
    describePath: () => undefined,
  };
}

function vitestDescribePath(task: VitestTaskLike): string[] {
  const describePath: string[] = [];
  for (let suite = task.suite; suite !== undefined && suite.filepath === undefined; suite = suite.suite)
    describePath.unshift(suite.name ?? '');
  return describePath;
}

interface TestRecording {
  attempt: string;
  /** Question key → measures recorded for it in this attempt. */
  questions: Map<string, Set<string>>;
}

const byObject = new WeakMap<object, TestRecording>();
const byName = new Map<string, TestRecording>();

function recordingOf(place: TestPlace): TestRecording {
  const existing = typeof place.key === 'string' ? byName.get(place.key) : byObject.get(place.key);
  if (existing !== undefined && existing.attempt === place.attempt) return existing;
  const fresh: TestRecording = { attempt: place.attempt, questions: new Map() };
  if (typeof place.key === 'string') byName.set(place.key, fresh);
  else byObject.set(place.key, fresh);
  return fresh;
}

function toPosix(path: string): string {
  return path.split('\\').join('/');
}

/** The declared measures (canonical) for the test running in `context`; [] when none. */
function declaredFor(declaration: WorkerDeclaration, place: TestPlace | undefined): string[] {
  if (declaration.suites.length === 0 || place?.filePath === undefined) return declaration.measures;
  return measuresFor(declaration, toPosix(relative(declaration.root, place.filePath)), place.describePath() ?? []);
}

/** What a matcher measured for one question. */
export interface QuestionMeasurement {
  /** `options.queryId` (undefined: the test itself is the question). */
  queryId: string | undefined;
  /**
   * The declared measures for this question, from the same hits, judgments and options: called at
   * most once per question and test attempt, with the plan of the declared measures.
   */
  declared: (plan: MeasurePlan) => Readonly<Record<string, number>>;
  /** The matcher's own samples (its measure, threshold, verdict). */
  own: readonly MetricSample[];
}

/** Records per the rule above; call it before returning the verdict. */
export function recordQuestion(context: RecordingContext, measurement: QuestionMeasurement): void {
  const declaration = publishedDeclaration();
  const place = declaration === undefined ? undefined : placeOf(context);
  const declared = declaration === undefined ? [] : declaredFor(declaration, place);
  if (declared.length === 0 || place === undefined) {
    for (const sample of measurement.own) recordSample(sample, context);
    return;
  }
  const recording = recordingOf(place);
  const question = measurement.queryId ?? '';
  let recorded = recording.questions.get(question);
  if (recorded === undefined) {
    recorded = new Set();
    recording.questions.set(question, recorded);
    const values = measurement.declared(planFor(declared));
    for (const measure of declared) {
      recordSample(
        {
          measure,
          value: values[measure] as number,
          ...(measurement.queryId === undefined ? {} : { queryId: measurement.queryId }),
        },
        context,
      );
      recorded.add(measure);
    }
  }
  for (const sample of measurement.own) {
    if (recorded.has(sample.measure)) continue;
    recorded.add(sample.measure);
    recordSample(sample, context);
  }
}

/** Whether a declaration is in force for the test running in `context` (the set matchers check what they were given against it). */
export function declaredMeasuresFor(context: RecordingContext): string[] {
  const declaration = publishedDeclaration();
  if (declaration === undefined) return [];
  return declaredFor(declaration, placeOf(context));
}
