// Temp files a killed writer left next to its target are removed by the next write of that target.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { tempFileOwner, writeFileAtomic, writeFileAtomicSync } from '../../../src/files/atomic-write.js';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-orphans-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('tempFileOwner', () => {
  it('reads the pid of .<name>.<pid>.<12 hex>.tmp for that name only', () => {
    expect(tempFileOwner('.rag-baseline.json.4242.0123456789ab.tmp', 'rag-baseline.json')).toBe(4242);
    expect(tempFileOwner('.rag-baseline.json.4242.0123456789ab.tmp', 'report.json')).toBeUndefined();
    expect(tempFileOwner('.rag-baseline.json.4242.xyz.tmp', 'rag-baseline.json')).toBeUndefined();
    expect(tempFileOwner('.rag-baseline.json.lock', 'rag-baseline.json')).toBeUndefined();
    expect(tempFileOwner('rag-baseline.json', 'rag-baseline.json')).toBeUndefined();
  });
});

describe.each([
  ['writeFileAtomic', (file: string, text: string) => writeFileAtomic(file, text)],
  ['writeFileAtomicSync', async (file: string, text: string) => writeFileAtomicSync(file, text)],
])('%s and orphaned temp files', (_name, write) => {
  it("removes a dead pid's temp files of the same target, keeps a live writer's and other files", async () => {
    const dead = deadPid();
    const orphan = `.rag-baseline.json.${dead}.0123456789ab.tmp`;
    const live = `.rag-baseline.json.${process.ppid}.abcdefabcdef.tmp`;
    const otherTarget = `.report.json.${dead}.0123456789ab.tmp`;
    for (const name of [orphan, live, otherTarget, 'notes.txt']) await writeFile(path.join(directory, name), 'x');
    await write(path.join(directory, 'rag-baseline.json'), '{}');
    expect((await readdir(directory)).sort()).toEqual([live, otherTarget, 'notes.txt', 'rag-baseline.json'].sort());
  });

  it("removes a live pid's temp file once it is over an hour old (the pid was reused)", async () => {
    const stale = `.rag-baseline.json.${process.ppid}.abcdefabcdef.tmp`;
    await writeFile(path.join(directory, stale), 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await utimes(path.join(directory, stale), twoHoursAgo, twoHoursAgo);
    await write(path.join(directory, 'rag-baseline.json'), '{}');
    expect(await readdir(directory)).toEqual(['rag-baseline.json']);
  });
});
