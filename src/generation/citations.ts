import { describeValue } from './describe.js';
import { plural } from '../core/present.js';

export type CitationKind = 'position' | 'key';

export interface Citation {
  /** The text as written in the answer, e.g. "[1, 2]" or "[^doc-1]"; every citation of a list shares it. */
  raw: string;
  /** What is cited: a 1-based position as written ("1") or a hit key ("doc-1#chunk-0"). */
  ref: string;
  kind: CitationKind;
  /** Character offset of `raw` in the answer; -1 when a custom extractor returned a ref not found in it. */
  index: number;
  /** For position citations, the number (1 = first hit). */
  position?: number;
}

/**
 * Finds citations in an answer. A function returns the refs it finds; a RegExp must have exactly one
 * capture group, which holds the ref. Refs made only of digits are positions, the rest are keys.
 */
export type CitationExtractor = RegExp | ((answer: string) => readonly string[]);

export interface CheckedCitation extends Citation {
  valid: boolean;
  /** Why the citation is invalid; absent when valid. */
  reason?: string;
  /** For a valid position citation, the key of the hit it points at. */
  resolvedKey?: string;
}

export interface CitationCheckOptions {
  /** Custom extractor; default: [1], [1, 2], [1-3], [doc-1#chunk-0], [^id], 【1】. */
  citations?: CitationExtractor;
  /** Fail an answer that cites nothing; default false. */
  requireCitation?: boolean;
}

export interface CitationCheckResult {
  citations: CheckedCitation[];
  invalid: CheckedCitation[];
  hasCitations: boolean;
  requireCitation: boolean;
  /** No invalid citation, and at least one citation when `requireCitation` is on. */
  pass: boolean;
}

/** A range such as [1-3] expands to at most this many positions; longer ones are not citations. */
const MAX_RANGE_LENGTH = 50;

