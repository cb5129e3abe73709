// What explains a question's move: its ranking before (the baseline's) and after (this run's), compared key
// by key. Computed once here, from the two stored rankings; every renderer only renders the result.

import type { RankedHit } from '../baseline/file/types.js';
import type { GateFinding } from './finding-kinds.js';

/** A relevant key whose place changed: `before`/`after` are 1-based ranks, undefined where it was not ranked. */
export interface KeyMove {
  key: string;
  grade: number;
  before: number | undefined;
  after: number | undefined;
}

/** The ranking before → after of one question, as a reviewer reads it. */
export interface RankingEvidence {
  /** Relevant keys ranked before and not now. */
  left: KeyMove[];
  /** Relevant keys ranked now and not before. */
  entered: KeyMove[];
  /** Relevant keys ranked both times, at different places. */
  moved: KeyMove[];
  /** Keys not relevant that now rank above the best relevant key that fell (left or moved down), best first. */
  nowAbove: string[];
}

/** A grade that counts as relevant: at least 1 (the measures' default minimum grade). */
function isRelevant(hit: RankedHit): boolean {
  return hit.grade !== undefined && hit.grade >= 1;
}

/** The first rank (1-based) of each key in `ranking`. */
function ranksOf(ranking: readonly RankedHit[]): Map<string, number> {
  const ranks = new Map<string, number>();
  ranking.forEach((hit, index) => {
    if (!ranks.has(hit.key)) ranks.set(hit.key, index + 1);
  });
  return ranks;
}

/** The relevant keys of either ranking, in first-seen order (after's grade wins: it is the current judgment). */
function relevantKeys(before: readonly RankedHit[], after: readonly RankedHit[]): Map<string, number> {
  const grades = new Map<string, number>();
  for (const hit of [...after, ...before]) if (isRelevant(hit) && !grades.has(hit.key)) grades.set(hit.key, hit.grade!);
  return grades;
}

/** Compares two rankings of one question (each as stored: the top hits in the retriever's order, with grades). */
export function rankingEvidence(before: readonly RankedHit[], after: readonly RankedHit[]): RankingEvidence {
  const beforeRanks = ranksOf(before);
  const afterRanks = ranksOf(after);
  const evidence: RankingEvidence = { left: [], entered: [], moved: [], nowAbove: [] };
  for (const [key, grade] of relevantKeys(before, after)) {
    const move: KeyMove = { key, grade, before: beforeRanks.get(key), after: afterRanks.get(key) };
    if (move.after === undefined) evidence.left.push(move);
    else if (move.before === undefined) evidence.entered.push(move);
    else if (move.before !== move.after) evidence.moved.push(move);
  }
  const byRank = (a: KeyMove, b: KeyMove): number => (a.after ?? a.before!) - (b.after ?? b.before!);
  evidence.entered.sort(byRank);
  evidence.moved.sort(byRank);
  evidence.left.sort((a, b) => a.before! - b.before!);
  evidence.nowAbove = keysAboveFall(evidence, after);
  return evidence;
}

/** The keys not relevant in `after` above where the best fallen relevant key now is (all of them when it left). */
function keysAboveFall(evidence: RankingEvidence, after: readonly RankedHit[]): string[] {
  const fallen = [...evidence.left, ...evidence.moved.filter((move) => move.after! > move.before!)];
  if (fallen.length === 0) return [];
  const bestBefore = Math.min(...fallen.map((move) => move.before!));
  const limit = fallen.find((move) => move.before === bestBefore)!.after ?? after.length + 1;
  return after
    .slice(0, limit - 1)
    .filter((hit) => !isRelevant(hit))
    .map((hit) => hit.key);
}

/** One move as the reports print it: `refunds#2 1 → 7`, `rate-limits#1 new at 1`, `billing#3 left (was 2)`. */
export function formatKeyMove(move: KeyMove): string {
  if (move.before === undefined) return `${move.key} new at ${move.after}`;
  if (move.after === undefined) return `${move.key} left (was ${move.before})`;
  return `${move.key} ${move.before} → ${move.after}`;
}

/** A changed question's evidence, as every report shows it: its text, its rankings before → after, the moves. */
export interface QuestionEvidence {
  /** The question's text (this run's, else the baseline's); absent when neither kept one. */
  text?: string;
  /** The baseline's ranking (empty when it kept none: a file before schema version 5). */
  before: RankedHit[];
  /** This run's ranking. */
  after: RankedHit[];
  moves: RankingEvidence;
}

/** A question's ranking as a baseline or a run keeps it. */
interface KeptRanking {
  text?: string;
  top: RankedHit[];
}

/** The evidence of one question, from what the baseline kept and what this run recorded; undefined when neither kept a ranking. */
export function questionEvidence(
  before: KeptRanking | undefined,
  after: KeptRanking | undefined,
): QuestionEvidence | undefined {
  if (before === undefined && after === undefined) return undefined;
  const beforeTop = before?.top ?? [];
  const afterTop = after?.top ?? [];
  const text = after?.text ?? before?.text;
  const evidence: QuestionEvidence = {
    before: beforeTop,
    after: afterTop,
    moves: rankingEvidence(beforeTop, afterTop),
  };
  if (text !== undefined) evidence.text = text;
  return evidence;
}

/** The moves in one line: `refunds#2 1 → 7 · rate-limits#1 new at 1 · billing#1 left (was 2); now above: faq#4, misc`. */
export function describeMoves(moves: RankingEvidence, escape: (text: string) => string): string {
  const parts = [...moves.left, ...moves.moved, ...moves.entered].map((move) => escape(formatKeyMove(move)));
  const above = moves.nowAbove.length === 0 ? '' : `; now above: ${moves.nowAbove.map(escape).join(', ')}`;
  return parts.length === 0 ? `relevant keys held their places${above}` : `${parts.join(' · ')}${above}`;
}

/** A ranking in one line, relevant keys marked: `1 refunds#2 ✓ · 2 faq#4 · 3 misc`. */
export function describeRanking(ranking: readonly RankedHit[], escape: (text: string) => string): string {
  if (ranking.length === 0) return '(not kept)';
  return ranking
    .map((hit, index) => `${index + 1} ${escape(hit.key)}${hit.grade !== undefined && hit.grade >= 1 ? ' ✓' : ''}`)
    .join(' · ');
}

/** What evidenceOfFinding reads of a summary: its rows' evidence, by suite and measure. */
interface RowsWithEvidence {
  rows: readonly { suiteKey: string; measure: string; evidence?: Record<string, QuestionEvidence> }[];
}

/**
 * The evidence of a row finding's questions (an improvement, a move not recorded, questions that moved
 * while the suite held), in the finding's order: empty for a regression (reports list its questions with
 * their evidence on their own), a finding of no row, or questions whose ranking neither side kept.
 */
export function evidenceOfFinding(
  summary: RowsWithEvidence,
  finding: Pick<GateFinding, 'kind' | 'suiteKey' | 'measure' | 'questions'>,
): [string, QuestionEvidence][] {
  if (finding.kind === 'regression' || finding.measure === undefined || finding.questions === undefined) return [];
  const row = summary.rows.find((entry) => entry.suiteKey === finding.suiteKey && entry.measure === finding.measure);
  const evidence = row?.evidence;
  if (evidence === undefined) return [];
  return finding.questions.flatMap((id): [string, QuestionEvidence][] => {
    const entry = Object.prototype.hasOwnProperty.call(evidence, id) ? evidence[id] : undefined;
    return entry === undefined ? [] : [[id, entry]];
  });
}
