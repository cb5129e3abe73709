import { explainRanking, type RankingExplanation } from '../../src/core/explain.js';
import type { KeyOptions, EvaluateOptions } from '../../src/core/index.js';
import { firstRanks } from './format.js';
import type { MatcherCall } from './hint.js';
import { checkHits } from './hits.js';
import { checkOptions } from './options.js';
import { usageError, withUsageErrors } from './usage-error.js';

/** Options of the id-based matchers: how keys are read and ranked. */
export type RankingOptions = KeyOptions & Pick<EvaluateOptions, 'sortBy'>;

export function checkId(call: MatcherCall, id: unknown, argumentName: string): string {
  if ((typeof id !== 'string' || id.trim() === '') && !(typeof id === 'number' && Number.isFinite(id))) {
    throw usageError(call, `${argumentName} must be a non-empty id string`, `${argumentName}: ${JSON.stringify(id)}`);
  }
  return String(id);
}

/** Ranks the received hits and marks the wanted ids, for the id-based matchers. */
export function rankForIds(
  call: MatcherCall,
  received: unknown,
  ids: readonly string[],
  options: unknown,
): { explanation: RankingExplanation; firstRank: Map<string, number> } {
  const hits = checkHits(call, received);
  const { within: _within, ...rankingOptions } = checkOptions<RankingOptions & { within?: number }>(call, options);
  const explanation = withUsageErrors(call, () => explainRanking(hits, ids, rankingOptions));
  return { explanation, firstRank: firstRanks(explanation) };
}
