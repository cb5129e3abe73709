// What the fixture projects' failures must print, the same under Vitest and Jest (one matcher
// implementation, one message). Hand-checked against fixtures/shared/data.ts.

/** The `one failure per matcher` suite's tests, in file order. */
export const EVERY_MATCHER = [
  'toHaveHitAtK',
  'toHavePrecisionAtK',
  'toHaveRecallAtK',
  'toHaveF1AtK',
  'toHaveNdcgAtK',
  'toHaveNdcgAbove',
  'toHaveReciprocalRankAbove',
  'toHaveAveragePrecisionAbove',
  'toHaveRPrecisionAbove',
  'toRetrieve',
  'toRankFirst',
  'toRankBefore',
  'toMeetRetrievalTargets',
] as const;

/** hits doc-3 doc-9 doc-1 doc-4 doc-8 doc-2 doc-7; relevant doc-1 doc-2 doc-3 doc-5 doc-6. */
export const TOP_5 = [
  'Top 5 of 7 hits:',
  '  1  ✓ doc-3',
  '  2    doc-9',
  '  3  ✓ doc-1',
  '  4    doc-4',
  '  5    doc-8',
].join('\n');

export const RECALL_FAILURE = [
  'expect(hits).toHaveRecallAtK(relevant, k, min)',
  '',
  'recall@5 = 0.40, needs ≥ 0.80  (query q7)',
  '2 of 5 relevant retrieved in the top 5',
  '',
  TOP_5,
  '',
  'Relevant not in the top 5: doc-2 (rank 6), doc-5, doc-6',
].join('\n');

export const RECALL_NOT_FAILURE = [
  'expect(hits).not.toHaveRecallAtK(relevant, k, min)',
  '',
  'recall@5 = 0.40, expected < 0.40',
  '2 of 5 relevant retrieved in the top 5',
  '',
  TOP_5,
  '',
  'Relevant not in the top 5: doc-2 (rank 6), doc-5, doc-6',
].join('\n');

export const CHUNK_DIAGNOSIS = [
  'No hit matched any annotation. The two sides use different ids:',
  '  annotation ids: doc-1',
  '  hit keys:       doc-2#chunk-0, doc-1#chunk-4, doc-1#chunk-0',
  "Your annotations name documents and your hits are chunks: pass { granularity: 'document' }.",
].join('\n');

export function minUsageError(hint: string): string {
  return `${hint}\n\nMatcher error: "min" must be a number from 0 to 1 (e.g. 0.8)\n\nmin has type:  number\nmin has value: 80`;
}
