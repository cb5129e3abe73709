import { printExpected, printWithType } from './support/jest-utils.js';
import { describeValue } from '../src/core/describe.js';
import { documentKeyOf, stableKey } from '../src/core/keys.js';
import type { Hit, KeyOptions } from '../src/core/types.js';
import {
  checkCitations,
  type CheckedCitation,
  type CitationCheckOptions,
  type CitationCheckResult,
} from '../src/generation/index.js';
import { andMore, plural, wordFor } from '../src/core/present.js';
import { answerCall, checkAnswer, quote } from './support/answer.js';
import { utilsOf, type MatcherContext, type MatcherResult } from './support/context.js';
import { MAX_ROWS, shortKey } from './support/format.js';
import { hintOf, type MatcherCall } from './support/hint.js';
import { checkOptions, checkQueryId } from './support/options.js';
import { argumentError, usageError, withUsageErrors } from './support/usage-error.js';

const NAME = 'toCiteOnlyRetrieved';
const ARGS = 'hits, options';

export interface CiteOnlyRetrievedOptions extends CitationCheckOptions, KeyOptions {
  /** Shown in the message, to find the question. Citations are a yes/no check and record no sample. */
  queryId?: string;
}

function readHitKeys(call: MatcherCall, hits: unknown, options: KeyOptions): string[] {
  if (!Array.isArray(hits)) {
    throw usageError(
      call,
      `${printExpected('hits')} must be the retrieved hits in rank order (an array of ids or hit objects)`,
      printWithType('hits', hits, (value) => describeValue(value)),
    );
  }
  return withUsageErrors(call, () => hits.map((hit: unknown, index) => stableKey(hit as Hit, index, options)));
}

function checkGranularity(call: MatcherCall, options: KeyOptions): ((key: string) => string) | undefined {
  const { granularity, documentKey } = options;
  if (granularity !== undefined && granularity !== 'chunk' && granularity !== 'document') {
    throw argumentError(call, 'options.granularity', "must be 'chunk' or 'document'", granularity, 'granularity');
  }
  if (documentKey !== undefined && typeof documentKey !== 'function') {
    const requirement = 'must be a function (key) => document key';
    throw argumentError(call, 'options.documentKey', requirement, documentKey, 'documentKey');
  }
  return granularity === 'document' ? (documentKey ?? documentKeyOf) : undefined;
}

/** At document level a cited key is valid when any retrieved hit belongs to the same document. */
function atDocumentLevel(
  result: CitationCheckResult,
  hitKeys: readonly string[],
  documentOf: (key: string) => string,
): CitationCheckResult {
  const citations = result.citations.map((citation): CheckedCitation => {
    if (citation.valid || citation.kind !== 'key') return citation;
    const document = documentOf(citation.ref);
    const hitKey = hitKeys.find((key) => documentOf(key) === document);
    if (hitKey === undefined) return citation;
    const { reason: _reason, ...rest } = citation;
    return { ...rest, valid: true, resolvedKey: hitKey };
  });
  const invalid = citations.filter((citation) => !citation.valid);
  return {
    ...result,
    citations,
    invalid,
    pass: invalid.length === 0 && (result.hasCitations || !result.requireCitation),
  };
}

/** `[4]`, or `4 in [1-4]` when the citation is part of a list or range, or a custom extractor's match. */
function citationLabel(citation: CheckedCitation): string {
  if (citation.raw === citation.ref || citation.raw === `[${citation.ref}]`) return citation.raw;
  return `${citation.ref} in ${citation.raw}`;
}

/** One entry per distinct citation as written (`[4]` and `4 in [1-4]` stay apart), with how often it occurs. */
function distinct(citations: readonly CheckedCitation[]): { citation: CheckedCitation; count: number }[] {
  const byRef = new Map<string, { citation: CheckedCitation; count: number }>();
  for (const citation of citations) {
    const id = `${citation.kind}:${citationLabel(citation)}`;
    const entry = byRef.get(id);
    if (entry) entry.count += 1;
    else byRef.set(id, { citation, count: 1 });
  }
  return [...byRef.values()];
}

function timesCited(count: number): string {
  return count === 1 ? '' : ` (cited ${count}×)`;
}

