// The options users write for the Vitest and Jest reporters (and `rag-matchers merge`), checked in one
// place so both reporters accept the same things and say the same when something is wrong. What a run
// makes of them (paths, the baseline mode, CI) is ./options.ts and ./mode.ts.

import { closestName } from '../core/suggest.js';
import { resolveTolerance, type ToleranceOption } from '../core/regression-rule.js';
import type { PairedTestName } from '../core/stats.js';
import { resolveDeclaration, type MeasureDeclaration } from '../recording/declaration.js';
import { checkLatencyBudget } from '../recording/cost.js';
import { MAX_TOP_HITS, type LatencyBudget } from '../recording/sample.js';
import { REPORT_CATALOGUE, REPORT_FILE_OPTIONS, type ReportFileOptions } from '../report/formats/catalogue.js';
import { checkChurnLimits, type ChurnLimits } from '../report/churn.js';

export { REPORT_FILE_OPTIONS, type ReportFileOption } from '../report/formats/catalogue.js';

export const DEFAULT_BASELINE_PATH = 'rag-baseline.json';

/** What messages about the options start with when the caller names no source. */
export const DEFAULT_SOURCE = 'rag-matchers reporter options';

/**
 * What users put in `reporters: [['rag-matchers/vitest-reporter', { … }]]` (Jest: the same options object).
 * The report options come from the catalogue of formats: `json`, `markdown`, `html` (a file path, or
 * false for none; default none) and `githubStepSummary` (append the Markdown report to
 * $GITHUB_STEP_SUMMARY when that is set; default true).
 */
export interface RagReporterOptions extends MeasureDeclaration, ReportFileOptions {
  /** Baseline file, relative to the project root. Default `rag-baseline.json`. */
  baseline?: string;
  /** Largest drop of a mean that is not a regression: 0.01 by default; per-measure `{ default: 0.01, 'recall@5': 0 }`. */
  tolerance?: ToleranceOption;
  /** Also require a significant drop (paired test, Holm-corrected), e.g. 0.05. Default: unset (tolerance alone). */
  significance?: number;
  /** Paired test. Default 'sign' (exact sign test), as in toNotRegressFrom and `rag-matchers compare`. */
  test?: PairedTestName;
  /** Fail the run on a regression. Default true. */
  failOnRegression?: boolean;
  /** Fail the run when questions are missing from the baseline. Default false. */
  failOnNew?: boolean;
  /**
   * Fail the run when a tag regresses: the questions carrying it, across suites, fell under the same rule
   * as a suite (the matchers' `tags` option, Vitest's own test tags). Default false: tag rows are shown only.
   */
  failOnTagRegression?: boolean;
  /**
   * Fail the run when a suite × measure row can never fail under the gate's rule (e.g. 5 questions under
   * a sign test at significance 0.05): for strict CI. Default false (such rows are a warning).
   */
  failOnInsensitive?: boolean;
  /**
   * The baseline must be up to date, as snapshots must be: a regression, an improvement not recorded, a
   * suite or question new to the baseline, a baseline suite or question that did not run although its
   * file ran, and a renamed suite each fail the run, with the command that accepts it. Default: true
   * when CI is set, else false.
   */
  strict?: boolean;
  /**
   * This run is a deliberate subset (a job that runs some test files, or skips what needs a key it lacks):
   * baseline questions it does not judge are listed and do not fail it under `strict`. Default false;
   * `RAG_PARTIAL=1` in the environment turns it on for one job.
   */
  partial?: boolean;
  /**
   * The Markdown report (and the step summary) is one line, the verdict, when nothing changed: no row
   * moved and nothing is new, missing or not judged. For a pull-request comment that stays quiet. Default false.
   */
  quiet?: boolean;
  /**
   * Under GitHub Actions (`GITHUB_ACTIONS=true`), print workflow-command annotations: an error at the test
   * of each regressed, new or missing question, a notice for each improvement to record. Default true.
   */
  annotations?: boolean;
  /**
   * How many top ranked keys the baseline keeps per question, with their grades, to show what a changed
   * question retrieved before: 0 to 10 (what the matchers record); 0 keeps none. Default 10.
   */
  rankingDepth?: number;
  /** The baseline keeps each question's text (its test's name). Default true; false for texts that must not be committed. */
  questionTexts?: boolean;
  /** Questions listed per regressed row in the console and Markdown. Default 10. */
  maxWorse?: number;
  /** Seed of the bootstrap intervals and the randomization test. Default 42. */
  seed?: number;
  /** Randomization-test resamples. Default 10,000. */
  resamples?: number;
  /** Bootstrap resamples for the intervals. Default 1,000. */
  intervalResamples?: number;
  /**
   * In CI (`strict`), every question must run at least this many times, its first run included (Vitest
   * `repeats: 4` runs a test 5 times); a question that ran fewer times is a `too-few-repeats` finding.
   * Default: unset.
   */
  minRepeats?: number;
  /**
   * In CI (`strict`), a question run several times whose spread (max − min of its values) exceeds this is
   * an `unstable` finding that fails the run; below it the question is only marked unstable. Default: unset.
   */
  maxSpread?: number;
  /**
   * A change in calls per question since the baseline (`rerank calls per question 1 → 3`, from
   * timeRetrieval and countCall) fails the run; it is always reported. Default false.
   */
  failOnCallChange?: boolean;
  /**
   * A latency budget in milliseconds for every timed suite that sets none itself: `{ p95: 300 }` (keys p50,
   * p95, max; nearest-rank). A suite with at least 20 timed questions over it fails the run; with fewer the
   * report says the budget was not judged. Latency is never compared with the baseline's. Default: none.
   */
  latency?: LatencyBudget;
  /**
   * Fail a suite whose rankings churned more than this against the baseline's: `{ rbo: 0.8 }` fails one
   * whose mean rank-biased overlap falls below 0.8, `{ overlap: 0.6 }` one whose mean top-5 overlap falls
   * below 0.6. Default: unset (churn is shown, never failing).
   */
  maxChurn?: ChurnLimits;
}

