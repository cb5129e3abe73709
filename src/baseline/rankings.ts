// What the baseline keeps of each question's ranking (schema version 5, see ./file/types.ts): taken from a
// run's samples, and carried through an update so the baseline always holds main's last ranking.

import { latencyStatistics } from '../core/latency.js';
import { sampleIdOf, suiteIdentityOf, suiteKeyOf, type CollectedCost } from '../recording/collected.js';
import { MAX_TOP_HITS } from '../recording/sample.js';
import { createRecord, own, type BaselineFile, type BaselineLatency } from './file/types.js';
import type { GroupedRun } from './group.js';

/** What the baseline keeps of each question's ranking (schema version 5). */
export interface RankingOptions {
  /** How many top ranked keys a question keeps, 0 to 10 (what the matchers record); 0 keeps none. Default 10. */
  rankingDepth?: number;
  /** Keep each question's text (its test's name). Default true; false for teams that must not commit them. */
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
  for (const cost of costs) {
    const suite = ((rankings ??= createRecord())[suiteKeyOf(suiteIdentityOf(cost))] ??= createRecord());
    const id = sampleIdOf(cost);
    const ranking = (suite[id] ??= texts ? { text: cost.test, top: [] } : { top: [] });
    ranking.calls = { ...cost.cost.calls };
  }
  if (depth === 0 && !texts) return rankings;
  for (const [key, measures] of grouped.suites) {
    for (const row of measures.values()) {
      row.ids.forEach((id, index) => {
        const source = row.sources[index]!;
        if (source.topHits === undefined) return;
        const suite = ((rankings ??= createRecord())[key] ??= createRecord());
        const timed = own(suite, id);
        if (timed !== undefined && (timed.top.length > 0 || timed.calls === undefined)) return;
        const top = source.topHits.slice(0, depth);
        suite[id] = texts ? { text: source.test, top } : { top };
        if (timed?.calls !== undefined) suite[id].calls = timed.calls;
      });
    }
  }
  return rankings;
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
