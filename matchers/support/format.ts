import { documentKeyOf, fieldThatWouldMatch } from '../../src/core/keys.js';
import type { Hit } from '../../src/core/types.js';
import type { RankedRow, RankingExplanation } from '../../src/core/explain.js';
import { codePoints, escapeConsole } from '../../src/core/escape.js';
import { listUpTo } from '../../src/core/present.js';
import { fieldsLine, keyFunctionThatWouldMatch, shapesDiffer } from './alignment.js';
import type { MatcherUtils } from './context.js';

/** Rows shown at most in a ranked list; the rest is summarised with a count. */
export const MAX_ROWS = 20;
const MAX_KEY_LENGTH = 60;
const MAX_IDS = 10;

/**
 * An id as a failure message shows it: control characters (terminal escape sequences), bidirectional,
 * invisible characters and trailing spaces made visible as the reporters show them, so an id can
 * neither drive the terminal nor pass for another.
 */
export function showId(id: string): string {
  return escapeConsole(id);
}

export function shortKey(key: string): string {
  const shown = showId(key);
  return shown.length > MAX_KEY_LENGTH ? `${shown.slice(0, MAX_KEY_LENGTH - 1)}…` : shown;
}

export function listIds(ids: readonly string[], max = MAX_IDS): string {
  return listUpTo(ids, max, shortKey);
}

function rowLine(row: RankedRow, rankWidth: number, showGrades: boolean, utils: MatcherUtils): string {
  const marker = row.relevant ? '✓' : ' ';
  const grade = row.grade === undefined || !showGrades ? '' : `  grade ${row.grade}`;
  const duplicate = row.duplicate ? '  (duplicate: gains nothing)' : '';
  const line = `  ${String(row.rank).padStart(rankWidth)}  ${marker} ${shortKey(row.key)}${grade}${duplicate}`;
  return row.relevant ? utils.EXPECTED_COLOR(line) : line;
}

/** The top of the ranking with rank, key, grade and a ✓ on relevant hits; long lists are cut. */
export function formatRanking(explanation: RankingExplanation, k: number | undefined, utils: MatcherUtils): string {
  const { rows } = explanation;
  if (rows.length === 0) return 'The hit list is empty.';
  const shownCount = Math.min(k ?? rows.length, rows.length, MAX_ROWS);
  const rankWidth = String(shownCount).length;
  const title =
    k === undefined || k >= rows.length ? `Ranked hits (${rows.length}):` : `Top ${k} of ${rows.length} hits:`;
  // Binary annotations (every grade 1) need no grade column: the ✓ says it all.
  const showGrades =
    explanation.relevantIds.some(({ grade }) => grade !== 1) ||
    rows.some((row) => row.grade !== undefined && row.grade !== 1);
  const lines = [title, ...rows.slice(0, shownCount).map((row) => rowLine(row, rankWidth, showGrades, utils))];
  const withinK = Math.min(k ?? rows.length, rows.length);
  if (withinK > shownCount)
    lines.push(utils.DIM_COLOR(`  … ${withinK - shownCount} more in the top ${k ?? rows.length} not shown`));
  return lines.join('\n');
}

/** Each key's first rank: where a key that comes back twice counts. */
export function firstRanks(explanation: RankingExplanation): Map<string, number> {
  const firstRank = new Map<string, number>();
  for (const row of explanation.rows) if (!firstRank.has(row.key)) firstRank.set(row.key, row.rank);
  return firstRank;
}

/** Relevant ids outside the top k, saying where (or whether) each was retrieved. */
export function formatMissing(explanation: RankingExplanation, k: number | undefined): string {
  const firstRank = firstRanks(explanation);
  const cutoff = k ?? explanation.rows.length;
  const missing = explanation.relevantIds.filter(({ id }) => (firstRank.get(id) ?? Infinity) > cutoff);
  if (missing.length === 0) return '';
  const described = missing.map(({ id }) => {
    const rank = firstRank.get(id);
    return rank === undefined ? shortKey(id) : `${shortKey(id)} (rank ${rank})`;
  });
  const where = k === undefined ? 'not retrieved' : `not in the top ${k}`;
  return `Relevant ${where}: ${listIds(described)}`;
}

