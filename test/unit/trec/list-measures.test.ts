// trec_eval's list measures (src/trec/eval/list-measures.ts) on hand-worked rankings, edge cases
// first: no relevant document, nothing retrieved, ties of gain, p at its bounds. Every expected value
// is worked out below from the measure's definition (trec_eval 10's m_*.c), never by the code.
import { describe, expect, it } from 'vitest';
import {
  IN_POOL_UNJUDGED,
  NOT_IN_POOL,
  binaryG,
  discountedGains,
  elevenPointAverage,
  gainTable,
  listMeasureValue,
  ndcgAtRLevels,
  ndcgAtRelevant,
  normalizedGain,
  precisionAtRMultiple,
  rankBiasedPrecision,
  rankBiasedResidual,
  relevanceString,
  setAveragePrecision,
  setF,
  setPrecision,
  setRecall,
  setRelativePrecision,
  unjudgedAt,
  utility,
  yetAnotherAveragePrecision,
  zeroedWhenMissing,
  type JudgedList,
} from '../../../src/trec/eval/list-measures.js';

/** A ranking: per rank a grade, 'x' (not in the qrels) or 'u' (judged negative); `judged`: every judgment's grade ≥ 0. */
function listOf(
  ranks: readonly (number | 'x' | 'u')[],
  judged: readonly number[],
  level = 1,
  collection = 0,
): JudgedList {
  const grades = Float64Array.from(ranks, (rank) =>
    rank === 'x' ? NOT_IN_POOL : rank === 'u' ? IN_POOL_UNJUDGED : rank,
  );
  const levelCounts: number[] = [];
  for (const grade of judged) {
    while (levelCounts.length <= grade) levelCounts.push(0);
    levelCounts[grade] = (levelCounts[grade] as number) + 1;
  }
  return {
    retrieved: ranks.length,
    grades,
    relevantRetrieved: ranks.filter((rank) => typeof rank === 'number' && rank >= level).length,
    notInPool: ranks.filter((rank) => rank === 'x').length,
    inPoolUnjudged: ranks.filter((rank) => rank === 'u').length,
    relevantCount: judged.filter((grade) => grade >= level).length,
    levelCounts,
    relevanceLevel: level,
    documentsInCollection: collection,
  };
}

const NOTHING = listOf([], [1, 1]);
const NO_RELEVANT = listOf([0, 'x'], [0]);

describe('Rprec_mult', () => {
  const list = listOf([1, 0, 1, 0], [1, 1]); // R = 2
  it('precision at rank ⌊m·R + 0.9⌋', () => {
    expect(precisionAtRMultiple(list, 0.2)).toBe(1); // rank 1
    expect(precisionAtRMultiple(list, 1)).toBe(0.5); // rank 2
    expect(precisionAtRMultiple(list, 1.5)).toBeCloseTo(2 / 3, 12); // rank 3
  });
  it('past the ranking: relevant retrieved ÷ the cutoff', () => {
    expect(precisionAtRMultiple(list, 3)).toBeCloseTo(2 / 6, 12); // rank 6 of 4
  });
  it('no relevant retrieved, or no relevant judged: 0', () => {
    expect(precisionAtRMultiple(listOf([0, 0], [1, 1]), 1)).toBe(0);
    expect(precisionAtRMultiple(NO_RELEVANT, 1)).toBe(0);
    expect(precisionAtRMultiple(NOTHING, 1)).toBe(0);
  });
});

describe('utility', () => {
  // 2 relevant retrieved, 2 non-relevant retrieved, 1 relevant missed, N = 100: 95 non-relevant missed.
  const list = listOf([1, 0, 'x', 1], [1, 1, 1, 0], 1, 100);
  it('a·2 + b·2 + c·1 + d·95', () => {
    expect(utility(list, [1, -1, 0, 0])).toBe(0);
    expect(utility(list, [2, -1, -1, 0.5])).toBe(4 - 2 - 1 + 47.5);
  });
  it('nothing retrieved: c·R + d·(N − R)', () => {
    expect(utility(NOTHING, [1, -1, -2, 0])).toBe(-4);
  });
});

