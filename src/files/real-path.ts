// The file a path finally names, symlinks followed: what the baseline's lock, temp file and write all
// use, so two links to one file take one lock and write one file.
//
// fs.realpath fails with ENOENT for a file that does not exist yet and for a dangling link; then the
// link is followed by hand (readlink, relative to the link's folder) and the folder's real path is
// joined with the name, so a first write through a link creates the file the link points to.

import fs from 'node:fs';
import path from 'node:path';

/** More hops than this is a loop (Linux gives up at 40 as well: ELOOP). */
const MAX_LINK_HOPS = 40;

/** The real path of `target`, also when it does not exist yet (folder's real path + name). */
export async function realPathOf(target: string): Promise<string> {
  let current = path.resolve(target);
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop += 1) {
    try {
      return await fs.promises.realpath(current);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    const link = await linkTextOf(current);
    if (link === undefined) return path.join(await realFolderOf(path.dirname(current)), path.basename(current));
    current = path.resolve(path.dirname(current), link);
  }
  throw loopError(target);
}

/** Synchronous twin of realPathOf. */
export function realPathOfSync(target: string): string {
  let current = path.resolve(target);
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop += 1) {
    try {
      return fs.realpathSync(current);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    const link = linkTextOfSync(current);
    if (link === undefined) return path.join(realFolderOfSync(path.dirname(current)), path.basename(current));
    current = path.resolve(path.dirname(current), link);
  }
  throw loopError(target);
}

async function linkTextOf(file: string): Promise<string | undefined> {
  try {
    return await fs.promises.readlink(file);
  } catch {
    return undefined;
  }
}

function linkTextOfSync(file: string): string | undefined {
  try {
    return fs.readlinkSync(file);
  } catch {
    return undefined;
  }
}

// A folder that does not exist either: the write will fail with ENOENT naming it; the resolved path
// is as good a name as any until then.
async function realFolderOf(folder: string): Promise<string> {
  try {
    return await fs.promises.realpath(folder);
  } catch {
    return folder;
  }
}

function realFolderOfSync(folder: string): string {
  try {
    return fs.realpathSync(folder);
  } catch {
    return folder;
  }
}

function loopError(target: string): Error {
  return Object.assign(new Error(`${target}: more than ${MAX_LINK_HOPS} symbolic links in a row (a loop?)`), {
    code: 'ELOOP',
  });
}

/** The `code` of a Node.js system error (ENOENT, EEXIST, …), undefined for anything else. */
export function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}
