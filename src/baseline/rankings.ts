// What the baseline keeps of each question's ranking (schema version 5, see ./file/types.ts): taken from a
// run's samples, and carried through an update so the baseline always holds main's last ranking.

import { MAX_TOP_HITS } from '../recording/sample.js';
import { createRecord, own, type BaselineFile } from './file/types.js';
import type { GroupedRow, GroupedRun } from './group.js';

/** What the baseline keeps of each question's ranking (schema version 5). */
export interface RankingOptions {
  /** How many top ranked keys a question keeps, 0 to 10 (what the matchers record); 0 keeps none. Default 10. */
  rankingDepth?: number;
  /** Keep each question's text (the matcher's `query`, else its test's name). Default true; false for teams that must not commit them. */
  questionTexts?: boolean;
}

/**
 * Each question's ranking as this run recorded it (its first sample with top hits: for a repeated question,
 * the first run's), cut to the depth asked for; undefined when the run kept none.
 */
export function rankingsOfRun(grouped: GroupedRun, options: RankingOptions = {}): BaselineFile['rankings'] {
  const depth = options.rankingDepth ?? MAX_TOP_HITS;
  const texts = options.questionTexts ?? true;
  if (!Number.isInteger(depth) || depth < 0 || depth > MAX_TOP_HITS)
    throw new RangeError(
      `options.rankingDepth must be a whole number from 0 to ${MAX_TOP_HITS}, got ${String(depth)}.`,
    );
  if (typeof texts !== 'boolean')
    throw new TypeError(`options.questionTexts must be true or false, got ${String(texts as unknown)}.`);
  if (depth === 0 && !texts) return undefined;
  let rankings: BaselineFile['rankings'];
  for (const [key, measures] of grouped.suites) {
    const queries = texts ? queriesOf(measures.values()) : undefined;
    for (const row of measures.values()) {
      row.ids.forEach((id, index) => {
        const source = row.sources[index]!;
        if (source.topHits === undefined) return;
        const suite = ((rankings ??= createRecord())[key] ??= createRecord());
        if (own(suite, id) !== undefined) return;
        const top = source.topHits.slice(0, depth);
        suite[id] = texts ? { text: queries?.get(id) ?? source.test, top } : { top };
      });
    }
  }
  return rankings;
}

/** Each question's text as a matcher's `query` option gave it (the first one), by question id. */
function queriesOf(rows: Iterable<GroupedRow>): Map<string, string> {
  const queries = new Map<string, string>();
  for (const row of rows)
    row.ids.forEach((id, index) => {
      const query = row.sources[index]!.query;
      if (query !== undefined && !queries.has(id)) queries.set(id, query);
    });
  return queries;
}

/**
 * `merged` with rankings: the run's for every question it judged (so the baseline is always the last
 * ranking), the previous baseline's for the questions it kept without judging them.
 */
export function withRankings(
  merged: BaselineFile,
  previous: BaselineFile | undefined,
  current: BaselineFile['rankings'],
): BaselineFile {
  for (const source of [current, previous?.rankings]) {
    if (source === undefined) continue;
    for (const suiteKey of Object.keys(source)) {
      const suite = own(merged.suites, suiteKey);
      if (suite === undefined) continue;
      const ids = new Set(Object.values(suite).flatMap((samples) => Object.keys(samples)));
      for (const [id, ranking] of Object.entries(source[suiteKey]!)) {
        if (!ids.has(id)) continue;
        const rankings = ((merged.rankings ??= createRecord())[suiteKey] ??= createRecord());
        if (own(rankings, id) === undefined) rankings[id] = ranking;
      }
    }
  }
  return merged;
}

/**
 * How many questions of `after` hold a ranking other than the one `before` held while none of their
 * values changed (`valueChanges` lists the rows whose values the update added, changed or relabelled: a
 * question among them is counted there, its ranking with it).
 */
export function changedRankings(
  before: BaselineFile | undefined,
  after: BaselineFile,
  valueChanges: readonly { suiteKey: string; sampleIds?: string[] }[],
): number {
  const wholeSuites = new Set<string>();
  const questions = new Set<string>();
  for (const ref of valueChanges) {
    if (ref.sampleIds === undefined) wholeSuites.add(ref.suiteKey);
    else for (const id of ref.sampleIds) questions.add(JSON.stringify([ref.suiteKey, id]));
  }
  let changed = 0;
  for (const suiteKey of Object.keys(after.rankings ?? {})) {
    if (wholeSuites.has(suiteKey)) continue;
    const previous = before?.rankings === undefined ? undefined : own(before.rankings, suiteKey);
    if (previous === undefined) continue;
    for (const [id, ranking] of Object.entries(after.rankings![suiteKey]!)) {
      const old = own(previous, id);
      if (old === undefined || questions.has(JSON.stringify([suiteKey, id]))) continue;
      if (JSON.stringify(old) !== JSON.stringify(ranking)) changed++;
    }
  }
  return changed;
}
