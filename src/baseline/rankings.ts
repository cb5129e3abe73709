// What the baseline keeps of each question's ranking (its ranking row, schema 7, see ./file/types.ts): taken from a
// run's samples, and carried through an update so the baseline always holds main's last ranking.

import { latencyStatistics } from '../core/latency.js';
import { mergeTags, sampleIdOf, suiteIdentityOf, suiteKeyOf, type CollectedCost } from '../recording/collected.js';
import { MAX_TOP_HITS } from '../recording/sample.js';
import { createRecord, own, type BaselineFile, type BaselineLatency, type QuestionRanking } from './file/types.js';
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
 * the first run's), cut to the depth asked for, with the calls its retrieval made (its last timed run's,
 * from `costs`); undefined when the run kept none.
 */
export function rankingsOfRun(
  grouped: GroupedRun,
  options: RankingOptions = {},
  costs: readonly CollectedCost[] = [],
): BaselineFile['rankings'] {
  const depth = options.rankingDepth ?? MAX_TOP_HITS;
  const texts = options.questionTexts ?? true;
  if (!Number.isInteger(depth) || depth < 0 || depth > MAX_TOP_HITS)
    throw new RangeError(
      `options.rankingDepth must be a whole number from 0 to ${MAX_TOP_HITS}, got ${String(depth)}.`,
    );
  if (typeof texts !== 'boolean')
    throw new TypeError(`options.questionTexts must be true or false, got ${String(texts as unknown)}.`);
  let rankings: BaselineFile['rankings'];
  // Rankings made only to hold tags so far (a later sample of the question may bring its top hits).
  const tagsOnly = new Set<QuestionRanking>();
  for (const [key, measures] of grouped.suites) {
    const queries = texts ? queriesOf(measures.values()) : undefined;
    for (const row of measures.values()) {
      // A plain loop and rankings built field by field: this runs for every sample of the run.
      for (let index = 0; index < row.ids.length; index++) {
        const id = row.ids[index]!;
        const source = row.sources[index]!;
        const keepsRanking = source.topHits !== undefined && (depth > 0 || texts);
        if (!keepsRanking && source.tags === undefined) continue;
        const suite = ((rankings ??= createRecord())[key] ??= createRecord());
        let ranking = own(suite, id);
        if (keepsRanking && (ranking === undefined || tagsOnly.has(ranking))) {
          const top = source.topHits!.slice(0, depth);
          const tags = ranking?.tags;
          ranking = texts ? { text: queries?.get(id) ?? source.test, top } : { top };
          if (tags !== undefined) ranking.tags = tags;
          suite[id] = ranking;
        } else if (ranking === undefined) {
          ranking = { top: [] };
          tagsOnly.add(ranking);
          suite[id] = ranking;
        }
        // A question's tags are those of all its samples, whatever their measure.
        const tags = mergeTags(ranking.tags, source.tags);
        if (tags !== undefined) ranking.tags = tags;
      }
    }
  }
  for (const cost of costs) {
    const suite = ((rankings ??= createRecord())[suiteKeyOf(suiteIdentityOf(cost))] ??= createRecord());
    const ranking = (suite[sampleIdOf(cost)] ??= texts ? { text: cost.test, top: [] } : { top: [] });
    ranking.calls = { ...cost.cost.calls };
  }
  return rankings;
}

/** Each question's text as a matcher's `query` option gave it (the first one), by question id. */
function queriesOf(rows: Iterable<GroupedRow>): Map<string, string> {
  const queries = new Map<string, string>();
  for (const row of rows)
    for (let index = 0; index < row.ids.length; index++) {
      const query = row.sources[index]!.query;
      if (query !== undefined && !queries.has(row.ids[index]!)) queries.set(row.ids[index]!, query);
    }
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
      // Tags are not measured: a question retagged while its ranking held is not a changed ranking.
      if (JSON.stringify(withoutTags(old)) !== JSON.stringify(withoutTags(ranking))) changed++;
    }
  }
  return changed;
}

/** Each timed suite's latency as the baseline keeps it (schema version 6); undefined when nothing was timed. */
export function latencyOfRun(costs: readonly CollectedCost[]): BaselineFile['latency'] {
  let latency: BaselineFile['latency'];
  const bySuite = new Map<string, { ids: Set<string>; latencies: number[] }>();
  for (const cost of costs) {
    const key = suiteKeyOf(suiteIdentityOf(cost));
    const suite = bySuite.get(key) ?? { ids: new Set<string>(), latencies: [] };
    suite.ids.add(sampleIdOf(cost));
    suite.latencies.push(cost.cost.latencyMs);
    bySuite.set(key, suite);
  }
  for (const [key, suite] of bySuite) {
    const { p50, p95, max } = latencyStatistics(suite.latencies);
    const kept: BaselineLatency = { timed: suite.ids.size, p50: roundMs(p50), p95: roundMs(p95), max: roundMs(max) };
    (latency ??= createRecord())[key] = kept;
  }
  return latency;
}

/** Milliseconds to a tenth: what a baseline keeps of a noisy clock. */
function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * `merged` with each suite's latency: the run's for the suites it timed, the previous baseline's for the
 * other suites it keeps.
 */
export function withLatency(
  merged: BaselineFile,
  previous: BaselineFile | undefined,
  current: BaselineFile['latency'],
): BaselineFile {
  for (const source of [current, previous?.latency]) {
    if (source === undefined) continue;
    for (const [key, latency] of Object.entries(source)) {
      if (own(merged.suites, key) === undefined) continue;
      const kept = (merged.latency ??= createRecord());
      if (own(kept, key) === undefined) kept[key] = latency;
    }
  }
  return merged;
}

/**
 * How many questions of `before` hold other tags in `after` (tags added, changed or removed): an update
 * records them, though a changed tag is neither a regression nor a difference that makes the file out of date.
 */
export function changedTags(before: BaselineFile | undefined, after: BaselineFile): number {
  if (before === undefined || (before.rankings === undefined && after.rankings === undefined)) return 0;
  const tagsOf = (file: BaselineFile, suiteKey: string, id: string): string => {
    const suite = file.rankings === undefined ? undefined : own(file.rankings, suiteKey);
    const ranking = suite === undefined ? undefined : own(suite, id);
    return JSON.stringify(ranking?.tags ?? []);
  };
  let changed = 0;
  for (const [suiteKey, measures] of Object.entries(after.suites)) {
    const previous = own(before.suites, suiteKey);
    if (previous === undefined) continue;
    const ids = new Set(Object.values(measures).flatMap((samples) => Object.keys(samples)));
    const previousIds = new Set(Object.values(previous).flatMap((samples) => Object.keys(samples)));
    for (const id of ids)
      if (previousIds.has(id) && tagsOf(before, suiteKey, id) !== tagsOf(after, suiteKey, id)) changed++;
  }
  return changed;
}

/** A ranking without what is not ranked: its tags and its calls. */
function withoutTags(ranking: QuestionRanking): QuestionRanking {
  const { tags: _tags, calls: _calls, ...rest } = ranking;
  return rest;
}
