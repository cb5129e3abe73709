// The recording rule. Without a declaration each matcher records its own measure (as it always did).
// With one, the first retrieval matcher that runs for a question records every declared measure of
// that question from the hits, judgments and options it was given, before its own assertion decides
// anything; later matchers for the same question in the same test attempt record no declared measure
// again, and a measure that is not declared is recorded once per question.
// One test is one question: a per-question matcher without a queryId takes the one queryId another
// per-question matcher of its test gave (set-level matchers name their own questions and take no part).
import { relative } from 'node:path';
import type { MeasurePlan } from '../core/evaluate.js';
import { callSiteLine, callSiteLinesWanted, lineInStack } from './call-site.js';
import { unjudgedAtCutoff, type JudgmentAudit } from '../core/judgment-audit.js';
import { parseMeasure, rankCutoffOf } from '../core/measures.js';
import { toPosixPath } from './collected.js';
import { measuresFor, planFor, publishedDeclaration, type WorkerDeclaration } from './declaration.js';
import { snapshotOf, valueMeasuredBefore, type MeasuredInputs, type MeasuredSnapshot } from './measured-inputs.js';
import {
  isRecording,
  MAX_TOP_HITS,
  recordSamples,
  type MetricSample,
  type RecordingContext,
  type TopHit,
} from './sample.js';

/** The running test's place, as far as a matcher can read it in either runner. */
interface TestPlace {
  /** Stable for one test (an object when the runner gives one, else its file and name). */
  key: object | string;
  /** Changes with each retry or repeat of the test. */
  attempt: string;
  /** The test's title, for messages. */
  name: string;
  /** Absolute test file path, when known. */
  filePath: string | undefined;
  /** This run of the test file, when the runner has an object for it (Vitest's file task). */
  fileRun: object | undefined;
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
  file?: { filepath?: string } | undefined;
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
      name: task.name ?? '',
      filePath: task.file?.filepath,
      fileRun: task.file,
      vitestTask: task,
      circusTest: undefined,
    };
  }
  const test = jestTestOf(context);
  if (test !== undefined)
    return {
      key: test,
      attempt: String(test.invocations ?? 0),
      name: test.name,
      filePath: context.testPath,
      fileRun: undefined,
      vitestTask: undefined,
      circusTest: test,
    };
  if (context.currentTestName === undefined) return undefined;
  return {
    key: `${context.testPath ?? ''}\n${context.currentTestName}`,
    attempt: '0',
    name: context.currentTestName,
    filePath: context.testPath,
    fileRun: undefined,
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
  /** The first queryId a per-question matcher of this attempt gave: the test's question. */
  question: string | undefined;
  /** Whether a per-question matcher recorded without any queryId before the test's question was known. */
  anonymousRecorded: boolean;
  /** Measure → the explicit queryId per-question matchers recorded it under (for the two-questions warning). */
  explicitIds: Map<string, string>;
  /** The two-questions warning is given once per attempt. */
  warned: boolean;
  /** The test's name as a warning shows it. */
  name: string;
  /** The test file's path, as the runner gave it. */
  filePath: string | undefined;
  /** This run of the test file (see callSiteLine). */
  fileRun: object | undefined;
  /** The line of the test's first recording matcher call (null: looked for, not found); see callSiteLine. */
  line: number | null | undefined;
  /** The file `line` is in when it is not the test file: a describeRetrieval question's labelled file (absolute). */
  lineFile: string | undefined;
}

const byObject = new WeakMap<object, TestRecording>();
const byName = new Map<string, TestRecording>();
/**
 * The last question whose declared values were measured (its set in TestRecording.questions) and what
 * from. One only: a test's later matchers follow its first, and copies of every question's hits would be
 * kept as long as the runner keeps its tests.
 */
let lastMeasured: { recorded: Set<string>; snapshot: MeasuredSnapshot } | undefined;

