// The recording rule. Without a declaration each matcher records its own measure (as it always did).
// With one, the first retrieval matcher that runs for a question records every declared measure of
// that question from the hits, judgments and options it was given, before its own assertion decides
// anything; later matchers for the same question in the same test attempt record no declared measure
// again, and a measure that is not declared is recorded once per question.
import { relative } from 'node:path';
import type { MeasurePlan } from '../core/evaluate.js';
import { unjudgedAtCutoff, type JudgmentAudit } from '../core/judgment-audit.js';
import { parseMeasure, rankCutoffOf } from '../core/measures.js';
import { toPosixPath } from './collected.js';
import { measuresFor, planFor, publishedDeclaration, type WorkerDeclaration } from './declaration.js';
import { isRecording, recordSample, type MetricSample, type RecordingContext } from './sample.js';

/** The running test's place, as far as a matcher can read it in either runner. */
interface TestPlace {
  /** Stable for one test (an object when the runner gives one, else its file and name). */
  key: object | string;
  /** Changes with each retry or repeat of the test. */
  attempt: string;
  /** Absolute test file path, when known. */
  filePath: string | undefined;
  /** Where its describe titles are read from (only when suite overrides need them): a Vitest task or a jest-circus test. */
  vitestTask: VitestTaskLike | undefined;
  circusTest: CircusTestLike | undefined;
}

