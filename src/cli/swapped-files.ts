// `trec-eval RUN QRELS`: the run read as qrels fails on its first line with "expected 4 columns …,
// found 6". When the other file's first line has a qrels' 4 columns, the two were given in the wrong
// order: the error says so, with the order that works.
import { closeSync, openSync, readSync } from 'node:fs';

import { DatasetFormatError } from '../files/format-error.js';
import { readsOnlyOnce } from '../files/file-kind.js';
import { CommandError, EXIT_USAGE } from './io.js';

/** How many whitespace-separated columns the first non-blank line of `path` has (its first 64 kB); undefined when unreadable. */
function firstLineColumns(path: string): number | undefined {
  if (readsOnlyOnce(path)) return undefined;
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, 'r');
    const buffer = Buffer.alloc(1 << 16);
    const text = buffer.toString('utf8', 0, readSync(descriptor, buffer, 0, buffer.length, 0));
    const line = text.split('\n').find((candidate) => candidate.trim() !== '' && !candidate.startsWith('#'));
    return line === undefined ? undefined : line.trim().split(/\s+/).length;
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * `error` with a note that the files look swapped, when the qrels file (`qrelsPath`) has a run's 6
 * columns and the run file a qrels' 4; else `error` unchanged. `swappedCommand` is the call in the order that works.
 */
export function withSwappedFilesHint(
  error: unknown,
  qrelsPath: string,
  runPath: string,
  swappedCommand: string,
): unknown {
  if (!(error instanceof DatasetFormatError) || error.file !== qrelsPath) return error;
  if (!/expected 4 columns .*found 6$/.test(error.problem) || firstLineColumns(runPath) !== 4) return error;
  return new CommandError(
    `${error.message}\nThe two files look swapped: ${qrelsPath} has a run's 6 columns and ${runPath} a qrels' 4. ` +
      `The qrels come first: ${swappedCommand}`,
    EXIT_USAGE,
  );
}
