// The one grammar of TREC qrels and run lines, read by every reader (the library's, eval's,
// compare's and trec-eval's). Column layout follows trec_eval:
//   qrels: qid iter docno rel            run: qid Q0 docno rank score tag
// Columns are separated by any run of spaces or tabs (or \v, \f, \r: C's isspace, as trec_eval), so
// `\r\n` line ends work; a leading UTF-8 byte order mark is skipped.
//
// Two variants of the grammar, chosen with `grammar`:
//
// | line                     | 'strict' (library, eval, compare) | 'trec_eval' (trec-eval, as trec_eval 10 reads) |
// |--------------------------|-----------------------------------|------------------------------------------------|
// | blank run line           | skipped                           | skipped                                        |
// | blank qrels line         | skipped                           | error (trec_eval: "Malformed line", exit 2)    |
// | line starting with `#`   | an ordinary (malformed) line      | skipped (a comment)                            |
// | run columns              | exactly 6                         | 6 or more; the 7th and later are ignored       |
// | run rank                 | an integer                        | anything (ignored: ranks come from scores)     |
// | qrels grade              | a decimal number                  | an integer (trec_eval reads it with atol)      |
//
// Either way a score must be a decimal number and a grade or score finite: where trec_eval would
// read garbage silently (`atof("abc")` is 0), the readers stop with file, line and problem.

import { TrecFormatError } from './errors.js';
import { parseDecimalBytes, parseDecimalSpan, parseIntegerBytes, parseIntegerSpan } from './number.js';

/** Which variant of the TREC grammar a reader accepts (see the table at the top of this file). */
export type TrecGrammar = 'strict' | 'trec_eval';

const RUN_LAYOUT = 'qid Q0 docno rank score tag';
const QRELS_LAYOUT = 'qid iter docno rel';

const CHAR_TAB = 9;
const CHAR_CARRIAGE_RETURN = 13;
const CHAR_SPACE = 32;
const CHAR_HASH = 35;
export const BYTE_ORDER_MARK = 0xfeff;

/** C's isspace minus the newline: space, \t, \v, \f, \r. One comparison for an ordinary character. */
export function isSeparator(code: number): boolean {
  return (
    code <= CHAR_SPACE && (code === CHAR_SPACE || (code >= CHAR_TAB && code <= CHAR_CARRIAGE_RETURN && code !== 10))
  );
}

/** Offset where the first line of a text starts: after a byte order mark, if any. */
export function firstLineStart(text: string): number {
  return text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
}

export function formatError(
  file: string,
  text: string,
  lineStart: number,
  lineEnd: number,
  lineNumber: number,
  problem: string,
): TrecFormatError {
  const lineText = text.slice(lineStart, lineEnd).replace(/\r$/, '');
  return new TrecFormatError({ file, lineNumber, lineText, problem });
}

/** Number of columns in text[lineStart, lineEnd), for error messages. */
function countColumns(text: string, lineStart: number, lineEnd: number): number {
  let count = 0;
  let inColumn = false;
  for (let position = lineStart; position < lineEnd; position++) {
    const separator = isSeparator(text.charCodeAt(position));
    if (!separator && !inColumn) count++;
    inColumn = !separator;
  }
  return count;
}

function columnCountProblem(layout: string, expected: number, found: number, orMore = false): string {
  return `expected ${expected}${orMore ? ' or more' : ''} columns (${layout}), found ${found}`;
}

/**
 * What the strict grammar says of a line it cannot read that starts with '#': a comment line, which
 * trec_eval skips and the strict grammar does not allow. Callers that know how the user picks the
 * grammar (a CLI flag) find this text as TrecFormatError's `problem` and may add that.
 */
export const COMMENT_LINE_PROBLEM =
  "a '#' comment line: the strict TREC grammar has none (grammar 'trec_eval' skips comment lines, as trec_eval does)";

/** The problem of a line the grammar cannot read: a strict-grammar comment line is named as one. */
function unreadableLineProblem(text: string, first: number, loose: boolean, problem: string): string {
  return !loose && text.charCodeAt(first) === CHAR_HASH ? COMMENT_LINE_PROBLEM : problem;
}

