// readBaselineAhead: the reporters read the baseline while the tests run, and use that read at the end
// only when the file is still the version it saw; otherwise they read the file as it is then.
import fs from 'node:fs';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { BaselineError } from '../../../src/baseline/file/errors.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import { readBaselineAhead } from '../../../src/baseline/file/read.js';
import { baselineFile, key } from './keyed.js';

const withRecall = (value: number) => formatBaseline(baselineFile({ 'test/a.test.ts': { 'recall@5': { q1: value } } }));
const recallOf = (file: Awaited<ReturnType<ReturnType<typeof readBaselineAhead>['current']>>) =>
  file?.suites[key('test/a.test.ts')]?.['recall@5']?.q1;

let directory: string;
let target: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'rag-read-ahead-'));
  target = path.join(directory, 'rag-baseline.json');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(directory, { recursive: true, force: true });
});

describe('readBaselineAhead', () => {
  it('uses the early read when the file did not change (the file is read once)', async () => {
    await writeFile(target, withRecall(0.5));
    const reads = vi.spyOn(fs.promises, 'readFile');
    const ahead = readBaselineAhead(target);
    expect(recallOf(await ahead.current())).toBe(0.5);
    expect(recallOf(await ahead.current())).toBe(0.5);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('reads the file again when it was rewritten in the meantime (as an update writes it: a new file renamed over)', async () => {
    await writeFile(target, withRecall(0.5));
    const ahead = readBaselineAhead(target);
    await writeFile(`${target}.tmp`, withRecall(0.75));
    fs.renameSync(`${target}.tmp`, target);
    expect(recallOf(await ahead.current())).toBe(0.75);
  });

  it('reads the file again when it was edited in place to the same length', async () => {
    await writeFile(target, withRecall(0.5));
    const ahead = readBaselineAhead(target);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(target, withRecall(0.6));
    expect(recallOf(await ahead.current())).toBe(0.6);
  });

  it('sees a baseline created, or removed, after the early read', async () => {
    const created = readBaselineAhead(target);
    await writeFile(target, withRecall(0.25));
    expect(recallOf(await created.current())).toBe(0.25);
    const removed = readBaselineAhead(target);
    await unlink(target);
    expect(await removed.current()).toBeUndefined();
  });

  it('gives an unusable file its BaselineError, unless the file was fixed in the meantime', async () => {
    await writeFile(target, '{ not json');
    await expect(readBaselineAhead(target).current()).rejects.toBeInstanceOf(BaselineError);
    const fixed = readBaselineAhead(target);
    await writeFile(target, withRecall(1));
    expect(recallOf(await fixed.current())).toBe(1);
  });
});
