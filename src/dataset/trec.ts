// The TREC readers and writers live in src/trec/ (one grammar for the library, eval, compare and
// trec-eval). This module keeps the old import path working.
export * from '../trec/index.js';
export { parseIntegerSpan } from '../trec/number.js';
