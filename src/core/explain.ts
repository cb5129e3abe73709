import { judgeHits } from './evaluate.js';
import { prepareJudgments } from './relevance.js';
import type { EvaluateOptions, Hit, Relevance } from './types.js';

export interface RankedRow {
  rank: number;
  key: string;
  /** The annotated grade, when the key is judged. */
  grade?: number;
  relevant: boolean;
  duplicate: boolean;
}

export interface RankingExplanation {
  rows: RankedRow[];
  /** Relevant ids with their grade, in annotation order. */
  relevantIds: { id: string; grade: number }[];
}

/** The ranking as evaluated (after sorting and document collapsing), row by row: what failure messages show. */
export function explainRanking(
  hits: readonly Hit[],
  relevant: Relevance,
  options: Omit<EvaluateOptions, 'k'> = {},
): RankingExplanation {
  const judgments = prepareJudgments(relevant, options);
  const judged = judgeHits(hits, judgments, options);
  const rows = judged.keys.map((key, index): RankedRow => {
    const grade = judgments.grades.get(key);
    const row: RankedRow = {
      rank: index + 1,
      key,
      relevant: judged.relevantAtRank[index] === 1,
      duplicate: judged.duplicateAtRank[index] === 1,
    };
    if (grade !== undefined) row.grade = grade;
    return row;
  });
  const relevantIds = judgments.relevantIds.map((id) => ({ id, grade: judgments.grades.get(id) as number }));
  return { rows, relevantIds };
}