function numberProblem(label: string, shown: string, value: number): string {
  return Number.isNaN(value) ? `${label} '${shown}' is not a number` : `${label} '${shown}' is not a finite number`;
}

/** True when text[from, to) holds a separator other than the space (then the general scanner runs). */
function hasOtherSeparators(text: string, from: number, to: number): boolean {
  for (const separator of ['\t', '\r', '\v', '\f']) {
    const found = text.indexOf(separator, from);
    if (found !== -1 && found < to) return true;
  }
  return false;
}

/** Offset of the first character of text[lineStart, lineEnd) that is not a separator (lineEnd when blank). */
function firstNonSeparator(text: string, lineStart: number, lineEnd: number): number {
  let position = lineStart;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  return position;
}

// ---------------------------------------------------------------------------------------------
// ASCII bytes: the usual line read without a string operation per column
// ---------------------------------------------------------------------------------------------
// A caller that holds the text's bytes (ASCII: bytes[i] is text.charCodeAt(i)) hands them to the
// scanners, which read each line from them when its columns are separated by spaces and it holds
// nothing but printable characters; any other line (a tab or \r, a blank or comment line, a column
// missing, a number the byte parsers leave to the text ones) is read from the text as before, so
// the grammar's rules and errors stay those above and below.

const BYTE_NEWLINE = 10;

// ---------------------------------------------------------------------------------------------
// Run lines
// ---------------------------------------------------------------------------------------------

/** The fields of one run line, as spans of the text handed to the sink; reused from line to line. */
export class RunLine {
  queryStart = 0;
  queryEnd = 0;
  docStart = 0;
  docEnd = 0;
  rankStart = 0;
  rankEnd = 0;
  scoreStart = 0;
  scoreEnd = 0;
  /** Offset of the sixth column (the tag). */
  tagStart = 0;
  score = 0;
  lineNumber = 0;
  lineStart = 0;
  lineEnd = 0;
  /** The line before it, in the same text, has the same query id (known only when read from bytes; else false). */
  sameQueryAsBefore = false;
}

/** Receives each run line. */
export interface RunSink {
  entry(text: string, line: RunLine): void;
}

/**
 * The columns of a run line separated by spaces only (the usual layout), found with indexOf, which
 * is faster than a character loop. False when the line needs the general scanner: a column missing.
 */
function spaceSeparatedRunLine(text: string, lineStart: number, lineEnd: number, line: RunLine): boolean {
  let position = lineStart;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  line.queryStart = position;
  let end = text.indexOf(' ', position);
  if (end === -1 || end >= lineEnd) return false;
  line.queryEnd = end;
  position = end + 1;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  end = text.indexOf(' ', position); // Q0
  if (end === -1 || end >= lineEnd) return false;
  position = end + 1;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  line.docStart = position;
  end = text.indexOf(' ', position);
  if (end === -1 || end >= lineEnd) return false;
  line.docEnd = end;
  position = end + 1;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  line.rankStart = position;
  end = text.indexOf(' ', position);
  if (end === -1 || end >= lineEnd) return false;
  line.rankEnd = end;
  position = end + 1;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  line.scoreStart = position;
  end = text.indexOf(' ', position);
  if (end === -1 || end >= lineEnd) return false;
  line.scoreEnd = end;
  position = end + 1;
  while (text.charCodeAt(position) === CHAR_SPACE) position++;
  line.tagStart = position;
  return position < lineEnd; // a tag follows
}

/** The columns of a run line with any of trec_eval's separators. False when a column is missing. */
function generalRunLine(text: string, lineStart: number, lineEnd: number, line: RunLine): boolean {
  let position = lineStart;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  line.queryStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  line.queryEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++; // Q0
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  line.docStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  line.docEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  line.rankStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  line.rankEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  line.scoreStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  line.scoreEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  line.tagStart = position;
  return position < lineEnd; // a tag follows
}

/**
 * True when the query id at `previous` (a line read before) is the `length` bytes at `start`,
 * followed by a separator there too: the usual run line repeats the line before's query id.
 */
