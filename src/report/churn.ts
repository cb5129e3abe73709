// Ranking churn without labels: each question's ranking this run against the one the baseline keeps,
// by rank-biased overlap and top-k overlap (src/core/churn.ts), summarised per suite. Computed once by the
// summary; the "rankings changed, values held" findings and the churn gate read it, the renderers show it.

import {
  DEFAULT_OVERLAP_K,
  DEFAULT_RBO_DEPTH,
  DEFAULT_RBO_PERSISTENCE,
  rankBiasedOverlap,
  topKOverlap,
} from '../core/churn.js';
import { mean } from '../core/mean.js';
import { compareIds } from '../baseline/compare.js';
import { own, type BaselineFile, type QuestionRanking } from '../baseline/file/types.js';

/** What churn reads of a summary row (SummaryRow; not imported, which would be a cycle). */
interface ChurnRow {
  suite: string;
  suiteKey: string;
  tolerance: number;
  worse: readonly { sampleId: string; delta: number }[];
  better: readonly { sampleId: string; delta: number }[];
  relabelled?: readonly { sampleId: string }[];
  newSamples: readonly string[];
}

/** How churn is measured: top-k overlap's k, and rank-biased overlap's persistence and depth. */
export interface ChurnSettings {
  k: number;
  p: number;
  depth: number;
}

const DEFAULT_CHURN_SETTINGS: ChurnSettings = {
  k: DEFAULT_OVERLAP_K,
  p: DEFAULT_RBO_PERSISTENCE,
  depth: DEFAULT_RBO_DEPTH,
};

/** A question whose stored ranking differs from this run's. */
interface QuestionChurn {
  question: string;
  /** Rank-biased overlap of the two rankings (1: identical to the depth read). */
  rbo: number;
  /** Top-k overlap at k. */
  overlap: number;
  /** Top-k overlap at the depth kept (the baseline's stored depth). */
  overlapAtDepth: number;
  /** Every value of the question held: none moved beyond its measure's tolerance, none is new or relabelled. */
  valuesHeld: boolean;
}

/** One suite's churn over the questions whose ranking both the baseline and this run kept. */
export interface SuiteChurn {
  suite: string;
  suiteKey: string;
  /** Questions compared. */
  questions: number;
  meanRbo: number;
  meanOverlap: number;
  meanOverlapAtDepth: number;
  /** Questions whose top k changed (a key or its place), and their share of `questions`. */
  topChanged: number;
  topChangedShare: number;
  /** The questions whose kept ranking changed at all, lowest RBO first. */
  changes: QuestionChurn[];
}

/** The churn of a run: how it was measured, and each suite that had rankings to compare. */
export interface RunChurn {
  settings: ChurnSettings;
  suites: SuiteChurn[];
}

function keysOf(ranking: QuestionRanking): string[] {
  return ranking.top.map((hit) => hit.key);
}

/** Whether two rankings hold the same keys in the same order. */
function sameTop(a: QuestionRanking['top'], b: QuestionRanking['top']): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index]!.key !== b[index]!.key) return false;
  return true;
}