function recordingOf(place: TestPlace): TestRecording {
  const existing = typeof place.key === 'string' ? byName.get(place.key) : byObject.get(place.key);
  if (existing !== undefined && existing.attempt === place.attempt) return existing;
  const fresh: TestRecording = {
    attempt: place.attempt,
    questions: new Map(),
    question: undefined,
    anonymousRecorded: false,
    explicitIds: new Map(),
    warned: false,
    name: place.name,
    filePath: place.filePath,
    fileRun: place.fileRun,
    line: undefined,
    lineFile: undefined,
  };
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

/** How a matcher call takes part in its test's question (see questionRecorder). */
interface QuestionRole {
  /** The test's recording (undefined: the matcher runs outside a test the runner names). */
  test: TestRecording | undefined;
  /** A per-question matcher (set-level matchers name their own questions). */
  perQuestion: boolean;
  /** The samples say that their queryId is the test's question (collectors give it to earlier samples without one). */
  marked: boolean;
  /** The question's tags (the matcher's `tags` option, checked), given to every sample the call records. */
  tags?: readonly string[];
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
    /** The question: the matcher's queryId, else the one its test's other per-question matchers gave. */
    readonly queryId: string | undefined,
    /** The measures recorded for the question in this attempt; undefined: no declaration applies. */
    private readonly recorded: Set<string> | undefined,
    declared: readonly string[],
    private readonly questions: Map<string, Set<string>> | undefined,
    private readonly role: QuestionRole = { test: undefined, perQuestion: false, marked: false },
  ) {
    this.declared = declared;
    this.plan = recorded === undefined && questions !== undefined ? planFor(declared) : undefined;
  }

  /**
   * Whether `record` would record a value (not only a failed verdict) given own samples of these
   * measures: what the judgments' audit is worked out for (it goes onto recorded values only).
   */
  recordsValues(ownMeasures: readonly string[]): boolean {
    if (!isRecording(this.context)) return false;
    const recorded = this.recorded;
    if (this.questions === undefined || recorded === undefined) return true;
    return ownMeasures.some((measure) => !recorded.has(measure));
  }

  /**
   * The value of `measure` this question's declared values gave in this test attempt, when they were
   * measured from the same hits, judgments and options (see measured-inputs.ts); else undefined.
   */
  valueMeasuredBefore(measure: string, inputs: MeasuredInputs): number | undefined {
    if (this.recorded === undefined || lastMeasured?.recorded !== this.recorded) return undefined;
    return valueMeasuredBefore(lastMeasured.snapshot, measure, inputs);
  }

  /**
   * Records the declared values (required when `plan` was given) and then the matcher's own samples.
   * With `audit` (the question's judgments and ranking), each retrieval sample carries the judgments'
   * fingerprint and the unjudged hits in its measure's top k. With `inputs` (what the declared values
   * were measured from), a later call on the question may take its value from them (valueMeasuredBefore).
   */
  record(
    declaredValues: Readonly<Record<string, number>> | undefined,
    own: readonly MetricSample[],
    auditOf?: () => JudgmentAudit,
    topHitsOf?: (depth: number) => TopHit[],
    inputs?: MeasuredInputs,
  ): void {
    const { context, queryId } = this;
    if (this.role.perQuestion) for (const sample of own) this.asQuestion(sample);
    // Worked out only when something is recorded (a test outside a reporter's run records nothing).
    const recording = isRecording(context);
    const audit = auditOf !== undefined && recording ? auditOf() : undefined;
    const prepare = withAuditAndTop(
      audit,
      topHitsOf !== undefined && recording ? topHitsOf : undefined,
      declaredValues === undefined ? [] : this.declared,
      own,
    );
    const line = recording ? this.callLine() : undefined;
    const lineFile = line === undefined ? undefined : this.role.test?.lineFile;
    if (line !== undefined) for (const sample of own) placeSample(sample, line, lineFile);
    const tags = this.role.tags;
    if (tags !== undefined) for (const sample of own) sample.tags = [...tags];
    // Handed over at once: under Jest, one write for the call.
    const batch: MetricSample[] = [];
    if (this.questions === undefined) {
      this.noteExplicit(own.map((sample) => sample.measure));
      for (const sample of own) batch.push(prepare(sample));
      recordSamples(batch, context);
      return;
    }
    let recorded = this.recorded;
    // Own samples whose verdict went onto the declared sample of their measure in this call.
    let carried: Set<MetricSample> | undefined;
    if (recorded === undefined) {
      if (declaredValues === undefined) throw new TypeError('QuestionRecorder.record: the declared values are due.');
      recorded = new Set();
      this.questions.set(queryId ?? '', recorded);
      const snapshot = inputs === undefined ? undefined : snapshotOf(inputs, declaredValues);
      lastMeasured = snapshot === undefined ? undefined : { recorded, snapshot };
      this.noteExplicit([...this.declared, ...own.map((sample) => sample.measure)]);
      // The question's text (options.query) goes with its declared values too.
      const query = own.find((candidate) => candidate.query !== undefined)?.query;
      for (const measure of this.declared) {
        const sample: MetricSample = { measure, value: declaredValues[measure] as number };
        // The matcher's own assertion on this very measure: its threshold and verdict go with the value,
        // so that a failed assertion reads as failed in every report (one measurement, one sample).
        const mine = own.find((candidate) => candidate.measure === measure);
        if (mine?.threshold !== undefined) sample.threshold = mine.threshold;
        if (mine?.pass !== undefined) sample.pass = mine.pass;
        if (mine?.negated === true) sample.negated = true;
        if (mine !== undefined) (carried ??= new Set()).add(mine);
        if (queryId !== undefined) sample.queryId = queryId;
        if (query !== undefined) sample.query = query;
        if (this.role.marked) sample.testQuestion = true;
        if (line !== undefined) placeSample(sample, line, lineFile);
        if (tags !== undefined) sample.tags = [...tags];
        batch.push(prepare(sample));
        recorded.add(measure);
      }
    } else {
      this.noteExplicit(own.map((sample) => sample.measure));
    }
    for (const sample of own) {
      if (carried?.has(sample) === true) continue;
      if (recorded.has(sample.measure)) {
        // The value stays the first one recorded for this question; a failed assertion still reads as
        // failed, and counts, in every report.
        if (sample.pass === false) batch.push(verdictOf(sample, queryId));
        continue;
      }
      recorded.add(sample.measure);
      batch.push(prepare(sample));
    }
    recordSamples(batch, context);
  }

  /**
   * The line in its test file of the test's first recording matcher call, looked for once per attempt
   * and only when a reporter may show it (see publishCallSiteLines).
   */
  private callLine(): number | undefined {
    const test = this.role.test;
    if (test?.filePath === undefined) return undefined;
    if (test.line === undefined)
      test.line = callSiteLinesWanted() ? (callSiteLine(test.filePath, test.fileRun) ?? null) : null;
    return test.line ?? undefined;
  }

  /** A per-question matcher's own sample, under the test's question. */
  private asQuestion(sample: MetricSample): void {
    if (this.queryId !== undefined) sample.queryId = this.queryId;
    if (this.role.marked) sample.testQuestion = true;
  }

  /** Remembers which explicit question recorded these measures, and warns when another one already did. */
  private noteExplicit(measures: readonly string[]): void {
    const test = this.role.test;
    const queryId = this.queryId;
    if (!this.role.perQuestion || test === undefined || queryId === undefined) return;
    for (const measure of measures) {
      const other = test.explicitIds.get(measure);
      if (other === undefined) test.explicitIds.set(measure, queryId);
      else if (other !== queryId && !test.warned) {
        test.warned = true;
        console.warn(twoQuestionsWarning(test.name, measure, other, queryId));
      }
    }
  }
}

