/**
 * The measure flags the conformance fixtures were produced with (test/fixtures/conformance/README.md):
 * every test that compares `trec-eval`'s output with those files passes exactly these.
 */
export const CONFORMANCE_MEASURES: readonly string[] = [
  'P.1,3,5,10',
  'recall.1,3,5,10,100',
  'map',
  'map_cut.5,10',
  'ndcg',
  'ndcg_cut.5,10',
  'recip_rank',
  'Rprec',
  'success.1,5,10',
  'num_rel_ret',
  'num_ret',
  'num_rel',
].flatMap((measure) => ['-m', measure]);
