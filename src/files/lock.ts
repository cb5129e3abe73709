// An exclusive lock on a file we read, merge and write back (the baseline), shared by every process
// on the machine and by processes on other machines that see the same folder.
//
// The lock is a file `.<name>.lock` next to the target's real path (symlinks followed), created with O_EXCL ('wx'), holding the
// owner's pid, host and start time. A lock is stale when its owner is gone: same host and the pid is
// no longer running, or (any host) it is older than `staleMs`. A stale lock is removed under a second,
// short-lived O_EXCL "breaker" file, so two waiters cannot both break it and then remove each other's
// fresh lock. Waiting is bounded: after `timeoutMs` the caller gets a LockTimeoutError naming the
// holder. A process killed while holding the lock leaves the file until the next update breaks it.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

import { fileKindOf } from './file-kind.js';
import { errorCode, realPathOf } from './real-path.js';

export interface FileLockOptions {
  /** How long to wait for another holder before giving up. Default 30 s. */
  timeoutMs?: number;
  /** A lock older than this is stale whatever its pid says (its owner may be on another host). Default 10 min. */
  staleMs?: number;
}

interface LockOwner {
  pid: number;
  host: string;
  since: string;
  /** Tells two holders in one process apart, so each releases only its own lock. */
  token?: string;
}

/** Thrown when the lock on `target` was still held by another process after the wait. */
export class LockTimeoutError extends Error {
  override name = 'LockTimeoutError';
  readonly lockPath: string;
  readonly owner: LockOwner | undefined;
  readonly waitedMs: number;

  constructor(lockPath: string, owner: LockOwner | undefined, waitedMs: number) {
    const who =
      owner === undefined ? 'another process' : `process ${owner.pid} on ${owner.host} (since ${owner.since})`;
    super(
      `is being updated by ${who}: still locked after ${(waitedMs / 1000).toFixed(0)} s. ` +
        `Run the update again when that run has finished; if no other run is going, delete ${lockPath}.`,
    );
    this.lockPath = lockPath;
    this.owner = owner;
    this.waitedMs = waitedMs;
  }
}

/**
 * Thrown when the lock's path holds something no lock of ours could be (a folder, a named pipe, a
 * socket): waiting cannot help, and reading a named pipe would wait forever.
 */
class LockPathError extends Error {
  override name = 'LockPathError';
  readonly lockPath: string;

  constructor(lockPath: string, kind: string) {
    super(
      `its lock ${lockPath} is ${kind}, not a lock file rag-matchers made; ` +
        `if no other run is updating the baseline, remove it (rm -r ${shellQuoted(lockPath)}) and run the update again.`,
    );
    this.lockPath = lockPath;
  }
}

/** `path` as one shell word: single-quoted when it holds anything beyond letters, digits and `/._-`. */
function shellQuoted(path: string): string {
  return /^[\w/.-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_STALE_MS = 10 * 60_000;
// Breaking a lock takes a read and an unlink; a breaker older than this was left by a killed process.
const BREAKER_STALE_MS = 10_000;

/** `<dir>/.<name>.lock` for `<dir>/<name>`. */
function lockPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.lock`);
}

/** Runs `action` while holding the lock on `target`; releases it afterwards, also when `action` throws. */
export async function withFileLock<T>(
  target: string,
  action: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = checkedMs(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const staleMs = checkedMs(options.staleMs, DEFAULT_STALE_MS, 'staleMs');
  // The real path: two symlinks to one file must take one lock, the one next to the file written.
  const lockPath = lockPathFor(await realPathOf(target));
  const ownText = JSON.stringify({
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    token: randomBytes(6).toString('hex'),
  } satisfies LockOwner);
  await acquire(lockPath, ownText, timeoutMs, staleMs);
  try {
    return await action();
  } finally {
    await release(lockPath, ownText);
  }
}

function checkedMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(
      `withFileLock: options.${name} must be a finite number of milliseconds ≥ 0, got ${String(value)}.`,
    );
  }
  return value;
}

async function acquire(lockPath: string, ownText: string, timeoutMs: number, staleMs: number): Promise<void> {
  const started = Date.now();
  let delay = 5;
  for (;;) {
    if (await tryCreate(lockPath, ownText)) return;
    const seen = await readLock(lockPath);
    if (seen !== undefined && isStale(seen, staleMs)) {
      await breakStaleLock(lockPath, seen.text, staleMs);
      continue;
    }
    const waited = Date.now() - started;
    if (waited >= timeoutMs) throw new LockTimeoutError(lockPath, seen?.owner, waited);
    await sleep(Math.min(delay, timeoutMs - waited) * (0.5 + Math.random()));
    delay = Math.min(delay * 2, 200);
  }
}

async function tryCreate(lockPath: string, text: string): Promise<boolean> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(lockPath, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  return true;
}

interface SeenLock {
  text: string;
  owner: LockOwner | undefined;
  ageMs: number;
}

async function readLock(lockPath: string): Promise<SeenLock | undefined> {
  try {
    // Looked at before it is read: reading a named pipe left at the lock's path would never return.
    const stats = await fs.promises.lstat(lockPath);
    if (!stats.isFile()) throw new LockPathError(lockPath, fileKindOf(stats));
    const text = await fs.promises.readFile(lockPath, 'utf8');
    return { text, owner: parseOwner(text), ageMs: Date.now() - stats.mtimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner> | null;
    if (typeof value?.pid === 'number' && typeof value.host === 'string' && typeof value.since === 'string') {
      return { pid: value.pid, host: value.host, since: value.since };
    }
  } catch {
    // a lock file being written right now, or garbage: judged by its age alone
  }
  return undefined;
}

function isStale(seen: SeenLock, staleMs: number): boolean {
  if (seen.ageMs > staleMs) return true;
  // An empty or half-written file is a lock being created right now unless it is old.
  if (seen.owner === undefined) return seen.ageMs > BREAKER_STALE_MS;
  return seen.owner.host === hostname() && seen.owner.pid !== process.pid && !isRunning(seen.owner.pid);
}

/** True when a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

async function breakStaleLock(lockPath: string, staleText: string, staleMs: number): Promise<void> {
  const breakerPath = `${lockPath}.break`;
  if (!(await tryCreate(breakerPath, String(process.pid)))) {
    const breaker = await readLock(breakerPath);
    if (breaker !== undefined && breaker.ageMs > Math.min(BREAKER_STALE_MS, staleMs)) {
      await fs.promises.rm(breakerPath, { force: true });
    } else {
      await sleep(5);
    }
    return;
  }
  try {
    // Only the lock we judged stale is removed, not one a faster waiter created since.
    const current = await readLock(lockPath);
    if (current?.text === staleText) await fs.promises.rm(lockPath, { force: true });
  } finally {
    await fs.promises.rm(breakerPath, { force: true });
  }
}

async function release(lockPath: string, ownText: string): Promise<void> {
  const current = await readLock(lockPath).catch(() => undefined);
  // Never remove a lock that is not ours (ours was judged stale and broken: the action overran staleMs).
  if (current?.text === ownText) await fs.promises.rm(lockPath, { force: true });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
