import {
  faithfulness,
  type FaithfulnessContexts,
  type FaithfulnessOptions,
  type SentenceSupport,
} from '../src/generation/index.js';
import { andMore, formatNumber, listUpTo, plural, wordFor } from '../src/core/present.js';
import { answerCall, checkAnswer, quote, recordScore } from './support/answer.js';
import { utilsOf, type MatcherContext, type MatcherResult } from './support/context.js';
import { MAX_ROWS } from './support/format.js';
import { hintOf } from './support/hint.js';
import { checkOptions, checkQueryId, checkTags } from './support/options.js';
import { checkThreshold, describeRequirement } from './support/threshold.js';
import { usageError, withUsageErrors } from './support/usage-error.js';

const NAME = 'toBeFaithfulTo';
const ARGS = 'contexts, options';

/** Every checked sentence must be supported unless the test asks for less. */
const DEFAULT_FAITHFULNESS_MIN = 1;
/** Missing terms listed per unsupported sentence. */
const MAX_TERMS_SHOWN = 15;

export interface FaithfulnessMatcherOptions extends FaithfulnessOptions {
  /** Least share of checked sentences that must be supported; default 1 (every one). */
  min?: number;
  /** Groups the recorded sample under this question in reports and baselines. */
  queryId?: string;
  /** The question's tags (`['billing']`): reports give per-tag rows across suites. */
  tags?: readonly string[];
}

function termCount(sentence: SentenceSupport): string {
  return `${sentence.supportedTerms.length} of ${plural(sentence.terms.length, 'term')}`;
}

function unsupportedLine(sentence: SentenceSupport): string {
  return `  ✗ ${quote(sentence.text)}\n      share ${formatNumber(sentence.share)} (${termCount(sentence)}), not in the contexts: ${listUpTo(sentence.missingTerms, MAX_TERMS_SHOWN)}`;
}

function supportedLine(sentence: SentenceSupport): string {
  return `  ✓ ${quote(sentence.text)}  share ${formatNumber(sentence.share)}`;
}

/**
 * Passes when lexical faithfulness (the share of the answer's sentences whose content terms are
 * mostly found in the contexts) is at least `options.min`, default 1: every checked sentence supported.
 */
export function toBeFaithfulTo(
  this: MatcherContext,
  received: unknown,
  contexts: FaithfulnessContexts,
  options?: FaithfulnessMatcherOptions,
): MatcherResult {
  const call = answerCall(this, NAME, ARGS);
  const answer = checkAnswer(call, received);
  const {
    min: rawMin,
    queryId: rawQueryId,
    tags: rawTags,
    ...coreOptions
  } = checkOptions<FaithfulnessMatcherOptions>(call, options);
  const min = rawMin === undefined ? DEFAULT_FAITHFULNESS_MIN : checkThreshold(call, rawMin, 'options.min');
  const queryId = checkQueryId(call, rawQueryId);
  const tags = checkTags(call, rawTags);
  const result = withUsageErrors(call, () => faithfulness(answer, contexts, coreOptions));
  if (result.sentenceCount === 0) {
    throw usageError(
      call,
      'nothing to check: the answer has no sentence with content words',
      `Answer: ${quote(answer)}\nEvery sentence is made of stop words${result.skipped.some((sentence) => sentence.reason.includes('citation')) ? ' and citation markers' : ''} (${result.skipped.map((sentence) => quote(sentence.text, 40)).join(', ')}), so faithfulness is undefined.\n` +
        'Check that the received value is the full answer, or test a reply like this with toAbstain().',
    );
  }

  const pass = recordScore(this, 'faithfulness', result.score, min, queryId, tags);

  const message = () => {
    const utils = utilsOf(this);
    const negated = this.isNot === true;
    const requirement = describeRequirement(min, negated);
    const unsupported = result.sentences.filter((sentence) => !sentence.supported);
    const supported = result.sentences.filter((sentence) => sentence.supported);
    const summary =
      `faithfulness = ${utils.RECEIVED_COLOR(formatNumber(result.score))}, ${utils.EXPECTED_COLOR(requirement)}` +
      (queryId === undefined ? '' : `  (query ${queryId})`) +
      `\n${result.supportedCount} of ${plural(result.sentenceCount, 'sentence')} supported` +
      ` (a sentence is supported when ≥ ${formatNumber(result.minOverlap)} of its content terms are in the contexts)`;
    const verdict = negated
      ? `Expected the answer not to be faithful to the contexts (faithfulness < ${formatNumber(min)}), but ${result.supportedCount} of ${plural(result.sentenceCount, 'checked sentence')} ${wordFor(result.supportedCount, 'is', 'are')} supported.`
      : '';
    const unsupportedSection =
      unsupported.length === 0
        ? ''
        : utils.RECEIVED_COLOR(
            [`Unsupported (${unsupported.length}):`, ...unsupported.map(unsupportedLine)].join('\n'),
          );
    const shownSupported = supported.slice(0, MAX_ROWS);
    const supportedSection =
      supported.length === 0
        ? ''
        : utils.DIM_COLOR(
            [
              `Supported (${supported.length}):`,
              ...shownSupported.map(supportedLine),
              ...(supported.length > shownSupported.length
                ? [`  ${andMore(supported.length - shownSupported.length)}`]
                : []),
            ].join('\n'),
          );
    const skippedSection =
      result.skipped.length === 0
        ? ''
        : utils.DIM_COLOR(
            `Not checked (no content words): ${result.skipped.map((sentence) => quote(sentence.text, 40)).join(', ')}`,
          );
    return [hintOf(call), summary, verdict, unsupportedSection, supportedSection, skippedSection]
      .filter((section) => section !== '')
      .join('\n\n');
  };
  return { pass, message };
}
