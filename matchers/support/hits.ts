// The received hits of the per-question retrieval matchers: checked, then evaluated as the core does.
import { printExpected, printWithType } from './jest-utils.js';
import { describeValue } from '../../src/core/describe.js';
import { evaluateAndAudit, type MeasurePlan } from '../../src/core/evaluate.js';
import {
  evaluate,
  type EvaluateOptions,
  type Hit,
  type Relevance,
  type RetrievalEvaluation,
} from '../../src/core/index.js';
import type { JudgmentAudit } from '../../src/core/judgment-audit.js';
import { isPromiseLike } from '../../src/core/keys.js';
import type { MatcherCall } from './hint.js';
import { usageError, withUsageErrors } from './usage-error.js';

/** Options every matcher takes as its last argument: the core's options plus the question's id. */
export interface MatcherOptions extends Omit<EvaluateOptions, 'k'> {
  /** Groups the recorded sample under this question in reports and baselines. */
  queryId?: string;
  /** The question's tags (`['billing']`): reports give per-tag rows across suites. */
  tags?: readonly string[];
  /** The question's text, which the baseline keeps with its ranking and reports show (default: the test's name). */
  query?: string;
}

export interface CutoffMatcherOptions extends MatcherOptions {
  k?: number;
}

export function checkHits(call: MatcherCall, received: unknown): readonly Hit[] {
  if (isPromiseLike(received)) {
    throw usageError(
      call,
      'received value is a Promise, not an array of hits: did you forget await?',
      'Await the retriever before asserting: expect(await retriever.retrieve(query)).…',
    );
  }
  if (!Array.isArray(received)) {
    throw usageError(
      call,
      `received value must be an array of hits in rank order`,
      printWithType('Received', received, (value) => describeValue(value)),
    );
  }
  return received;
}

/**
 * True when `options` holds nothing for the core: no own key but `queryId`, `tags` and `query` (the matcher's) and `k`
 * (given to the core separately). The usual per-question call, which then needs no options object.
 */
function holdsNoCoreOption(options: object): boolean {
  for (const name in options)
    if (name !== 'queryId' && name !== 'tags' && name !== 'query' && name !== 'k' && Object.hasOwn(options, name))
      return false;
  return true;
}

/**
 * The core's options in `options` other than k (which names the measure), for telling two calls'
 * options apart; undefined when there are none (the usual call).
 */
export function coreOptionsBesideK(options: object): Record<string, unknown> | undefined {
  if (holdsNoCoreOption(options)) return undefined;
  const { queryId: _queryId, tags: _tags, query: _query, k: _k, ...rest } = options as Record<string, unknown>;
  return rest;
}

/**
 * Splits the matcher's own options from the core's (`options.queryId` and `options.tags` the caller has
 * checked with checkQueryId and checkTags), then evaluates; core errors become usage errors. With `plan`
 * (the declared measures due for the question), measures them too, and when `audited` audits the
 * judgments, in the same pass.
 */
export function evaluateForMatcher(
  call: MatcherCall,
  hits: readonly Hit[],
  relevant: Relevance,
  k: number | undefined,
  options: MatcherOptions & { k?: number },
  plan?: MeasurePlan,
  audited = false,
): {
  evaluation: RetrievalEvaluation;
  declared: Record<string, number> | undefined;
  audit: JudgmentAudit | undefined;
} {
  let coreOptions: number | EvaluateOptions | undefined = k;
  if (!holdsNoCoreOption(options)) {
    const { queryId: _queryId, tags: _tags, query: _query, ...rest } = options;
    coreOptions = { ...rest, k };
  }
  const {
    evaluation,
    values: declared,
    audit,
  } = withUsageErrors(call, () =>
    plan === undefined && !audited
      ? { evaluation: evaluate(hits, relevant, coreOptions), values: undefined, audit: undefined }
      : evaluateAndAudit(hits, relevant, coreOptions, plan, audited),
  );
  if (evaluation.relevantCount === 0) {
    throw usageError(
      call,
      `the annotation is empty: ${printExpected('relevant')} holds no relevant id` +
        (options.minGrade !== undefined ? ` with grade ≥ ${options.minGrade}` : ''),
      `relevant: ${describeValue(relevant)}\nA question with no relevant passage cannot be scored; annotate it, or test it with toAbstain() on the answer.`,
    );
  }
  return { evaluation, declared, audit };
}