function placeSample(sample: MetricSample, line: number, lineFile: string | undefined): void {
  sample.line = line;
  if (lineFile !== undefined) sample.lineFile = lineFile;
}

/**
 * describeRetrieval: points the running test's measurements at its question's line in the labelled file,
 * or, for a question given in an array, at the test file's line in the stack of the describeRetrieval call
 * (the matchers' own call site is in the helper, not in the test file).
 */
export function placeQuestion(
  context: RecordingContext,
  place: { file: string; line: number } | { declaredAt: string },
): void {
  const where = placeOf(context);
  if (where === undefined) return;
  const test = recordingOf(where);
  if ('file' in place) {
    test.line = place.line;
    test.lineFile = place.file;
  } else {
    test.line = test.filePath === undefined ? null : (lineInStack(place.declaredAt, test.filePath) ?? null);
  }
}

/** The warning for a test whose per-question matchers measured one measure for two questions. */
function twoQuestionsWarning(test: string, measure: string, first: string, second: string): string {
  return (
    `rag-matchers: the test "${test}" records ${measure} for two questions, queryId '${first}' and queryId '${second}'. ` +
    'One test is one question: split it into one test per question (test.each), or give every matcher of the test the same queryId.'
  );
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

/**
 * withAudit for one call, which also gives the first retrieval sample it records the question's top hits,
 * down to the largest cutoff among the declared measures recorded and the call's own (the whole list counts
 * as MAX_TOP_HITS), worked out once.
 */
function withAuditAndTop(
  audit: JudgmentAudit | undefined,
  topHitsOf: ((depth: number) => TopHit[]) | undefined,
  declared: readonly string[],
  own: readonly MetricSample[],
): (sample: MetricSample) => MetricSample {
  let pending = topHitsOf;
  return (sample) => {
    withAudit(sample, audit);
    if (pending === undefined || cutoffOf(sample.measure) === null) return sample;
    // No deeper than the reporter's baseline keeps (rankingDepth 0: an empty list, which still keeps the
    // question's text in the baseline).
    const kept = publishedDeclaration()?.rankingDepth ?? MAX_TOP_HITS;
    let depth = 0;
    for (const measure of declared) depth = Math.max(depth, topDepthOf(measure));
    for (const ownSample of own) depth = Math.max(depth, topDepthOf(ownSample.measure));
    sample.topHits = pending(Math.min(depth, kept));
    pending = undefined;
    return sample;
  };
}

/** How deep a measure reads the ranking: its cutoff, at most MAX_TOP_HITS (the whole list: MAX_TOP_HITS); 0 for a measure that is not a retrieval one. */
function topDepthOf(measure: string): number {
  const cutoff = cutoffOf(measure);
  if (cutoff === null) return 0;
  return cutoff === undefined ? MAX_TOP_HITS : Math.min(cutoff, MAX_TOP_HITS);
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
    if (audit.positiveOnly) sample.positiveOnly = true;
  }
  return sample;
}