function sameBytes(bytes: Uint8Array, previous: number, start: number, length: number): boolean {
  if ((bytes[previous + length] as number) > CHAR_SPACE) return false; // the earlier id is longer
  for (let index = 0; index < length; index++) if (bytes[previous + index] !== bytes[start + index]) return false;
  return true;
}

/**
 * A trec_eval-grammar run line read from ASCII bytes (see above), in a text whose last byte is a
 * line end (so that no loop needs a bound): fills `line` (its score and sameQueryAsBefore too) and
 * returns the offset of its line end, or -1 when the line is to be read from the text. One loop per
 * column, written out: this runs once per line of a run. `previousQueryStart`: where the query id of
 * the line before starts (-1: none, or not read from the bytes), `previousQueryLength` its length.
 */
function byteRunLine(
  bytes: Uint8Array,
  lineStart: number,
  line: RunLine,
  previousQueryStart: number,
  previousQueryLength: number,
): number {
  let position = lineStart;
  // The usual line repeats the query id of the line before: compared in place, not scanned.
  const sameQueryAsBefore =
    previousQueryStart !== -1 &&
    bytes[lineStart + previousQueryLength] === CHAR_SPACE &&
    sameBytes(bytes, previousQueryStart, lineStart, previousQueryLength);
  if (sameQueryAsBefore) position += previousQueryLength;
  else {
    if (bytes[position] === CHAR_HASH) return -1;
    while ((bytes[position] as number) > CHAR_SPACE) position++;
  }
  const queryEnd = position;
  if (queryEnd === lineStart || bytes[position] !== CHAR_SPACE) return -1; // blank, a leading or other separator
  while (bytes[++position] === CHAR_SPACE);
  const q0Start = position;
  while ((bytes[position] as number) > CHAR_SPACE) position++;
  if (position === q0Start || bytes[position] !== CHAR_SPACE) return -1;
  while (bytes[++position] === CHAR_SPACE);
  const docStart = position;
  while ((bytes[position] as number) > CHAR_SPACE) position++;
  const docEnd = position;
  if (docEnd === docStart || bytes[position] !== CHAR_SPACE) return -1;
  while (bytes[++position] === CHAR_SPACE);
  const rankStart = position;
  while ((bytes[position] as number) > CHAR_SPACE) position++;
  const rankEnd = position;
  if (rankEnd === rankStart || bytes[position] !== CHAR_SPACE) return -1;
  while (bytes[++position] === CHAR_SPACE);
  const scoreStart = position;
  while ((bytes[position] as number) > CHAR_SPACE) position++;
  const scoreEnd = position;
  if (scoreEnd === scoreStart || bytes[position] !== CHAR_SPACE) return -1;
  while (bytes[++position] === CHAR_SPACE);
  const tagStart = position;
  // The tag and any further columns (ignored) run to the line end.
  if ((bytes[position] as number) <= CHAR_SPACE) return -1;
  for (;;) {
    const byte = bytes[++position] as number;
    if (byte < CHAR_SPACE) {
      if (byte !== BYTE_NEWLINE) return -1;
      break;
    }
  }
  const score = parseDecimalBytes(bytes, scoreStart, scoreEnd);
  if (Number.isNaN(score)) return -1;
  line.queryStart = lineStart;
  line.queryEnd = queryEnd;
  line.docStart = docStart;
  line.docEnd = docEnd;
  line.rankStart = rankStart;
  line.rankEnd = rankEnd;
  line.scoreStart = scoreStart;
  line.scoreEnd = scoreEnd;
  line.tagStart = tagStart;
  line.score = score;
  line.sameQueryAsBefore = sameQueryAsBefore;
  return position;
}

/**
 * Parses the run lines in text[from, to) (`to` at a line end or the text's end) and hands each to
 * the sink. Returns the number of lines seen (blank and comment lines included), so that the caller
 * can keep counting across chunks. Throws TrecFormatError naming file, line and problem. `bytes`:
 * the text's characters as ASCII bytes, when the caller holds them (the trec_eval grammar then
 * reads the usual line from them).
 */
