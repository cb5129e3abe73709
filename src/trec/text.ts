// Reading TREC files as text: whole (qrels, small runs) or in chunks that end on a line end (large
// runs, standard input, streams). Both stop with the file's name when the text cannot be held: a
// JavaScript string holds at most ~512 M characters, and one line must fit in one.

import { constants, isAscii } from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

import { TrecFormatError } from './errors.js';
import { BYTE_ORDER_MARK } from './grammar.js';

/** Source of a run or qrels: a path, or `-` for standard input. */
export type TextSource = string;

/**
 * Limits on what the readers hold in one string. Exported so that tests can lower them instead of
 * writing a gigabyte; nothing else should change them.
 */
export const textLimits = {
  /** Characters of one whole text: V8's limit on a string's length. */
  maxTextLength: constants.MAX_STRING_LENGTH,
  /** Characters of one line: no TREC line comes near this; a file without line ends does. */
  maxLineLength: 1 << 24,
};

/** A text too large to be held as one string, or a line with no end in sight. */
export class TrecTextTooLargeError extends RangeError {
  override name = 'TrecTextTooLargeError';
}

/** The error for a file of `length` bytes read whole. */
function tooLargeToReadWhole(file: string, length: number, hint: string): TrecTextTooLargeError {
  return new TrecTextTooLargeError(
    `${file}: ${length} bytes is more than one JavaScript string holds (${textLimits.maxTextLength} characters), ` +
      `so the file cannot be read whole; ${hint}`,
  );
}

/**
 * text.slice(start, end) as a string of its own. V8 makes a slice of 13 characters or more a view into the
 * string it was cut from, so a query id kept for the whole run (a UUID is 36 characters) would keep its
 * chunk of the file alive with it: for a run with a new query in every chunk, the whole file. The id is
 * joined to one character and cut again: the join is flattened into a new string one character longer,
 * which is all the result keeps. Called once per query, not per line.
 */
export function detachedSlice(text: string, start: number, end: number): string {
  if (end - start < 13) return text.slice(start, end);
  return (' ' + text.slice(start, end)).slice(1);
}

/**
 * Chunks small enough to stay in V8's young generation: a string above 128 kB goes to the
 * large-object space, each one on freshly mapped pages.
 */
const CHUNK_BYTES = 1 << 16;

/** Reads a whole file (or `-`: standard input) as UTF-8. `file` names it in errors. */
export async function readText(
  source: TextSource,
  stdin: AsyncIterable<string | Uint8Array> = process.stdin,
  file = source,
): Promise<string> {
  return decodeText(await readBytes(source, stdin), file);
}

/**
 * Reads a whole file (or `-`: standard input) as bytes; with `shared`, in shared memory, so that
 * worker threads can read the same bytes without a copy of their own.
 */
export async function readBytes(
  source: TextSource,
  stdin: AsyncIterable<string | Uint8Array> = process.stdin,
  shared = false,
): Promise<Buffer> {
  // One synchronous read (the async one goes through the thread pool 512 kB at a time), decoded at
  // once by the caller: readFile(path, 'utf8') decodes chunk by chunk through a StringDecoder, several times slower.
  if (source !== '-') return shared ? readFileShared(source) : readFileSync(source);
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  const bytes = Buffer.concat(chunks);
  if (!shared) return bytes;
  const copy = Buffer.from(new SharedArrayBuffer(bytes.length));
  bytes.copy(copy);
  return copy;
}

/** readFileSync into shared memory, sized from the file's size (read on when the file turns out longer). */
function readFileShared(path: string): Buffer {
  const descriptor = openSync(path, 'r');
  try {
    let bytes = Buffer.from(new SharedArrayBuffer(fstatSync(descriptor).size));
    let length = 0;
    const more = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      if (length < bytes.length) {
        const bytesRead = readSync(descriptor, bytes, length, bytes.length - length, null);
        if (bytesRead === 0) break;
        length += bytesRead;
        continue;
      }
      // Full: the file grew since its size was read (or has no size, like a pipe).
      const bytesRead = readSync(descriptor, more, 0, more.length, null);
      if (bytesRead === 0) break;
      const grown = Buffer.from(new SharedArrayBuffer(Math.max(2 * bytes.length, length + bytesRead)));
      bytes.copy(grown);
      more.copy(grown, length, 0, bytesRead);
      bytes = grown;
      length += bytesRead;
    }
    return bytes.subarray(0, length);
  } finally {
    closeSync(descriptor);
  }
}

