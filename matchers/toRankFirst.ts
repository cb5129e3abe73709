import type { MatcherContext, MatcherResult } from './support/context.js';
import { utilsOf } from './support/context.js';
import { formatRanking, showId } from './support/format.js';
import { hintOf, matcherCall } from './support/hint.js';
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
  const call = matcherCall(this, NAME, ARGS, 'hits');
  const wanted = checkId(call, id, 'id');
  const { explanation, firstRank } = rankForIds(call, received, [wanted], options);
  const first = explanation.rows[0]?.key;
  const pass = first === wanted;

  const message = () => {
    const utils = utilsOf(this);
    const rank = firstRank.get(wanted);
    const shownId = showId(wanted);
    const summary = this.isNot
      ? `Expected ${utils.EXPECTED_COLOR(shownId)} not to rank first, but it does`
      : `Expected first: ${utils.EXPECTED_COLOR(shownId)}\nReceived first: ${utils.RECEIVED_COLOR(first === undefined ? '(no hits)' : showId(first))}` +
        (rank === undefined ? `\n${shownId} was not retrieved` : `\n${shownId} is at rank ${rank}`);
    return [hintOf(call), summary, formatRanking(explanation, Math.max(rank ?? 0, 5), utils)].join('\n\n');
  };
  return { pass, message };
}