export function scanRunLines(
  text: string,
  from: number,
  to: number,
  firstLineNumber: number,
  file: string,
  grammar: TrecGrammar,
  sink: RunSink,
  line = new RunLine(),
  bytes?: Uint8Array,
): number {
  const loose = grammar === 'trec_eval';
  // The bytes are read up to a line end: a text whose last line has none (a file's end) is read as text.
  const fromBytes = loose && bytes !== undefined && to > from && bytes[to - 1] === BYTE_NEWLINE;
  const spacesOnly = !hasOtherSeparators(text, from, to);
  let lineNumber = firstLineNumber - 1;
  let lineStart = from;
  let previousQueryStart = -1;
  let previousQueryLength = 0;
  while (lineStart < to) {
    if (fromBytes) {
      const byteLineEnd = byteRunLine(bytes, lineStart, line, previousQueryStart, previousQueryLength);
      if (byteLineEnd !== -1) {
        previousQueryStart = lineStart;
        previousQueryLength = line.queryEnd - lineStart;
        line.lineNumber = ++lineNumber;
        line.lineStart = lineStart;
        line.lineEnd = byteLineEnd;
        sink.entry(text, line);
        lineStart = byteLineEnd + 1;
        continue;
      }
    }
    previousQueryStart = -1;
    line.sameQueryAsBefore = false;
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > to) lineEnd = to;
    lineNumber++;
    const first = firstNonSeparator(text, lineStart, lineEnd);
    if (first === lineEnd || (loose && text.charCodeAt(first) === CHAR_HASH)) {
      lineStart = lineEnd + 1;
      continue;
    }
    if (
      !(spacesOnly && spaceSeparatedRunLine(text, lineStart, lineEnd, line)) &&
      !generalRunLine(text, lineStart, lineEnd, line)
    ) {
      const problem = columnCountProblem(RUN_LAYOUT, 6, countColumns(text, lineStart, lineEnd), loose);
      throw formatError(file, text, lineStart, lineEnd, lineNumber, unreadableLineProblem(text, first, loose, problem));
    }
    if (!loose && text.charCodeAt(first) === CHAR_HASH) {
      try {
        checkStrictRunLine(text, lineStart, lineEnd, lineNumber, file, line);
      } catch {
        throw formatError(file, text, lineStart, lineEnd, lineNumber, COMMENT_LINE_PROBLEM);
      }
    } else if (!loose) checkStrictRunLine(text, lineStart, lineEnd, lineNumber, file, line);
    const score = parseDecimalSpan(text, line.scoreStart, line.scoreEnd);
    if (!Number.isFinite(score)) {
      const problem = numberProblem('score', text.slice(line.scoreStart, line.scoreEnd), score);
      throw formatError(file, text, lineStart, lineEnd, lineNumber, unreadableLineProblem(text, first, loose, problem));
    }
    line.score = score;
    line.lineNumber = lineNumber;
    line.lineStart = lineStart;
    line.lineEnd = lineEnd;
    sink.entry(text, line);
    lineStart = lineEnd + 1;
  }
  return lineNumber - firstLineNumber + 1;
}

/** Receives run lines read from ASCII bytes: the usual line as bytes, any other as text (the same offsets). */
export interface RunByteSink extends RunSink {
  byteEntry(bytes: Uint8Array, line: RunLine): void;
}

/**
 * scanRunLines (trec_eval's grammar) over ASCII bytes, for a caller that never decodes them as a
 * whole: the usual line is read from the bytes and handed over as bytes; any other line (or a last
 * line with no line end) is read by scanRunLines from `textOf()`, the bytes decoded, which is
 * called only then.
 */
