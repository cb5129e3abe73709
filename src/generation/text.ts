import { describeValue } from './describe.js';

/**
 * Function words that carry no checkable claim. It contains every word of the stop list in the
 * faithfulness example of the RAG-metrics article the project started from ("a", "an", "the", "you",
 * "can", "per", "with", "every", "each", "may"), so the defaults reproduce its shares exactly.
 *
 * Negations ("not", "no", "never", "don't", "cannot", …) are deliberately NOT stop words: dropping
 * them would let "Refunds are not possible." count as supported by "Refunds are possible.".
 */
export const ENGLISH_STOP_WORDS: readonly string[] = Object.freeze([
  // the article's list
  'a',
  'an',
  'the',
  'you',
  'can',
  'per',
  'with',
  'every',
  'each',
  'may',
  // pronouns and determiners
  'i',
  'me',
  'my',
  'mine',
  'myself',
  'we',
  'us',
  'our',
  'ours',
  'ourselves',
  'your',
  'yours',
  'yourself',
  'yourselves',
  'he',
  'him',
  'his',
  'himself',
  'she',
  'her',
  'hers',
  'herself',
  'it',
  'its',
  'itself',
  'they',
  'them',
  'their',
  'theirs',
  'themselves',
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'this',
  'that',
  'these',
  'those',
  'all',
  'any',
  'both',
  'some',
  'such',
  'other',
  'own',
  // auxiliaries and modals
  'am',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'have',
  'has',
  'had',
  'having',
  'do',
  'does',
  'did',
  'doing',
  'could',
  'would',
  'should',
  'shall',
  'will',
  'might',
  'must',
  // prepositions and conjunctions
  'and',
  'but',
  'if',
  'or',
  'because',
  'as',
  'until',
  'while',
  'of',
  'at',
  'by',
  'for',
  'about',
  'against',
  'between',
  'into',
  'through',
  'during',
  'before',
  'after',
  'above',
  'below',
  'to',
  'from',
  'up',
  'down',
  'in',
  'out',
  'on',
  'off',
  'over',
  'under',
  'again',
  'further',
  'then',
  'once',
  'than',
  'so',
  'also',
  'via',
  // adverbs with no claim of their own
  'here',
  'there',
  'when',
  'where',
  'why',
  'how',
  'very',
  'too',
  'just',
  'same',
  // acknowledgements and politeness ("OK.", "Sure, thanks!") make no claim to check
  'ok',
  'okay',
  'yes',
  'yeah',
  'sure',
  'thanks',
  'thank',
  'please',
  'hello',
  'hi',
  'well',
  // contractions that are not negations
  "i'm",
  "i've",
  "i'll",
  "i'd",
  "you're",
  "you've",
  "you'll",
  "you'd",
  "he's",
  "he'll",
  "he'd",
  "she's",
  "she'll",
  "she'd",
  "it's",
  "it'll",
  "we're",
  "we've",
  "we'll",
  "we'd",
  "they're",
  "they've",
  "they'll",
  "they'd",
  "that's",
  "there's",
  "here's",
  "what's",
  "who's",
  "let's",
]);

/** Particles, pronouns and connectives; negations (不, 没, 没有, 无, 未, 非) are kept as content. */
export const CHINESE_STOP_WORDS: readonly string[] = Object.freeze([
  '的',
  '地',
  '得',
  '了',
  '着',
  '过',
  '是',
  '在',
  '和',
  '与',
  '及',
  '或',
  '或者',
  '也',
  '都',
  '就',
  '而',
  '且',
  '并',
  '把',
  '被',
  '将',
  '这',
  '那',
  '这个',
  '那个',
  '这些',
  '那些',
  '一个',
  '个',
  '我',
  '你',
  '您',
  '他',
  '她',
  '它',
  '我们',
  '你们',
  '他们',
  '吗',
  '呢',
  '吧',
  '啊',
  '呀',
  '之',
  '其',
  '为',
  '以',
  '于',
  '对',
  '从',
  '向',
  '请',
  '好的',
  '嗯',
  '谢谢',
]);

/** The default stop words: English and Chinese together, since one answer may mix both. */
export const DEFAULT_STOP_WORDS: readonly string[] = Object.freeze([...ENGLISH_STOP_WORDS, ...CHINESE_STOP_WORDS]);

/** Used when no locale is given, so results do not depend on the machine's settings. */
const DEFAULT_LOCALE = 'en';

export type StopWordList = readonly string[] | ReadonlySet<string>;

