// trec-eval's output: bytes collected in one buffer and written in 64 kB pieces, whole lines only.
import { fstatSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';

import { ByteLines } from './format.js';

/** Where the lines go: a Node stream (written as bytes) or anything with write(text), such as a test's capture. */
export interface OutputStream {
  write(chunk: string): boolean;
  once?(event: 'drain', listener: () => void): unknown;
}

/** Pieces at least this long are copied with TypedArray.set rather than byte by byte. */
const LONG_PIECE = 256;

export class TrecOutput {
  /** Lines not yet written; callers may format into it directly, then call flushIfFull. */
  readonly lines: ByteLines;
  /** A Node stream takes the bytes as they are; anything else (a test's capture) gets text. */
  private readonly takesBytes: boolean;
  /** Set when the stream writes to a regular file (`> results.txt`): its descriptor, written to directly. */
  private readonly fileDescriptor: number | undefined;

  constructor(
    private readonly stream: OutputStream,
    private readonly flushAt = 1 << 16,
  ) {
    this.lines = new ByteLines(flushAt + (flushAt >> 2));
    this.takesBytes = stream instanceof Writable;
    this.fileDescriptor = this.takesBytes ? regularFileDescriptor(stream as unknown as Writable) : undefined;
  }

  /** Appends text (whole lines). */
  push(text: string): void {
    this.lines.text(text);
    this.flushIfFull();
  }

  /** Appends bytes (whole lines of UTF-8). */
  pushBytes(bytes: Uint8Array): void {
    if (bytes.length >= this.flushAt) {
      this.flush();
      this.write(bytes);
      return;
    }
    if (bytes.length >= LONG_PIECE) {
      this.lines.reserve(bytes.length);
      this.lines.bytes.set(bytes, this.lines.length);
      this.lines.length += bytes.length;
    } else {
      this.lines.append(bytes);
    }
    this.flushIfFull();
  }

  flushIfFull(): void {
    if (this.lines.length >= this.flushAt) this.flush();
  }

  /** Writes what has been collected; false when the destination asks to wait for 'drain'. */
  flush(): boolean {
    if (this.lines.length === 0) return true;
    const pending = this.lines.bytes.subarray(0, this.lines.length);
    this.lines.length = 0;
    if (this.writesDirectly()) {
      writeAll(this.fileDescriptor as number, pending);
      return true;
    }
    // A stream may hold on to the chunk until it is written, and the buffer is reused: it gets a copy.
    return this.write(this.takesBytes ? Buffer.from(pending) : pending);
  }

  /**
   * A file takes each write before writeSync returns, so the reused buffer needs no copy (a fresh
   * 64 kB copy per flush is most of what writing 17 MB of -q lines costs). Only while the stream
   * holds nothing of its own, so that the order of the bytes stays the order of the writes.
   */
  private writesDirectly(): boolean {
    return this.fileDescriptor !== undefined && (this.stream as unknown as Writable).writableLength === 0;
  }

  private write(bytes: Uint8Array): boolean {
    if (this.writesDirectly()) {
      writeAll(this.fileDescriptor as number, bytes);
      return true;
    }
    if (this.takesBytes) return (this.stream as unknown as Writable).write(bytes);
    return this.stream.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'));
  }

  /** Writes the rest and waits until the destination has taken it. */
  async end(): Promise<void> {
    const ready = this.flush();
    if (!ready && this.stream.once !== undefined) {
      await new Promise<void>((resolve) => this.stream.once?.('drain', resolve));
    }
  }
}

/**
 * The descriptor of standard output when it is redirected to a regular file (`> results.txt`), where
 * Node writes synchronously too. Any other stream (a pipe, a terminal, an fs.WriteStream that may write
 * at positions of its own) is written through the stream.
 */
function regularFileDescriptor(stream: Writable): number | undefined {
  if (stream !== process.stdout) return undefined;
  const descriptor = (stream as Writable & { fd?: unknown }).fd;
  if (typeof descriptor !== 'number') return undefined;
  try {
    return fstatSync(descriptor).isFile() ? descriptor : undefined;
  } catch {
    return undefined;
  }
}

function writeAll(descriptor: number, bytes: Uint8Array): void {
  for (let written = 0; written < bytes.length;)
    written += writeSync(descriptor, bytes, written, bytes.length - written);
}