export function scanRunByteLines(
  bytes: Uint8Array,
  from: number,
  to: number,
  firstLineNumber: number,
  file: string,
  sink: RunByteSink,
  line: RunLine,
  textOf: () => string,
): number {
  if (to > from && bytes[to - 1] !== BYTE_NEWLINE)
    return scanRunLines(textOf(), from, to, firstLineNumber, file, 'trec_eval', sink, line);
  let lineNumber = firstLineNumber - 1;
  let lineStart = from;
  let previousQueryStart = -1;
  let previousQueryLength = 0;
  while (lineStart < to) {
    const byteLineEnd = byteRunLine(bytes, lineStart, line, previousQueryStart, previousQueryLength);
    if (byteLineEnd !== -1) {
      previousQueryStart = lineStart;
      previousQueryLength = line.queryEnd - lineStart;
      line.lineNumber = ++lineNumber;
      line.lineStart = lineStart;
      line.lineEnd = byteLineEnd;
      sink.byteEntry(bytes, line);
      lineStart = byteLineEnd + 1;
      continue;
    }
    previousQueryStart = -1;
    const next = bytes.indexOf(BYTE_NEWLINE, lineStart) + 1;
    const lineEnd = next === 0 || next > to ? to : next;
    lineNumber += scanRunLines(textOf(), lineStart, lineEnd, lineNumber + 1, file, 'trec_eval', sink, line);
    lineStart = lineEnd;
  }
  return lineNumber - firstLineNumber + 1;
}

/** The strict grammar's extra rules: nothing after the tag, an integer rank. */
function checkStrictRunLine(
  text: string,
  lineStart: number,
  lineEnd: number,
  lineNumber: number,
  file: string,
  line: RunLine,
): void {
  let tagEnd = line.tagStart;
  while (tagEnd < lineEnd && !isSeparator(text.charCodeAt(tagEnd))) tagEnd++;
  if (firstNonSeparator(text, tagEnd, lineEnd) < lineEnd) {
    const problem = columnCountProblem(RUN_LAYOUT, 6, countColumns(text, lineStart, lineEnd));
    throw formatError(file, text, lineStart, lineEnd, lineNumber, problem);
  }
  if (Number.isNaN(parseIntegerSpan(text, line.rankStart, line.rankEnd))) {
    const problem = `rank '${text.slice(line.rankStart, line.rankEnd)}' is not an integer`;
    throw formatError(file, text, lineStart, lineEnd, lineNumber, problem);
  }
}

// ---------------------------------------------------------------------------------------------
// Qrels lines
// ---------------------------------------------------------------------------------------------

/** The fields of one qrels line; reused from line to line. */
export class QrelsLine {
  queryStart = 0;
  queryEnd = 0;
  docStart = 0;
  docEnd = 0;
  gradeStart = 0;
  gradeEnd = 0;
  grade = 0;
  lineNumber = 0;
  lineStart = 0;
  lineEnd = 0;
  /** The line before it has the same query id (known only when both are read from bytes). */
  sameQueryAsBefore = false;
}

/** Receives each qrels line. */
export interface QrelsSink {
  judgment(text: string, line: QrelsLine): void;
}

/** A qrels line of single-space-separated columns (the usual layout), found with indexOf. */
function spaceSeparatedQrelsLine(text: string, lineStart: number, lineEnd: number, line: QrelsLine): boolean {
  const queryEnd = text.indexOf(' ', lineStart);
  if (queryEnd <= lineStart || queryEnd >= lineEnd) return false;
  const iterationEnd = text.indexOf(' ', queryEnd + 1);
  if (iterationEnd <= queryEnd + 1 || iterationEnd >= lineEnd) return false;
  const docEnd = text.indexOf(' ', iterationEnd + 1);
  if (docEnd <= iterationEnd + 1 || docEnd >= lineEnd - 1) return false;
  // The grade runs to the line end: no further space allowed (a fifth column, or trailing blanks, go the general way).
  const extra = text.indexOf(' ', docEnd + 1);
  if (extra !== -1 && extra < lineEnd) return false;
  line.queryStart = lineStart;
  line.queryEnd = queryEnd;
  line.docStart = iterationEnd + 1;
  line.docEnd = docEnd;
  line.gradeStart = docEnd + 1;
  line.gradeEnd = lineEnd;
  return true;
}

/** A qrels line with any separators; false unless it has exactly four columns. */
function generalQrelsLine(text: string, lineStart: number, lineEnd: number, line: QrelsLine): boolean {
  let position = lineStart;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  line.queryStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  line.queryEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++; // iter (ignored)
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  line.docStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  line.docEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  line.gradeStart = position;
  while (position < lineEnd && !isSeparator(text.charCodeAt(position))) position++;
  line.gradeEnd = position;
  while (position < lineEnd && isSeparator(text.charCodeAt(position))) position++;
  return line.gradeStart !== line.gradeEnd && position === lineEnd;
}