export interface TermOptions {
  /** Replaces the default stop words (English + Chinese). Pass `[]` to keep every word. */
  stopWords?: StopWordList;
  /** Added to the stop words in use (the defaults, or `stopWords` when given). */
  extendStopWords?: StopWordList;
  /** BCP 47 tag for `Intl.Segmenter` and lower-casing; default `'en'`. Chinese, Japanese and Thai are split into words by ICU's dictionaries whatever the locale. */
  locale?: string;
}

const segmenterCache = new Map<string, Intl.Segmenter>();

function segmenterFor(locale: string, granularity: 'sentence' | 'word', argumentName: string): Intl.Segmenter {
  const cacheKey = `${granularity}:${locale}`;
  const cached = segmenterCache.get(cacheKey);
  if (cached) return cached;
  let segmenter: Intl.Segmenter;
  try {
    segmenter = new Intl.Segmenter(locale, { granularity });
  } catch {
    throw new RangeError(
      `${argumentName} must be a BCP 47 language tag such as 'en' or 'zh-CN', got ${describeValue(locale)}; pass a valid tag or leave it out for '${DEFAULT_LOCALE}'.`,
    );
  }
  segmenterCache.set(cacheKey, segmenter);
  return segmenter;
}

export function resolveLocale(locale: unknown, argumentName: string): string {
  if (locale === undefined) return DEFAULT_LOCALE;
  if (typeof locale !== 'string' || locale.trim() === '') {
    throw new TypeError(
      `${argumentName} must be a BCP 47 language tag such as 'en' or 'zh-CN', got ${describeValue(locale)}; pass a tag or leave it out for '${DEFAULT_LOCALE}'.`,
    );
  }
  segmenterFor(locale, 'word', argumentName);
  return locale;
}

/**
 * Full-width letters and digits become ASCII (NFKC) and typographic apostrophes become "'", so
 * "３０" matches "30" and "don’t" matches "don't".
 */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').replace(/[\u2018\u2019\u02BC\u2032]/g, "'");
}

/**
 * Titles ICU breaks after when a capital follows ("Dr. Smith"); a sentence ending in one of these is
 * joined to the next. "etc." and "no." are left out because they often do end a sentence.
 */
const ABBREVIATIONS_BEFORE_NAMES = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'vs', 'fig', 'cf']);

function endsWithAbbreviation(sentence: string): boolean {
  const match = /(?:^|[\s(])([A-Za-z]+)\.$/.exec(sentence);
  return match?.[1] !== undefined && ABBREVIATIONS_BEFORE_NAMES.has(match[1].toLowerCase());
}

function requireText(text: unknown, argumentName: string): string {
  if (typeof text !== 'string') {
    throw new TypeError(`${argumentName} must be a string, got ${describeValue(text)}; pass the text itself.`);
  }
  return text;
}

// Intl.Segmenter (ICU in Node) slows down faster than the text grows: word segmentation of 128 kB
// took a second and of 300 kB minutes. Long texts are therefore segmented in pieces of bounded
// length, cut where a segment boundary is certain or nearly so, which keeps the time linear.
/** Word segmentation is linear up to a few kB per call. */
export const WORD_PIECE_LENGTH = 1024;
/** Sentence segmentation stays linear longer; larger pieces make a cut inside a sentence rarer. */
export const SENTENCE_PIECE_LENGTH = 16_384;

const SENTENCE_END_BEFORE_CAPITAL = /[.!?。！？][)"'’”\]]*\s+(?=\p{Lu})|[。！？]/gu;

/** The last cut point in `text[from, to)`: just after `pattern`'s last match ending there, or -1. */
function lastMatchEnd(text: string, from: number, to: number, pattern: RegExp): number {
  const window = text.slice(from, to);
  let end = -1;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(window); match !== null; match = pattern.exec(window)) {
    end = from + match.index + match[0].length;
    if (match[0].length === 0) pattern.lastIndex += 1;
  }
  return end;
}

/**
 * `text` cut into consecutive pieces of at most `maxLength` characters (joined they give `text`
 * back). Each cut is placed in the second half of its window, preferring, from last to first:
 * just after a line break, after sentence-ending punctuation and the spaces before a capital, after
 * whitespace; with none of these (a long run without spaces) it falls at `maxLength`, never between
 * the two halves of a surrogate pair.
 */
