import { explainRanking } from '../../src/core/explain.js';
import type { Hit, MeasureName, Relevance, RetrievalEvaluation } from '../../src/core/index.js';
import { formatNumber, plural } from '../../src/core/present.js';
import { questionRecorder } from '../../src/recording/question.js';
import type { MetricSample } from '../../src/recording/sample.js';
import type { MeasuredInputs } from '../../src/recording/measured-inputs.js';
import type { JudgmentAudit } from '../../src/core/judgment-audit.js';
import { utilsOf, type MatcherContext, type MatcherResult } from './context.js';
import { formatAlignmentDiagnosis, formatMissing, formatRanking } from './format.js';
import { hintOf, matcherCall, type MatcherCall } from './hint.js';
import { checkHits, coreOptionsBesideK, evaluateForMatcher, type CutoffMatcherOptions } from './hits.js';
import { checkCutoff, checkOptionalCutoff } from './cutoff.js';
import { checkCutoffNotSwapped, checkHitsNotSwapped } from './swap-hints.js';
import { checkOptions, checkQuery, checkQueryId, checkTags } from './options.js';
import { checkThreshold, describeRequirement, meetsThreshold } from './threshold.js';

/** What distinguishes one metric matcher from another; the rest is shared. */
export interface MetricMatcherSpec {
  matcherName: string;
  /** As shown in the hint: `relevant, k, min`. */
  expectedArguments: string;
  /** Canonical name (`recall`): the value is `evaluation.values[measure]`; shown as `recall@k` with a cutoff. */
  measure: MeasureName;
}

/** The arguments of one metric matcher call. */
export interface MetricArguments {
  received: unknown;
  relevant: Relevance;
  /** Undefined: the whole list. */
  k: number | undefined;
  /** Undefined for matchers without a threshold (hit@k needs a hit). */
  min: number | undefined;
  options: unknown;
}

/** The call of a metric matcher on its hits, for its argument checks and messages. */
export function metricCall(context: MatcherContext, spec: MetricMatcherSpec): MatcherCall {
  return matcherCall(context, spec.matcherName, spec.expectedArguments, 'hits');
}

function measureName(spec: Pick<MetricMatcherSpec, 'measure'>, k: number | undefined): string {
  return k === undefined ? spec.measure : `${spec.measure}@${k}`;
}

function countsLine(evaluation: RetrievalEvaluation, k: number | undefined): string {
  const where = k === undefined ? `among ${evaluation.retrievedCount} hits` : `in the top ${k}`;
  const duplicates = evaluation.duplicateCount > 0 ? ` (${plural(evaluation.duplicateCount, 'duplicate hit')})` : '';
  return `${evaluation.truePositiveCount} of ${evaluation.relevantCount} relevant retrieved ${where}${duplicates}`;
}

/** The body every metric matcher shares: validate, evaluate, record, explain. */
export function runMetricMatcher(
  context: MatcherContext,
  spec: MetricMatcherSpec,
  args: MetricArguments,
  call: MatcherCall = metricCall(context, spec),
): MatcherResult {
  checkHitsNotSwapped(call, args.received, args.relevant);
  const hits: readonly Hit[] = checkHits(call, args.received);
  const min = args.min === undefined ? undefined : checkThreshold(call, args.min);
  const options = checkOptions<CutoffMatcherOptions>(call, args.options);
  // The declared measures due for this question are measured in the pass that measures the matcher's own.
  const queryId = checkQueryId(call, options.queryId);
  const query = checkQuery(call, options.query);
  const recorder = questionRecorder(context, queryId, checkTags(call, options.tags));
  const measure = measureName(spec, args.k);
  const inputs: MeasuredInputs = { hits, relevant: args.relevant, coreOptions: coreOptionsBesideK(options) };
  // A measure this question's earlier call measured from the same inputs is not measured again.
  const measuredBefore = recorder.valueMeasuredBefore(measure, inputs);
  let evaluation: RetrievalEvaluation | undefined;
  let declared: Record<string, number> | undefined;
  let audit: JudgmentAudit | undefined;
  if (measuredBefore === undefined)
    // The judgments' audit too, when a value is recorded: one judging of the hits for all of it.
    ({ evaluation, declared, audit } = evaluateForMatcher(
      call,
      hits,
      args.relevant,
      args.k,
      options,
      recorder.plan,
      recorder.recordsValues([measure]),
    ));
  const value = measuredBefore ?? evaluation!.values[spec.measure];
  const threshold = min ?? 1;
  const pass = meetsThreshold(value, threshold);
  const negated = context.isNot === true;
  // Built field by field (in the order of MetricSample), without spreads: this runs for every call.
  const sample: MetricSample = { measure, value };
  if (min !== undefined) sample.threshold = min;
  sample.pass = pass !== negated;
  if (negated) sample.negated = true;
  if (queryId !== undefined) sample.queryId = queryId;
  if (query !== undefined) sample.query = query;
  recorder.record(
    declared,
    [sample],
    audit === undefined ? undefined : () => audit,
    audit === undefined ? undefined : (depth) => audit.topRanked.slice(0, depth),
    inputs,
  );

  const message = () => {
    const utils = utilsOf(context);
    const { queryId: _queryId, tags: _tags, query: _query, ...coreOptions } = options;
    const explanation = explainRanking(hits, args.relevant, coreOptions);
    const counts = evaluation ?? evaluateForMatcher(call, hits, args.relevant, args.k, options).evaluation;
    const judgedIds = [...explanation.relevantIds.map((entry) => entry.id)];
    const sections = [
      hintOf(call),
      `${measure} = ${utils.RECEIVED_COLOR(formatNumber(value))}, ${utils.EXPECTED_COLOR(describeRequirement(threshold, negated))}` +
        (queryId === undefined ? '' : `  (query ${queryId})`) +
        `\n${countsLine(counts, args.k)}`,
      formatRanking(explanation, args.k, utils),
      formatMissing(explanation, args.k),
      formatAlignmentDiagnosis(explanation, judgedIds, hits),
    ];
    return sections.filter((section) => section !== '').join('\n\n');
  };
  return { pass, message };
}

/** A metric matcher whose cutoff is an argument: `toHaveRecallAtK(relevant, k, min)`. */
export function runMetricMatcherAtK(
  context: MatcherContext,
  spec: MetricMatcherSpec,
  args: Omit<MetricArguments, 'k'> & { k: unknown },
): MatcherResult {
  const call = metricCall(context, spec);
  checkCutoffNotSwapped(call, args.k, args.min);
  const k = checkCutoff(call, args.k);
  return runMetricMatcher(
    context,
    spec,
    { received: args.received, relevant: args.relevant, k, min: args.min, options: args.options },
    call,
  );
}

/** A metric matcher whose cutoff is `options.k`, the whole list when left out: `toHaveNdcgAbove(relevant, min)`. */
export function runMetricMatcherWithOptionalCutoff(
  context: MatcherContext,
  spec: MetricMatcherSpec,
  args: Omit<MetricArguments, 'k'>,
): MatcherResult {
  const call = metricCall(context, spec);
  const options = checkOptions<CutoffMatcherOptions>(call, args.options);
  const k = checkOptionalCutoff(call, options.k);
  return runMetricMatcher(
    context,
    spec,
    { received: args.received, relevant: args.relevant, k, min: args.min, options },
    call,
  );
}
