import { explainRanking } from '../../src/core/explain.js';
import type { Hit, Relevance, RetrievalEvaluation } from '../../src/core/index.js';
import { recordQuestion } from '../../src/recording/question.js';
import { hintOf, utilsOf, type MatcherContext, type MatcherResult } from './context.js';
import { formatAlignmentDiagnosis, formatMissing, formatNumber, formatRanking } from './format.js';
import {
  checkHits,
  checkOptions,
  checkThreshold,
  evaluateDeclared,
  evaluateForMatcher,
  type CutoffMatcherOptions,
} from './usage.js';

/** "≥ min" tolerates float noise, so 4/5 meets 0.8. */
export const THRESHOLD_EPSILON = 1e-9;

export function meetsThreshold(value: number, min: number): boolean {
  return value >= min - THRESHOLD_EPSILON;
}

/** What distinguishes one metric matcher from another; the rest is shared. */
export interface MetricMatcherSpec {
  matcherName: string;
  /** As shown in the hint: `relevant, k, min`. */
  expectedArguments: string;
  /** Canonical base name (`recall`), suffixed with `@k` when a cutoff applies. */
  measure: string;
  pick: (evaluation: RetrievalEvaluation) => number;
}

export interface MetricCall {
  received: unknown;
  relevant: Relevance;
  /** Undefined: the whole list. */
  k: number | undefined;
  /** Undefined for matchers without a threshold (hit@k needs a hit). */
  min: number | undefined;
  options: unknown;
}

export function measureName(spec: Pick<MetricMatcherSpec, 'measure'>, k: number | undefined): string {
  return k === undefined ? spec.measure : `${spec.measure}@${k}`;
}

function countsLine(evaluation: RetrievalEvaluation, k: number | undefined): string {
  const where = k === undefined ? `among ${evaluation.retrievedCount} hits` : `in the top ${k}`;
  const duplicates =
    evaluation.duplicateCount > 0
      ? ` (${evaluation.duplicateCount} duplicate ${evaluation.duplicateCount === 1 ? 'hit' : 'hits'})`
      : '';
  return `${evaluation.truePositiveCount} of ${evaluation.relevantCount} relevant retrieved ${where}${duplicates}`;
}

/** The body every metric matcher shares: validate, evaluate, record, explain. */
export function runMetricMatcher(context: MatcherContext, spec: MetricMatcherSpec, call: MetricCall): MatcherResult {
  const { matcherName, expectedArguments } = spec;
  const hits: readonly Hit[] = checkHits(context, matcherName, expectedArguments, call.received);
  const min = call.min === undefined ? undefined : checkThreshold(context, matcherName, expectedArguments, call.min);
  const options = checkOptions<CutoffMatcherOptions>(context, matcherName, expectedArguments, call.options);
  const { evaluation, queryId } = evaluateForMatcher(
    context,
    matcherName,
    expectedArguments,
    hits,
    call.relevant,
    call.k,
    options,
  );

  const value = spec.pick(evaluation);
  const threshold = min ?? 1;
  const pass = meetsThreshold(value, threshold);
  const measure = measureName(spec, call.k);
  const negated = context.isNot === true;
  recordQuestion(context, {
    queryId,
    declared: (plan) => evaluateDeclared(context, matcherName, expectedArguments, hits, call.relevant, options, plan),
    own: [
      {
        measure,
        value,
        ...(min === undefined ? {} : { threshold: min }),
        pass: pass !== negated,
        ...(negated ? { negated } : {}),
        ...(queryId === undefined ? {} : { queryId }),
      },
    ],
  });

  const message = () => {
    const utils = utilsOf(context);
    const { queryId: _queryId, ...coreOptions } = options;
    const explanation = explainRanking(hits, call.relevant, coreOptions);
    const requirement = negated ? `expected < ${formatNumber(threshold)}` : `needs ≥ ${formatNumber(threshold)}`;
    const judgedIds = [...explanation.relevantIds.map((entry) => entry.id)];
    const sections = [
      hintOf(context, matcherName, expectedArguments),
      `${measure} = ${utils.RECEIVED_COLOR(formatNumber(value))}, ${utils.EXPECTED_COLOR(requirement)}` +
        (queryId === undefined ? '' : `  (query ${queryId})`) +
        `\n${countsLine(evaluation, call.k)}`,
      formatRanking(explanation, call.k, utils),
      formatMissing(explanation, call.k),
      formatAlignmentDiagnosis(explanation, judgedIds, hits),
    ];
    return sections.filter((section) => section !== '').join('\n\n');
  };
  return { pass, message };
}
