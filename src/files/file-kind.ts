// What a path names when it is not a regular file, in words for messages. A named pipe, a socket or a
// device where a file is expected is refused before it is opened: reading a named pipe waits for a
// writer that may never come, and no rag-matchers file is ever one.

import fs from 'node:fs';

/** "a folder", "a named pipe (FIFO)", …; "a regular file" for a file. */
export function fileKindOf(stats: fs.Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/**
 * What `path` names (symlinks followed) when that is neither a regular file nor a folder: a named
 * pipe, a socket, a device; undefined for a file, a folder, or nothing yet.
 */
export function specialFileKind(path: string): string | undefined {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(path);
  } catch {
    // Nothing there yet, or a path the read or write itself will report on (ELOOP, EACCES).
    return undefined;
  }
  return stats.isFile() || stats.isDirectory() ? undefined : fileKindOf(stats);
}

/**
 * True when `path` (symlinks followed) can only be read once, from the start: a named pipe, a
 * character device such as /dev/stdin, a socket. `<(cat run)` is such a path (/dev/fd/63).
 */
export function readsOnlyOnce(path: string): boolean {
  try {
    const stats = fs.statSync(path);
    return stats.isFIFO() || stats.isCharacterDevice() || stats.isSocket();
  } catch {
    return false;
  }
}