/**
 * When no hit matched any annotation, the usual cause is two key shapes (annotation `doc-1`, hits
 * `doc-1#chunk-0`): show both and the likely fix — `granularity: 'document'`, the framework field that
 * would have matched (`metadata.source` under a vector store's `Document.id`), a key function over two
 * fields of the hits (`metadata.source` and `metadata.chunk`), or one Unicode form. When both sides
 * are ids of one shape and nothing would have matched, it is a genuine miss: nothing is said.
 */
export function formatAlignmentDiagnosis(
  explanation: RankingExplanation,
  judgedIds: readonly string[],
  hits: readonly Hit[] = [],
): string {
  const { rows } = explanation;
  if (rows.length === 0 || judgedIds.length === 0) return '';
  const judged = new Set(judgedIds);
  if (rows.some((row) => judged.has(row.key))) return formatNormalizationDiagnosis(explanation, judgedIds);
  const documentsMatch = rows.some((row) => judged.has(documentKeyOf(row.key)));
  const field = documentsMatch ? undefined : fieldThatWouldMatch(hits, judged);
  const keyFunction = documentsMatch || field !== undefined ? undefined : keyFunctionThatWouldMatch(hits, judged);
  const normalization = formatNormalizationDiagnosis(explanation, judgedIds);
  const mismatch =
    documentsMatch ||
    field !== undefined ||
    keyFunction !== undefined ||
    normalization !== '' ||
    shapesDiffer(
      judgedIds,
      rows.map((row) => row.key),
    );
  if (!mismatch) return '';
  const hitKeys = rows.slice(0, 3).map((row) => shortKey(row.key));
  const annotationIds = judgedIds.slice(0, 3).map(shortKey);
  const fix = documentsMatch
    ? ["Your annotations name documents and your hits are chunks: pass { granularity: 'document' }."]
    : field !== undefined
      ? [`The hits' ${field} would have matched: pass { key: '${field}' }.`]
      : keyFunction !== undefined
        ? [fieldsLine(hits), `These fields would have matched: pass ${keyFunction}.`]
        : normalization !== ''
          ? []
          : [
              fieldsLine(hits),
              'Make both sides use the same ids: pass { key: (hit) => … } returning the id your annotations use, or annotate with the hit keys.',
            ];
  return [
    'No hit matched any annotation. The two sides use different ids:',
    `  annotation ids: ${annotationIds.join(', ')}`,
    `  hit keys:       ${hitKeys.join(', ')}`,
    ...[...fix, normalization].filter((line) => line !== ''),
  ].join('\n');
}

/** Relevant ids that a hit key spells in another Unicode normalisation form: they look alike and never meet. */
function formatNormalizationDiagnosis(explanation: RankingExplanation, judgedIds: readonly string[]): string {
  const keysByNfc = new Map<string, string>();
  for (const row of explanation.rows) {
    const nfc = row.key.normalize('NFC');
    if (!keysByNfc.has(nfc)) keysByNfc.set(nfc, row.key);
  }
  const retrieved = new Set(explanation.rows.map((row) => row.key));
  const pairs: string[] = [];
  for (const id of judgedIds) {
    if (retrieved.has(id)) continue;
    const key = keysByNfc.get(id.normalize('NFC'));
    if (key !== undefined && key !== id)
      pairs.push(
        `  annotation ${JSON.stringify(id)} (${codePoints(id)}) vs hit ${JSON.stringify(key)} (${codePoints(key)})`,
      );
  }
  if (pairs.length === 0) return '';
  return [
    'These ids look alike but differ in Unicode normalisation (e.g. é as U+00E9 vs e + U+0301), so they never match:',
    ...pairs.slice(0, 3),
    "Pass { normalize: 'NFC' } to compare both sides in one form.",
  ].join('\n');
}
