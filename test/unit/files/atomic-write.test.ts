import fs from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { writeFileAtomic, writeFileAtomicSync } from '../../../src/files/atomic-write.js';

const PREVIOUS_BYTES = Buffer.from('previous contents — keep me\n', 'utf8');

function codedError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-atomic-'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(directory, { recursive: true, force: true });
});

async function modeOf(filePath: string): Promise<number> {
  return (await stat(filePath)).mode & 0o777;
}

// The two functions must behave the same; each case runs against both.
const variants = [
  {
    name: 'writeFileAtomic',
    write: (filePath: string, contents: string | Uint8Array) => writeFileAtomic(filePath, contents),
    spyOnRename: () => vi.spyOn(fs.promises, 'rename'),
    failRename: () =>
      vi.spyOn(fs.promises, 'rename').mockRejectedValueOnce(codedError('EXDEV', 'simulated rename failure')),
  },
  {
    name: 'writeFileAtomicSync',
    write: async (filePath: string, contents: string | Uint8Array) => writeFileAtomicSync(filePath, contents),
    spyOnRename: () => vi.spyOn(fs, 'renameSync'),
    failRename: () =>
      vi.spyOn(fs, 'renameSync').mockImplementationOnce(() => {
        throw codedError('EXDEV', 'simulated rename failure');
      }),
  },
] as const;

describe.each(variants)('$name', ({ write, spyOnRename, failRename }) => {
  it('creates a new file with the given string as UTF-8', async () => {
    const target = path.join(directory, 'new.txt');
    await write(target, 'héllo\n');
    expect(await readFile(target)).toEqual(Buffer.from('héllo\n', 'utf8'));
  });

  it('replaces an existing file with the given bytes', async () => {
    const target = path.join(directory, 'existing.bin');
    await writeFile(target, PREVIOUS_BYTES);
    await write(target, new Uint8Array([0, 1, 2, 255]));
    expect(await readFile(target)).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(await readdir(directory)).toEqual(['existing.bin']);
  });

  it("keeps an existing file's mode", async () => {
    const target = path.join(directory, 'private.json');
    await writeFile(target, PREVIOUS_BYTES);
    await chmod(target, 0o640);
    await write(target, '{}');
    expect(await modeOf(target)).toBe(0o640);
    await chmod(target, 0o400);
    await write(target, '[]');
    expect(await modeOf(target)).toBe(0o400);
    expect(await readFile(target, 'utf8')).toBe('[]');
  });

  it('gives a new file the same mode as fs.writeFile would (0o666 minus the umask)', async () => {
    const reference = path.join(directory, 'reference.txt');
    const target = path.join(directory, 'atomic.txt');
    await writeFile(reference, 'x');
    await write(target, 'x');
    expect(await modeOf(target)).toBe(await modeOf(reference));
  });

  it('renames from a temp file in the same directory whose name holds the process id', async () => {
    const rename = spyOnRename();
    const target = path.join(directory, 'baseline.json');
    await write(target, '{}');
    expect(rename).toHaveBeenCalledTimes(1);
    const [tempPath, renamedTo] = rename.mock.calls[0] as unknown as [string, string];
    expect(path.dirname(tempPath)).toBe(path.dirname(renamedTo));
    expect(renamedTo).toBe(path.join(await fs.promises.realpath(directory), 'baseline.json'));
    expect(path.basename(tempPath)).toContain(`.${process.pid}.`);
    expect(path.basename(tempPath)).not.toBe('baseline.json');
  });

  it('leaves the previous file byte-identical and no temp file when the rename fails', async () => {
    const target = path.join(directory, 'report.md');
    await writeFile(target, PREVIOUS_BYTES);
    failRename();
    await expect(write(target, 'new contents')).rejects.toThrow('EXDEV: simulated rename failure');
    expect(await readFile(target)).toEqual(PREVIOUS_BYTES);
    expect(await readdir(directory)).toEqual(['report.md']);
  });

  it('fails with ENOENT and creates nothing when the directory does not exist', async () => {
    const target = path.join(directory, 'missing-dir', 'file.txt');
    await expect(write(target, 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(directory)).toEqual([]);
  });

  it('fails when the target is a directory, leaving it and its contents alone and no temp file behind', async () => {
    const target = path.join(directory, 'is-a-directory');
    await mkdir(target);
    await writeFile(path.join(target, 'inside.txt'), PREVIOUS_BYTES);
    await expect(write(target, 'x')).rejects.toMatchObject({
      code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/),
    });
    expect((await stat(target)).isDirectory()).toBe(true);
    expect(await readFile(path.join(target, 'inside.txt'))).toEqual(PREVIOUS_BYTES);
    expect(await readdir(directory)).toEqual(['is-a-directory']);
  });

  it('writes through a symlink to the file it points to, keeping the link', async () => {
    const realFile = path.join(directory, 'real.txt');
    const link = path.join(directory, 'link.txt');
    await writeFile(realFile, PREVIOUS_BYTES);
    await symlink(realFile, link);
    await write(link, 'through the link');
    expect(await readFile(realFile, 'utf8')).toBe('through the link');
    expect((await fs.promises.lstat(link)).isSymbolicLink()).toBe(true);
    expect((await readdir(directory)).sort()).toEqual(['link.txt', 'real.txt']);
  });

  it('rejects a non-string path and contents that are neither string nor bytes with a TypeError', async () => {
    await expect(write('', 'x')).rejects.toThrow(/path must be a non-empty string, got ""/);
    await expect(write(path.join(directory, 'a'), 42 as unknown as string)).rejects.toThrow(
      /contents must be a string or Uint8Array, got number/,
    );
    await expect(write(path.join(directory, 'a'), 42 as unknown as string)).rejects.toThrow(TypeError);
  });
});

describe('writeFileAtomic (async only)', () => {
  it('ends with one complete version and no temp files after many concurrent writes', async () => {
    const target = path.join(directory, 'contended.txt');
    const versions = Array.from({ length: 25 }, (_, index) => `version ${index}\n`.repeat(200));
    await Promise.all(versions.map((contents) => writeFileAtomic(target, contents)));
    expect(versions).toContain(await readFile(target, 'utf8'));
    expect(await readdir(directory)).toEqual(['contended.txt']);
  });

  it('ignores a directory fsync that the platform does not support (EISDIR)', async () => {
    const open = fs.promises.open.bind(fs.promises);
    const realDirectory = await fs.promises.realpath(directory);
    vi.spyOn(fs.promises, 'open').mockImplementation(async (filePath, flags, mode) => {
      if (filePath === realDirectory) throw codedError('EISDIR', 'illegal operation on a directory');
      return open(filePath, flags, mode);
    });
    const target = path.join(directory, 'file.txt');
    await writeFileAtomic(target, 'ok');
    expect(await readFile(target, 'utf8')).toBe('ok');
  });

  it('reports a real directory fsync failure (EIO), after the new contents are in place', async () => {
    const open = fs.promises.open.bind(fs.promises);
    const realDirectory = await fs.promises.realpath(directory);
    vi.spyOn(fs.promises, 'open').mockImplementation(async (filePath, flags, mode) => {
      if (filePath === realDirectory) throw codedError('EIO', 'i/o error');
      return open(filePath, flags, mode);
    });
    const target = path.join(directory, 'file.txt');
    await expect(writeFileAtomic(target, 'ok')).rejects.toMatchObject({ code: 'EIO' });
    expect(await readFile(target, 'utf8')).toBe('ok');
  });
});