/** "[...]" not followed by "(" (a Markdown link), or "【...】" as Chinese models write it. */
const BRACKET_PATTERN = /\[([^[\]\n]{1,200})\](?!\()|【([^【】\n]{1,200})】/gu;
/** "- [x]" / "1. [ ]" task-list boxes are not citations. */
const TASK_BOX_PATTERN = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+$/;
const LIST_SEPARATOR = /\s*[,;，、；]\s*/u;
const KEY_PATTERN = /^[\p{L}\p{N}_][\p{L}\p{N}_.:/#@+-]*$/u;
const POSITION_PATTERN = /^\d+$/;
const RANGE_PATTERN = /^(\d+)\s*[-–]\s*(\d+)$/;

/** Code spans and fenced blocks become spaces of the same length, so `arr[0]` is no citation and offsets stay right. */
function maskCode(answer: string): string {
  return answer.replace(/```[\s\S]*?(?:```|$)|`[^`\n]*`/g, (code) => code.replace(/[^\n]/g, ' '));
}

function classify(ref: string, raw: string, index: number): Citation {
  if (POSITION_PATTERN.test(ref)) return { raw, ref, kind: 'position', index, position: Number(ref) };
  return { raw, ref, kind: 'key', index };
}

function expandRange(part: string): string[] | undefined {
  const match = RANGE_PATTERN.exec(part);
  if (!match?.[1] || !match[2]) return undefined;
  const first = Number(match[1]);
  const last = Number(match[2]);
  if (first > last || last - first >= MAX_RANGE_LENGTH) return undefined;
  return Array.from({ length: last - first + 1 }, (_, offset) => String(first + offset));
}

/** The refs inside one bracket, or undefined when it is not a citation (e.g. "[see above]"). */
function refsInBracket(inner: string): string[] | undefined {
  if (inner.startsWith('^')) {
    const label = inner.slice(1).trim();
    return KEY_PATTERN.test(label) ? [label] : undefined;
  }
  const refs: string[] = [];
  for (const part of inner.trim().split(LIST_SEPARATOR)) {
    const range = expandRange(part);
    if (range) refs.push(...range);
    else if (KEY_PATTERN.test(part)) refs.push(part);
    else return undefined;
  }
  return refs;
}

function textBeforeOnLine(masked: string, index: number): string {
  return masked.slice(masked.lastIndexOf('\n', index - 1) + 1, index);
}

function isTaskBox(masked: string, index: number, inner: string): boolean {
  return /^[ xX]$/.test(inner) && TASK_BOX_PATTERN.test(textBeforeOnLine(masked, index));
}

/** "[^1]: Source …" or "[1]: https://…" at the start of a line defines a note or link; it does not cite. */
function isDefinition(masked: string, index: number, end: number): boolean {
  return masked[end] === ':' && textBeforeOnLine(masked, index).trim() === '';
}

function defaultCitations(answer: string): Citation[] {
  const masked = maskCode(answer);
  const citations: Citation[] = [];
  for (const match of masked.matchAll(BRACKET_PATTERN)) {
    const inner = match[1] ?? match[2] ?? '';
    const index = match.index;
    if (isTaskBox(masked, index, inner) || isDefinition(masked, index, index + match[0].length)) continue;
    const refs = refsInBracket(inner);
    if (!refs) continue;
    const raw = answer.slice(index, index + match[0].length);
    for (const ref of refs) citations.push(classify(ref, raw, index));
  }
  return citations;
}

function withoutFlags(flags: string, remove: string): string {
  return [...flags].filter((flag) => !remove.includes(flag)).join('');
}

function captureGroupCount(pattern: RegExp): number {
  // An alternation with the empty pattern always matches, and the match lists every group.
  const probe = new RegExp(`(?:${pattern.source})|`, withoutFlags(pattern.flags, 'gy'));
  return (probe.exec('')?.length ?? 1) - 1;
}

function regexCitations(answer: string, pattern: RegExp): Citation[] {
  const groups = captureGroupCount(pattern);
  if (groups !== 1) {
    throw new TypeError(
      `extractor must be a RegExp with exactly one capture group holding the ref, got ${describeValue(pattern)} with ${groups}; for example /\\(source: ([^)]+)\\)/g.`,
    );
  }
  const flags = `${withoutFlags(pattern.flags, 'gy')}g`;
  const citations: Citation[] = [];
  for (const match of answer.matchAll(new RegExp(pattern.source, flags))) {
    const ref = match[1]?.trim();
    if (ref) citations.push(classify(ref, match[0], match.index));
  }
  return citations;
}

function functionCitations(answer: string, extract: (answer: string) => readonly string[]): Citation[] {
  const refs: unknown = extract(answer);
  if (!Array.isArray(refs)) {
    throw new TypeError(
      `extractor must return an array of refs, got ${describeValue(refs)}; for example ['1', 'doc-2#chunk-0'].`,
    );
  }
  const citations: Citation[] = [];
  let searchFrom = 0;
  for (const ref of refs as unknown[]) {
    if (typeof ref !== 'string' || ref.trim() === '') {
      throw new TypeError(
        `extractor must return non-blank strings, got ${describeValue(ref)} among its refs; return the cited positions or keys as strings.`,
      );
    }
    const trimmed = ref.trim();
    let index = answer.indexOf(trimmed, searchFrom);
    if (index === -1) index = answer.indexOf(trimmed);
    if (index !== -1) searchFrom = index + trimmed.length;
    citations.push(classify(trimmed, trimmed, index));
  }
  return citations;
}

/**
 * The citations in an answer, in order. Default patterns: "[1]" (1-based position), "[1, 2]" and
 * "[1-3]" (several positions), "[doc-1#chunk-0]" (a key), "[^id]" (footnote: position when the label
 * is a number, key otherwise), "【1】". Not citations: Markdown links "[text](url)", footnote
 * definitions "[^1]: …", task boxes "- [x]", brackets with spaces in a ref ("[see above]"), and
 * anything inside `code`.
 */
export function extractCitations(answer: string, extractor?: CitationExtractor): Citation[] {
  if (typeof answer !== 'string') {
    throw new TypeError(`answer must be a string, got ${describeValue(answer)}; pass the generated answer text.`);
  }
  if (extractor === undefined) return defaultCitations(answer);
  if (extractor instanceof RegExp) return regexCitations(answer, extractor);
  if (typeof extractor === 'function') return functionCitations(answer, extractor);
  throw new TypeError(
    `extractor must be a RegExp with one capture group or a function (answer) => string[], got ${describeValue(extractor)}; leave it out for the default [1] / [key] / [^id] patterns.`,
  );
}

function requireHitKeys(hitKeys: unknown): readonly string[] {
  if (!Array.isArray(hitKeys)) {
    throw new TypeError(
      `hitKeys must be an array of the retrieved hits' keys in rank order, got ${describeValue(hitKeys)}; compute them with the core's key function, e.g. hits.map((hit) => stableKey(hit)).`,
    );
  }
  hitKeys.forEach((key: unknown, index) => {
    if (typeof key !== 'string') {
      throw new TypeError(
        `hitKeys[${index}] must be a string key, got ${describeValue(key)}; pass keys, not hit objects.`,
      );
    }
  });
  return hitKeys as readonly string[];
}

function checkPosition(citation: Citation, hitKeys: readonly string[]): CheckedCitation {
  const position = citation.position ?? Number(citation.ref);
  if (position < 1) {
    return {
      ...citation,
      valid: false,
      reason: `positions are 1-based: ${citation.raw} names no hit; the first hit is [1]`,
    };
  }
  const key = hitKeys[position - 1];
  if (key === undefined) {
    const retrieved =
      hitKeys.length === 0
        ? 'no hits were retrieved'
        : `only ${plural(hitKeys.length, 'hit was', 'hits were')} retrieved`;
    return { ...citation, valid: false, reason: `position ${position} is out of range: ${retrieved}` };
  }
  return { ...citation, valid: true, resolvedKey: key };
}

/** A hint for the usual near misses: document id against chunk keys, or a different letter case. */
function nearMissHint(ref: string, hitKeys: readonly string[]): string {
  const chunk = hitKeys.find((key) => key.startsWith(`${ref}#`));
  if (chunk !== undefined)
    return `; a chunk of that document was retrieved as ${JSON.stringify(chunk)}: cite the chunk key, or compare at document level`;
  const caseVariant = hitKeys.find((key) => key.toLowerCase() === ref.toLowerCase());
  if (caseVariant !== undefined) return `; keys are case-sensitive and ${JSON.stringify(caseVariant)} was retrieved`;
  return '';
}

