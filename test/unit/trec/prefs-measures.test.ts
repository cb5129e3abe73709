// trec_eval's preference measures (src/trec/eval/prefs-*.ts) on hand-worked judgments, edge cases
// first: nothing judged ranked, one ranked document over an unranked one, a preference that only
// follows transitively, a group whose preferences contradict. Every expected value is worked out in the
// comments from the definitions (trec_eval 10's form_prefs_counts.c and m_prefs_*.c), never by the code.
import { describe, expect, it } from 'vitest';
import { TrecEvalStop } from '../../../src/trec/errors.js';
import { countPreferences } from '../../../src/trec/eval/prefs-counts.js';
import { PREFERENCE_MEASURES, preferenceValue } from '../../../src/trec/eval/prefs-measures.js';
import { parsePreferences, type PreferenceJudgment } from '../../../src/trec/eval/prefs-read.js';

function judge(group: string, subGroup: string, docId: string, level: number): PreferenceJudgment {
  return { group, subGroup, docId, level };
}

function valuesOf(judgments: readonly PreferenceJudgment[], ranked: readonly string[]): Record<string, number> {
  const counts = countPreferences('q', judgments, ranked);
  return Object.fromEntries(PREFERENCE_MEASURES.map((measure) => [measure, preferenceValue(measure, counts)]));
}

// One group, one sub-group: d1 (2) > d2 (1) > d3 (0): three preferences, d1>d2, d1>d3, d2>d3.
const graded = [judge('g', '0', 'd1', 2), judge('g', '0', 'd2', 1), judge('g', '0', 'd3', 0)];

describe('simple preference measures', () => {
  it('nothing judged ranked: every preference is possible, none fulfilled, none ranked or implied', () => {
    const values = valuesOf(graded, ['x', 'y']);
    expect(values.prefs_num_prefs_poss).toBe(3);
    expect(values.prefs_num_prefs_ful).toBe(0);
    expect(values.prefs_num_prefs_ful_ret).toBe(0);
    expect(values.prefs_simp).toBe(0);
    // No ranked or implied preference: 0 ÷ 0 is left at 0, as trec_eval leaves it.
    expect(values.prefs_simp_ret).toBe(0);
    expect(values.prefs_simp_imp).toBe(0);
    // Three pairs, each of two unranked documents: each scores 0.
    expect(values.prefs_pair).toBe(0);
    expect(values.prefs_avgjg).toBe(0);
  });

  it('d2 ranked over d1, d3 unranked: one ranked preference failed, two implied ones fulfilled', () => {
    // Indices: d2 0, d1 1 (ranked), d3 2. d1>d2 ranked and failed; d1>d3 and d2>d3 implied, fulfilled.
    const values = valuesOf(graded, ['d2', 'd1', 'x']);
    expect(values.prefs_num_prefs_poss).toBe(3);
    expect(values.prefs_num_prefs_ful).toBe(2);
    expect(values.prefs_num_prefs_ful_ret).toBe(0);
    expect(values.prefs_simp).toBeCloseTo(2 / 3, 12);
    expect(values.prefs_simp_ret).toBe(0); // 0 of 1 ranked
    expect(values.prefs_simp_imp).toBeCloseTo(2 / 3, 12);
    expect(values.prefs_avgjg).toBeCloseTo(2 / 3, 12); // one group
    // Pairs (d2,d1) 0/1, (d2,d3) 1/1, (d1,d3) 1/1.
    expect(values.prefs_pair).toBeCloseTo(2 / 3, 12);
    expect(values.prefs_pair_ret).toBe(0); // only (d2,d1)
    expect(values.prefs_pair_imp).toBeCloseTo(2 / 3, 12);
    // R = 2 relevant (d1, d2), N = 1 non-relevant: add R·(R − N) = 2 possible, relevant ranked·(R − N) = 2
    // fulfilled: (2 + 2) / (3 + 2).
    expect(values.prefs_avgjg_Rnonrel).toBeCloseTo(0.8, 12);
    // _ret: R = 2 ranked relevant, N = 0 ranked non-relevant: (0 + 2·2) / (1 + 2·2).
    expect(values.prefs_avgjg_Rnonrel_ret).toBeCloseTo(0.8, 12);
  });

  it('the ranking in preference order fulfils every preference', () => {
    const values = valuesOf(graded, ['d1', 'd2', 'd3']);
    expect(values.prefs_num_prefs_ful_ret).toBe(3);
    expect(values.prefs_simp).toBe(1);
    expect(values.prefs_pair_ret).toBe(1);
  });

  it('a ranking of the preferred document alone fulfils its two preferences by implication', () => {
    const values = valuesOf(graded, ['d1']);
    expect(values.prefs_num_prefs_ful).toBe(2); // d1>d2 and d1>d3, implied
    expect(values.prefs_num_prefs_ful_ret).toBe(0);
    expect(values.prefs_simp).toBeCloseTo(2 / 3, 12); // d2>d3 does not occur: a failure
    expect(values.prefs_simp_imp).toBe(1); // … and is left out here
  });
});