const BLANK_QRELS_LINE_PROBLEM =
  'blank line: trec_eval stops on a blank qrels line ("Malformed line", exit 2), and so does trec-eval; delete it';

/**
 * A trec_eval-grammar qrels line read from ASCII bytes (see above): fills `line` (its integer grade
 * too) and returns the offset of its line end, or -1 when the line is to be read from the text.
 */
function byteQrelsLine(
  bytes: Uint8Array,
  lineStart: number,
  to: number,
  line: QrelsLine,
  previousQueryStart = -1,
  previousQueryLength = 0,
): number {
  let position = lineStart;
  // As in byteRunLine: the query id of the line before, compared in place rather than scanned.
  const sameQueryAsBefore =
    previousQueryStart !== -1 &&
    bytes[lineStart + previousQueryLength] === CHAR_SPACE &&
    sameBytes(bytes, previousQueryStart, lineStart, previousQueryLength);
  if (sameQueryAsBefore) position += previousQueryLength;
  else {
    if (bytes[position] === CHAR_HASH) return -1;
    while (position < to && (bytes[position] as number) > CHAR_SPACE) position++;
  }
  if (position === lineStart || bytes[position] !== CHAR_SPACE) return -1; // blank, a leading or other separator
  line.queryStart = lineStart;
  line.queryEnd = position;
  while (bytes[++position] === CHAR_SPACE);
  const iterationStart = position; // ignored
  while (position < to && (bytes[position] as number) > CHAR_SPACE) position++;
  if (position === iterationStart || bytes[position] !== CHAR_SPACE) return -1;
  while (bytes[++position] === CHAR_SPACE);
  line.docStart = position;
  while (position < to && (bytes[position] as number) > CHAR_SPACE) position++;
  if (position === line.docStart || bytes[position] !== CHAR_SPACE) return -1;
  line.docEnd = position;
  while (bytes[++position] === CHAR_SPACE);
  line.gradeStart = position;
  while (position < to && (bytes[position] as number) > CHAR_SPACE) position++;
  if (position === line.gradeStart || (position < to && bytes[position] !== BYTE_NEWLINE)) return -1; // a fifth column, trailing blanks, a control character
  line.gradeEnd = position;
  const grade = parseIntegerBytes(bytes, line.gradeStart, position);
  if (Number.isNaN(grade)) return -1;
  line.grade = grade;
  line.sameQueryAsBefore = sameQueryAsBefore;
  return position;
}

/**
 * Parses the qrels lines in text[from, to) and hands each to the sink; returns the number of lines
 * seen. `bytes`: as scanRunLines takes them.
 */
export function scanQrelsLines(
  text: string,
  from: number,
  to: number,
  firstLineNumber: number,
  file: string,
  grammar: TrecGrammar,
  sink: QrelsSink,
  bytes?: Uint8Array,
): number {
  const loose = grammar === 'trec_eval';
  const fromBytes = loose && bytes !== undefined;
  const line = new QrelsLine();
  const spacesOnly = !hasOtherSeparators(text, from, to);
  let lineNumber = firstLineNumber - 1;
  let lineStart = from;
  while (lineStart < to) {
    if (fromBytes) {
      const byteLineEnd = byteQrelsLine(bytes, lineStart, to, line);
      if (byteLineEnd !== -1) {
        line.lineNumber = ++lineNumber;
        line.lineStart = lineStart;
        line.lineEnd = byteLineEnd;
        sink.judgment(text, line);
        lineStart = byteLineEnd + 1;
        continue;
      }
    }
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > to) lineEnd = to;
    lineNumber++;
    const first = firstNonSeparator(text, lineStart, lineEnd);
    if (first === lineEnd) {
      if (loose) throw formatError(file, text, lineStart, lineEnd, lineNumber, BLANK_QRELS_LINE_PROBLEM);
      lineStart = lineEnd + 1;
      continue;
    }
    if (loose && text.charCodeAt(first) === CHAR_HASH) {
      lineStart = lineEnd + 1;
      continue;
    }
    if (
      !(spacesOnly && first === lineStart && spaceSeparatedQrelsLine(text, lineStart, lineEnd, line)) &&
      !generalQrelsLine(text, lineStart, lineEnd, line)
    ) {
      const problem = columnCountProblem(QRELS_LAYOUT, 4, countColumns(text, lineStart, lineEnd));
      throw formatError(file, text, lineStart, lineEnd, lineNumber, unreadableLineProblem(text, first, loose, problem));
    }
    line.lineNumber = lineNumber;
    line.lineStart = lineStart;
    line.lineEnd = lineEnd;
    if (!loose && text.charCodeAt(first) === CHAR_HASH) {
      try {
        line.grade = decimalGrade(text, line, file);
      } catch {
        throw formatError(file, text, lineStart, lineEnd, lineNumber, COMMENT_LINE_PROBLEM);
      }
    } else line.grade = loose ? integerGrade(text, line, file) : decimalGrade(text, line, file);
    sink.judgment(text, line);
    lineStart = lineEnd + 1;
  }
  return lineNumber - firstLineNumber + 1;
}

