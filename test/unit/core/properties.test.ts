// Invariants of the measures, checked on random rankings (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../src/index.js';

const docId = fc.integer({ min: 0, max: 30 }).map((n) => `d${n}`);
const ranking = fc.array(docId, { maxLength: 25 });
const uniqueRanking = fc.uniqueArray(docId, { maxLength: 25 });
const gradedJudgments = fc.dictionary(docId, fc.integer({ min: 0, max: 3 }), { maxKeys: 15 });
const cutoff = fc.integer({ min: 1, max: 30 });
const MEASURES = [
  'precisionAtK',
  'recallAtK',
  'f1AtK',
  'hitAtK',
  'reciprocalRankAtK',
  'ndcgAtK',
  'averagePrecisionAtK',
  'rPrecision',
  'bpref',
  'judgedAtK',
] as const;

describe('metric invariants', () => {
  it('every measure lies in [0, 1] and is never NaN', () => {
    fc.assert(
      fc.property(
        ranking,
        gradedJudgments,
        cutoff,
        fc.constantFrom('linear', 'exponential' as const),
        (hits, relevant, k, gain) => {
          const result = evaluate(hits, relevant, { k, gain });
          for (const measure of MEASURES) {
            expect(result[measure]).toBeGreaterThanOrEqual(0);
            expect(result[measure]).toBeLessThanOrEqual(1 + 1e-12);
          }
        },
      ),
    );
  });

  it('hit@k and recall@k never decrease as k grows', () => {
    fc.assert(
      fc.property(ranking, gradedJudgments, cutoff, (hits, relevant, k) => {
        const smaller = evaluate(hits, relevant, k);
        const larger = evaluate(hits, relevant, k + 1);
        expect(larger.hitAtK).toBeGreaterThanOrEqual(smaller.hitAtK);
        expect(larger.recallAtK).toBeGreaterThanOrEqual(smaller.recallAtK);
      }),
    );
  });

  it('the ideal ordering gives nDCG = 1 and AP = 1', () => {
    fc.assert(
      fc.property(gradedJudgments, (relevant) => {
        const ideal = Object.entries(relevant)
          .filter(([, grade]) => grade > 0)
          .sort((a, b) => b[1] - a[1])
          .map(([id]) => id);
        fc.pre(ideal.length > 0);
        const result = evaluate(ideal, relevant);
        expect(result.ndcgAtK).toBeCloseTo(1, 12);
        expect(result.averagePrecisionAtK).toBeCloseTo(1, 12);
        expect(result.rPrecision).toBe(1);
        expect(result.bpref).toBe(1);
      }),
    );
  });

  it('duplicates never raise a value', () => {
    fc.assert(
      fc.property(uniqueRanking, gradedJudgments, cutoff, fc.nat(), fc.nat(), (hits, relevant, k, from, to) => {
        fc.pre(hits.length > 0);
        // a repeat comes after the hit it repeats (placed before it, it would be the first occurrence)
        const original = from % hits.length;
        const repeated = [...hits];
        repeated.splice(original + 1 + (to % (hits.length - original)), 0, hits[original] as string);
        const clean = evaluate(hits, relevant, k);
        const withRepeat = evaluate(repeated, relevant, k);
        for (const measure of MEASURES) expect(withRepeat[measure]).toBeLessThanOrEqual(clean[measure] + 1e-12);
      }),
    );
  });

  it('judged@k: 1 when every hit is judged (whatever its grade), and never below precision@k', () => {
    fc.assert(
      fc.property(uniqueRanking, fc.array(fc.integer({ min: -1, max: 3 })), cutoff, (hits, grades, k) => {
        fc.pre(hits.length > 0);
        const everyHitJudged = Object.fromEntries(hits.map((id, index) => [id, grades[index] ?? 0]));
        expect(evaluate(hits, everyHitJudged, k).judgedAtK).toBe(1);
      }),
    );
    fc.assert(
      fc.property(ranking, gradedJudgments, cutoff, (hits, relevant, k) => {
        // A relevant hit is a judged one, and precision divides by k ≥ min(k, hits).
        const result = evaluate(hits, relevant, k);
        expect(result.judgedAtK).toBeGreaterThanOrEqual(result.precisionAtK);
      }),
    );
  });

  it('reordering inside the top k leaves precision@k and recall@k unchanged', () => {
    fc.assert(
      fc.property(uniqueRanking, gradedJudgments, cutoff, (hits, relevant, k) => {
        const top = hits.slice(0, k).reverse();
        const shuffled = [...top, ...hits.slice(k)];
        const before = evaluate(hits, relevant, k);
        const after = evaluate(shuffled, relevant, k);
        expect(after.precisionAtK).toBe(before.precisionAtK);
        expect(after.recallAtK).toBe(before.recallAtK);
      }),
    );
  });

  it("granularity 'document' equals evaluating the de-duplicated document list", () => {
    const chunkHit = fc.record({
      documentId: fc.integer({ min: 0, max: 12 }).map((n) => `doc-${n}`),
      chunkIndex: fc.integer({ min: 0, max: 4 }),
    });
    const documentJudgments = fc.dictionary(
      fc.integer({ min: 0, max: 12 }).map((n) => `doc-${n}`),
      fc.integer({ min: 0, max: 3 }),
      { maxKeys: 8 },
    );
    fc.assert(
      fc.property(fc.array(chunkHit, { maxLength: 30 }), documentJudgments, cutoff, (hits, relevant, k) => {
        const documents: string[] = [];
        for (const hit of hits) if (!documents.includes(hit.documentId)) documents.push(hit.documentId);
        expect(evaluate(hits, relevant, { k, granularity: 'document' })).toEqual(evaluate(documents, relevant, k));
      }),
    );
  });
});
