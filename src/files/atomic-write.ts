// Atomic file replacement: readers see either the old file or the new one, never a partial write.
//
// Steps: write a temp file in the target's directory (same file system, so rename is atomic), fsync
// it, rename it over the target, fsync the directory so the rename itself survives a crash. If any
// step before the rename completes fails, the temp file is removed and the target is untouched.
//
// A process killed between creating its temp file and the rename (kill -9, power loss) leaves
// `.<name>.<pid>.<hex>.tmp` behind. The next write of the same target removes such files when their
// pid is no longer running on this host or they are older than an hour, so they do not linger for
// `git add .` to pick up.
//
// Writing through a symlink (dangling too) replaces the file it points to, not the link.
//
// The `fs` module object is used through its properties (fs.promises.rename, fs.renameSync, …) so
// tests can make a single step fail with vi.spyOn.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { isRunning } from '../files/lock.js';
import { errorCode, realPathOf, realPathOfSync } from '../files/real-path.js';

/** Directory-fsync errors that only mean "not supported here" (Windows, some file systems). */
const IGNORED_DIRECTORY_SYNC_ERRORS = new Set(['EISDIR', 'EPERM', 'EINVAL', 'ENOTSUP', 'EACCES']);

/** Writes `contents` (a string is written as UTF-8) to `filePath` atomically. Keeps an existing file's mode. */
export async function writeFileAtomic(filePath: string, contents: string | Uint8Array): Promise<void> {
  assertArguments('writeFileAtomic', filePath, contents);
  const targetPath = await realPathOf(filePath);
  const existingMode = await existingFileMode(targetPath);
  const tempPath = tempPathFor(targetPath);
  try {
    await writeAndSyncTemp(tempPath, contents, existingMode);
    await fs.promises.rename(tempPath, targetPath);
  } catch (error) {
    await fs.promises.rm(tempPath, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(path.dirname(targetPath));
  removeOrphanedTemps(targetPath);
}

/** Synchronous twin of writeFileAtomic. */
export function writeFileAtomicSync(filePath: string, contents: string | Uint8Array): void {
  assertArguments('writeFileAtomicSync', filePath, contents);
  const targetPath = realPathOfSync(filePath);
  const existingMode = existingFileModeSync(targetPath);
  const tempPath = tempPathFor(targetPath);
  try {
    writeAndSyncTempSync(tempPath, contents, existingMode);
    fs.renameSync(tempPath, targetPath);
  } catch (error) {
    try {
      fs.rmSync(tempPath, { force: true });
    } catch {
      // the original error matters more than a failed clean-up
    }
    throw error;
  }
  syncDirectorySync(path.dirname(targetPath));
  removeOrphanedTemps(targetPath);
}

function assertArguments(caller: string, filePath: unknown, contents: unknown): void {
  if (typeof filePath !== 'string' || filePath.length === 0) {
    throw new TypeError(
      `${caller}: path must be a non-empty string, got ${JSON.stringify(filePath)}; pass a file path`,
    );
  }
  if (typeof contents !== 'string' && !(contents instanceof Uint8Array)) {
    throw new TypeError(
      `${caller}: contents must be a string or Uint8Array, got ${typeof contents}; serialise it first (e.g. JSON.stringify)`,
    );
  }
}

/** `<dir>/.<name>.<pid>.<random>.tmp`: same directory as the target, unique per process and call. */
function tempPathFor(targetPath: string): string {
  const suffix = randomBytes(6).toString('hex');
  return path.join(path.dirname(targetPath), `.${path.basename(targetPath)}.${process.pid}.${suffix}.tmp`);
}

const ORPHAN_AGE_MS = 60 * 60_000;

/** The pid in `.<name>.<pid>.<hex>.tmp` when `entry` is a temp file of `targetName`, else undefined. */
export function tempFileOwner(entry: string, targetName: string): number | undefined {
  const prefix = `.${targetName}.`;
  if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) return undefined;
  const match = /^(\d+)\.[0-9a-f]{12}$/.exec(entry.slice(prefix.length, -'.tmp'.length));
  return match === null ? undefined : Number(match[1]);
}

// Best effort and synchronous (a readdir and a few unlinks): a failure here never fails the write.
function removeOrphanedTemps(targetPath: string): void {
  const directory = path.dirname(targetPath);
  const targetName = path.basename(targetPath);
  try {
    for (const entry of fs.readdirSync(directory)) {
      const pid = tempFileOwner(entry, targetName);
      if (pid === undefined || pid === process.pid) continue;
      const entryPath = path.join(directory, entry);
      if (isRunning(pid) && Date.now() - fs.statSync(entryPath).mtimeMs < ORPHAN_AGE_MS) continue;
      fs.rmSync(entryPath, { force: true });
    }
  } catch {
    // a folder we cannot list or a file another process just removed: nothing to clean
  }
}

async function existingFileMode(targetPath: string): Promise<number | undefined> {
  try {
    const stats = await fs.promises.stat(targetPath);
    return stats.isFile() ? stats.mode & 0o7777 : undefined;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function existingFileModeSync(targetPath: string): number | undefined {
  try {
    const stats = fs.statSync(targetPath);
    return stats.isFile() ? stats.mode & 0o7777 : undefined;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

async function writeAndSyncTemp(
  tempPath: string,
  contents: string | Uint8Array,
  mode: number | undefined,
): Promise<void> {
  // 'wx': never reuse an existing file. New files get 0o666 minus the umask, like fs.writeFile.
  const handle = await fs.promises.open(tempPath, 'wx');
  try {
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(contents);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function writeAndSyncTempSync(tempPath: string, contents: string | Uint8Array, mode: number | undefined): void {
  const descriptor = fs.openSync(tempPath, 'wx');
  try {
    if (mode !== undefined) fs.fchmodSync(descriptor, mode);
    fs.writeFileSync(descriptor, contents);
    fs.fsyncSync(descriptor);
  } finally {
    fs.closeSync(descriptor);
  }
}

async function syncDirectory(directory: string): Promise<void> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(directory, 'r');
    await handle.sync();
  } catch (error) {
    if (!IGNORED_DIRECTORY_SYNC_ERRORS.has(String(errorCode(error)))) throw error;
  } finally {
    await handle?.close();
  }
}

function syncDirectorySync(directory: string): void {
  let descriptor: number | undefined;
  try {
    descriptor = fs.openSync(directory, 'r');
    fs.fsyncSync(descriptor);
  } catch (error) {
    if (!IGNORED_DIRECTORY_SYNC_ERRORS.has(String(errorCode(error)))) throw error;
  } finally {
    if (descriptor !== undefined) fs.closeSync(descriptor);
  }
}
