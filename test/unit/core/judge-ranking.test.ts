// judgeRanking (what explainRanking shows) judges through the kernel's key table: per rank, the same
// answers as a plain reading of the rule with a Set, checked on hand-made rankings and by property.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeRanking } from '../../../src/core/ranking.js';
import { gainOf, prepareJudgments, type Judgments } from '../../../src/core/relevance.js';

/** The rule written plainly: first sightings judged, repeats flagged (unjudged ones only when tracked). */
function reference(keys: readonly string[], judgments: Judgments, countEveryDuplicate: boolean) {
  const { grades, minGrade, gain, applyMinGradeToNdcg } = judgments;
  const gainFloor = applyMinGradeToNdcg ? minGrade : Number.MIN_VALUE;
  const seen = new Set<string>();
  const relevantAtRank: number[] = [];
  const gainAtRank: number[] = [];
  const duplicateAtRank: number[] = [];
  let duplicateCount = 0;
  keys.forEach((key, rank) => {
    relevantAtRank[rank] = 0;
    gainAtRank[rank] = 0;
    duplicateAtRank[rank] = 0;
    const grade = grades.get(key);
    if (grade === undefined && !countEveryDuplicate) return;
    if (seen.has(key)) {
      duplicateAtRank[rank] = 1;
      duplicateCount++;
      return;
    }
    seen.add(key);
    if (grade === undefined) return;
    if (grade >= minGrade) relevantAtRank[rank] = 1;
    if (grade >= gainFloor) gainAtRank[rank] = gainOf(grade, gain);
  });
  return { relevantAtRank, gainAtRank, duplicateAtRank, duplicateCount: countEveryDuplicate ? duplicateCount : -1 };
}

function plain(judged: ReturnType<typeof judgeRanking>) {
  return {
    relevantAtRank: Array.from(judged.relevantAtRank),
    gainAtRank: Array.from(judged.gainAtRank),
    duplicateAtRank: Array.from(judged.duplicateAtRank),
    duplicateCount: judged.duplicateCount,
  };
}

describe('judgeRanking', () => {
  it('marks relevant ranks, gains and repeats by hand', () => {
    const judgments = prepareJudgments({ a: 2, b: 0, c: 1 });
    // a (grade 2), x (unjudged), a again (a repeat), c (grade 1), x again (an unjudged repeat).
    const judged = judgeRanking(['a', 'x', 'a', 'c', 'x'], judgments);
    expect(plain(judged)).toEqual({
      relevantAtRank: [1, 0, 0, 1, 0],
      gainAtRank: [2, 0, 0, 1, 0],
      duplicateAtRank: [0, 0, 1, 0, 1],
      duplicateCount: 2,
    });
    // Judged repeats only: the unjudged x is not tracked, and the count is not kept (-1).
    expect(plain(judgeRanking(['a', 'x', 'a', 'c', 'x'], judgments, 'count', false)).duplicateAtRank).toEqual([
      0, 0, 1, 0, 0,
    ]);
    expect(() => judgeRanking(['a', 'x', 'x'], judgments, 'error')).toThrow(/hits\[2\] repeats the key "x"/);
  });

  it('property: the same answers as the rule written with a Set', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 14 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'g'), fc.integer({ min: -1, max: 3 })),
        fc.boolean(),
        (keys, relevant, countEveryDuplicate) => {
          const judgments = prepareJudgments(relevant);
          expect(plain(judgeRanking(keys, judgments, 'count', countEveryDuplicate))).toEqual(
            reference(keys, judgments, countEveryDuplicate),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
