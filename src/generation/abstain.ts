import { describeValue } from './describe.js';
import { normalizeText, resolveLocale } from './text.js';

/** Ways an answer says it has no answer. Apostrophes may be straight or curly; case does not matter. */
export const ENGLISH_ABSTENTION_PHRASES: readonly string[] = Object.freeze([
  "I don't know",
  'I do not know',
  "I'm not sure",
  'I am not sure',
  "I couldn't find",
  'I could not find',
  "I can't find",
  'I cannot find',
  "I wasn't able to find",
  'I was unable to find',
  'I am unable to answer',
  "I'm unable to answer",
  'cannot answer',
  "can't answer",
  'unable to answer',
  'not able to answer',
  'not in the provided context',
  'not in the context',
  'not in the provided documents',
  'not mentioned in the',
  'not covered in the',
  'not covered by the',
  'the context does not',
  "the context doesn't",
  'the provided context does not',
  'the documents do not',
  "the documents don't",
  'no information about',
  'no information on',
  'no relevant information',
  'does not contain information',
  "doesn't contain information",
  'does not provide information',
  "doesn't provide information",
  'does not mention',
  "doesn't mention",
  'do not mention',
  "don't mention",
  'not enough information',
  "don't have enough information",
  "don't have information",
  'do not have information',
  'insufficient information',
]);

export const CHINESE_ABSTENTION_PHRASES: readonly string[] = Object.freeze([
  '我不知道',
  '无法回答',
  '不能回答',
  '无法确定',
  '没有找到',
  '未找到',
  '未提及',
  '没有提及',
  '没有提到',
  '未提到',
  '资料中没有',
  '文档中没有',
  '上下文中没有',
  '没有相关信息',
  '没有相关资料',
  '缺少相关信息',
  '信息不足',
]);

export const DEFAULT_ABSTENTION_PHRASES: readonly string[] = Object.freeze([
  ...ENGLISH_ABSTENTION_PHRASES,
  ...CHINESE_ABSTENTION_PHRASES,
]);

export interface AbstentionOptions {
  /** Replaces the default phrase sets (English + Chinese). */
  phrases?: readonly string[];
  /** Added to the phrases in use (the defaults, or `phrases` when given). */
  extendPhrases?: readonly string[];
  /** BCP 47 tag used for lower-casing; default 'en'. */
  locale?: string;
}

export interface AbstentionResult {
  abstained: boolean;
  /** The phrase that matched, as written in the phrase list. */
  matchedPhrase?: string;
  /** Character offset of the match in the normalised answer (NFKC, straight apostrophes, single spaces, lower case). */
  index?: number;
}

/** Scripts written without spaces, where a phrase may start or end next to any character. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

function normalizeForMatching(text: string, locale: string): string {
  return normalizeText(text).replace(/\s+/g, ' ').toLocaleLowerCase(locale);
}

/** True when the character outside a phrase edge would glue it into a longer word ("hi don't know"). */
function joinsWord(edge: string | undefined, outside: string | undefined): boolean {
  if (edge === undefined || outside === undefined) return false;
  if (!WORD_CHARACTER.test(edge) || UNSPACED_SCRIPT.test(edge)) return false;
  return WORD_CHARACTER.test(outside);
}

function findPhrase(text: string, phrase: string): number {
  for (let index = text.indexOf(phrase); index !== -1; index = text.indexOf(phrase, index + 1)) {
    const end = index + phrase.length;
    if (!joinsWord(phrase[0], text[index - 1]) && !joinsWord(phrase[phrase.length - 1], text[end])) return index;
  }
  return -1;
}

function phraseList(value: unknown, argumentName: string): string[] {
  if (!Array.isArray(value)) {
    throw new TypeError(
      `${argumentName} must be an array of phrases, got ${describeValue(value)}; for example ["I don't know"].`,
    );
  }
  return value.map((phrase: unknown) => {
    if (typeof phrase !== 'string' || phrase.trim() === '') {
      throw new TypeError(`${argumentName} must hold non-blank strings, got ${describeValue(phrase)}; remove it.`);
    }
    return phrase;
  });
}

function resolvePhrases(options: AbstentionOptions): string[] {
  const base =
    options.phrases === undefined ? [...DEFAULT_ABSTENTION_PHRASES] : phraseList(options.phrases, 'options.phrases');
  const extension =
    options.extendPhrases === undefined ? [] : phraseList(options.extendPhrases, 'options.extendPhrases');
  const phrases = [...base, ...extension];
  if (phrases.length === 0) {
    throw new RangeError(
      'options.phrases must hold at least one phrase, got []; leave it out for the English and Chinese defaults, or list the phrases your model uses.',
    );
  }
  return phrases;
}

/**
 * Whether an answer declines to answer ("I don't know", "not in the provided context", "无法回答", …).
 * A phrase matches anywhere in the answer, ignoring case, curly versus straight apostrophes, full-width
 * forms and runs of whitespace; in spaced scripts it must not sit inside a longer word. The first
 * phrase of the list that matches is reported.
 */
export function detectAbstention(answer: string, options: AbstentionOptions = {}): AbstentionResult {
  if (typeof answer !== 'string') {
    throw new TypeError(`answer must be a string, got ${describeValue(answer)}; pass the generated answer text.`);
  }
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `options must be an object, got ${describeValue(options)}; for example { extendPhrases: ['no idea'] }.`,
    );
  }
  const locale = resolveLocale(options.locale, 'options.locale');
  const text = normalizeForMatching(answer, locale);
  for (const phrase of resolvePhrases(options)) {
    const index = findPhrase(text, normalizeForMatching(phrase.trim(), locale));
    if (index !== -1) return { abstained: true, matchedPhrase: phrase, index };
  }
  return { abstained: false };
}