function sameKeys(a: readonly string[], b: readonly string[], upTo: number): boolean {
  const length = Math.min(upTo, Math.max(a.length, b.length));
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** Question ids of a suite whose values did not all hold (moved beyond tolerance, new, or relabelled). */
function movedQuestions(rows: readonly ChurnRow[]): Set<string> {
  const moved = new Set<string>();
  for (const row of rows) {
    for (const change of [...row.worse, ...row.better])
      if (Math.abs(change.delta) > row.tolerance) moved.add(change.sampleId);
    for (const change of row.relabelled ?? []) moved.add(change.sampleId);
    for (const id of row.newSamples) moved.add(id);
  }
  return moved;
}

/**
 * Each suite's churn: the questions this run produced whose ranking the baseline (`before`, read under a
 * renamed suite's old key) and this run (`after`) both kept with at least one key. Undefined when no
 * question had two rankings to compare.
 */
export function rankingChurn(
  rows: readonly ChurnRow[],
  before: BaselineFile['rankings'],
  after: BaselineFile['rankings'],
  renamedFrom: ReadonlyMap<string, string>,
  settings: ChurnSettings = DEFAULT_CHURN_SETTINGS,
): RunChurn | undefined {
  if (before === undefined || after === undefined) return undefined;
  const suites: SuiteChurn[] = [];
  const bySuite = new Map<string, ChurnRow[]>();
  for (const row of rows) {
    const list = bySuite.get(row.suiteKey);
    if (list === undefined) bySuite.set(row.suiteKey, [row]);
    else list.push(row);
  }
  for (const [suiteKey, suiteRows] of bySuite) {
    const old = own(before, renamedFrom.get(suiteKey) ?? suiteKey);
    const now = own(after, suiteKey);
    if (old === undefined || now === undefined) continue;
    const moved = movedQuestions(suiteRows);
    const rbos: number[] = [];
    const overlaps: number[] = [];
    const deepOverlaps: number[] = [];
    let topChanged = 0;
    const changes: QuestionChurn[] = [];
    for (const id of Object.keys(now).sort(compareIds)) {
      const previous = own(old, id);
      if (previous === undefined || previous.top.length === 0 || now[id]!.top.length === 0) continue;
      // Most questions rank as the baseline kept them: both overlaps are 1, and nothing changed.
      if (sameTop(previous.top, now[id]!.top)) {
        rbos.push(1);
        overlaps.push(1);
        deepOverlaps.push(1);
        continue;
      }
      const a = keysOf(previous);
      const b = keysOf(now[id]!);
      const churn: QuestionChurn = {
        question: id,
        rbo: rankBiasedOverlap(a, b, settings.p, settings.depth),
        overlap: topKOverlap(a, b, settings.k),
        overlapAtDepth: topKOverlap(a, b, settings.depth),
        valuesHeld: !moved.has(id),
      };
      rbos.push(churn.rbo);
      overlaps.push(churn.overlap);
      deepOverlaps.push(churn.overlapAtDepth);
      if (!sameKeys(a, b, settings.k)) topChanged++;
      if (!sameKeys(a, b, settings.depth)) changes.push(churn);
    }
    if (rbos.length === 0) continue;
    changes.sort((x, y) => x.rbo - y.rbo || compareIds(x.question, y.question));
    suites.push({
      suite: suiteRows[0]!.suite,
      suiteKey,
      questions: rbos.length,
      meanRbo: mean(rbos),
      meanOverlap: mean(overlaps),
      meanOverlapAtDepth: mean(deepOverlaps),
      topChanged,
      topChangedShare: topChanged / rbos.length,
      changes,
    });
  }
  return suites.length === 0 ? undefined : { settings, suites };
}

/** The least churn a suite may show before the gate fails it (reporter option `maxChurn`). */
export interface ChurnLimits {
  /** The lowest mean rank-biased overlap a suite may have (0 to 1). */
  rbo?: number;
  /** The lowest mean top-k overlap a suite may have (0 to 1). */
  overlap?: number;
}

/** Checks `maxChurn` (`{ rbo: 0.8 }`, `{ overlap: 0.6 }`); throws a TypeError naming `source` and what was wrong. */
export function checkChurnLimits(limits: unknown, source: string): ChurnLimits | undefined {
  if (limits === undefined) return undefined;
  const example = 'an object such as { rbo: 0.8 } or { overlap: 0.6 } (the lowest mean a suite may keep, 0 to 1)';
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits))
    throw new TypeError(
      `${source}: maxChurn must be ${example}, got ${Array.isArray(limits) ? 'an array' : String(limits)}.`,
    );
  const record = limits as Record<string, unknown>;
  const keys = Object.keys(record);
  for (const key of keys)
    if (key !== 'rbo' && key !== 'overlap')
      throw new TypeError(`${source}: maxChurn has an unknown key ${JSON.stringify(key)}; it takes rbo and overlap.`);
  if (keys.length === 0) throw new TypeError(`${source}: maxChurn must be ${example}, got an empty object.`);
  for (const key of keys) {
    const value = record[key];
    if (typeof value !== 'number' || !(value >= 0 && value <= 1))
      throw new TypeError(
        `${source}: maxChurn.${key} must be a number from 0 to 1, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}.`,
      );
  }
  return record as ChurnLimits;
}

/** Which limit a suite's churn breaks first (rbo, then overlap), or undefined when it keeps them. */
export function brokenChurnLimit(
  churn: SuiteChurn,
  limits: ChurnLimits | undefined,
): { measure: 'rbo' | 'overlap'; value: number; limit: number } | undefined {
  if (limits === undefined) return undefined;
  if (limits.rbo !== undefined && churn.meanRbo < limits.rbo)
    return { measure: 'rbo', value: churn.meanRbo, limit: limits.rbo };
  if (limits.overlap !== undefined && churn.meanOverlap < limits.overlap)
    return { measure: 'overlap', value: churn.meanOverlap, limit: limits.overlap };
  return undefined;
}