/** UTF-8 text; ASCII (the usual TREC file) decodes several times faster as Latin-1, which is the same for it. */
export function decodeText(bytes: Buffer, file: string): string {
  // UTF-8 never gives more characters than bytes, so this only refuses texts that cannot fit.
  if (bytes.length > textLimits.maxTextLength && utf8Length(bytes) > textLimits.maxTextLength) {
    throw tooLargeToReadWhole(
      file,
      bytes.length,
      'split it, or stream it (a run: streamRunByQuery(), or trec-eval, which reads runs in chunks)',
    );
  }
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** UTF-16 length of UTF-8 bytes (continuation bytes add nothing; 4-byte sequences add two). */
function utf8Length(bytes: Uint8Array): number {
  let length = 0;
  for (const byte of bytes) {
    if ((byte & 0xc0) !== 0x80) length += byte >= 0xf0 ? 2 : 1;
  }
  return length;
}

/**
 * Turns decoded pieces into texts that end on a line end (the last one may not). A line longer than
 * textLimits.maxLineLength stops with a TrecFormatError naming the file and the line.
 */
export class LineChunker {
  private pending = '';
  private atStart = true;
  private readonly decoder = new TextDecoder('utf-8');
  /** The decoder may hold the first bytes of a character split across chunks. */
  private decoderBusy = false;

  /** `lineNumber`: the number of the line being carried (the consumer counts lines). */
  constructor(
    private readonly onText: (text: string) => void,
    private readonly file: string,
    private readonly lineNumber: () => number,
  ) {}

  bytes(chunk: Uint8Array): void {
    // ASCII (the usual run) decodes several times faster as Latin-1, which is the same for ASCII.
    if (!this.decoderBusy && isAscii(chunk)) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      this.text(buffer.toString('latin1'));
      return;
    }
    this.text(this.decoder.decode(chunk, { stream: true }));
    this.decoderBusy = chunk.length > 0 && (chunk[chunk.length - 1] as number) >= 0x80;
  }

  text(decoded: string): void {
    if (decoded.length === 0) return;
    if (this.atStart) {
      if (decoded.charCodeAt(0) === BYTE_ORDER_MARK) decoded = decoded.slice(1);
      this.atStart = false;
    }
    const lastNewline = decoded.lastIndexOf('\n');
    if (lastNewline === -1) {
      this.carry(decoded);
      return;
    }
    const complete =
      this.pending.length === 0 ? decoded.slice(0, lastNewline + 1) : this.pending + decoded.slice(0, lastNewline + 1);
    this.pending = '';
    this.onText(complete);
    if (lastNewline + 1 < decoded.length) this.carry(decoded.slice(lastNewline + 1));
  }

  end(): void {
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    if (rest.length > 0) this.onText(rest);
  }

  private carry(decoded: string): void {
    if (this.pending.length + decoded.length > textLimits.maxLineLength)
      throw lineTooLongError(this.file, this.lineNumber(), (this.pending + decoded.slice(0, 200)).slice(0, 200));
    this.pending += decoded;
  }
}

/** A line with no end within textLimits.maxLineLength characters; `lineText`: its first 200. */
function lineTooLongError(file: string, lineNumber: number, lineText: string): TrecFormatError {
  const problem =
    `line ${lineNumber} is longer than ${textLimits.maxLineLength} characters (no line end found): ` +
    `a TREC run or qrels file has one short line per document — is this the right file, with \\n line ends?`;
  return new TrecFormatError({ file, lineNumber, lineText, problem });
}

/** How a file is read in chunks. */
export interface ChunkReading {
  /** Name in error messages. */
  file: string;
  /** Number of the line the next text starts with (the consumer counts lines). */
  lineNumber: () => number;
  onBytes?: (bytes: number) => void;
  /** Byte range [start, end) of the file (default: all of it). */
  start?: number;
  end?: number;
}

/**
 * Reads a file (or bytes [start, end) of it) synchronously in small chunks into a reused buffer,
 * handing over complete lines.
 */