describe('11pt_avg', () => {
  it('averages the interpolated precision at the levels', () => {
    // R = 2, relevant at ranks 1 and 3: levels 0–0.7 reach 1 relevant or none (precision 1), 0.8–1 reach 2 (2/3).
    expect(
      elevenPointAverage(listOf([1, 0, 1], [1, 1]), [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]),
    ).toBeCloseTo((8 + 3 * (2 / 3)) / 11, 12);
    expect(elevenPointAverage(listOf([1, 0, 1], [1, 1]), [0.2, 0.5, 0.8])).toBeCloseTo((1 + 1 + 2 / 3) / 3, 12);
  });
  it('no relevant retrieved: 0; nothing retrieved: NaN (trec_eval divides 0 by 0)', () => {
    expect(elevenPointAverage(listOf([0, 0], [1]), [0, 0.5, 1])).toBe(0);
    expect(elevenPointAverage(NOTHING, [0, 0.5, 1])).toBeNaN();
  });
});

describe('binG', () => {
  it('Σ 1 / log2(2 + non-relevant above) over relevant retrieved, ÷ R', () => {
    expect(binaryG(listOf([0, 1, 0, 1], [1, 1, 1]))).toBeCloseTo((1 / Math.log2(3) + 1 / 2) / 3, 12);
  });
  it('no relevant retrieved: 0', () => {
    expect(binaryG(listOf([0, 'x'], [1]))).toBe(0);
    expect(binaryG(NOTHING)).toBe(0);
  });
});

describe('gains: G, dcg, ndcg_rel, Rndcg', () => {
  const judged = [1, 2];
  const best = listOf([2, 1], judged);
  const reversed = listOf([1, 2], judged);

  it('G: 1 for the ideal order; reversed: (1/log2 3 + 2/log2 2) / 3', () => {
    expect(normalizedGain(best, [])).toBe(1);
    expect(normalizedGain(reversed, [])).toBeCloseTo((1 / Math.log2(3) + 2) / 3, 12);
    expect(normalizedGain(NOTHING, [])).toBe(0);
  });

  it('dcg and ideal_dcg over the whole list', () => {
    expect(discountedGains(reversed, []).dcg).toBeCloseTo(1 + 2 / Math.log2(3), 12);
    expect(discountedGains(reversed, []).idealDcg).toBeCloseTo(2 + 1 / Math.log2(3), 12);
    // Gains overridden: level 1 → 3, so the ideal puts it first.
    expect(discountedGains(reversed, [{ level: 1, gain: 3 }]).idealDcg).toBeCloseTo(3 + 2 / Math.log2(3), 12);
  });

  it('ndcg_rel: nDCG at each relevant rank, averaged', () => {
    const ideal2 = 2 + 1 / Math.log2(3);
    expect(ndcgAtRelevant(reversed, [])).toBeCloseTo((1 / 2 + (1 + 2 / Math.log2(3)) / ideal2) / 2, 12);
    expect(ndcgAtRelevant(best, [])).toBe(1);
    expect(ndcgAtRelevant(NOTHING, [])).toBe(0);
  });

  it('Rndcg: nDCG where the ideal gain changes (after rank 1 and at the end)', () => {
    const ideal2 = 2 + 1 / Math.log2(3);
    expect(ndcgAtRLevels(reversed, [])).toBeCloseTo((1 / 2 + (1 + 2 / Math.log2(3)) / ideal2) / 2, 12);
    expect(ndcgAtRLevels(NO_RELEVANT, [])).toBe(0);
  });

  it("gains less than 1 apart keep their order (trec_eval's comparator truncates the difference)", () => {
    const table = gainTable(listOf([1], [0, 1, 2]), [
      { level: 1, gain: 0.5 },
      { level: 2, gain: 0.3 },
    ]);
    expect(table.map((entry) => entry.level)).toEqual([1, 2, 0]);
    expect(gainTable(listOf([1], [0, 1, 2]), []).map((entry) => entry.gain)).toEqual([0, 1, 2]);
  });
});

describe('set measures', () => {
  // 1 relevant retrieved of 4 retrieved; R = 3.
  const list = listOf([1, 0, 'x', 'u'], [1, 1, 1, 0]);
  it('set_P, set_recall, set_relative_P, set_map', () => {
    expect(setPrecision(list)).toBe(0.25);
    expect(setRecall(list)).toBeCloseTo(1 / 3, 12);
    expect(setRelativePrecision(list)).toBeCloseTo(1 / 3, 12);
    expect(setAveragePrecision(list)).toBeCloseTo(1 / 12, 12);
  });
  it('set_F with β = 1 and β = 0.5', () => {
    expect(setF(list, 1)).toBeCloseTo(2 / 7, 12);
    expect(setF(list, 0.5)).toBeCloseTo(3 / 11, 12);
  });
  it('nothing retrieved or no relevant: 0 (never NaN)', () => {
    for (const empty of [NOTHING, NO_RELEVANT]) {
      expect(setPrecision(empty)).toBe(0);
      expect(setRecall(empty)).toBe(0);
      expect(setRelativePrecision(empty)).toBe(0);
      expect(setAveragePrecision(empty)).toBe(0);
      expect(setF(empty, 1)).toBe(0);
    }
  });
});

