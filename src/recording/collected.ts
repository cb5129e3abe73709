import type { RunOutcomes } from './outcomes.js';
import { COST_MEASURE, type LatencyBudget, type MetricSample, type RecordedCost, type TopHit } from './sample.js';

/**
 * A sample as the reporters collect it: what a matcher recorded, plus where it was recorded.
 * This is the hand-over point between the runner-specific reporters (src/vitest, src/jest) and the
 * runner-agnostic summary, baseline and renderers (src/report, src/baseline).
 */
export interface CollectedSample extends MetricSample {
  /** Test file, relative to the project root, with '/' separators (stable across machines). */
  file: string;
  /** The describe path inside the file, outermost first (empty at top level). */
  describePath: string[];
  /** The test's own name. */
  test: string;
  /** The Vitest project that ran the test; absent for a single unnamed project (and in Jest). */
  project?: string;
  /**
   * The line of the test's first recording matcher call (MetricSample.line), else of the test's
   * definition when the runner reports it (annotations point there).
   */
  line?: number;
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
  /**
   * Optional: every test file the run started and the tests that did not run to the end, with why
   * (src/recording/outcomes.ts). With it, each baseline question the run did not produce is either
   * missing or not judged for a stated reason; absent, `files` stands in for it.
   */
  outcomes?: RunOutcomes;
  /**
   * Optional: each timed question's retrieval cost (latency, calls by kind), in recording order; the
   * latest attempt of a retried test only, every repeat of a repeated one. Absent: nothing was timed.
   */
  costs?: CollectedCost[];
}

/** One question's retrieval cost as collected: a cost record (measure COST_MEASURE) where it was recorded. */
export type CollectedCost = CollectedSample & { cost: RecordedCost };

/**
 * Moves the cost records out of `samples` (in place) and returns them, in order; the samples keep
 * their order. The collectors call it once their samples are located.
 */
export function splitCosts(samples: CollectedSample[]): CollectedCost[] {
  let kept = 0;
  const costs: CollectedCost[] = [];
  for (const sample of samples) {
    if (sample.cost !== undefined) costs.push(sample as CollectedCost);
    else samples[kept++] = sample;
  }
  samples.length = kept;
  return costs;
}

/**
 * A suite's identity: structured, so `describe('a > b')` and `describe('a') › describe('b')` are two
 * suites, and a file's suites are known without parsing a name.
 */
export interface SuiteIdentity {
  file: string;
  /** The describe path inside the file, outermost first (empty at top level). */
  describe: readonly string[];
  /** The Vitest project; absent for a single unnamed project. */
  project?: string;
}

/** The identity of the suite a sample belongs to. */
export function suiteIdentityOf(sample: Pick<CollectedSample, 'file' | 'describePath' | 'project'>): SuiteIdentity {
  return sample.project === undefined
    ? { file: sample.file, describe: sample.describePath }
    : { file: sample.file, describe: sample.describePath, project: sample.project };
}

/**
 * An exact, reversible key for a suite identity (a JSON array), for maps and records. Two identities
 * have the same key only when file, describe path and project are all equal.
 */
export function suiteKeyOf(identity: SuiteIdentity): string {
  return identity.project === undefined
    ? JSON.stringify([identity.file, identity.describe])
    : JSON.stringify([identity.file, identity.describe, identity.project]);
}

/** The identity behind a suiteKeyOf key. */
export function parseSuiteKey(key: string): SuiteIdentity {
  const [file, describe, project] = JSON.parse(key) as [string, string[], string | undefined];
  return project === undefined ? { file, describe } : { file, describe, project };
}

/**
 * A suite's name as people read it: `test/retrieval.test.ts > orders API > refunds`, with the project
 * first when there is one (`[api] test/…`). For display only: two suites can share a name.
 */
export function suiteNameOf(identity: SuiteIdentity): string {
  const name = [identity.file, ...identity.describe].join(' > ');
  return identity.project === undefined ? name : `[${identity.project}] ${name}`;
}

/** The display name of a sample's suite (suiteNameOf). */
export function suiteIdOf(sample: Pick<CollectedSample, 'file' | 'describePath' | 'project'>): string {
  return suiteNameOf(suiteIdentityOf(sample));
}

/**
 * The question a sample answers: its queryId when the test gave one, else the test name.
 * With several samples of one measure in a test and no queryId, an ordinal keeps them apart.
 */
export function sampleIdOf(sample: Pick<CollectedSample, 'queryId' | 'test'>): string {
  return sample.queryId ?? sample.test;
}

/** '/'-separated, whatever the platform. */
export function toPosixPath(path: string): string {
  return path.split('\\').join('/');
}

