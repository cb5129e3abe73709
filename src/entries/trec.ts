// `rag-matchers/trec`: runs and qrels on disk — the TREC readers and writers and the columnar run for
// millions of lines (src/trec's barrel, all of it), the JSON Lines runs, the trec_eval ranking rule,
// and the atomic file write they use.
export * from '../trec/index.js';
export {
  rankTrecRun,
  parseRunJsonl,
  readRunJsonlFile,
  formatRunJsonl,
  formatEvalSetJsonl,
  toQrels,
  fromQrels,
  type JsonlRun,
} from '../dataset/index.js';
export { writeFileAtomic, writeFileAtomicSync } from '../files/atomic-write.js';
