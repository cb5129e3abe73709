// Errors raised when a dataset file is malformed. The base class lives in src/files (the TREC errors
// in src/trec extend it too); the TREC format error is re-exported here for old import paths.
import { DatasetFormatError } from '../files/format-error.js';

export { DatasetFormatError, STRING_SOURCE_NAME, type DatasetFormatErrorDetails } from '../files/format-error.js';

/** A malformed line in a JSON Lines eval set or run. */
export class JsonlFormatError extends DatasetFormatError {
  override name = 'JsonlFormatError';
}
