// Two processes updating one baseline at the same time, and a process killed in the middle of an
// update: real child processes (node + tsx running src/), not simulated timings.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { BaselineError } from '../../../src/baseline/file/errors.js';
import { parseBaseline } from '../../../src/baseline/file/read.js';
import { type BaselineFile } from '../../../src/baseline/file/types.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import { updateBaseline } from '../../../src/baseline/store.js';
import { parseSuiteKey, suiteKeyOf, type CollectedRun } from '../../../src/recording/collected.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const child = fileURLToPath(new URL('./fixtures/update-child.ts', import.meta.url));
const killOnRename = fileURLToPath(new URL('../../integration/reporters/kill-on-rename.mjs', import.meta.url));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function runChild(target: string, tag: string, count: number, env: Record<string, string> = {}): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const processHandle = spawn(process.execPath, ['--import', 'tsx', child, target, tag, String(count)], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    processHandle.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    processHandle.on('error', reject);
    processHandle.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** A baseline with `size` suites of 20 samples: slow enough to read, merge and write that updates overlap. */
function largeBaseline(size: number): BaselineFile {
  const suites: BaselineFile['suites'] = Object.create(null) as BaselineFile['suites'];
  for (let index = 0; index < size; index += 1) {
    const samples: Record<string, number> = {};
    for (let sample = 0; sample < 20; sample += 1) samples[`q${sample}`] = sample / 20;
    suites[suiteKeyOf({ file: `seed-${index}.test.ts`, describe: [] })] = { 'recall@5': samples };
  }
  return { schemaVersion: 2, generatedBy: 'rag-matchers', suites };
}

function oneSuiteRun(file: string): CollectedRun {
  return {
    runner: 'vitest',
    files: [file],
    samples: [{ file, describePath: [], test: 't', measure: 'mrr', value: 1, pass: true, queryId: 'q1' }],
  };
}

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-concurrent-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('concurrent baseline updates', () => {
  it('keeps every suite of two processes that update the same large baseline at once (2 trials × 2 × 8 updates)', async () => {
    for (let trial = 0; trial < 2; trial += 1) {
      const target = path.join(directory, `rag-baseline-${trial}.json`);
      await writeFile(target, formatBaseline(largeBaseline(400)));
      const exits = await Promise.all([runChild(target, 'left', 8), runChild(target, 'right', 8)]);
      for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0 });
      const suites = Object.keys(parseBaseline(await readFile(target, 'utf8'), target).suites).map(
        (suiteKey) => parseSuiteKey(suiteKey).file,
      );
      const expected = ['left', 'right'].flatMap((tag) =>
        Array.from({ length: 8 }, (_, index) => `${tag}-${index}.test.ts`),
      );
      expect(suites.filter((suite) => !suite.startsWith('seed-')).sort()).toEqual(expected.sort());
      expect(suites.filter((suite) => suite.startsWith('seed-'))).toHaveLength(400);
    }
    // No lock or temp file is left behind.
    expect((await readdir(directory)).filter((name) => !/^rag-baseline-\d\.json$/.test(name))).toEqual([]);
  }, 120_000);

  it('cleans up after a process killed (SIGKILL) between writing its temp file and the rename', async () => {
    const target = path.join(directory, 'rag-baseline.json');
    await writeFile(target, formatBaseline(largeBaseline(10)));
    const before = await readFile(target, 'utf8');
    const killed = await runChild(target, 'killed', 1, {
      NODE_OPTIONS: `--import=${killOnRename}`,
      RAG_TEST_KILL_ON_RENAME: 'rag-baseline.json',
    });
    expect(killed.signal).toBe('SIGKILL');
    // What a killed writer leaves: the old file intact, its lock and its temp file.
    expect(await readFile(target, 'utf8')).toBe(before);
    const left = (await readdir(directory)).sort();
    expect(left).toContain('.rag-baseline.json.lock');
    expect(left.some((name) => /^\.rag-baseline\.json\.\d+\.[0-9a-f]{12}\.tmp$/.test(name))).toBe(true);

    // The next update breaks the dead process's lock, writes, and removes the orphaned temp file.
    const next = await runChild(target, 'next', 1);
    expect(next, next.stderr).toMatchObject({ code: 0 });
    expect(await readdir(directory)).toEqual(['rag-baseline.json']);
    expect(
      Object.keys(parseBaseline(await readFile(target, 'utf8'), target).suites).map(
        (suiteKey) => parseSuiteKey(suiteKey).file,
      ),
    ).toContain('next-0.test.ts');
  }, 60_000);
});

