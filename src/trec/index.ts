// The TREC module's public part, listed once: the readers and writers of qrels and runs, the columnar
// run, and the format error. `rag-matchers/trec` (src/entries/trec.ts) exports all of it. The
// trec-eval engine is in ./eval/ (its barrel ./eval/index.ts, used by the CLI's `trec-eval`); the
// columns, grouper and grammar are internals, imported by path.
export {
  parseQrels,
  readQrelsFile,
  parseRun,
  readRunFile,
  parseRunColumns,
  readRunColumnsFile,
  runColumnDocId,
  runFromColumns,
  streamRunByQuery,
  type Qrels,
  type RunEntry,
  type TrecRun,
  type TrecRunColumns,
  type TrecParseOptions,
  type RunQueryGroup,
  type RunStreamSource,
} from './read.js';
export { formatQrels, formatRun, writeQrelsFile, writeRunFile, type FormatRunOptions } from './write.js';
export { TrecFormatError } from './errors.js';
export type { TrecGrammar } from './grammar.js';
