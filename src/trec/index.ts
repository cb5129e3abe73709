// The TREC module's public part: readers and writers of qrels and runs. The trec-eval engine
// (./eval/) and the columnar internals are the CLI's.
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
  TrecFormatError,
  type Qrels,
  type RunEntry,
  type TrecRun,
  type TrecRunColumns,
  type TrecParseOptions,
  type RunQueryGroup,
  type RunStreamSource,
} from './read.js';
export { formatQrels, formatRun, writeQrelsFile, writeRunFile, type FormatRunOptions } from './write.js';
export type { TrecGrammar } from './grammar.js';