describe('rbp and rbp_resid', () => {
  const binary = listOf([1, 0, 1], [1, 1, 0]);
  it('(1 − p) Σ gain · p^(rank − 1), p at its bounds', () => {
    expect(rankBiasedPrecision(binary, 0.5, [])).toBe(0.5 * (1 + 0.25));
    expect(rankBiasedPrecision(binary, 0.99, [])).toBeCloseTo(0.01 * (1 + 0.9801), 12);
    expect(rankBiasedPrecision(binary, 0.01, [])).toBeCloseTo(0.99 * (1 + 0.0001), 12);
    expect(rankBiasedPrecision(NOTHING, 0.9, [])).toBe(0);
  });
  it('gains outside [0, 1] are rescaled by their minimum and maximum', () => {
    const graded = listOf([2, 0, 1], [0, 1, 2]); // gains 0, 1, 2 → 0, 0.5, 1
    expect(rankBiasedPrecision(graded, 0.5, [])).toBe(0.5 * (1 + 0.25 * 0.5));
    // level 0 → −1: gains −1, 1, 2 → 0, 2/3, 1.
    expect(rankBiasedPrecision(graded, 0.5, [{ level: 0, gain: -1 }])).toBeCloseTo(0.5 * (1 + 0.25 * (2 / 3)), 12);
  });
  it('rbp_resid: p^n + (1 − p) Σ over unjudged ranks of p^(rank − 1); 0 when all are judged', () => {
    expect(rankBiasedResidual(listOf([1, 'x', 'u', 0], [1]), 0.5)).toBe(0.0625 + 0.5 * (0.5 + 0.25));
    expect(rankBiasedResidual(binary, 0.5)).toBe(0);
    expect(rankBiasedResidual(NOTHING, 0.5)).toBe(0);
  });
});

describe('unj, relstring, yaap', () => {
  const list = listOf([1, 'x', 'u', 0], [1]);
  it('unj_k: unjudged in the top k ÷ k, also past the ranking', () => {
    expect(unjudgedAt(list, 2)).toBe(0.5);
    expect(unjudgedAt(list, 4)).toBe(0.5);
    expect(unjudgedAt(list, 10)).toBe(0.2);
    expect(unjudgedAt(NOTHING, 5)).toBe(0);
  });
  it('relstring: grades, - outside the pool, . unjudged, > above 9', () => {
    const ranking = listOf([1, 'x', 'u', 0, 12, 3], [1]);
    expect(relevanceString(ranking, 10)).toBe('1-.0>3');
    expect(relevanceString(ranking, 3)).toBe('1-.');
    expect(relevanceString(ranking, 0)).toBe('');
    expect(relevanceString(NOTHING, 10)).toBe('');
  });
  it('yaap: log((1 + Σ precision at relevant) / (1 + R − that sum))', () => {
    const sum = 1 + 2 / 3;
    expect(yetAnotherAveragePrecision(listOf([1, 0, 1], [1, 1]))).toBeCloseTo(Math.log((1 + sum) / (1 + 2 - sum)), 12);
    expect(yetAnotherAveragePrecision(NO_RELEVANT)).toBe(0);
  });
});

describe('dispatch and missing queries', () => {
  it('listMeasureValue reads each row with its parameters', () => {
    const list = listOf([1, 0, 'x', 'u'], [1, 1, 1, 0]);
    const row = { numbers: [0.5], gains: [], persistence: 0.5 };
    expect(listMeasureValue(list, { ...row, measure: 'set_F' })).toBeCloseTo(3 / 11, 12);
    expect(listMeasureValue(list, { ...row, measure: 'unj', numbers: [4] })).toBe(0.5);
    expect(listMeasureValue(list, { ...row, measure: 'rbp' })).toBe(0.5);
  });
  it('trec_eval zeroes unj always, utility, rbp_resid and relstring under their bare names only', () => {
    expect(['unj_5', 'utility', 'rbp_resid', 'relstring'].every(zeroedWhenMissing)).toBe(true);
    expect(['utility_2,-1,0,0', 'rbp_resid_p=0.5', 'relstring_5', 'rbp', 'set_P'].some(zeroedWhenMissing)).toBe(false);
  });
});
