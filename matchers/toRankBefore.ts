import type { MatcherContext, MatcherResult } from './support/context.js';
import { utilsOf } from './support/context.js';
import { formatRanking, showId } from './support/format.js';
import { hintOf, matcherCall } from './support/hint.js';
import { checkId, rankForIds, type RankingOptions } from './support/id-matcher.js';

const NAME = 'toRankBefore';
const ARGS = 'idA, idB';

/** Passes when idA is retrieved and ranks above idB (or idB is not retrieved at all). */
export function toRankBefore(
  this: MatcherContext,
  received: unknown,
  idA: string,
  idB: string,
  options?: RankingOptions,
): MatcherResult {
  const call = matcherCall(this, NAME, ARGS, 'hits');
  const first = checkId(call, idA, 'idA');
  const second = checkId(call, idB, 'idB');
  const { explanation, firstRank } = rankForIds(call, received, [first, second], options);
  const rankA = firstRank.get(first);
  const rankB = firstRank.get(second);
  const pass = rankA !== undefined && (rankB === undefined || rankA < rankB);

  const message = () => {
    const utils = utilsOf(this);
    const where = (id: string, rank: number | undefined) =>
      `${showId(id)}: ${rank === undefined ? 'not retrieved' : `rank ${rank}`}`;
    const expectation = this.isNot
      ? `Expected ${showId(first)} not to rank before ${showId(second)}`
      : `Expected ${showId(first)} to rank before ${showId(second)}`;
    const summary = `${utils.EXPECTED_COLOR(expectation)}\n${utils.RECEIVED_COLOR(where(first, rankA))}\n${utils.RECEIVED_COLOR(where(second, rankB))}`;
    const shown = Math.max(rankA ?? 0, rankB ?? 0, 5);
    return [hintOf(call), summary, formatRanking(explanation, shown, utils)].join('\n\n');
  };
  return { pass, message };
}