const REPORT_SWITCH_OPTIONS = (Object.keys(REPORT_CATALOGUE) as (keyof typeof REPORT_CATALOGUE)[]).filter(
  (name) => !REPORT_CATALOGUE[name].path,
);

/**
 * What a run must know of an option beyond its check. `shared`: it decides the summary or the verdict, so
 * the shards of one `jest --shard` run must agree on it (`rag-matchers merge` refuses them otherwise);
 * report paths, display options and what follows from the environment may differ.
 */
interface ReporterOptionSpec {
  shared: boolean;
}
const SHARED: ReporterOptionSpec = { shared: true };
const PER_SHARD: ReporterOptionSpec = { shared: false };

/**
 * The table of reporter options, in the order docs/baselines-and-ci.md#options lists them
 * (test/unit/docs/reporter-options.test.ts); every option of RagReporterOptions, each once.
 */
const REPORTER_OPTIONS = {
  baseline: SHARED,
  tolerance: SHARED,
  significance: SHARED,
  test: SHARED,
  failOnRegression: SHARED,
  failOnNew: SHARED,
  failOnTagRegression: SHARED,
  failOnInsensitive: SHARED,
  strict: PER_SHARD,
  partial: PER_SHARD,
  ...(Object.fromEntries(Object.keys(REPORT_CATALOGUE).map((name) => [name, PER_SHARD])) as Record<
    keyof typeof REPORT_CATALOGUE,
    ReporterOptionSpec
  >),
  quiet: PER_SHARD,
  annotations: PER_SHARD,
  maxWorse: PER_SHARD,
  rankingDepth: SHARED,
  questionTexts: SHARED,
  seed: SHARED,
  resamples: SHARED,
  intervalResamples: SHARED,
  minRepeats: SHARED,
  maxSpread: SHARED,
  failOnCallChange: SHARED,
  latency: SHARED,
  maxChurn: SHARED,
  measures: SHARED,
  suites: SHARED,
} satisfies Record<keyof RagReporterOptions, ReporterOptionSpec>;

type ReporterOptionName = keyof typeof REPORTER_OPTIONS;

/** Every reporter option, in the table's order. */
export const REPORTER_OPTION_NAMES = Object.keys(REPORTER_OPTIONS) as ReporterOptionName[];

/** The options the shards of one run must share (see ReporterOptionSpec). */
export const SHARED_REPORTER_OPTIONS = REPORTER_OPTION_NAMES.filter((name) => REPORTER_OPTIONS[name].shared);

/**
 * Checks reporter options; throws a TypeError/RangeError that names the option (prefixed with `source`,
 * e.g. "rag-matchers/vitest-reporter options") and what it accepts. Returns the options unchanged.
 */
