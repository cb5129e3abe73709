import { extractCitations, type CitationExtractor } from './citations.js';
import { describeValue } from './describe.js';
import { resolveLocale, resolveStopWords, splitSentences, termsOf, type TermOptions } from './text.js';

/** A retrieved passage as a string or as a hit object carrying its text. */
export type ContextPassage = string | { content?: string; pageContent?: string; text?: string };

export type FaithfulnessContexts = string | readonly ContextPassage[];

export interface FaithfulnessOptions extends TermOptions {
  /** Share of a sentence's content terms that must occur in the contexts for it to count as supported; default 0.75 (the seed article's threshold). */
  minOverlap?: number;
  /**
   * Citation markers are not words of the claim: "[1]", "[doc-1#chunk-0]", "[^id]" (the default
   * patterns of `extractCitations`) are left out of a sentence's terms. Pass the extractor your
   * answers need (as for `checkCitations`), or `false` to count markers as words.
   */
  citations?: CitationExtractor | false;
}

/** One checked sentence of the answer, with everything a failure message needs. */
export interface SentenceSupport {
  text: string;
  /** Index of the sentence among all sentences of the answer (skipped ones included), 0-based. */
  position: number;
  /** Unique content terms of the sentence. */
  terms: string[];
  /** Terms also found in the contexts. */
  supportedTerms: string[];
  /** Terms not found in any context: what the answer added. */
  missingTerms: string[];
  /** supportedTerms ÷ terms. */
  share: number;
  /** share ≥ minOverlap. */
  supported: boolean;
}

/** A sentence left out of the score because it has no content terms ("OK.", "Yes!"). */
export interface SkippedSentence {
  text: string;
  position: number;
  reason: string;
}

export interface FaithfulnessResult {
  /** supportedCount ÷ sentenceCount; NaN when no sentence could be checked (sentenceCount 0). */
  score: number;
  supportedCount: number;
  /** Sentences checked, i.e. those with at least one content term. */
  sentenceCount: number;
  minOverlap: number;
  /** The checked sentences in answer order. */
  sentences: SentenceSupport[];
  /** Sentences with no content terms, which count neither for nor against the answer. */
  skipped: SkippedSentence[];
}

export const DEFAULT_MIN_OVERLAP = 0.75;

const CONTEXT_TEXT_FIELDS = ['content', 'pageContent', 'text'] as const;

function contextText(passage: unknown, index: number): string {
  if (typeof passage === 'string') return passage;
  if (passage !== null && typeof passage === 'object') {
    for (const field of CONTEXT_TEXT_FIELDS) {
      const value = (passage as Record<string, unknown>)[field];
      if (typeof value === 'string') return value;
    }
  }
  throw new TypeError(
    `contexts[${index}] must be a string or an object with a string content, pageContent or text field, got ${describeValue(passage)}; pass the passage text.`,
  );
}

/** The contexts as plain texts; rejects input with nothing to check against. */
export function contextTexts(contexts: unknown): string[] {
  let texts: string[];
  if (typeof contexts === 'string') {
    texts = [contexts];
  } else if (Array.isArray(contexts)) {
    texts = contexts.map((passage: unknown, index) => contextText(passage, index));
  } else {
    throw new TypeError(
      `contexts must be a string or an array of passages (strings or { content | pageContent | text } objects), got ${describeValue(contexts)}; pass the passages the answer was generated from.`,
    );
  }
  if (texts.every((text) => text.trim() === '')) {
    throw new RangeError(
      `contexts must hold at least one non-blank passage, got ${describeValue(contexts)}; pass the passages the answer was generated from (an answer cannot be checked against nothing).`,
    );
  }
  return texts;
}

