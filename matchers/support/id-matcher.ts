import { explainRanking, type RankingExplanation } from '../../src/core/explain.js';
import type { KeyOptions, EvaluateOptions } from '../../src/core/index.js';
import type { MatcherContext } from './context.js';
import { checkHits, checkOptions, usageError } from './usage.js';

/** Options of the id-based matchers: how keys are read and ranked. */
export type RankingOptions = KeyOptions & Pick<EvaluateOptions, 'sortBy'>;

export function checkId(
  context: MatcherContext,
  matcherName: string,
  args: string,
  id: unknown,
  argumentName: string,
): string {
  if ((typeof id !== 'string' || id.trim() === '') && !(typeof id === 'number' && Number.isFinite(id))) {
    throw usageError(
      context,
      matcherName,
      args,
      `${argumentName} must be a non-empty id string`,
      `${argumentName}: ${JSON.stringify(id)}`,
    );
  }
  return String(id);
}

/** Ranks the received hits and marks the wanted ids, for the id-based matchers. */
export function rankForIds(
  context: MatcherContext,
  matcherName: string,
  args: string,
  received: unknown,
  ids: readonly string[],
  options: unknown,
): { explanation: RankingExplanation; firstRank: Map<string, number> } {
  const hits = checkHits(context, matcherName, args, received);
  const { within: _within, ...rankingOptions } = checkOptions<RankingOptions & { within?: number }>(
    context,
    matcherName,
    args,
    options,
  );
  let explanation: RankingExplanation;
  try {
    explanation = explainRanking(hits, ids, rankingOptions);
  } catch (error) {
    throw usageError(context, matcherName, args, (error as Error).message);
  }
  const firstRank = new Map<string, number>();
  for (const row of explanation.rows) if (!firstRank.has(row.key)) firstRank.set(row.key, row.rank);
  return { explanation, firstRank };
}
