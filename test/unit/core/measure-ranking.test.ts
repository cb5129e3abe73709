// The metric kernel (src/core/measure-ranking.ts) behind evaluate and evaluateMeasures: the cases where it takes
// a branch the everyday inputs never take — many judged repeats, grades that cannot be counted into
// buckets, unclean Maps, re-entrant calls — checked against numbers worked out by hand, and both
// entry points against a plain reference implementation of every formula on random inputs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate, evaluateMeasures, parseMeasure, planMeasures } from '../../../src/index.js';
import { judgeKeys, loadGrades } from '../../../src/core/judge-keys.js';
import { judgeSpans, loadJudgedSpans, reserveJudgedSpans } from '../../../src/core/judge-spans.js';
import { createMeasureScratch } from '../../../src/core/measure-scratch.js';

const TRACK_EVERY_KEY = { checkKeys: true, trackEveryKey: true, duplicatesError: false };
import { evaluateWithMeasures } from '../../../src/core/evaluate.js';

const measuresOf = (...names: string[]) => names.map(parseMeasure);

describe('evaluateMeasures: judged repeats', () => {
  it('more than 16 judged keys ranked twice: repeats take their slot and gain nothing', () => {
    const ids = Array.from({ length: 20 }, (_, index) => `r${index}`);
    const hits = [...ids, ...ids];
    const expected = { 'precision@20': 1, 'precision@40': 0.5, 'recall@40': 1, map: 1, ndcg: 1, 'ndcg@40': 1 };
    const measures = measuresOf('P@20', 'P@40', 'recall@40', 'map', 'ndcg', 'ndcg@40');
    expect(evaluateMeasures(hits, new Map(ids.map((id) => [id, 1])), measures)).toEqual(expected);
    expect(evaluateMeasures(hits, ids, measures)).toEqual(expected);
  });

  it('an unjudged repeat takes a slot too', () => {
    // u, u, a: the relevant id sits at rank 3.
    expect(evaluateMeasures(['u', 'u', 'a'], ['a'], measuresOf('P@3', 'mrr', 'map'))).toEqual({
      'precision@3': 1 / 3,
      mrr: 1 / 3,
      map: 1 / 3,
    });
  });
});