function resolveMinOverlap(minOverlap: unknown): number {
  if (minOverlap === undefined) return DEFAULT_MIN_OVERLAP;
  if (typeof minOverlap !== 'number' || !Number.isFinite(minOverlap) || minOverlap < 0 || minOverlap > 1) {
    throw new RangeError(
      `options.minOverlap must be a number from 0 to 1, got ${describeValue(minOverlap)}; for example 0.75 (three quarters of a sentence's terms found in the contexts).`,
    );
  }
  return minOverlap;
}

function requireAnswer(answer: unknown): string {
  if (typeof answer !== 'string') {
    throw new TypeError(`answer must be a string, got ${describeValue(answer)}; pass the generated answer text.`);
  }
  if (answer.trim() === '') {
    throw new RangeError(`answer must not be empty, got ${describeValue(answer)}; pass the generated answer text.`);
  }
  return answer;
}

/** The sentence with its citation markers blanked out (same length, so nothing else moves). */
function withoutCitations(sentence: string, extractor: CitationExtractor | false | undefined): string {
  if (extractor === false) return sentence;
  let masked = sentence;
  for (const { raw, index } of extractCitations(sentence, extractor)) {
    if (index < 0) continue;
    masked = masked.slice(0, index) + ' '.repeat(raw.length) + masked.slice(index + raw.length);
  }
  return masked;
}

function checkSentence(
  text: string,
  position: number,
  terms: string[],
  contextTerms: ReadonlySet<string>,
  minOverlap: number,
): SentenceSupport {
  const supportedTerms = terms.filter((term) => contextTerms.has(term));
  const missingTerms = terms.filter((term) => !contextTerms.has(term));
  const share = supportedTerms.length / terms.length;
  return { text, position, terms, supportedTerms, missingTerms, share, supported: share >= minOverlap };
}

/**
 * Lexical faithfulness: the share of the answer's sentences whose content terms are mostly (≥
 * `minOverlap`) found in the contexts. Terms of all contexts are pooled, so a sentence may draw on
 * several passages. Citation markers ("[1]", "[doc-1#chunk-0]") are not counted as words. This is
 * word overlap, not meaning: it misses paraphrases and accepts a sentence that reuses the passage's
 * words to say something else. See docs/generation.md.
 */
export function faithfulness(
  answer: string,
  contexts: FaithfulnessContexts,
  options: FaithfulnessOptions = {},
): FaithfulnessResult {
  const answerText = requireAnswer(answer);
  const passages = contextTexts(contexts);
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${describeValue(options)}; for example { minOverlap: 0.75 }.`);
  }
  const minOverlap = resolveMinOverlap(options.minOverlap);
  const { citations } = options;
  if (
    citations !== undefined &&
    citations !== false &&
    !(citations instanceof RegExp) &&
    typeof citations !== 'function'
  ) {
    throw new TypeError(
      `options.citations must be a RegExp with one capture group, a function (answer) => refs, or false, got ${describeValue(citations)}; leave it out to ignore [1] / [key] / [^id] markers.`,
    );
  }
  const locale = resolveLocale(options.locale, 'options.locale');
  const stopWords = resolveStopWords(options, locale);

  const contextTerms = new Set(passages.flatMap((passage) => termsOf(passage, stopWords, locale)));
  const sentences: SentenceSupport[] = [];
  const skipped: SkippedSentence[] = [];
  splitSentences(answerText, locale).forEach((text, position) => {
    const checkedText = withoutCitations(text, options.citations);
    const terms = termsOf(checkedText, stopWords, locale);
    if (terms.length === 0) {
      const reason =
        checkedText === text
          ? 'no content terms: every word is a stop word'
          : 'no content terms: only stop words and citation markers';
      skipped.push({ text, position, reason });
    } else {
      sentences.push(checkSentence(text, position, terms, contextTerms, minOverlap));
    }
  });

  const supportedCount = sentences.filter((sentence) => sentence.supported).length;
  return {
    score: sentences.length === 0 ? Number.NaN : supportedCount / sentences.length,
    supportedCount,
    sentenceCount: sentences.length,
    minOverlap,
    sentences,
    skipped,
  };
}