export function segmentationPieces(text: string, maxLength: number): string[] {
  if (!Number.isInteger(maxLength) || maxLength < 2)
    throw new RangeError(`segmentationPieces: maxLength must be a whole number ≥ 2, got ${String(maxLength)}.`);
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > maxLength) {
    const from = start + Math.floor(maxLength / 2);
    const to = start + maxLength;
    let cut = text.lastIndexOf('\n', to - 1) + 1;
    if (cut <= from) cut = lastMatchEnd(text, from, to, SENTENCE_END_BEFORE_CAPITAL);
    if (cut <= from) cut = lastMatchEnd(text, from, to, /\s+/gu);
    if (cut <= from || cut > to) {
      cut = to;
      const before = text.charCodeAt(cut - 1);
      if (before >= 0xd800 && before <= 0xdbff) cut -= 1;
    }
    pieces.push(text.slice(start, cut));
    start = cut;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** The segments of `text`, segmenting it piece by piece (see segmentationPieces). */
function* segmentInPieces(segmenter: Intl.Segmenter, text: string, maxLength: number): Generator<Intl.SegmentData> {
  for (const piece of segmentationPieces(text, maxLength)) yield* segmenter.segment(piece);
}

/**
 * Splits text into sentences with `Intl.Segmenter` (Unicode sentence boundaries: ". ", "? ", "。",
 * "！", line breaks). Sentences are trimmed and blank ones dropped. A title such as "Dr." does not end
 * a sentence; other abbreviations followed by a capital ("U.S. Army") still do.
 */
export function splitSentences(text: string, locale?: string): string[] {
  requireText(text, 'text');
  const segmenter = segmenterFor(resolveLocale(locale, 'locale'), 'sentence', 'locale');
  const sentences: string[] = [];
  let pending = '';
  for (const { segment } of segmentInPieces(segmenter, text, SENTENCE_PIECE_LENGTH)) {
    const sentence = (pending + segment).trim();
    if (sentence === '') continue;
    if (endsWithAbbreviation(sentence)) {
      pending = pending + segment;
      continue;
    }
    sentences.push(sentence);
    pending = '';
  }
  const rest = pending.trim();
  if (rest !== '') sentences.push(rest);
  return sentences;
}

function toStopWordSet(list: unknown, argumentName: string, locale: string): Set<string> {
  const isList = Array.isArray(list) || list instanceof Set;
  if (!isList) {
    throw new TypeError(
      `${argumentName} must be an array or Set of words, got ${describeValue(list)}; for example ['the', 'a'].`,
    );
  }
  const words = new Set<string>();
  for (const word of list as Iterable<unknown>) {
    if (typeof word !== 'string') {
      throw new TypeError(`${argumentName} must hold only strings, got ${describeValue(word)}; remove it or quote it.`);
    }
    words.add(normalizeText(word).trim().toLocaleLowerCase(locale));
  }
  return words;
}

let defaultStopWordSet: Set<string> | undefined;

/** The stop-word set for these options: defaults or `stopWords`, plus `extendStopWords`, normalised like the terms. */
export function resolveStopWords(
  options: TermOptions,
  locale: string,
  argumentPrefix = 'options',
): ReadonlySet<string> {
  const base =
    options.stopWords === undefined
      ? (defaultStopWordSet ??= toStopWordSet(DEFAULT_STOP_WORDS, 'DEFAULT_STOP_WORDS', DEFAULT_LOCALE))
      : toStopWordSet(options.stopWords, `${argumentPrefix}.stopWords`, locale);
  if (options.extendStopWords === undefined) return base;
  const extension = toStopWordSet(options.extendStopWords, `${argumentPrefix}.extendStopWords`, locale);
  return new Set([...base, ...extension]);
}

/** The unique content terms of a text, in order of first appearance, with a ready stop-word set. */
export function termsOf(text: string, stopWords: ReadonlySet<string>, locale: string): string[] {
  const segmenter = segmenterFor(locale, 'word', 'locale');
  const terms = new Set<string>();
  for (const { segment, isWordLike } of segmentInPieces(segmenter, normalizeText(text), WORD_PIECE_LENGTH)) {
    if (!isWordLike) continue;
    const term = segment.toLocaleLowerCase(locale);
    if (!stopWords.has(term)) terms.add(term);
  }
  return [...terms];
}

/**
 * The content terms of a sentence: its words (`Intl.Segmenter`, `isWordLike`), lower-cased, stop
 * words removed, each term once. Chinese is split into words ("退款需要在30天内申请" → 退款, 需要,
 * 30, 天内, 申请), not kept as one run of characters. Hyphenated words are split ("Retry-After" →
 * retry, after), as the Unicode word rules do.
 */
export function contentTerms(sentence: string, options: TermOptions = {}): string[] {
  requireText(sentence, 'sentence');
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${describeValue(options)}; for example { locale: 'zh' }.`);
  }
  const locale = resolveLocale(options.locale, 'options.locale');
  return termsOf(sentence, resolveStopWords(options, locale), locale);
}
