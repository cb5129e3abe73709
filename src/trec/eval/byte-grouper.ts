// trec-eval's run grouper: RunGrouper reading ASCII text as bytes, never decoded as a whole (the
// usual run). A line off the usual layout is read from the bytes' text, decoded only then, at the
// same offsets; the queries handed over index the bytes (SpanQuery.bytes). Any other text (not
// ASCII) is read as RunGrouper reads it. Only the 'grouped' order and trec_eval's grammar, as
// trec-eval reads a run; the library's readers keep RunGrouper alone.
import { isQueryIdAt, scanRunLines, type RunLine } from '../grammar.js';
import { QueryTooLargeError, RunGrouper, RunNotGroupedError } from '../grouper.js';

export class ByteRunGrouper extends RunGrouper {
  /** Room for the open query's bytes between two texts (the reader reuses its buffer). */
  private keptBytes = Buffer.alloc(0);

  /** RunGrouper.acceptCarried, the text's ASCII bytes (`asciiBytes`) read as they are. */
  override acceptCarried(text: string | undefined, carried: number, asciiBytes?: Buffer): number {
    if (asciiBytes === undefined) {
      this.bytes = undefined;
      return super.acceptCarried(text as string, carried);
    }
    this.bytes = asciiBytes;
    this.text = '';
    this.lineNumber += scanRunLines(
      () => asciiBytes.toString('latin1'),
      carried,
      asciiBytes.length,
      this.lineNumber,
      this.file,
      'trec_eval',
      this,
      this.line,
      asciiBytes,
    );
    if (this.queryId === undefined) return 0;
    const start = this.groupTextStart;
    const kept = asciiBytes.length - start;
    if (kept > this.maxCarry)
      throw new QueryTooLargeError(`query '${this.queryId}' spans more than ${this.maxCarry} characters`);
    // The reader moves these bytes to the start of its buffer, over them: the spans index a copy.
    if (this.keptBytes.length < kept) this.keptBytes = Buffer.allocUnsafe(Math.max(kept, 2 * this.keptBytes.length));
    asciiBytes.copy(this.keptBytes, 0, start);
    this.bytes = this.keptBytes.subarray(0, kept);
    for (let index = 0; index < this.count; index++) {
      this.docStart[index] = (this.docStart[index] as number) - start;
      this.docEnd[index] = (this.docEnd[index] as number) - start;
    }
    this.groupTextStart = 0;
    return kept;
  }

  override entry(text: string, line: RunLine): void {
    const bytes = this.bytes;
    if (bytes === undefined) {
      super.entry(text, line);
      return;
    }
    // Every line, read from the bytes or (off the usual layout) from their text, at the same offsets.
    const current = this.queryId;
    const { queryStart, queryEnd, lineNumber } = line;
    if (
      !line.sameQueryAsBefore &&
      (current === undefined || queryEnd - queryStart !== current.length || !isQueryIdAt(current, bytes, queryStart))
    ) {
      const queryId = bytes.toString('latin1', queryStart, queryEnd);
      const earlierLastLine = this.finished.get(queryId);
      if (earlierLastLine !== undefined) {
        throw new RunNotGroupedError({
          file: this.file,
          lineNumber,
          lineText: bytes.toString('latin1', line.lineStart, line.lineEnd).replace(/\r$/, ''),
          problem: this.notGroupedProblem(queryId, current ?? '', earlierLastLine),
        });
      }
      if (current !== undefined) {
        this.finished.set(current, this.lineNumbers[this.count - 1] as number);
        this.emit();
      }
      this.queryId = queryId;
      this.count = 0;
      this.groupTextStart = line.lineStart;
    }
    const at = this.count++;
    if (at === this.docStart.length) this.grow();
    this.docStart[at] = line.docStart;
    this.docEnd[at] = line.docEnd;
    this.score[at] = line.score;
    this.lineNumbers[at] = lineNumber;
  }
}
