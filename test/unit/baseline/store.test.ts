import fs from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { groupRun } from '../../../src/baseline/group.js';
import { BaselineError } from '../../../src/baseline/file/errors.js';
import { emptyBaseline, type BaselineFile } from '../../../src/baseline/file/types.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import { readBaseline, readBaselineSync } from '../../../src/baseline/file/read.js';
import { writeBaseline, writeBaselineSync } from '../../../src/baseline/file/write.js';
import { baselineFromRun, describeUpdate, mergeBaseline, updateBaseline } from '../../../src/baseline/store.js';
import { baselineFile, key } from './keyed.js';
import { suiteKeyOf } from '../../../src/recording/collected.js';
import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';

function sample(
  file: string,
  describePath: string[],
  test: string,
  measure: string,
  value: number,
  queryId?: string,
): CollectedSample {
  return { file, describePath, test, measure, value, pass: true, ...(queryId !== undefined ? { queryId } : {}) };
}

function run(samples: CollectedSample[], files?: string[]): CollectedRun {
  return { runner: 'vitest', samples, ...(files !== undefined ? { files } : {}) };
}

/** Entry refs without their exact keys, for comparing with readable expectations. */
function named<T extends { suiteKey?: string }>(refs: T[]): Omit<T, 'suiteKey'>[] {
  return refs.map(({ suiteKey: _key, ...rest }) => rest);
}

function baseline(suites: BaselineFile['suites']): BaselineFile {
  return baselineFile(suites);
}

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-baseline-'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(directory, { recursive: true, force: true });
});

describe('baselineFromRun and sample ids', () => {
  it('groups by suite (file + describe path) and measure, keyed by queryId or else the test name', () => {
    const file = baselineFromRun(
      run([
        sample('test/a.test.ts', ['orders', 'refunds'], 'refund window', 'recall@5', 0.5, 'q17'),
        sample('test/a.test.ts', ['orders', 'refunds'], 'refund window', 'hit@5', 1, 'q17'),
        sample('test/a.test.ts', [], 'top-level test', 'mrr', 0.25),
      ]),
    );
    expect(file).toEqual(
      baseline({
        'test/a.test.ts > orders > refunds': { 'recall@5': { q17: 0.5 }, 'hit@5': { q17: 1 } },
        'test/a.test.ts': { mrr: { 'top-level test': 0.25 } },
      }),
    );
  });

  it('gives repeated ids in one suite × measure stable ordinal suffixes in recording order, skipping real ids', () => {
    const grouped = groupRun(
      run([
        sample('f', [], 'same name', 'ndcg', 0.1),
        sample('f', [], 'same name', 'ndcg', 0.2),
        sample('f', [], 'same name #2', 'ndcg', 0.3), // a real id that the second repeat must not take
        sample('f', [], 'same name', 'ndcg', 0.4),
        sample('f', [], 'same name', 'mrr', 0.5), // another measure: its own numbering
      ]),
    );
    const ndcg = grouped.suites.get(key('f'))!.get('ndcg')!;
    expect(ndcg.ids).toEqual(['same name', 'same name #3', 'same name #2', 'same name #4']);
    expect(ndcg.values).toEqual([0.1, 0.2, 0.3, 0.4]);
    expect(grouped.suites.get(key('f'))!.get('mrr')!.ids).toEqual(['same name']);
  });

  it('names the sample and field of bad input', () => {
    expect(() =>
      baselineFromRun(run([sample('f', [], 't', 'mrr', 0.5), sample('f', [], 't', 'mrr', Number.NaN)])),
    ).toThrow('run.samples[1].value must be a finite number (the measured value of mrr), got NaN.');
    expect(() => baselineFromRun(run([{ ...sample('f', [], 't', '', 0.5) }]))).toThrow(
      /run\.samples\[0\]\.measure must be a non-empty measure name/,
    );
    expect(() => baselineFromRun(run([{ ...sample('', [], 't', 'mrr', 0.5) }]))).toThrow(
      /run\.samples\[0\]\.file must be/,
    );
    expect(() => baselineFromRun({ runner: 'vitest' } as unknown as CollectedRun)).toThrow(
      /run must be a CollectedRun/,
    );
  });
});