export function validateReporterOptions(options: unknown, source = DEFAULT_SOURCE): RagReporterOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(
      `${source} must be an object such as { baseline: 'rag-baseline.json' }, got ${Array.isArray(options) ? 'an array' : typeof options}.`,
    );
  }
  const record = options as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(REPORTER_OPTION_NAMES as readonly string[]).includes(key)) {
      const guess = closestName(key, REPORTER_OPTION_NAMES);
      throw new TypeError(
        `${source}: unknown option ${JSON.stringify(key)}${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}; the options are ${REPORTER_OPTION_NAMES.join(', ')}.`,
      );
    }
  }
  const fail = (name: string, expected: string): never => {
    throw new TypeError(`${source}: ${name} must be ${expected}, got ${describe(record[name])}.`);
  };
  if (record.baseline !== undefined && (typeof record.baseline !== 'string' || record.baseline.trim() === ''))
    fail('baseline', 'a file path such as "rag-baseline.json"');
  if (record.tolerance !== undefined) {
    try {
      resolveTolerance(record.tolerance as ToleranceOption, 'tolerance');
    } catch (error) {
      throw new TypeError(`${source}: ${(error as Error).message}`);
    }
  }
  if (
    record.significance !== undefined &&
    !(typeof record.significance === 'number' && record.significance > 0 && record.significance < 1)
  ) {
    fail(
      'significance',
      'a number strictly between 0 and 1, e.g. 0.05 (leave it unset to judge by the tolerance alone)',
    );
  }
  if (record.test !== undefined && record.test !== 'sign' && record.test !== 'randomization' && record.test !== 't')
    fail('test', "'sign', 'randomization' or 't'");
  for (const name of [
    'failOnRegression',
    'failOnNew',
    'failOnTagRegression',
    'failOnInsensitive',
    'strict',
    'partial',
    ...REPORT_SWITCH_OPTIONS,
    'quiet',
    'annotations',
    'questionTexts',
    'failOnCallChange',
  ] as const) {
    if (record[name] !== undefined && typeof record[name] !== 'boolean') fail(name, 'true or false');
  }
  for (const [name, exampleFile] of Object.entries(REPORT_FILE_OPTIONS)) {
    const value = record[name];
    if (value !== undefined && value !== false && (typeof value !== 'string' || value.trim() === ''))
      fail(name, `a file path such as "${exampleFile}", or false`);
  }
  if (record.maxWorse !== undefined && !(Number.isInteger(record.maxWorse) && (record.maxWorse as number) >= 0))
    fail('maxWorse', 'a whole number ≥ 0');
  const depth = record.rankingDepth;
  if (depth !== undefined && !(Number.isInteger(depth) && (depth as number) >= 0 && (depth as number) <= MAX_TOP_HITS))
    fail('rankingDepth', `a whole number from 0 to ${MAX_TOP_HITS} (0 keeps no ranking)`);
  if (
    record.seed !== undefined &&
    !(Number.isInteger(record.seed) && (record.seed as number) >= 0 && (record.seed as number) <= 0xffffffff)
  ) {
    fail('seed', 'a whole number from 0 to 4294967295');
  }
  for (const name of ['resamples', 'intervalResamples'] as const) {
    const value = record[name];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 10_000_000))
      fail(name, 'a whole number from 1 to 10000000');
  }
  if (record.minRepeats !== undefined && !(Number.isInteger(record.minRepeats) && (record.minRepeats as number) >= 1))
    fail('minRepeats', 'a whole number ≥ 1 (runs of each question, its first run included)');
  if (
    record.maxSpread !== undefined &&
    !(typeof record.maxSpread === 'number' && Number.isFinite(record.maxSpread) && record.maxSpread >= 0)
  )
    fail('maxSpread', "a number ≥ 0 (the largest max − min of a question's values over its runs)");
  if (record.latency !== undefined) {
    try {
      checkLatencyBudget(record.latency, 'latency');
    } catch (error) {
      throw new TypeError(`${source}: ${(error as Error).message}`);
    }
  }
  checkChurnLimits(record.maxChurn, source);
  // A declared measure that does not parse, or a malformed override, stops the run here (a DeclarationError is a TypeError).
  resolveDeclaration(record as MeasureDeclaration, '', source);
  return record as RagReporterOptions;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