function retrievedList(hitKeys: readonly string[], cited: ReadonlySet<string>): string {
  if (hitKeys.length === 0) return 'No hits were retrieved.';
  const shown = hitKeys.slice(0, MAX_ROWS);
  const width = String(shown.length).length;
  const lines = shown.map(
    (key, index) => `  ${String(index + 1).padStart(width)}  ${cited.has(key) ? '✓' : ' '} ${shortKey(key)}`,
  );
  if (hitKeys.length > shown.length) lines.push(`  ${andMore(hitKeys.length - shown.length)}`);
  return [`Retrieved hits (${hitKeys.length}), ✓ = cited:`, ...lines].join('\n');
}

const DEFAULT_STYLES =
  'Citations are read as [1], [1, 2], [1-3], [key], [^id] and 【1】; pass { citations: /…(ref)…/g } for another style.';

/**
 * Passes when every citation in the answer refers to a retrieved hit: a 1-based position within the
 * list, or a hit's key (the same keys as the retrieval matchers). With `requireCitation`, an answer
 * citing nothing fails too. Whether the cited passage says what the sentence claims is not checked.
 */
export function toCiteOnlyRetrieved(
  this: MatcherContext,
  received: unknown,
  hits: readonly Hit[],
  options?: CiteOnlyRetrievedOptions,
): MatcherResult {
  const call = answerCall(this, NAME, ARGS);
  const answer = checkAnswer(call, received);
  const checked = checkOptions<CiteOnlyRetrievedOptions>(call, options);
  const { queryId: rawQueryId, citations: extractor, requireCitation, key, granularity, documentKey } = checked;
  const queryId = checkQueryId(call, rawQueryId);
  const documentOf = checkGranularity(call, { granularity, documentKey });
  const hitKeys = readHitKeys(call, hits, key === undefined ? {} : { key });
  const chunkLevel = withUsageErrors(call, () =>
    checkCitations(answer, hitKeys, {
      ...(extractor === undefined ? {} : { citations: extractor }),
      ...(requireCitation === undefined ? {} : { requireCitation }),
    }),
  );
  const result = documentOf === undefined ? chunkLevel : atDocumentLevel(chunkLevel, hitKeys, documentOf);
  const { pass } = result;

  const message = () => {
    const utils = utilsOf(this);
    const negated = this.isNot === true;
    const cited = new Set<string>();
    for (const citation of result.citations) {
      if (!citation.valid) continue;
      cited.add(citation.resolvedKey ?? citation.ref);
    }
    const where = queryId === undefined ? '' : `  (query ${queryId})`;
    const sections = [hintOf(call)];
    if (!result.hasCitations) {
      sections.push(
        (negated
          ? 'Expected a citation that refers to no retrieved hit, but the answer cites nothing (without requireCitation, that passes).'
          : `The answer cites nothing, and ${utils.EXPECTED_COLOR('requireCitation')} is on.`) + where,
        `Answer: ${quote(answer)}`,
        utils.DIM_COLOR(DEFAULT_STYLES),
      );
    } else if (negated) {
      const good = distinct(result.citations).map(
        ({ citation, count }) =>
          `${citationLabel(citation)}${citation.resolvedKey === undefined || citation.kind === 'key' ? '' : ` → ${shortKey(citation.resolvedKey)}`}${timesCited(count)}`,
      );
      sections.push(
        `Expected some citation to refer to no retrieved hit, but all ${plural(result.citations.length, 'citation')} do${where}:\n  ${good.join('\n  ')}`,
      );
    } else {
      const bad = distinct(result.invalid).map(
        ({ citation, count }) => `  ✗ ${citationLabel(citation)}${timesCited(count)}: ${citation.reason ?? 'invalid'}`,
      );
      const title = `${result.invalid.length} of ${plural(result.citations.length, 'citation')} ${wordFor(result.invalid.length, 'refers', 'refer')} to no retrieved hit${where}:`;
      sections.push(utils.RECEIVED_COLOR([title, ...bad].join('\n')));
      const nearChunk =
        documentOf === undefined &&
        result.invalid.some(
          (citation) => citation.kind === 'key' && hitKeys.some((hitKey) => documentKeyOf(hitKey) === citation.ref),
        );
      if (nearChunk)
        sections.push(
          "To accept a document id for any retrieved chunk of that document, pass { granularity: 'document' }.",
        );
    }
    sections.push(retrievedList(hitKeys, cited));
    return sections.join('\n\n');
  };
  return { pass, message };
}