describe('mergeBaseline', () => {
  const previous = baseline({
    'test/a.test.ts > refunds': { 'recall@5': { q1: 1, q2: 0.5, q3: 1 }, 'hit@5': { q1: 1 } },
    'test/a.test.ts > deleted describe': { mrr: { q9: 1 } },
    'test/b.test.ts': { ndcg: { x: 0.7 } },
  });

  it('takes this run’s values for the suites it saw, keeps the others, and reports added, updated and obsolete entries', () => {
    const current = baseline({ 'test/a.test.ts > refunds': { 'recall@5': { q1: 1, q2: 0.75, q4: 0 } } });
    const result = mergeBaseline(previous, current);
    expect(result.file).toEqual(
      baseline({
        'test/a.test.ts > refunds': { 'recall@5': { q1: 1, q2: 0.75, q3: 1, q4: 0 }, 'hit@5': { q1: 1 } },
        'test/a.test.ts > deleted describe': { mrr: { q9: 1 } },
        'test/b.test.ts': { ndcg: { x: 0.7 } },
      }),
    );
    expect(named(result.added)).toEqual([
      { suite: 'test/a.test.ts > refunds', measure: 'recall@5', sampleIds: ['q4'] },
    ]);
    expect(named(result.updated)).toEqual([
      { suite: 'test/a.test.ts > refunds', measure: 'recall@5', sampleIds: ['q2'] },
    ]);
    // test/a.test.ts ran, so what it no longer produced is obsolete; test/b.test.ts did not run: untouched.
    expect(named(result.obsolete)).toEqual([
      { suite: 'test/a.test.ts > deleted describe' },
      { suite: 'test/a.test.ts > refunds', measure: 'hit@5' },
      { suite: 'test/a.test.ts > refunds', measure: 'recall@5', sampleIds: ['q3'] },
    ]);
    expect(result.pruned).toBe(false);
    // test/b.test.ts did not run: its sample is kept, not judged.
    expect(result.notJudged).toEqual([
      { suite: 'test/b.test.ts', suiteKey: expect.any(String), measure: 'ndcg', sampleIds: ['x'], reason: 'not-run' },
    ]);
    expect(result.counts).toEqual({
      addedSamples: 1,
      updatedSamples: 1,
      relabelledSamples: 0,
      obsoleteSamples: 3,
      notJudgedSamples: 1,
    });
  });

  it('with prune removes the obsolete entries of the files that ran, and only those', () => {
    const current = baseline({ 'test/a.test.ts > refunds': { 'recall@5': { q1: 1, q2: 0.75, q4: 0 } } });
    const result = mergeBaseline(previous, current, { prune: true });
    expect(result.file).toEqual(
      baseline({
        'test/a.test.ts > refunds': { 'recall@5': { q1: 1, q2: 0.75, q4: 0 } },
        'test/b.test.ts': { ndcg: { x: 0.7 } },
      }),
    );
    expect(result.pruned).toBe(true);
    expect(result.obsolete).toHaveLength(3);
  });

  it('a run of only some files never marks other files’ suites obsolete, even with prune', () => {
    const current = baseline({ 'test/b.test.ts': { ndcg: { x: 0.8 } } });
    const result = mergeBaseline(previous, current, { prune: true });
    expect(named(result.obsolete)).toEqual([]);
    expect(result.file.suites[key('test/a.test.ts > refunds')]).toEqual(
      previous.suites[key('test/a.test.ts > refunds')],
    );
    expect(result.file.suites[key('test/b.test.ts')]).toEqual({ ndcg: { x: 0.8 } });
  });

  it('does not take a file whose name is a prefix of another for the same file', () => {
    const before = baseline({ 'test/a.test.ts.bak > s': { m: { q: 1 } }, 'test/a.test.ts > s': { m: { q: 1 } } });
    const result = mergeBaseline(before, baseline({ 'test/a.test.ts > other': { m: { q2: 1 } } }), { prune: true });
    expect(named(result.obsolete)).toEqual([{ suite: 'test/a.test.ts > s' }]);
    expect(Object.keys(result.file.suites).sort()).toEqual(
      [key('test/a.test.ts > other'), key('test/a.test.ts.bak > s')].sort(),
    );
  });

  it('a file whose name contains " > " is another file: prune on one file never touches it', () => {
    const before = baseline({});
    before.suites[suiteKeyOf({ file: 'test/a > b.test.ts', describe: [] })] = { m: { q: 1 } };
    before.suites[suiteKeyOf({ file: 'test', describe: ['a', 'b.test.ts'] })] = { m: { q9: 1 } };
    const result = mergeBaseline(before, baseline({ 'test > other': { m: { q2: 1 } } }), {
      prune: true,
      files: ['test'],
    });
    expect(named(result.obsolete)).toEqual([{ suite: 'test > a > b.test.ts' }]);
    expect(result.file.suites[suiteKeyOf({ file: 'test/a > b.test.ts', describe: [] })]).toEqual({ m: { q: 1 } });
  });

  it('a renamed suite (same questions) moves its rows; values within tolerance stay as they were', () => {
    const before = baseline({ 'test/a.test.ts > old name': { 'recall@5': { q1: 1, q2: 0.5 } } });
    const result = mergeBaseline(
      before,
      baseline({ 'test/a.test.ts > new name': { 'recall@5': { q1: 1, q2: 0.51 } } }),
      { prune: true },
    );
    expect(result.renamed).toEqual([{ from: 'test/a.test.ts > old name', to: 'test/a.test.ts > new name' }]);
    expect(result.obsolete).toEqual([]);
    // Mean moved by 0.005, within the default tolerance 0.01: the recorded values are kept.
    expect(result.file.suites).toEqual({ [key('test/a.test.ts > new name')]: { 'recall@5': { q1: 1, q2: 0.5 } } });
    const moved = mergeBaseline(before, baseline({ 'test/a.test.ts > new name': { 'recall@5': { q1: 1, q2: 0.6 } } }));
    expect(moved.file.suites[key('test/a.test.ts > new name')]).toEqual({ 'recall@5': { q1: 1, q2: 0.6 } });
    expect(moved.file.suites[key('test/a.test.ts > old name')]).toBeUndefined();
  });

  it('files: a file listed as run in full that produced nothing makes its suites obsolete', () => {
    const result = mergeBaseline(previous, baseline({}), { files: ['test/b.test.ts'], prune: true });
    expect(named(result.obsolete)).toEqual([{ suite: 'test/b.test.ts' }]);
    expect(result.file.suites[key('test/b.test.ts')]).toBeUndefined();
    expect(result.file.suites[key('test/a.test.ts > refunds')]).toBeDefined();
  });

  it('files: a file left out (filtered with -t) is merged but nothing of it is obsolete', () => {
    const current = baseline({ 'test/a.test.ts > refunds': { 'recall@5': { q1: 0 } } });
    const result = mergeBaseline(previous, current, { files: [], prune: true });
    expect(named(result.obsolete)).toEqual([]);
    expect(result.file.suites[key('test/a.test.ts > refunds')]).toEqual({
      'recall@5': { q1: 0, q2: 0.5, q3: 1 },
      'hit@5': { q1: 1 },
    });
    expect(result.file.suites[key('test/a.test.ts > deleted describe')]).toEqual({ mrr: { q9: 1 } });
  });

  it('fileExists: the suites of a deleted test file are obsolete even though it did not run', () => {
    const result = mergeBaseline(previous, baseline({}), { fileExists: (file) => file !== 'test/b.test.ts' });
    expect(named(result.obsolete)).toEqual([{ suite: 'test/b.test.ts' }]);
    expect(result.file.suites[key('test/b.test.ts')]).toBeDefined(); // kept without prune
  });

  it('starts from nothing when there is no previous baseline', () => {
    const current = baseline({ s: { m: { q: 1 } } });
    const result = mergeBaseline(undefined, current);
    expect(result.file).toEqual(current);
    expect(named(result.added)).toEqual([{ suite: 's', measure: 'm', sampleIds: ['q'] }]);
    expect(named(result.obsolete)).toEqual([]);
  });

  it('does not mistake inherited properties for entries', () => {
    const result = mergeBaseline(baseline({ s: { m: { a: 1 } } }), baseline({ s: { m: { constructor: 1, a: 1 } } }));
    expect(named(result.added)).toEqual([{ suite: 's', measure: 'm', sampleIds: ['constructor'] }]);
    expect(named(result.updated)).toEqual([]);
  });
});