/**
 * A recorded sample, checked and reduced to the MetricSample fields (meta and sidecar lines are
 * JSON from another process); undefined when it is not a sample.
 */
export function cleanSample(value: unknown): MetricSample | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const raw = value as Record<string, unknown>;
  if (typeof raw.measure !== 'string' || typeof raw.value !== 'number' || !Number.isFinite(raw.value)) return undefined;
  if (raw.pass !== undefined && typeof raw.pass !== 'boolean') return undefined;
  const sample: MetricSample = { measure: raw.measure, value: raw.value };
  if (typeof raw.pass === 'boolean') sample.pass = raw.pass;
  if (typeof raw.threshold === 'number') sample.threshold = raw.threshold;
  if (raw.negated === true) sample.negated = true;
  if (typeof raw.queryId === 'string') sample.queryId = raw.queryId;
  const tags = cleanTags(raw.tags);
  if (tags !== undefined) sample.tags = tags;
  if (typeof raw.query === 'string') sample.query = raw.query;
  if (typeof raw.repeat === 'number' && Number.isInteger(raw.repeat) && raw.repeat > 0) sample.repeat = raw.repeat;
  if (raw.verdictOnly === true) sample.verdictOnly = true;
  if (raw.testQuestion === true) sample.testQuestion = true;
  if (typeof raw.labels === 'string') sample.labels = raw.labels;
  if (typeof raw.line === 'number' && Number.isSafeInteger(raw.line) && raw.line > 0) sample.line = raw.line;
  if (sample.line !== undefined && typeof raw.lineFile === 'string' && raw.lineFile !== '')
    sample.lineFile = raw.lineFile;
  if (
    typeof raw.unjudgedCount === 'number' &&
    Number.isSafeInteger(raw.unjudgedCount) &&
    raw.unjudgedCount > 0 &&
    Array.isArray(raw.unjudgedIds) &&
    raw.unjudgedIds.every((id) => typeof id === 'string')
  ) {
    sample.unjudgedIds = raw.unjudgedIds as string[];
    sample.unjudgedCount = raw.unjudgedCount;
    if (raw.positiveOnly === true) sample.positiveOnly = true;
  }
  if (raw.measure === COST_MEASURE) {
    const cost = cleanCost(raw.cost);
    if (cost === undefined) return undefined;
    sample.cost = cost;
  }
  const topHits = cleanTopHits(raw.topHits);
  if (topHits !== undefined) sample.topHits = topHits;
  return sample;
}

/** Tags as recorded (a list of non-empty strings), sorted and each once; undefined when they are not that or none. */
export function cleanTags(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  if (!value.every((tag) => typeof tag === 'string' && tag !== '')) return undefined;
  return [...new Set(value as string[])].sort();
}

/** The union of two tag lists (either may be absent), sorted, each once; undefined when both are empty. */
export function mergeTags(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined {
  if (b === undefined || b.length === 0) return a === undefined || a.length === 0 ? undefined : [...a];
  if (a === undefined || a.length === 0) return [...b];
  return [...new Set([...a, ...b])].sort();
}

/** A sample's top hits as recorded (`[{ key, grade? }]`), or undefined when they are not that. */
function cleanTopHits(value: unknown): TopHit[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const hits: TopHit[] = [];
  for (const hit of value as unknown[]) {
    if (hit === null || typeof hit !== 'object') return undefined;
    const { key, grade } = hit as Record<string, unknown>;
    if (typeof key !== 'string') return undefined;
    if (grade === undefined) hits.push({ key });
    else if (typeof grade === 'number' && Number.isFinite(grade)) hits.push({ key, grade });
    else return undefined;
  }
  return hits;
}

/** A cost record's cost as recorded, or undefined when it is not one. */
function cleanCost(value: unknown): RecordedCost | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { latencyMs, calls, latencyBudget } = value as Record<string, unknown>;
  if (typeof latencyMs !== 'number' || !Number.isFinite(latencyMs) || latencyMs < 0) return undefined;
  if (calls === null || typeof calls !== 'object' || Array.isArray(calls)) return undefined;
  const counted: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const [kind, count] of Object.entries(calls)) {
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) return undefined;
    counted[kind] = count;
  }
  const cost: RecordedCost = { latencyMs, calls: counted };
  const budget = cleanBudget(latencyBudget);
  if (budget !== undefined) cost.latencyBudget = budget;
  return cost;
}

function cleanBudget(value: unknown): LatencyBudget | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const budget: LatencyBudget = {};
  for (const key of ['p50', 'p95', 'max'] as const) {
    const limit = (value as Record<string, unknown>)[key];
    if (typeof limit === 'number' && Number.isFinite(limit) && limit > 0) budget[key] = limit;
  }
  return Object.keys(budget).length > 0 ? budget : undefined;
}