/** Describe titles, outermost first, when known. */
function describePathOf(place: TestPlace): readonly string[] | undefined {
  if (place.vitestTask !== undefined) return vitestDescribePath(place.vitestTask);
  if (place.circusTest !== undefined) return circusDescribePath(place.circusTest);
  return undefined;
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
      vitestTask: task,
      circusTest: undefined,
    };
  }
  const test = jestTestOf(context);
  if (test !== undefined)
    return {
      key: test,
      attempt: String(test.invocations ?? 0),
      filePath: context.testPath,
      vitestTask: undefined,
      circusTest: test,
    };
  if (context.currentTestName === undefined) return undefined;
  return {
    key: `${context.testPath ?? ''}\n${context.currentTestName}`,
    attempt: '0',
    filePath: context.testPath,
    vitestTask: undefined,
    circusTest: undefined,
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

/** The declared measures (canonical) for the test running in `context`; [] when none. */
function declaredFor(declaration: WorkerDeclaration, place: TestPlace | undefined): string[] {
  if (declaration.suites.length === 0 || place?.filePath === undefined) return declaration.measures;
  return measuresFor(declaration, toPosixPath(relative(declaration.root, place.filePath)), describePathOf(place) ?? []);
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
  /** The question's judgments and ranking, when the matcher has them (see QuestionRecorder.record). */
  audit?: () => JudgmentAudit;
}

/**
 * One matcher call's recording, in two steps: `plan` says which declared measures are due (so that a
 * matcher can measure them in the pass that measures its own), `record` records them and the
 * matcher's own samples. Nothing is recorded until `record` is called.
 */
export class QuestionRecorder {
  /** The plan of the declared measures due now; undefined when none are (nothing declared, or already recorded). */
  readonly plan: MeasurePlan | undefined;
  private readonly declared: readonly string[];

  constructor(
    private readonly context: RecordingContext,
    private readonly queryId: string | undefined,
    /** The measures recorded for the question in this attempt; undefined: no declaration applies. */
    private readonly recorded: Set<string> | undefined,
    declared: readonly string[],
    private readonly questions: Map<string, Set<string>> | undefined,
  ) {
    this.declared = declared;
    this.plan = recorded === undefined && questions !== undefined ? planFor(declared) : undefined;
  }

  /**
   * Records the declared values (required when `plan` was given) and then the matcher's own samples.
   * With `audit` (the question's judgments and ranking), each retrieval sample carries the judgments'
   * fingerprint and the unjudged hits in its measure's top k.
   */
  record(
    declaredValues: Readonly<Record<string, number>> | undefined,
    own: readonly MetricSample[],
    auditOf?: () => JudgmentAudit,
  ): void {
    const { context, queryId } = this;
    // Worked out only when something is recorded (a test outside a reporter's run records nothing).
    const audit = auditOf !== undefined && isRecording(context) ? auditOf() : undefined;
    if (this.questions === undefined) {
      for (const sample of own) recordSample(withAudit(sample, audit), context);
      return;
    }
    let recorded = this.recorded;
    // Own samples whose verdict went onto the declared sample of their measure in this call.
    const carried = new Set<MetricSample>();
    if (recorded === undefined) {
      if (declaredValues === undefined) throw new TypeError('QuestionRecorder.record: the declared values are due.');
      recorded = new Set();
      this.questions.set(queryId ?? '', recorded);
      for (const measure of this.declared) {
        const sample: MetricSample = { measure, value: declaredValues[measure] as number };
        // The matcher's own assertion on this very measure: its threshold and verdict go with the value,
        // so that a failed assertion reads as failed in every report (one measurement, one sample).
        const mine = own.find((candidate) => candidate.measure === measure);
        if (mine?.threshold !== undefined) sample.threshold = mine.threshold;
        if (mine?.pass !== undefined) sample.pass = mine.pass;
        if (mine?.negated === true) sample.negated = true;
        if (mine !== undefined) carried.add(mine);
        if (queryId !== undefined) sample.queryId = queryId;
        recordSample(withAudit(sample, audit), context);
        recorded.add(measure);
      }
    }
    for (const sample of own) {
      if (carried.has(sample)) continue;
      if (recorded.has(sample.measure)) {
        // The value stays the first one recorded for this question; a failed assertion still reads as
        // failed, and counts, in every report.
        if (sample.pass === false) recordSample(verdictOf(sample, queryId), context);
        continue;
      }
      recorded.add(sample.measure);
      recordSample(withAudit(sample, audit), context);
    }
  }
}

/** A later assertion's verdict on a measure already recorded for the question. */
function verdictOf(sample: MetricSample, queryId: string | undefined): MetricSample {
  const verdict: MetricSample = { ...sample, verdictOnly: true };
  if (queryId !== undefined) verdict.queryId = queryId;
  return verdict;
}

/** Retrieval measure name → its cutoff (undefined: the whole list), or null for any other measure. */
const cutoffs = new Map<string, number | undefined | null>();

function cutoffOf(measure: string): number | undefined | null {
  let cutoff = cutoffs.get(measure);
  if (cutoff === undefined && !cutoffs.has(measure)) {
    try {
      cutoff = rankCutoffOf(parseMeasure(measure));
    } catch {
      cutoff = null;
    }
    cutoffs.set(measure, cutoff);
  }
  return cutoff;
}

/** `sample` with the audit's fingerprint and the unjudged hits within its measure's cutoff (retrieval measures only). */
function withAudit(sample: MetricSample, audit: JudgmentAudit | undefined): MetricSample {
  if (audit === undefined) return sample;
  const cutoff = cutoffOf(sample.measure);
  if (cutoff === null) return sample;
  sample.labels = audit.fingerprint;
  const unjudged = unjudgedAtCutoff(audit, cutoff);
  if (unjudged.count > 0) {
    sample.unjudgedIds = unjudged.ids;
    sample.unjudgedCount = unjudged.count;
  }
  return sample;
}

/** The recorder of one matcher call for the question `queryId` of the test running in `context`. */
export function questionRecorder(context: RecordingContext, queryId: string | undefined): QuestionRecorder {
  const declaration = publishedDeclaration();
  const place = declaration === undefined ? undefined : placeOf(context);
  const declared = declaration === undefined ? [] : declaredFor(declaration, place);
  if (declared.length === 0 || place === undefined)
    return new QuestionRecorder(context, queryId, undefined, declared, undefined);
  const questions = recordingOf(place).questions;
  return new QuestionRecorder(context, queryId, questions.get(queryId ?? ''), declared, questions);
}

/** Records per the rule above; call it before returning the verdict. */
export function recordQuestion(context: RecordingContext, measurement: QuestionMeasurement): void {
  const recorder = questionRecorder(context, measurement.queryId);
  recorder.record(
    recorder.plan === undefined ? undefined : measurement.declared(recorder.plan),
    measurement.own,
    measurement.audit,
  );
}

/** Whether a declaration is in force for the test running in `context` (the set matchers check what they were given against it). */
export function declaredMeasuresFor(context: RecordingContext): string[] {
  const declaration = publishedDeclaration();
  if (declaration === undefined) return [];
  return declaredFor(declaration, placeOf(context));
}