describe('reading and writing', () => {
  it('readBaseline gives undefined when there is no file, and the baseline when there is', async () => {
    const target = path.join(directory, 'rag-baseline.json');
    expect(await readBaseline(target)).toBeUndefined();
    expect(readBaselineSync(target)).toBeUndefined();
    const file = baseline({ s: { m: { q: 0.5 } } });
    await writeBaseline(target, file);
    expect(await readFile(target, 'utf8')).toBe(formatBaseline(file));
    expect(await readBaseline(target)).toEqual(file);
    expect(readBaselineSync(target)).toEqual(file);
  });

  it('a directory at the path is a clear error', async () => {
    const error = await readBaseline(directory).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BaselineError);
    expect((error as BaselineError).message).toBe(
      `${directory}: is a directory, not a baseline file; point the \`baseline\` option at a file such as rag-baseline.json.`,
    );
  });

  it('a failing write (rename fails) leaves the old file byte-identical and no temp file behind', async () => {
    const target = path.join(directory, 'rag-baseline.json');
    const old = `${formatBaseline(baseline({ s: { m: { q: 1 } } }))}`;
    await writeFile(target, old);
    vi.spyOn(fs.promises, 'rename').mockRejectedValueOnce(Object.assign(new Error('EIO: simulated'), { code: 'EIO' }));
    await expect(writeBaseline(target, baseline({ s: { m: { q: 0 } } }))).rejects.toThrow('EIO: simulated');
    expect(await readFile(target, 'utf8')).toBe(old);
    expect(await readdir(directory)).toEqual(['rag-baseline.json']);

    vi.spyOn(fs, 'renameSync').mockImplementationOnce(() => {
      throw Object.assign(new Error('EIO: simulated sync'), { code: 'EIO' });
    });
    expect(() => writeBaselineSync(target, baseline({ s: { m: { q: 0 } } }))).toThrow('EIO: simulated sync');
    expect(await readFile(target, 'utf8')).toBe(old);
    expect(await readdir(directory)).toEqual(['rag-baseline.json']);
  });

  it('a write that fails while writing the temp file leaves the old file intact too', async () => {
    const target = path.join(directory, 'rag-baseline.json');
    await writeFile(target, 'previous\n');
    vi.spyOn(fs.promises, 'open').mockRejectedValueOnce(
      Object.assign(new Error('ENOSPC: simulated'), { code: 'ENOSPC' }),
    );
    await expect(writeBaseline(target, emptyBaseline())).rejects.toThrow('ENOSPC');
    expect(await readFile(target, 'utf8')).toBe('previous\n');
  });
});