describe('groups of several sub-groups', () => {
  // Sub-group a: d1 > d2; sub-group b: d2 > d3. Transitively d1 > d3: three preferences.
  const chained = [
    judge('g', 'a', 'd1', 3),
    judge('g', 'a', 'd2', 2),
    judge('g', 'b', 'd2', 5),
    judge('g', 'b', 'd3', 4),
  ];

  it('count the preference that only follows transitively', () => {
    expect(valuesOf(chained, ['d3', 'd2', 'd1']).prefs_num_prefs_poss).toBe(3);
    expect(valuesOf(chained, ['d3', 'd2', 'd1']).prefs_num_prefs_ful).toBe(0);
    expect(valuesOf(chained, ['d1', 'd2', 'd3']).prefs_num_prefs_ful_ret).toBe(3);
  });

  it('two groups: prefs_avgjg averages the groups, prefs_simp pools their preferences', () => {
    // Group g: 3 preferences, all fulfilled by d1 d2 d3. Group h: d3 (1) > d1 (0), failed.
    const judgments = [...chained, judge('h', 'x', 'd3', 1), judge('h', 'x', 'd1', 0)];
    const values = valuesOf(judgments, ['d1', 'd2', 'd3']);
    expect(values.prefs_simp).toBe(3 / 4);
    expect(values.prefs_avgjg).toBe((1 + 0) / 2);
    // Pairs: (d1,d2) 1/1, (d2,d3) 1/1, (d1,d3) g says d1>d3, h says d3>d1: 1/2. Mean (1 + 1 + 0.5) / 3.
    expect(values.prefs_pair).toBeCloseTo(2.5 / 3, 12);
  });

  it('contradicting preferences within one group stop the query (trec_eval aborts)', () => {
    const cycle = [
      judge('g', 'a', 'd1', 2),
      judge('g', 'a', 'd2', 1),
      judge('g', 'b', 'd2', 2),
      judge('g', 'b', 'd1', 1),
    ];
    expect(() => countPreferences('q', cycle, ['d1'])).toThrow(TrecEvalStop);
  });
});

describe('reading preference files', () => {
  it('reads both formats, skips comment lines and orders queries by byte order of id', () => {
    const prefs = parsePreferences('# comment\nq2 g s d1 2\nq10 g s d2 1.5\n', 'p', 'prefs');
    expect([...prefs.keys()]).toEqual(['q10', 'q2']);
    expect(prefs.get('q10')).toEqual([{ group: 'g', subGroup: 's', docId: 'd2', level: 1.5 }]);
    const qrels = parsePreferences('q1 0 d1 1\n', 'p', 'qrels_prefs');
    expect(qrels.get('q1')).toEqual([{ group: '0', subGroup: '0', docId: 'd1', level: 1 }]);
  });

  it('names the file, line and problem of a line it cannot read', () => {
    expect(() => parsePreferences('q1 g s d1\n', 'p.txt', 'prefs')).toThrow(
      /p\.txt:1: expected 5 columns \(qid jg jsg docno level\), found 4/,
    );
    expect(() => parsePreferences('q1 g d1 high\n', 'p.txt', 'qrels_prefs')).toThrow(/level 'high' is not a number/);
    expect(() => parsePreferences('q1 g s d1 1\n\n', 'p.txt', 'prefs')).toThrow(/p\.txt:2: expected 5 columns/);
  });
});