/**
 * The recorder of one per-question matcher call (`toHaveRecallAtK`, …) for the question `queryId` of
 * the test running in `context`. Without a queryId the matcher takes the one its test's other
 * per-question matchers gave; a queryId given after matchers without one recorded becomes the test's
 * question for them too (the samples are marked, and the collectors apply it: applyTestQuestion).
 */
export function questionRecorder(
  context: RecordingContext,
  queryId: string | undefined,
  tags?: readonly string[],
): QuestionRecorder {
  return recorderFor(context, queryId, true, tags);
}

function recorderFor(
  context: RecordingContext,
  given: string | undefined,
  perQuestion: boolean,
  tags?: readonly string[],
): QuestionRecorder {
  const declaration = publishedDeclaration();
  const place = perQuestion || declaration !== undefined ? placeOf(context) : undefined;
  const test = place === undefined ? undefined : recordingOf(place);
  let queryId = given;
  let marked = false;
  if (perQuestion && test !== undefined) {
    if (given === undefined) {
      queryId = test.question;
      if (queryId === undefined) test.anonymousRecorded = true;
    } else if (test.question === undefined) {
      test.question = given;
      // What the matchers without a queryId recorded is this question's.
      const anonymous = test.questions.get('');
      if (anonymous !== undefined && !test.questions.has(given)) test.questions.set(given, anonymous);
    }
    marked = queryId !== undefined && queryId === test.question && test.anonymousRecorded;
  }
  const role: QuestionRole = { test, perQuestion, marked, ...(tags !== undefined ? { tags } : {}) };
  const declared = declaration === undefined ? [] : declaredFor(declaration, place);
  if (declared.length === 0 || test === undefined)
    return new QuestionRecorder(context, queryId, undefined, declared, undefined, role);
  const questions = test.questions;
  return new QuestionRecorder(context, queryId, questions.get(queryId ?? ''), declared, questions, role);
}

/**
 * One test's samples, in recording order: when per-question retrieval matchers without a queryId recorded
 * before one with a queryId (its samples are marked `testQuestion`), the earlier ones take that
 * queryId. A test with marked samples of two queryIds keeps its samples as recorded. Drops the mark.
 */
export function applyTestQuestion(samples: readonly MetricSample[]): void {
  let question: string | undefined;
  for (const sample of samples) {
    if (sample.testQuestion !== true) continue;
    if (question !== undefined && sample.queryId !== question) return clearMarks(samples);
    question = sample.queryId;
  }
  if (question === undefined) return;
  // Retrieval samples only: an answer check without a queryId is not a per-question retrieval matcher.
  for (const sample of samples)
    if (sample.queryId === undefined && (sample.cost !== undefined || cutoffOf(sample.measure) !== null))
      sample.queryId = question;
  clearMarks(samples);
}

function clearMarks(samples: readonly MetricSample[]): void {
  for (const sample of samples) delete sample.testQuestion;
}

/** Records per the rule above; call it before returning the verdict. */
export function recordQuestion(context: RecordingContext, measurement: QuestionMeasurement): void {
  const recorder = recorderFor(context, measurement.queryId, false);
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