describe('updateBaseline', () => {
  const samples = [
    sample('test/a.test.ts', ['refunds'], 'q1 test', 'recall@5', 0.5, 'q1'),
    sample('test/a.test.ts', ['refunds'], 'q2 test', 'recall@5', 1, 'q2'),
  ];

  it('creates the file, then reports "up to date" without rewriting it when nothing changed', async () => {
    const target = path.join(directory, 'rag-baseline.json');
    const first = await updateBaseline(target, run(samples));
    expect(first.written).toBe(true);
    expect(first.previous).toBeUndefined();
    expect(describeUpdate(first)).toBe(`Updated ${target}: 2 samples added.`);
    const mtime = fs.statSync(target).mtimeMs;
    const second = await updateBaseline(target, run(samples));
    expect(second.written).toBe(false);
    expect(describeUpdate(second)).toBe(`${target} is up to date.`);
    expect(fs.statSync(target).mtimeMs).toBe(mtime);
  });

  it('reports obsolete entries, and removes them with prune', async () => {
    const target = path.join(directory, 'rag-baseline.json');
    await updateBaseline(target, run(samples));
    const kept = await updateBaseline(target, run([samples[0]!]));
    expect(describeUpdate(kept)).toBe(
      `${target} is up to date; kept 1 obsolete entry (1 sample): RAG_BASELINE=prune removes them.`,
    );
    const pruned = await updateBaseline(target, run([{ ...samples[0]!, value: 0.75 }]), { prune: true });
    expect(describeUpdate(pruned)).toBe(`Updated ${target}: 1 sample changed, 1 removed.`);
    expect(await readBaseline(target)).toEqual(baseline({ 'test/a.test.ts > refunds': { 'recall@5': { q1: 0.75 } } }));
  });

  it.each([
    ['corrupt', '{"generatedBy": "rag-matchers", "schemaVersion": 1, "suites": {'],
    ['of a newer schema', '{"generatedBy": "rag-matchers", "schemaVersion": 8, "suites": {}}'],
    ['not a baseline', '{"name": "my-app"}\n'],
    ['empty', ''],
  ])('never overwrites a file that is %s', async (_name, text) => {
    const target = path.join(directory, 'rag-baseline.json');
    await writeFile(target, text);
    const error = await updateBaseline(target, run(samples)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BaselineError);
    expect((error as BaselineError).message.startsWith(`${target}: `)).toBe(true);
    expect(await readFile(target, 'utf8')).toBe(text);
  });

  it('writes through to a nested directory path only when it exists (no directories invented for the baseline)', async () => {
    const nested = path.join(directory, 'config', 'rag-baseline.json');
    await expect(updateBaseline(nested, run(samples))).rejects.toThrow(/ENOENT/);
    await mkdir(path.dirname(nested));
    expect((await updateBaseline(nested, run(samples))).written).toBe(true);
  });
});