function readFileChunks(path: string, onText: (text: string) => void, reading: ChunkReading): void {
  const chunker = new LineChunker(onText, reading.file, reading.lineNumber);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const end = reading.end ?? Infinity;
  const descriptor = openSync(path, 'r');
  try {
    for (let position = reading.start ?? 0; position < end;) {
      const bytesRead = readSync(descriptor, buffer, 0, Math.min(CHUNK_BYTES, end - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      reading.onBytes?.(bytesRead);
      chunker.bytes(buffer.subarray(0, bytesRead));
    }
  } finally {
    closeSync(descriptor);
  }
  chunker.end();
}

const UTF8_BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/** The characters of `text` from `from` on, as UTF-8 bytes. */
function utf8LengthFrom(text: string, from: number): number {
  return Buffer.byteLength(text.slice(from), 'utf8');
}

/**
 * readFileChunks for a consumer that needs the end of each text again at the start of the next (a
 * RunGrouper carries the lines of the query still open): `onText(text, carried)` gets complete lines
 * whose first `carried` characters are the ones it kept (and, when they are ASCII, their bytes,
 * valid only during the call), and returns how many characters at the end of `text` to keep. The kept bytes stay in the buffer and are decoded again with the next ones,
 * into one flat string: joining strings instead (the partial line, then the kept lines) makes V8
 * copy every chunk twice more when it flattens them. Line ends, byte order mark and the long-line
 * error are readFileChunks'.
 */
export function readFileCarrying(
  path: string,
  onText: (text: string, carried: number, asciiBytes: Uint8Array | undefined) => number,
  reading: ChunkReading,
): void {
  readFileCarryingBytes(
    path,
    (text, carried, asciiBytes) => onText(text ?? (asciiBytes as Buffer).toString('latin1'), carried, asciiBytes),
    reading,
  );
}

/**
 * readFileCarrying for a consumer that reads ASCII lines (the usual run) as bytes: those come as
 * bytes alone, never decoded (`text` undefined; a byte is a character); any other lines as text.
 */
export function readFileCarryingBytes(
  path: string,
  onText: (text: string | undefined, carried: number, asciiBytes: Buffer | undefined) => number,
  reading: ChunkReading,
): void {
  const end = reading.end ?? Infinity;
  let buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);
  /** The buffer holds the kept characters (`carried` of them, `partialStart` bytes), then the bytes read since. */
  let filled = 0;
  let carried = 0;
  let partialStart = 0;
  let position = reading.start ?? 0;
  let atStart = position === 0;
  const descriptor = openSync(path, 'r');
  try {
    for (;;) {
      if (buffer.length - filled < CHUNK_BYTES) {
        const grown = Buffer.allocUnsafe(2 * buffer.length);
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      const bytesRead =
        position < end ? readSync(descriptor, buffer, filled, Math.min(CHUNK_BYTES, end - position), position) : 0;
      position += bytesRead;
      filled += bytesRead;
      if (bytesRead > 0) reading.onBytes?.(bytesRead);
      const atEnd = bytesRead === 0;
      if (atStart && (filled >= UTF8_BYTE_ORDER_MARK.length || atEnd)) {
        atStart = false;
        if (UTF8_BYTE_ORDER_MARK.every((byte, index) => buffer[index] === byte)) {
          buffer.copy(buffer, 0, UTF8_BYTE_ORDER_MARK.length, filled);
          filled -= UTF8_BYTE_ORDER_MARK.length;
        }
      }
      if (atEnd && filled === partialStart) return; // nothing after the kept lines
      const lastLineEnd = atEnd ? filled - 1 : buffer.lastIndexOf(0x0a, filled - 1);
      if (lastLineEnd < partialStart) {
        checkLineLength(buffer, partialStart, filled, reading);
        continue; // no line end since the kept lines: read on
      }
      const bytes = buffer.subarray(0, lastLineEnd + 1);
      const ascii = isAscii(bytes);
      const text = ascii ? undefined : bytes.toString('utf8');
      const keep = onText(text, carried, ascii ? bytes : undefined);
      if (atEnd) return;
      const keptBytes = text === undefined ? keep : utf8LengthFrom(text, text.length - keep);
      buffer.copy(buffer, 0, lastLineEnd + 1 - keptBytes, filled);
      filled -= lastLineEnd + 1 - keptBytes;
      partialStart = keptBytes;
      carried = keep;
    }
  } finally {
    closeSync(descriptor);
  }
}

/** The long-line error when the line being read, bytes [lineStart, filled) of the buffer, is longer than allowed. */
function checkLineLength(buffer: Buffer, lineStart: number, filled: number, reading: ChunkReading): void {
  if (filled - lineStart <= textLimits.maxLineLength) return;
  const line = buffer.toString('utf8', lineStart, filled);
  if (line.length > textLimits.maxLineLength)
    throw lineTooLongError(reading.file, reading.lineNumber(), line.slice(0, 200));
}

/** Hands over the chunks of an async source (standard input, a stream) in pieces that end on a line end. */
async function forEachAsyncLineChunk(
  source: AsyncIterable<string | Uint8Array>,
  onText: (text: string) => void,
  reading: Pick<ChunkReading, 'file' | 'lineNumber' | 'onBytes'>,
): Promise<void> {
  const chunker = new LineChunker(onText, reading.file, reading.lineNumber);
  for await (const chunk of source) {
    if (typeof chunk === 'string') {
      reading.onBytes?.(chunk.length);
      chunker.text(chunk);
    } else {
      reading.onBytes?.(chunk.byteLength);
      chunker.bytes(chunk);
    }
  }
  chunker.end();
}

/**
 * Hands over the source's text in pieces that end on a line end: a file is read synchronously in
 * 64 kB chunks (one reused buffer), standard input (`-`) as it arrives.
 */
export async function forEachLineChunk(
  source: TextSource,
  stdin: AsyncIterable<string | Uint8Array>,
  onText: (text: string) => void,
  reading: Pick<ChunkReading, 'file' | 'lineNumber' | 'onBytes'>,
): Promise<void> {
  if (source !== '-') {
    readFileChunks(source, onText, reading);
    return;
  }
  await forEachAsyncLineChunk(stdin, onText, reading);
}
