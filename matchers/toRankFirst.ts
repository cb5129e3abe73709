import type { MatcherContext, MatcherResult } from './support/context.js';
import { utilsOf } from './support/context.js';
import { formatRanking } from './support/format.js';
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
    const summary = this.isNot
      ? `Expected ${utils.EXPECTED_COLOR(wanted)} not to rank first, but it does`
      : `Expected first: ${utils.EXPECTED_COLOR(wanted)}\nReceived first: ${utils.RECEIVED_COLOR(first ?? '(no hits)')}` +
        (rank === undefined ? `\n${wanted} was not retrieved` : `\n${wanted} is at rank ${rank}`);
    return [hintOf(call), summary, formatRanking(explanation, Math.max(rank ?? 0, 5), utils)].join('\n\n');
  };
  return { pass, message };
}
