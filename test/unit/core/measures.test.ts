import { describe, expect, it } from 'vitest';
import { formatMeasure, parseMeasure } from '../../../src/index.js';

describe('parseMeasure / formatMeasure', () => {
  it.each([
    ['hit@3', 'hit@3'],
    ['precision@5', 'precision@5'],
    ['recall@10', 'recall@10'],
    ['f1@5', 'f1@5'],
    ['mrr', 'mrr'],
    ['mrr@10', 'mrr@10'],
    ['ndcg', 'ndcg'],
    ['ndcg@10', 'ndcg@10'],
    ['map', 'map'],
    ['map@10', 'map@10'],
    ['rprec', 'rprec'],
    ['judged', 'judged'],
    ['judged@10', 'judged@10'],
    // ir_measures
    ['P@5', 'precision@5'],
    ['R@10', 'recall@10'],
    ['RR', 'mrr'],
    ['RR@10', 'mrr@10'],
    ['nDCG@10', 'ndcg@10'],
    ['AP', 'map'],
    ['AP@10', 'map@10'],
    ['Success@5', 'hit@5'],
    ['Rprec', 'rprec'],
    ['Judged@10', 'judged@10'],
    ['Judged', 'judged'],
    // trec_eval
    ['P_5', 'precision@5'],
    ['P.5', 'precision@5'],
    ['recall_10', 'recall@10'],
    ['ndcg_cut_10', 'ndcg@10'],
    ['ndcg_cut.10', 'ndcg@10'],
    ['map_cut_10', 'map@10'],
    ['recip_rank', 'mrr'],
    ['success_5', 'hit@5'],
    // trec_eval has no judged measure; its cutoff separators are read for every name.
    ['JUDGED_5', 'judged@5'],
    ['judged.3', 'judged@3'],
  ])('%s → %s', (input, canonical) => {
    expect(formatMeasure(parseMeasure(input))).toBe(canonical);
  });

  it('keeps the cutoff as a number', () => {
    expect(parseMeasure('nDCG@10')).toEqual({ name: 'ndcg', k: 10 });
    expect(parseMeasure('ndcg')).toEqual({ name: 'ndcg' });
  });

  it.each(['bleu', 'recall', 'P', 'ndcg_cut', 'recall@0', 'recall@x', 'rprec@5', 'P@2.5', ''])(
    'rejects %j listing the valid forms',
    (input) => {
      expect(() => parseMeasure(input)).toThrow(RangeError);
      expect(() => parseMeasure(input)).toThrow(/Valid forms: hit@k, precision@k, recall@k/);
    },
  );

  it('says why a measure takes no cutoff', () => {
    expect(() => parseMeasure('rprec@5')).toThrow(
      'measure "rprec@5" is not valid: rprec takes no cutoff (its cutoff is the number of relevant ids).',
    );
    expect(() => parseMeasure('Bpref@10')).toThrow('bpref takes no cutoff (trec_eval defines it over the whole list).');
  });

  it("rbp takes its persistence after '@' (0 < p < 1; rbp alone is p = 0.9), infap no cutoff", () => {
    expect(parseMeasure('rbp@0.8')).toEqual({ name: 'rbp', k: 0.8 });
    expect(parseMeasure('RBP')).toEqual({ name: 'rbp' });
    expect(parseMeasure('infAP')).toEqual({ name: 'infap' });
    for (const bad of ['rbp@1', 'rbp@0', 'rbp@1.5', 'rbp@x'])
      expect(() => parseMeasure(bad)).toThrow(
        /rbp's persistence p ".*" must be a number between 0 and 1 \(exclusive\), e\.g\. rbp@0\.8; rbp alone is rbp@0\.9/,
      );
    expect(() => parseMeasure('infap@10')).toThrow('infap takes no cutoff (trec_eval defines it over the whole list)');
  });

  it('lists every valid form, in the order of the measure table', () => {
    expect(() => parseMeasure('bleu')).toThrow(
      'measure "bleu" is not valid: unknown measure "bleu". Valid forms: ' +
        'hit@k, precision@k, recall@k, f1@k, mrr, mrr@k, ndcg, ndcg@k, map, map@k, rprec, bpref, judged, judged@k, ' +
        'capped_recall@k, infap, rbp, rbp@p (also ir_measures Success@5, P@5, R@10, RR, RR@10, nDCG@10, AP, AP@10, Rprec, Bpref, Judged@10, ' +
        'and trec_eval success_5, P_5, P.5, recall_10, recip_rank, ndcg_cut_10, ndcg_cut.10, map_cut_10, Rprec, bpref, ' +
        'relative_P_5, relative_P.5, infAP, rbp).',
    );
  });
});