/** Receives qrels lines read from ASCII bytes: the usual line as bytes, any other as the text of that line alone. */
export interface QrelsByteSink extends QrelsSink {
  /** `sameQueryAsBefore`: the line before it, read from the bytes too, has the same query id. */
  byteJudgment(bytes: Uint8Array, line: QrelsLine, sameQueryAsBefore: boolean): void;
  /** Where the text handed to judgment() starts in the bytes (its offsets are added to it). */
  base: number;
}

/**
 * scanQrelsLines (trec_eval's grammar) over ASCII bytes, never decoded as a whole: the usual line is
 * read from the bytes; any other line is decoded alone and read by scanQrelsLines, with
 * `sink.base` set to where it starts.
 */
export function scanQrelsByteLines(bytes: Buffer, file: string, sink: QrelsByteSink): number {
  const to = bytes.length;
  const line = new QrelsLine();
  let lineNumber = 0;
  let lineStart = 0;
  let previousQueryStart = -1;
  let previousQueryLength = 0;
  while (lineStart < to) {
    const byteLineEnd = byteQrelsLine(bytes, lineStart, to, line, previousQueryStart, previousQueryLength);
    if (byteLineEnd !== -1) {
      previousQueryStart = lineStart;
      previousQueryLength = line.queryEnd - lineStart;
      line.lineNumber = ++lineNumber;
      line.lineStart = lineStart;
      line.lineEnd = byteLineEnd;
      sink.byteJudgment(bytes, line, line.sameQueryAsBefore);
      lineStart = byteLineEnd + 1;
      continue;
    }
    previousQueryStart = -1;
    const next = bytes.indexOf(BYTE_NEWLINE, lineStart) + 1;
    const lineEnd = next === 0 ? to : next;
    sink.base = lineStart;
    lineNumber += scanQrelsLines(
      bytes.toString('latin1', lineStart, lineEnd),
      0,
      lineEnd - lineStart,
      lineNumber + 1,
      file,
      'trec_eval',
      sink,
    );
    sink.base = 0;
    lineStart = lineEnd;
  }
  return lineNumber;
}

function integerGrade(text: string, line: QrelsLine, file: string): number {
  const grade = parseIntegerSpan(text, line.gradeStart, line.gradeEnd);
  if (Number.isNaN(grade)) {
    const shown = text.slice(line.gradeStart, line.gradeEnd);
    const problem = `relevance grade '${shown}' is not an integer (trec_eval reads grades as whole numbers, e.g. 0, 1, 2)`;
    throw formatError(file, text, line.lineStart, line.lineEnd, line.lineNumber, problem);
  }
  return grade;
}

function decimalGrade(text: string, line: QrelsLine, file: string): number {
  const grade = parseDecimalSpan(text, line.gradeStart, line.gradeEnd);
  if (!Number.isFinite(grade)) {
    const problem = numberProblem('relevance grade', text.slice(line.gradeStart, line.gradeEnd), grade);
    throw formatError(file, text, line.lineStart, line.lineEnd, line.lineNumber, problem);
  }
  return grade;
}
