import type { MatcherContext, MatcherResult } from './support/context.js';
import { hintOf, utilsOf } from './support/context.js';
import { formatRanking } from './support/format.js';
import { checkId, rankForIds, type RankingOptions } from './support/id-matcher.js';

const NAME = 'toRankFirst';
const ARGS = 'id';

/** Passes when the first hit's key is `id`. */
export function toRankFirst(
  this: MatcherContext,
  received: unknown,
  id: string,
  options?: RankingOptions,
): MatcherResult {
  const wanted = checkId(this, NAME, ARGS, id, 'id');
  const { explanation, firstRank } = rankForIds(this, NAME, ARGS, received, [wanted], options);
  const first = explanation.rows[0]?.key;
  const pass = first === wanted;

  const message = () => {
    const utils = utilsOf(this);
    const rank = firstRank.get(wanted);
    const summary = this.isNot
      ? `Expected ${utils.EXPECTED_COLOR(wanted)} not to rank first, but it does`
      : `Expected first: ${utils.EXPECTED_COLOR(wanted)}\nReceived first: ${utils.RECEIVED_COLOR(first ?? '(no hits)')}` +
        (rank === undefined ? `\n${wanted} was not retrieved` : `\n${wanted} is at rank ${rank}`);
    return [hintOf(this, NAME, ARGS), summary, formatRanking(explanation, Math.max(rank ?? 0, 5), utils)].join('\n\n');
  };
  return { pass, message };
}
