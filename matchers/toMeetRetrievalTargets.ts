import { explainRanking } from '../src/core/explain.js';
import {
  evaluateMeasures,
  formatMeasure,
  parseMeasure,
  rankCutoffOf,
  type Measure,
  type MeasureSpelling,
  type Relevance,
} from '../src/core/index.js';
import { questionRecorder } from '../src/recording/question.js';
import type { MatcherContext, MatcherResult } from './support/context.js';
import { utilsOf } from './support/context.js';
import { formatNumber } from '../src/core/present.js';
import { formatAlignmentDiagnosis, formatMissing, formatRanking } from './support/format.js';
import { hintOf, matcherCall, type MatcherCall } from './support/hint.js';
import { checkHits, coreOptionsBesideK, evaluateForMatcher, type MatcherOptions } from './support/hits.js';
import type { MetricSample } from '../src/recording/sample.js';
import { checkOptions, checkQuery, checkQueryId, checkTags } from './support/options.js';
import { checkThreshold, meetsThreshold } from './support/threshold.js';
import { usageError, withUsageErrors } from './support/usage-error.js';

const NAME = 'toMeetRetrievalTargets';
const ARGS = 'relevant, targets';

/** `{ 'recall@5': 0.8, 'ndcg@10': 0.7 }`: measure name → minimum. */
export type RetrievalTargets = { readonly [Name in MeasureSpelling]?: number };

interface TargetResult {
  measure: string;
  value: number;
  min: number;
  met: boolean;
}

/** Target names already parsed (a suite passes the same targets for each of its questions): name → measure and canonical name. */
const parsedNames = new Map<string, { measure: Measure; canonical: string }>();

function parsedName(call: MatcherCall, name: string): { measure: Measure; canonical: string } {
  let known = parsedNames.get(name);
  if (known === undefined) {
    const measure = withUsageErrors(
      call,
      () => parseMeasure(name),
      (message) => `targets key ${JSON.stringify(name)}: ${message}`,
    );
    known = { measure: Object.freeze(measure), canonical: formatMeasure(measure) };
    parsedNames.set(name, known);
  }
  return known;
}

/** Targets keyed by canonical measure name (a Map: a key such as `constructor` is only a key). */
function readTargets(call: MatcherCall, targets: unknown): Map<string, { measure: Measure; min: number }> {
  if (targets === null || typeof targets !== 'object' || Array.isArray(targets) || Object.keys(targets).length === 0) {
    throw usageError(call, "targets must be a non-empty object such as { 'recall@5': 0.8, 'ndcg@10': 0.7 }");
  }
  const parsed = new Map<string, { measure: Measure; min: number }>();
  for (const name of Object.keys(targets)) {
    const { measure, canonical } = parsedName(call, name);
    if (parsed.has(canonical))
      throw usageError(call, `targets name ${canonical} twice (${JSON.stringify(name)} is another spelling of it)`);
    const argument = `targets['${name}']`;
    const min = checkThreshold(call, (targets as Record<string, unknown>)[name], argument, argument);
    parsed.set(canonical, { measure, min });
  }
  return parsed;
}

/** Passes when every target holds; the message lists all of them, met and unmet. */
export function toMeetRetrievalTargets(
  this: MatcherContext,
  received: unknown,
  relevant: Relevance,
  targets: RetrievalTargets,
  options?: MatcherOptions,
): MatcherResult {
  const call = matcherCall(this, NAME, ARGS, 'hits');
  const hits = checkHits(call, received);
  const checked = checkOptions<MatcherOptions>(call, options);
  const parsed = readTargets(call, targets);
  // Validates options and annotations exactly as the single-measure matchers do, and measures the
  // question's declared measures (when due) in the same pass.
  const queryId = checkQueryId(call, checked.queryId);
  const query = checkQuery(call, checked.query);
  const recorder = questionRecorder(this, queryId, checkTags(call, checked.tags));
  const names = [...parsed.keys()];
  const { declared, audit } = evaluateForMatcher(
    call,
    hits,
    relevant,
    undefined,
    checked,
    recorder.plan,
    recorder.recordsValues(names),
  );
  const { queryId: _queryId, tags: _tags, query: _query, ...coreOptions } = checked;
  const targetList = [...parsed.values()];
  // Targets the declared measures cover were measured in that pass, from the same hits and options.
  const values =
    declared !== undefined && names.every((name) => Object.hasOwn(declared, name))
      ? declared
      : evaluateMeasures(
          hits,
          relevant,
          targetList.map((target) => target.measure),
          coreOptions,
        );

  // Each target records its value and whether that target was met, not the verdict on all of them.
  const results: TargetResult[] = [];
  const samples: MetricSample[] = [];
  for (const [name, { min }] of parsed) {
    const value = values[name] as number;
    const met = meetsThreshold(value, min);
    results.push({ measure: name, value, min, met });
    const sample: MetricSample = { measure: name, value, threshold: min, pass: met };
    if (queryId !== undefined) sample.queryId = queryId;
    if (query !== undefined) sample.query = query;
    samples.push(sample);
  }
  const pass = results.every((result) => result.met);
  const negated = this.isNot === true;
  recorder.record(
    declared,
    samples,
    audit === undefined ? undefined : () => audit,
    audit === undefined ? undefined : (depth) => audit.topRanked.slice(0, depth),
    { hits, relevant, coreOptions: coreOptionsBesideK(checked) },
  );

  const message = () => {
    const utils = utilsOf(this);
    const width = Math.max(...results.map((result) => result.measure.length));
    const valueWidth = Math.max(...results.map((result) => formatNumber(result.value).length));
    const lines = results.map((result) => {
      const line = `  ${result.met ? '✓' : '✗'} ${result.measure.padEnd(width)}  ${formatNumber(result.value).padEnd(valueWidth)}  needs ≥ ${formatNumber(result.min)}`;
      return result.met ? utils.EXPECTED_COLOR(line) : utils.RECEIVED_COLOR(line);
    });
    const metCount = results.filter((result) => result.met).length;
    const title = negated
      ? `Expected some target to be missed, but all ${results.length} were met:`
      : `${metCount} of ${results.length} targets met:`;
    const largestCutoff = Math.max(...targetList.map((target) => rankCutoffOf(target.measure) ?? 0));
    const shownK = largestCutoff === 0 ? undefined : largestCutoff;
    const explanation = explainRanking(hits, relevant, coreOptions);
    return [
      hintOf(call),
      [title, ...lines].join('\n') + (queryId === undefined ? '' : `\n(query ${queryId})`),
      formatRanking(explanation, shownK, utils),
      formatMissing(explanation, shownK),
      formatAlignmentDiagnosis(
        explanation,
        explanation.relevantIds.map((entry) => entry.id),
        hits,
      ),
    ]
      .filter((section) => section !== '')
      .join('\n\n');
  };
  return { pass, message };
}
