import type { MatcherContext, MatcherResult } from './support/context.js';
import { utilsOf } from './support/context.js';
import { checkOptionalCutoff } from './support/cutoff.js';
import { formatRanking, listIds } from './support/format.js';
import { hintOf, matcherCall } from './support/hint.js';
import { checkId, rankForIds, type RankingOptions } from './support/id-matcher.js';
import { checkOptions } from './support/options.js';
import { usageError } from './support/usage-error.js';

const NAME = 'toRetrieve';
const ARGS = 'idOrIds';

export interface RetrieveOptions extends RankingOptions {
  /** Only the top `within` hits count. */
  within?: number;
}

/** Passes when every id is among the hits (within the top `options.within` when given). */
export function toRetrieve(
  this: MatcherContext,
  received: unknown,
  idOrIds: string | readonly string[],
  options?: RetrieveOptions,
): MatcherResult {
  const call = matcherCall(this, NAME, ARGS, 'hits');
  const rawIds = Array.isArray(idOrIds) ? idOrIds : [idOrIds];
  if (rawIds.length === 0) throw usageError(call, 'idOrIds is an empty list: name at least one id');
  const ids = rawIds.map((id, index) => checkId(call, id, Array.isArray(idOrIds) ? `idOrIds[${index}]` : 'idOrIds'));
  const checked = checkOptions<RetrieveOptions>(call, options);
  const within = checkOptionalCutoff(call, checked.within, { argument: 'options.within' });
  const { explanation, firstRank } = rankForIds(call, received, ids, checked);
  const missing = ids.filter((id) => {
    const rank = firstRank.get(id);
    return rank === undefined || (within !== undefined && rank > within);
  });
  const pass = missing.length === 0;

  const message = () => {
    const utils = utilsOf(this);
    const where = within === undefined ? 'among the hits' : `in the top ${within}`;
    const describe = (id: string) => (firstRank.has(id) ? `${id} (rank ${firstRank.get(id)})` : id);
    const summary = this.isNot
      ? `Expected ${utils.EXPECTED_COLOR(listIds(ids))} not all to be ${where}, but they are: ${utils.RECEIVED_COLOR(listIds(ids.map(describe)))}`
      : `Expected ${where}: ${utils.EXPECTED_COLOR(listIds(ids))}\nMissing: ${utils.RECEIVED_COLOR(listIds(missing.map(describe)))}`;
    return [hintOf(call), summary, formatRanking(explanation, within, utils)].join('\n\n');
  };
  return { pass, message };
}