function checkKey(citation: Citation, hitKeys: readonly string[]): CheckedCitation {
  if (hitKeys.includes(citation.ref)) return { ...citation, valid: true };
  const retrieved =
    hitKeys.length === 0 ? 'no hits were retrieved' : `it is not one of the ${hitKeys.length} retrieved keys`;
  return {
    ...citation,
    valid: false,
    reason: `${JSON.stringify(citation.ref)} was never retrieved: ${retrieved}${nearMissHint(citation.ref, hitKeys)}`,
  };
}

/**
 * Checks that every citation in the answer points at a retrieved hit: a position n must satisfy
 * 1 ≤ n ≤ hitKeys.length, a key must equal one of `hitKeys` exactly. Whether the cited passage says
 * what the sentence claims is not checked (that needs a judge).
 */
export function checkCitations(
  answer: string,
  hitKeys: readonly string[],
  options: CitationCheckOptions = {},
): CitationCheckResult {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `options must be an object, got ${describeValue(options)}; for example { requireCitation: true }.`,
    );
  }
  const keys = requireHitKeys(hitKeys);
  const requireCitation = options.requireCitation ?? false;
  if (typeof requireCitation !== 'boolean') {
    throw new TypeError(`options.requireCitation must be true or false, got ${describeValue(requireCitation)}.`);
  }
  const citations = extractCitations(answer, options.citations).map((citation) =>
    citation.kind === 'position' ? checkPosition(citation, keys) : checkKey(citation, keys),
  );
  const invalid = citations.filter((citation) => !citation.valid);
  const hasCitations = citations.length > 0;
  return {
    citations,
    invalid,
    hasCitations,
    requireCitation,
    pass: invalid.length === 0 && (hasCitations || !requireCitation),
  };
}