describe('evaluateMeasures: hits that are not their own keys', () => {
  const errorOf = (action: () => unknown) => {
    try {
      action();
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected an error');
  };

  it('a bad hit ranked below every cutoff is still the error evaluate() gives', () => {
    const hits = ['a', 'b', null] as unknown as string[];
    const fromMeasures = errorOf(() => evaluateMeasures(hits, ['a'], measuresOf('P@1')));
    const fromEvaluate = errorOf(() => evaluate(hits, ['a'], 1));
    expect(fromMeasures).toBeInstanceOf(TypeError);
    expect(fromMeasures.message).toBe(fromEvaluate.message);
    expect(fromMeasures.message).toContain('hits[2]');
  });

  it('a blank string hit is the same error as in evaluate(), a padded one is a key as it is', () => {
    expect(errorOf(() => evaluateMeasures(['a', '  '], ['a'], measuresOf('P@2'))).message).toBe(
      errorOf(() => evaluate(['a', '  '], ['a'], 2)).message,
    );
    expect(evaluateMeasures([' a', 'a'], [' a'], measuresOf('P@1', 'recall@2'))).toEqual({
      'precision@1': 1,
      'recall@2': 1,
    });
  });

  it('object hits are keyed as evaluate() keys them, mixed with string ids', () => {
    const hits = [{ id: 'x' }, 'y', { documentId: 'doc', chunkIndex: 2 }];
    // Relevant: y (rank 2) and doc#chunk-2 (rank 3).
    expect(evaluateMeasures(hits, ['y', 'doc#chunk-2', 'z'], measuresOf('P@3', 'mrr'))).toEqual({
      'precision@3': 2 / 3,
      mrr: 0.5,
    });
  });
});

describe('evaluateMeasures: ideal gains that are not small whole numbers', () => {
  it('decimal grades: nDCG from the sorted gains', () => {
    // DCG = 0.5/log2 2 + 2.5/log2 3 + 1.5/log2 4; ideal = 2.5/log2 2 + 1.5/log2 3 + 0.5/log2 4.
    const grades = new Map([
      ['a', 0.5],
      ['b', 2.5],
      ['c', 1.5],
    ]);
    const values = evaluateMeasures(['a', 'b', 'c'], grades, measuresOf('ndcg', 'ndcg@1', 'P@3', 'recall@3'));
    expect(values.ndcg).toBeCloseTo(0.7648870498590234, 15);
    expect(values['ndcg@1']).toBeCloseTo(0.2, 15); // 0.5 / 2.5
    expect(values['precision@3']).toBeCloseTo(2 / 3, 15); // a (0.5) is below minGrade 1
    expect(values['recall@3']).toBe(1);
  });

  it('exponential gain of grade 7 (2^7 − 1 = 127) next to grade 1', () => {
    // DCG = 1/log2 2 + 127/log2 3; ideal = 127/log2 2 + 1/log2 3.
    const values = evaluateMeasures(['x', 'y'], { x: 1, y: 7 }, measuresOf('ndcg'), { gain: 'exponential' });
    expect(values.ndcg).toBeCloseTo(0.6356459116941042, 15);
  });
});

describe('evaluateMeasures: Maps that need reading first', () => {
  it('a NaN grade in a Map is the same clear error as anywhere else', () => {
    expect(() =>
      evaluateMeasures(
        ['a'],
        new Map([
          ['a', 1],
          ['b', Number.NaN],
        ]),
        measuresOf('P@1'),
      ),
    ).toThrow(/relevant\.get\("b"\) must be a finite grade/);
  });

  it('a blank id in a Map is dropped, a numeric id becomes its string', () => {
    const grades = new Map<unknown, number>([
      ['a', 1],
      ['  ', 1],
      [5, 1],
    ]);
    // Relevant: a and "5" (2); the blank id is not an annotation.
    expect(evaluateMeasures(['5', 'x'], grades as Map<string, number>, measuresOf('recall@2', 'P@1'))).toEqual({
      'recall@2': 0.5,
      'precision@1': 1,
    });
  });

  it('a key function that evaluates another query inside gets both answers right', () => {
    const inner: Record<string, number>[] = [];
    const key = (hit: unknown) => {
      inner.push(
        evaluateMeasures(
          ['z', 'y'],
          new Map([
            ['y', 3],
            ['w', 1],
          ]),
          measuresOf('ndcg@2', 'recall@1'),
        ),
      );
      return (hit as { id: string }).id;
    };
    const outer = evaluateMeasures(
      [{ id: 'a' }, { id: 'b' }],
      new Map([
        ['b', 2],
        ['c', 1],
      ]),
      measuresOf('P@2', 'recall@2', 'mrr'),
      { key },
    );
    expect(outer).toEqual({ 'precision@2': 0.5, 'recall@2': 0.5, mrr: 0.5 });
    // ndcg@2 = (3 / log2 3) / (3 + 1 / log2 3).
    expect(inner[0]?.['ndcg@2']).toBeCloseTo(3 / Math.log2(3) / (3 + 1 / Math.log2(3)), 15);
    expect(inner).toHaveLength(2);
    expect(inner.every((values) => values['recall@1'] === 0)).toBe(true);
  });
});

interface ReferenceOptions {
  k?: number;
  minGrade: number;
  gain: 'linear' | 'exponential';
  applyMinGradeToNdcg: boolean;
  precisionDenominator: 'k' | 'retrieved';
}

/**
 * The measures written the plain way, one at a time, straight from their definitions (trec_eval's):
 * what the kernel must agree with. A repeated hit takes its slot and gains nothing.
 */
function reference(hits: readonly string[], relevant: Readonly<Record<string, number>>, options: ReferenceOptions) {
  const { minGrade, gain } = options;
  const gradeOf = (id: string) => (Object.prototype.hasOwnProperty.call(relevant, id) ? relevant[id] : undefined);
  const seen = new Set<string>();
  // Per rank: the grade of a first sighting of a judged id, else undefined.
  const grades = hits.map((id) => {
    const first = !seen.has(id);
    seen.add(id);
    return first ? gradeOf(id) : undefined;
  });
  const judged = Object.values(relevant);
  const R = judged.filter((grade) => grade >= minGrade).length;
  const N = judged.filter((grade) => grade >= 0 && grade < minGrade).length;
  const k = options.k ?? hits.length;
  const top = grades.slice(0, k);
  const isRelevant = (grade: number | undefined) => grade !== undefined && grade >= minGrade;
  const truePositives = top.filter(isRelevant).length;
  const precisionBase = options.precisionDenominator === 'retrieved' ? top.length : k;
  const precision = precisionBase === 0 ? 0 : truePositives / precisionBase;
  const recall = R === 0 ? 0 : truePositives / R;
  const firstRelevant = top.findIndex(isRelevant);
  let found = 0;
  let precisionSum = 0;
  top.forEach((grade, rank) => {
    if (isRelevant(grade)) precisionSum += ++found / (rank + 1);
  });
  const hasGain = (grade: number) => (options.applyMinGradeToNdcg ? grade >= minGrade : grade > 0);
  const gainOf = (grade: number) => (gain === 'exponential' ? 2 ** grade - 1 : grade);
  const dcg = top.reduce(
    (sum: number, grade, rank) =>
      grade !== undefined && hasGain(grade) ? sum + gainOf(grade) / Math.log2(rank + 2) : sum,
    0,
  );
  const idealGains = judged
    .filter(hasGain)
    .map(gainOf)
    .sort((a, b) => b - a);
  const ideal = idealGains
    .slice(0, options.k ?? idealGains.length)
    .reduce((sum, value, rank) => sum + value / Math.log2(rank + 2), 0);
  let nonRelevantAbove = 0;
  let bprefSum = 0;
  for (const grade of grades) {
    if (isRelevant(grade)) bprefSum += nonRelevantAbove === 0 ? 1 : 1 - Math.min(nonRelevantAbove, R) / Math.min(N, R);
    else if (grade !== undefined && grade >= 0) nonRelevantAbove++;
  }
  return {
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    hit: truePositives > 0 ? 1 : 0,
    mrr: firstRelevant === -1 ? 0 : 1 / (firstRelevant + 1),
    map: R === 0 ? 0 : precisionSum / R,
    ndcg: ideal === 0 ? 0 : dcg / ideal,
    rprec: R === 0 ? 0 : grades.slice(0, R).filter(isRelevant).length / R,
    bpref: R === 0 ? 0 : bprefSum / R,
    // ir_measures' Judged@k: hits with a judgment (a first sighting, any grade) ÷ the hits in the top k.
    judged: top.length === 0 ? 0 : top.filter((grade) => grade !== undefined).length / top.length,
    truePositives,
    R,
  };
}

describe('evaluate() and evaluateMeasures() against a plain reference implementation', () => {
  // Some ids start with a space: they are ids as they are (only blank ids are dropped).
  const docId = fc.integer({ min: 0, max: 25 }).map((n) => (n % 7 === 0 ? ` d${n}` : `d${n}`));
  const grade = fc.oneof(fc.integer({ min: -1, max: 4 }), fc.constantFrom(0.5, 1.5, 7));
  const settings = fc.record({
    minGrade: fc.constantFrom(1, 2),
    gain: fc.constantFrom('linear' as const, 'exponential' as const),
    applyMinGradeToNdcg: fc.boolean(),
    precisionDenominator: fc.constantFrom('k' as const, 'retrieved' as const),
  });
  const names = ['hit', 'precision', 'recall', 'f1', 'mrr', 'ndcg', 'map', 'judged'] as const;
  const field = {
    hit: 'hitAtK',
    precision: 'precisionAtK',
    recall: 'recallAtK',
    f1: 'f1AtK',
    mrr: 'reciprocalRankAtK',
    ndcg: 'ndcgAtK',
    map: 'averagePrecisionAtK',
    judged: 'judgedAtK',
  } as const;
  const close = (actual: number | undefined, expected: number, what: string) =>
    expect(Math.abs((actual as number) - expected), what).toBeLessThanOrEqual(1e-12);

  it('evaluate(): every measure and count, with repeats, any grades and every option', () => {
    fc.assert(
      fc.property(
        fc.array(docId, { maxLength: 30 }),
        fc.dictionary(docId, grade, { maxKeys: 20 }),
        settings,
        fc.option(fc.integer({ min: 1, max: 35 }), { nil: undefined }),
        fc.boolean(),
        (hits, relevant, options, k, asMap) => {
          const expected = reference(hits, relevant, { ...options, k });
          const actual = evaluate(hits, asMap ? new Map(Object.entries(relevant)) : relevant, { ...options, k });
          for (const name of names) close(actual[field[name]], expected[name], name);
          close(actual.rPrecision, expected.rprec, 'rprec');
          close(actual.bpref, expected.bpref, 'bpref');
          expect(actual.truePositiveCount).toBe(expected.truePositives);
          expect(actual.relevantCount).toBe(expected.R);
          expect(actual.duplicateCount).toBe(hits.length - new Set(hits).size);
          expect(actual.unmatchedRelevantIds).toEqual(
            Object.keys(relevant).filter((id) => (relevant[id] as number) >= options.minGrade && !hits.includes(id)),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('evaluateMeasures(): every measure at every cutoff in one plan', () => {
    fc.assert(
      fc.property(
        fc.array(docId, { maxLength: 30 }),
        fc.dictionary(docId, grade, { maxKeys: 20 }),
        settings,
        fc.uniqueArray(fc.integer({ min: 1, max: 35 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (hits, relevant, options, cutoffs, asMap) => {
          const measures = [
            ...cutoffs.flatMap((k) => names.map((name) => ({ name, k }))),
            { name: 'rprec' as const },
            { name: 'bpref' as const },
            { name: 'ndcg' as const },
            { name: 'map' as const },
            { name: 'judged' as const },
          ];
          const values = evaluateMeasures(
            hits,
            asMap ? new Map(Object.entries(relevant)) : relevant,
            planMeasures(measures),
            options,
          );
          for (const k of cutoffs) {
            const expected = reference(hits, relevant, { ...options, k });
            for (const name of names) close(values[`${name}@${k}`], expected[name], `${name}@${k}`);
          }
          const uncut = reference(hits, relevant, options);
          close(values.rprec, uncut.rprec, 'rprec');
          close(values.bpref, uncut.bpref, 'bpref');
          close(values.ndcg, uncut.ndcg, 'ndcg');
          close(values.map, uncut.map, 'map');
          close(values.judged, uncut.judged, 'judged');
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('a plan and evaluate() give the very same number', () => {
  // A matcher asserting a measure the question's declared plan already measured (from the same hits,
  // judgments and options) takes the plan's value: its verdict must be the one evaluate() would give.
  const docId = fc.integer({ min: 0, max: 25 }).map((n) => `d${n}`);
  const grade = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom(0.5, 1.5, 7));
  const cutNames = ['hit', 'precision', 'recall', 'f1', 'ndcg', 'mrr', 'map'] as const;
  const uncutNames = ['ndcg', 'mrr', 'map', 'rprec'] as const;

  it('bit for bit, at every cutoff and uncut, for every measure a metric matcher asserts', () => {
    fc.assert(
      fc.property(
        fc.array(docId, { maxLength: 30 }),
        fc.dictionary(docId, grade, { minKeys: 1, maxKeys: 20 }),
        fc.integer({ min: 1, max: 35 }),
        fc.constantFrom(1, 2),
        (hits, relevant, k, minGrade) => {
          if (!Object.values(relevant).some((value) => value >= minGrade)) return;
          const names = [...cutNames.map((name) => `${name}@${k}`), ...uncutNames];
          const planned = evaluateMeasures(hits, relevant, planMeasures(names.map(parseMeasure)), { minGrade });
          const atK = evaluate(hits, relevant, { k, minGrade }).values;
          for (const name of cutNames) expect(Object.is(planned[`${name}@${k}`], atK[name]), `${name}@${k}`).toBe(true);
          const uncut = evaluate(hits, relevant, { minGrade }).values;
          for (const name of uncutNames) expect(Object.is(planned[name], uncut[name]), name).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('large queries (the key table grows past its first size)', () => {
  it('3,000 hits with repeats and 700 judgments agree with the reference, twice in a row', () => {
    let seed = 11;
    const next = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    const hits = Array.from({ length: 3000 }, () => `doc-${next(2500)}`);
    const relevant: Record<string, number> = {};
    for (let index = 0; index < 700; index++) relevant[`doc-${next(2500)}`] = next(5) - 1;
    const options = {
      minGrade: 1,
      gain: 'linear' as const,
      applyMinGradeToNdcg: false,
      precisionDenominator: 'k' as const,
    };
    for (let round = 0; round < 2; round++) {
      const expected = reference(hits, relevant, { ...options, k: 1000 });
      const actual = evaluate(hits, new Map(Object.entries(relevant)), { k: 1000 });
      expect(actual.averagePrecisionAtK).toBeCloseTo(expected.map, 12);
      expect(actual.ndcgAtK).toBeCloseTo(expected.ndcg, 12);
      expect(actual.bpref).toBeCloseTo(expected.bpref, 12);
      expect(actual.truePositiveCount).toBe(expected.truePositives);
      expect(actual.duplicateCount).toBe(hits.length - new Set(hits).size);
      expect(actual.unmatchedRelevantIds).toEqual(
        Object.keys(relevant).filter((id) => (relevant[id] as number) >= 1 && !hits.includes(id)),
      );
    }
  });
});

describe('ids that differ only where the sampled hash does not look', () => {
  // Same length, same first, middle and last four characters: the key table's sampled hash cannot tell
  // them apart, so every one lands on the same probe sequence until the table hashes every character.
  const collidingIds = (count: number) =>
    Array.from({ length: count }, (_, index) => `x${String(index).padStart(4, '0')}${'y'.repeat(20)}tail`);

  it('evaluate() still finds every judged id, repeat and unmatched id', () => {
    const ids = collidingIds(120);
    // Ranks 1–100 are ids 0–99, then id 0 and id 5 again; ids 0, 2, 4 and 110 are relevant, id 1 judged 0.
    const hits = [...ids.slice(0, 100), ids[0], ids[5]] as string[];
    const relevant = new Map<string, number>([
      [ids[0] as string, 1],
      [ids[1] as string, 0],
      [ids[2] as string, 2],
      [ids[4] as string, 1],
      [ids[110] as string, 1],
    ]);
    for (const judgments of [relevant, Object.fromEntries(relevant)]) {
      const result = evaluate(hits, judgments, 10);
      expect(result.truePositiveCount).toBe(3);
      expect(result.relevantCount).toBe(4);
      expect(result.precisionAtK).toBe(0.3);
      expect(result.recallAtK).toBe(0.75);
      expect(result.reciprocalRankAtK).toBe(1);
      // AP@10: (1/1 + 2/3 + 3/5) / 4.
      expect(result.averagePrecisionAtK).toBeCloseTo((1 + 2 / 3 + 3 / 5) / 4, 12);
      expect(result.duplicateCount).toBe(2);
      expect(result.unmatchedRelevantIds).toEqual([ids[110]]);
    }
  });

  it('many colliding judgments: the table switches to hashing every character while loading them', () => {
    const scratch = createMeasureScratch();
    const ids = collidingIds(60);
    expect(scratch.keys.fullHash).toBe(false);
    expect(loadGrades(scratch, new Map(ids.map((id) => [id, 1])), 'map')).toBe('done');
    expect(scratch.keys.count).toBe(60);
    expect(scratch.keys.fullHash).toBe(true);
    expect(judgeKeys(scratch, [ids[59], 'other', ids[0], ids[59]], 4, TRACK_EVERY_KEY)).toBe('done');
    expect(scratch.duplicateCount).toBe(1);
    expect(Array.from(scratch.foundRanks.subarray(0, scratch.foundCount))).toEqual([0, 2]);
  });

  it('an array of ids is read in place: a repeated id counts once, and colliding ids switch to the full hash', () => {
    const scratch = createMeasureScratch();
    const ids = collidingIds(60);
    expect(loadGrades(scratch, [...ids, ids[0], ids[30]], 'ids')).toBe('done');
    expect(scratch.keys.count).toBe(60);
    expect(scratch.keys.fullHash).toBe(true);
    expect(Array.from(scratch.judgedGrades.subarray(0, 60))).toEqual(new Array<number>(60).fill(1));
    expect(judgeKeys(scratch, [ids[59], 'other', ids[0]], 3, TRACK_EVERY_KEY)).toBe('done');
    expect(scratch.duplicateCount).toBe(0);
    expect(Array.from(scratch.foundRanks.subarray(0, scratch.foundCount))).toEqual([0, 2]);
  });

  it('an array of ids with a blank or non-string id is left to readJudgedGrades (notPlainKeys)', () => {
    const scratch = createMeasureScratch();
    expect(loadGrades(scratch, ['a', ' '], 'ids')).toBe('notPlainKeys');
    expect(loadGrades(scratch, ['a', 7], 'ids')).toBe('notPlainKeys');
  });

  it('a Set of ids is read in place too: grade 1 each, in insertion order, with the same fallbacks', () => {
    const scratch = createMeasureScratch();
    const ids = collidingIds(60);
    expect(loadGrades(scratch, new Set(ids), 'idSet')).toBe('done');
    expect(scratch.keys.count).toBe(60);
    expect(scratch.keys.fullHash).toBe(true);
    expect(Array.from(scratch.judgedGrades.subarray(0, 60))).toEqual(new Array<number>(60).fill(1));
    expect(judgeKeys(scratch, [ids[7], ids[3]], 2, TRACK_EVERY_KEY)).toBe('done');
    expect(scratch.duplicateCount).toBe(0);
    expect(Array.from(scratch.foundRanks.subarray(0, scratch.foundCount))).toEqual([0, 1]);
    expect(loadGrades(scratch, new Set(['a', '']), 'idSet')).toBe('notPlainKeys');
    expect(loadGrades(scratch, new Set(['a', null]), 'idSet')).toBe('notPlainKeys');
    expect(evaluate(['x', 'z', 'y'], new Set(['y', 'w', 'x', 'v']), 3).unmatchedRelevantIds).toEqual(['w', 'v']);
  });

  it('many colliding hits: judging stops, asks for the grades again, and then finds them', () => {
    const scratch = createMeasureScratch();
    const ids = collidingIds(60);
    const judgments = new Map([[ids[40] as string, 2]]);
    expect(loadGrades(scratch, judgments, 'map')).toBe('done');
    expect(scratch.keys.count).toBe(1);
    expect(judgeKeys(scratch, ids, ids.length, TRACK_EVERY_KEY)).toBe('rehashed');
    expect(scratch.keys.fullHash).toBe(true);
    expect(loadGrades(scratch, judgments, 'map')).toBe('done');
    expect(scratch.keys.count).toBe(1);
    expect(judgeKeys(scratch, [...ids, ids[3]], ids.length + 1, TRACK_EVERY_KEY)).toBe('done');
    expect(scratch.duplicateCount).toBe(1);
    expect(scratch.foundCount).toBe(1);
    expect(scratch.foundRanks[0]).toBe(40);
    expect(scratch.foundGrades[0]).toBe(2);
  });
});

describe('evaluateWithMeasures: evaluate() and a plan from one judging of the hits', () => {
  it('gives the hand-worked values of both: hits a, x, b, c against a (2), b (1), d (1)', () => {
    // evaluate at k = 2: a found at rank 1 of 3 relevant → precision 1/2, recall 1/3, mrr 1. The plan:
    // recall@3 (a, b) = 2/3; P@1 = 1; ndcg@2: DCG 2 / log2 2 = 2, ideal 2 + 1/log2 3 = 2.6309 → 0.7602.
    const plan = planMeasures(measuresOf('recall@3', 'P@1', 'ndcg@2'));
    const relevant = new Map([
      ['a', 2],
      ['b', 1],
      ['d', 1],
    ]);
    const { evaluation, values } = evaluateWithMeasures(['a', 'x', 'b', 'c'], relevant, 2, plan);
    expect(evaluation).toMatchObject({
      k: 2,
      precisionAtK: 0.5,
      recallAtK: 1 / 3,
      reciprocalRankAtK: 1,
      unmatchedRelevantIds: ['d'],
    });
    expect(values['recall@3']).toBeCloseTo(2 / 3, 12);
    expect(values['precision@1']).toBe(1);
    expect(values['ndcg@2']).toBeCloseTo(2 / (2 + 1 / Math.log2(3)), 12);
  });

  it('property: equals evaluate() and evaluateMeasures() called one after the other', () => {
    const plan = planMeasures(
      measuresOf('P@1', 'P@5', 'recall@3', 'recall@10', 'ndcg', 'ndcg@5', 'map', 'mrr', 'rprec', 'hit@2', 'bpref'),
    );
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 12 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'h'), fc.integer({ min: -1, max: 3 })),
        fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
        (hits, relevant, k) => {
          const both = evaluateWithMeasures(hits, relevant, k, plan);
          expect(both.evaluation).toEqual(evaluate(hits, relevant, k));
          expect(both.values).toEqual(evaluateMeasures(hits, relevant, plan));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('judging spans (trec-eval): the same key table, keys never cut out of their text', () => {
  /** Judged ids as spans of one qrels-like text, with their grades. */
  function loadSpans(scratch: ReturnType<typeof createMeasureScratch>, text: string, grades: number[], kept: number) {
    const ids = text.split(' ');
    const spans = reserveJudgedSpans(scratch, ids.length);
    let start = 0;
    ids.forEach((id, index) => {
      spans.texts[index] = text;
      spans.starts[index] = start;
      spans.ends[index] = start + id.length;
      scratch.judgedGrades[index] = grades[index] as number;
      start += id.length + 1;
    });
    return loadJudgedSpans(scratch, ids.length, kept);
  }
  /** A run text of space-separated ids, as docStart/docEnd columns. */
  function runOf(text: string) {
    const ids = text.split(' ');
    const docStart = new Int32Array(ids.length);
    const docEnd = new Int32Array(ids.length);
    let start = 0;
    ids.forEach((id, index) => {
      docStart[index] = start;
      docEnd[index] = start + id.length;
      start += id.length + 1;
    });
    return { docStart, docEnd };
  }

  it('finds the judged ids by rank, with their grades, from spans of two different texts', () => {
    const scratch = createMeasureScratch();
    expect(loadSpans(scratch, 'd1 d2 d3', [2, 0, 1], 4)).toBe(-1);
    const runText = 'd9 d3 d1 d7';
    const { docStart, docEnd } = runOf(runText);
    // Ranked order: entries 2, 0, 1, 3 → d1 (rank 0), d9 (1), d3 (2), d7 (3).
    expect(judgeSpans(scratch, runText, docStart, docEnd, [2, 0, 1, 3], 4)).toBe(-1);
    expect(Array.from(scratch.foundRanks.subarray(0, scratch.foundCount))).toEqual([0, 2]);
    expect(Array.from(scratch.foundGrades.subarray(0, scratch.foundCount))).toEqual([2, 1]);
  });

  it('a repeated judged id is the index of the repeat; a repeated kept id (judged or not) is its rank', () => {
    const scratch = createMeasureScratch();
    expect(loadSpans(scratch, 'a b a', [1, 1, 0], 0)).toBe(2);
    expect(loadSpans(scratch, 'a b', [1, 0], 4)).toBe(-1);
    const unjudged = runOf('x y x');
    expect(judgeSpans(scratch, 'x y x', unjudged.docStart, unjudged.docEnd, [0, 1, 2], 3)).toBe(2);
    expect(loadSpans(scratch, 'a b', [1, 0], 4)).toBe(-1);
    const judged = runOf('a y a');
    expect(judgeSpans(scratch, 'a y a', judged.docStart, judged.docEnd, [0, 1, 2], 3)).toBe(2);
    // Only the kept ranks count: the repeat at rank 2 is beyond two.
    expect(loadSpans(scratch, 'a b', [1, 0], 2)).toBe(-1);
    expect(judgeSpans(scratch, 'a y a', judged.docStart, judged.docEnd, [0, 1, 2], 2)).toBe(-1);
    expect(scratch.foundCount).toBe(1);
  });
});
