// Errors raised when a dataset file (TREC qrels/run, JSON Lines) is malformed.

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

/** A malformed line in a TREC qrels or run file. */
export class TrecFormatError extends DatasetFormatError {
  override name = 'TrecFormatError';
}

/** A malformed line in a JSON Lines eval set or run. */
export class JsonlFormatError extends DatasetFormatError {
  override name = 'JsonlFormatError';
}

function formatErrorMessage({ file, lineNumber, lineText, problem }: DatasetFormatErrorDetails): string {
  return `${file}:${lineNumber}: ${problem}\n  line ${lineNumber}: ${truncateLine(lineText)}`;
}

/** Shows at most MAX_SHOWN_LINE_LENGTH characters, JSON-quoted so tabs and control characters are visible. */
export function truncateLine(lineText: string): string {
  const shown = lineText.length > MAX_SHOWN_LINE_LENGTH ? `${lineText.slice(0, MAX_SHOWN_LINE_LENGTH)}…` : lineText;
  return JSON.stringify(shown);
}
