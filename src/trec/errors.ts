// The TREC errors: a malformed line, a docno repeated within a query (trec_eval's fatal error), and
// the other stops of the trec-eval engine (./eval/), each with the exit status trec_eval gives it.
import { DatasetFormatError } from '../files/format-error.js';

/** A malformed line in a TREC qrels or run file. */
export class TrecFormatError extends DatasetFormatError {
  override name = 'TrecFormatError';
}

/** trec_eval's exit status for bad usage or input (a file it cannot read). */
export const EXIT_BAD_INPUT = 2;
/** trec_eval's exit status for a duplicate docno ("Can't calculate measure"). */
export const EXIT_DUPLICATE = 4;
/** trec_eval's exit status when no query has both results and judgments. */
export const EXIT_NO_QUERIES = 7;

/** A docno that appears twice in one query's run or qrels: trec_eval's fatal error (exit 4). */
export class DuplicateDocnoError extends Error {
  readonly exitStatus = EXIT_DUPLICATE;

  constructor(
    readonly file: string,
    readonly queryId: string,
    readonly docId: string,
    readonly lineNumber: number,
    readonly firstLineNumber: number,
    /** Where the repeat is: the run's lines or the qrels'. */
    readonly source: 'run' | 'qrels' = 'run',
  ) {
    const where = Number.isFinite(lineNumber) ? `${file}:${lineNumber}` : file;
    const first = Number.isFinite(firstLineNumber) ? ` (first on line ${firstLineNumber})` : '';
    super(
      `${where}: duplicate docno '${docId}' in query '${queryId}'${first}. ` +
        `trec_eval treats a repeated document as a fatal error; remove the repeat (keep the line with the best score).`,
    );
    this.name = 'DuplicateDocnoError';
  }
}

/** A stop trec_eval makes too (an empty qrels or run, no query to average), with its exit status. */
export class TrecEvalStop extends Error {
  constructor(
    message: string,
    readonly exitStatus: number,
  ) {
    super(message);
    this.name = 'TrecEvalStop';
  }
}

/** A qrels or run file the engine could not open or read; the caller words the reason (`cause`). */
export class TrecReadError extends Error {
  constructor(
    /** What the file is: 'qrels file' or 'run file'. */
    readonly role: 'qrels file' | 'run file',
    /** The path as given ('<stdin>' for standard input). */
    readonly path: string,
    override readonly cause: unknown,
  ) {
    super(`cannot read ${role} '${path}': ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'TrecReadError';
  }
}
