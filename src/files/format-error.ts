// The error for a line of a data file that cannot be read: the base of the TREC format errors
// (src/trec/errors.ts) and the JSON Lines ones (src/dataset/errors.ts), so that one `instanceof`
// catches any malformed input.

/** The name used in messages when text was parsed without a file name. */
export const STRING_SOURCE_NAME = '<string>';

const MAX_SHOWN_LINE_LENGTH = 120;

export interface DatasetFormatErrorDetails {
  /** File name, or `<string>` when the text did not come from a file. */
  file: string;
  /** 1-based line number of the offending line. */
  lineNumber: number;
  /** The offending line (without its line terminator), possibly long; the message shows it truncated. */
  lineText: string;
  /** What was wrong, e.g. "score 'abc' is not a number". */
  problem: string;
}

/** Base class: a line of a dataset file that cannot be read. `message` names file, line, line text and problem. */
export class DatasetFormatError extends Error {
  readonly file: string;
  readonly lineNumber: number;
  readonly lineText: string;
  readonly problem: string;

  constructor(details: DatasetFormatErrorDetails) {
    super(formatErrorMessage(details));
    this.name = 'DatasetFormatError';
    this.file = details.file;
    this.lineNumber = details.lineNumber;
    this.lineText = details.lineText;
    this.problem = details.problem;
  }
}

function formatErrorMessage({ file, lineNumber, lineText, problem }: DatasetFormatErrorDetails): string {
  return `${file}:${lineNumber}: ${problem}\n  line ${lineNumber}: ${truncateLine(lineText)}`;
}

/** Shows at most MAX_SHOWN_LINE_LENGTH characters, JSON-quoted so tabs and control characters are visible. */
function truncateLine(lineText: string): string {
  const shown = lineText.length > MAX_SHOWN_LINE_LENGTH ? `${lineText.slice(0, MAX_SHOWN_LINE_LENGTH)}…` : lineText;
  return JSON.stringify(shown);
}