describe('the baseline lock', () => {
  it('gives up after the wait with a BaselineError naming the holder when a live process holds it', async () => {
    const target = path.join(directory, 'rag-baseline.json');
    // This process is alive, so its lock is never stale; the update waits 150 ms and gives up.
    await writeFile(
      path.join(directory, '.rag-baseline.json.lock'),
      JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-01-01T00:00:00.000Z', token: 'other' }),
    );
    const error = await updateBaseline(target, oneSuiteRun('a.test.ts'), { lock: { timeoutMs: 150 } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BaselineError);
    expect((error as BaselineError).kind).toBe('locked');
    expect((error as BaselineError).message).toContain(`is being updated by process ${process.pid} on ${hostname()}`);
    expect((error as BaselineError).message).toContain(`delete ${path.join(directory, '.rag-baseline.json.lock')}`);
    expect(await readdir(directory)).toEqual(['.rag-baseline.json.lock']);
  });

  it('breaks a lock older than staleMs even when its owner is on another host', async () => {
    const target = path.join(directory, 'rag-baseline.json');
    const lock = path.join(directory, '.rag-baseline.json.lock');
    await writeFile(lock, JSON.stringify({ pid: 1, host: 'some-other-host', since: '2026-01-01T00:00:00.000Z' }));
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(lock, anHourAgo, anHourAgo);
    const result = await updateBaseline(target, oneSuiteRun('a.test.ts'), { lock: { timeoutMs: 1000 } });
    expect(result.written).toBe(true);
    expect(await readdir(directory)).toEqual(['rag-baseline.json']);
  });

  it('waits for a fresh lock on another host rather than breaking it', async () => {
    const target = path.join(directory, 'rag-baseline.json');
    await writeFile(
      path.join(directory, '.rag-baseline.json.lock'),
      JSON.stringify({ pid: 1, host: 'some-other-host', since: new Date().toISOString() }),
    );
    await expect(updateBaseline(target, oneSuiteRun('a.test.ts'), { lock: { timeoutMs: 100 } })).rejects.toThrow(
      /process 1 on some-other-host/,
    );
  });

  it('lets two updates in one process take turns', async () => {
    const target = path.join(directory, 'rag-baseline.json');
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => updateBaseline(target, oneSuiteRun(`${name}.test.ts`))));
    expect(
      Object.keys(parseBaseline(await readFile(target, 'utf8'), target).suites)
        .map((suiteKey) => parseSuiteKey(suiteKey).file)
        .sort(),
    ).toEqual(['a.test.ts', 'b.test.ts', 'c.test.ts', 'd.test.ts']);
    expect(await readdir(directory)).toEqual(['rag-baseline.json']);
  });

  it('takes one lock for two symlinks to one baseline, so concurrent updates through them lose nothing (20 rounds)', async () => {
    // Before: the lock went next to each link (two locks) while the write followed the link to the one
    // file, so the second writer's merge started from a file without the first one's suite.
    for (let round = 0; round < 20; round += 1) {
      const folder = path.join(directory, `round-${round}`);
      await mkdir(path.join(folder, 'left'), { recursive: true });
      await mkdir(path.join(folder, 'right'));
      const target = path.join(folder, 'rag-baseline.json');
      await writeFile(target, formatBaseline(largeBaseline(50)));
      await symlink(target, path.join(folder, 'left', 'rag-baseline.json'));
      await symlink('../rag-baseline.json', path.join(folder, 'right', 'rag-baseline.json'));
      await Promise.all([
        updateBaseline(path.join(folder, 'left', 'rag-baseline.json'), oneSuiteRun('left.test.ts')),
        updateBaseline(path.join(folder, 'right', 'rag-baseline.json'), oneSuiteRun('right.test.ts')),
      ]);
      const files = Object.keys(parseBaseline(await readFile(target, 'utf8'), target).suites).map(
        (suiteKey) => parseSuiteKey(suiteKey).file,
      );
      expect(files.filter((file) => !file.startsWith('seed-')).sort(), `round ${round}`).toEqual([
        'left.test.ts',
        'right.test.ts',
      ]);
    }
  });

  it('creates the file a dangling symlink points to, keeping the link, under the lock of that file', async () => {
    const link = path.join(directory, 'link.json');
    await symlink('real.json', link);
    await updateBaseline(link, oneSuiteRun('a.test.ts'));
    expect((await readdir(directory)).sort()).toEqual(['link.json', 'real.json']);
    expect(
      Object.keys(parseBaseline(await readFile(path.join(directory, 'real.json'), 'utf8'), 'real.json').suites),
    ).toHaveLength(1);
  });

  it('rejects a negative timeout with an error naming the option', async () => {
    await expect(
      updateBaseline(path.join(directory, 'b.json'), oneSuiteRun('a.test.ts'), { lock: { timeoutMs: -1 } }),
    ).rejects.toThrow(/options\.timeoutMs must be a finite number/);
  });
});
