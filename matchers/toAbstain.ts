import {
  CHINESE_ABSTENTION_PHRASES,
  detectAbstention,
  ENGLISH_ABSTENTION_PHRASES,
  type AbstentionOptions,
} from '../src/generation/index.js';
import { normalizeText } from '../src/generation/text.js';
import { listUpTo, plural } from '../src/core/present.js';
import { answerCall, checkAnswer, MAX_QUOTE_LENGTH, quote } from './support/answer.js';
import { utilsOf, type MatcherContext, type MatcherResult } from './support/context.js';
import { hintOf } from './support/hint.js';
import { checkOptions } from './support/options.js';
import { withUsageErrors } from './support/usage-error.js';

const NAME = 'toAbstain';
const ARGS = '';
/** Phrases listed by name when the test gave its own; longer lists are summarised. */
const MAX_PHRASES_SHOWN = 10;

function phraseList(phrases: readonly string[]): string {
  return listUpTo(phrases, MAX_PHRASES_SHOWN, (phrase) => JSON.stringify(phrase));
}

/** Which phrases were looked for, named by set rather than listed when they are the defaults. */
function phrasesTried(options: AbstentionOptions): string {
  const base =
    options.phrases === undefined
      ? `the default English (${ENGLISH_ABSTENTION_PHRASES.length}) and Chinese (${CHINESE_ABSTENTION_PHRASES.length}) phrases, e.g. "I don't know", "not in the provided context", "无法回答"`
      : `${plural(options.phrases.length, 'phrase')} of yours: ${phraseList(options.phrases)}`;
  const added =
    options.extendPhrases === undefined || options.extendPhrases.length === 0
      ? ''
      : `, plus ${phraseList(options.extendPhrases)}`;
  return `Phrases tried: ${base}${added}`;
}

/** Characters shown either side of the matched phrase when the answer is too long to quote whole. */
const EXCERPT_MARGIN = 60;

/** The answer, or for a long one the part around the matched phrase, so the match is always visible. */
function quoteAround(answer: string, phrase: string, locale: string | undefined): string {
  const flat = normalizeText(answer).replace(/\s+/g, ' ').trim();
  const lower = flat.toLocaleLowerCase(locale ?? 'en');
  const index = lower.indexOf(
    normalizeText(phrase)
      .replace(/\s+/g, ' ')
      .trim()
      .toLocaleLowerCase(locale ?? 'en'),
  );
  if (flat.length <= MAX_QUOTE_LENGTH || index === -1 || lower.length !== flat.length) return quote(answer);
  // Cut at spaces, so the excerpt starts and ends with whole words.
  const roughStart = Math.max(0, index - EXCERPT_MARGIN);
  const start = roughStart === 0 ? 0 : flat.indexOf(' ', roughStart) + 1 || roughStart;
  const roughEnd = Math.min(flat.length, index + phrase.length + EXCERPT_MARGIN);
  const lastSpace = flat.lastIndexOf(' ', roughEnd);
  const end = roughEnd === flat.length || lastSpace <= index + phrase.length ? roughEnd : lastSpace;
  const excerpt = `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
  return `${JSON.stringify(excerpt)} (${flat.length} characters; the phrase is at character ${index})`;
}

/**
 * Passes when the answer declines to answer ("I don't know", "not in the provided context",
 * "资料中没有", …). Use it for questions whose answer is not in the corpus, and `.not.toAbstain()`
 * for those that have one.
 */
export function toAbstain(this: MatcherContext, received: unknown, options?: AbstentionOptions): MatcherResult {
  const call = answerCall(this, NAME, ARGS);
  const answer = checkAnswer(call, received);
  const checked = checkOptions<AbstentionOptions>(call, options);
  const result = withUsageErrors(call, () => detectAbstention(answer, checked));
  const pass = result.abstained;

  const message = () => {
    const utils = utilsOf(this);
    if (this.isNot === true) {
      return [
        hintOf(call),
        `Expected an answer, but it abstains: it says ${utils.RECEIVED_COLOR(JSON.stringify(result.matchedPhrase ?? ''))}`,
        `Answer: ${quoteAround(answer, result.matchedPhrase ?? '', checked.locale)}`,
        utils.DIM_COLOR('A phrase anywhere counts, even in an answer that declines one point and answers the rest.'),
      ].join('\n\n');
    }
    return [
      hintOf(call),
      `Expected the answer to say it has no answer, but ${utils.RECEIVED_COLOR('no abstention phrase')} was found.`,
      `Answer: ${quote(answer)}`,
      `${phrasesTried(checked)}\n` +
        utils.DIM_COLOR(
          "If your model declines in other words, add them with { extendPhrases: ['…'] }, or have it reply with a fixed marker and pass { phrases: ['NO_ANSWER'] }.",
        ),
    ].join('\n\n');
  };
  return { pass, message };
}
