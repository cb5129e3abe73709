import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createShardReport,
  formatShardReport,
  mergeShardReports,
  readShardReport,
  shardReportName,
  ShardReportError,
  validateShardReport,
  writeShardReport,
  type ShardReport,
} from '../../../src/gate/shard-report.js';
import type { CollectedSample } from '../../../src/recording/collected.js';

const sample = (file: string, test: string, value: number, extra: Partial<CollectedSample> = {}): CollectedSample => ({
  measure: 'recall@5',
  value,
  pass: true,
  file,
  describePath: ['d'],
  test,
  ...extra,
});

function shard(
  index: number,
  count: number,
  samples: CollectedSample[],
  files?: string[],
  options: ShardReport['options'] = { baseline: 'rag-baseline.json' },
): ShardReport {
  return createShardReport({ runner: 'jest', samples, ...(files ? { files } : {}) }, { index, count }, options);
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-shard-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('shard reports', () => {
  it('round-trip through the file: one sample per line, keys sorted', async () => {
    const report = shard(
      1,
      2,
      [
        sample('b.test.js', 't1', 1, { queryId: 'q1', threshold: 0.5 }),
        sample('b.test.js', 't2', 0.5, { negated: true, pass: false }),
      ],
      ['b.test.js'],
    );
    const path = join(dir, shardReportName(1, 2));
    expect(shardReportName(1, 2)).toBe('rag-shard-1-of-2.json');
    await writeShardReport(path, report);
    const text = formatShardReport(report);
    expect(text.split('\n').filter((line) => line.includes('"measure"'))).toEqual([
      '    {"describePath":["d"],"file":"b.test.js","measure":"recall@5","pass":true,"queryId":"q1","test":"t1","threshold":0.5,"value":1},',
      '    {"describePath":["d"],"file":"b.test.js","measure":"recall@5","negated":true,"pass":false,"test":"t2","value":0.5}',
    ]);
    expect(await readShardReport(path)).toEqual(report);
  });

  it('reject what is not a shard report, naming the file', async () => {
    const path = join(dir, 'x.json');
    writeFileSync(path, '{"generatedBy":"rag-matchers","kind":"retrieval-report","schemaVersion":1}');
    await expect(readShardReport(path)).rejects.toThrow(
      `${path}: not a rag-matchers shard report (expected "kind": "shard-samples"). It is a JSON report`,
    );
    writeFileSync(path, '{ nope');
    await expect(readShardReport(path)).rejects.toThrow(`${path}: not valid JSON`);
    await expect(readShardReport(join(dir, 'missing.json'))).rejects.toThrow(ShardReportError);
    const good = JSON.parse(formatShardReport(shard(1, 1, [sample('a', 't', 1)]))) as Record<string, unknown>;
    expect(() => validateShardReport({ ...good, schemaVersion: 3 }, 'f.json')).toThrow(
      'f.json: written by a newer rag-matchers (shard report schema 3',
    );
    expect(() => validateShardReport({ ...good, shard: { index: 3, count: 2 } }, 'f.json')).toThrow('"shard" must be');
    expect(() =>
      validateShardReport({ ...good, samples: [{ measure: 'recall@5', value: 1, pass: true, file: 'a' }] }, 'f.json'),
    ).toThrow('samples[0] is not a sample');
  });

  it('merge into one run: files in order, each file’s samples in recording order, files of every shard', () => {
    const first = shard(
      1,
      2,
      [sample('b.test.js', 'b1', 1), sample('b.test.js', 'b2', 0)],
      ['b.test.js', 'empty.test.js'],
    );
    const second = shard(
      2,
      2,
      [sample('a.test.js', 'a1', 0.5), sample('c.test.js', 'c1', 1)],
      ['a.test.js', 'c.test.js'],
    );
    const { run, options, count } = mergeShardReports([
      { path: 's2', report: second },
      { path: 's1', report: first },
    ]);
    expect(count).toBe(2);
    expect(options).toEqual({ baseline: 'rag-baseline.json' });
    expect(run.runner).toBe('merged');
    expect(run.samples.map((entry) => entry.test)).toEqual(['a1', 'b1', 'b2', 'c1']);
    expect(run.files).toEqual(['a.test.js', 'b.test.js', 'c.test.js', 'empty.test.js']);
  });

  it('refuse merges that would lose or double-count samples, or mix runs', () => {
    const one = shard(1, 3, [sample('a', 't', 1)], ['a']);
    const two = shard(2, 3, [sample('b', 't', 1)], ['b']);
    const three = shard(3, 3, [sample('c', 't', 1)], ['c']);
    expect(() => mergeShardReports([])).toThrow('no shard reports given');
    expect(() =>
      mergeShardReports([
        { path: 'p1', report: one },
        { path: 'p3', report: three },
      ]),
    ).toThrow('shard 2/3 missing');
    expect(() => mergeShardReports([{ path: 'p1', report: one }])).toThrow('shards 2/3, 3/3 missing');
    expect(() =>
      mergeShardReports([
        { path: 'p1', report: one },
        { path: 'again', report: one },
        { path: 'p2', report: two },
        { path: 'p3', report: three },
      ]),
    ).toThrow('again and p1 are both shard 1/3');
    expect(() =>
      mergeShardReports([
        { path: 'p1', report: one },
        { path: 'other', report: shard(2, 2, [], []) },
      ]),
    ).toThrow('other is shard 2/2, but p1 is one of 3 shards');
    const overlap = shard(2, 3, [sample('a', 't2', 1)], ['a']);
    expect(() =>
      mergeShardReports([
        { path: 'p1', report: one },
        { path: 'p2', report: overlap },
        { path: 'p3', report: three },
      ]),
    ).toThrow('a appears in both p1 and p2');
    const tighter = shard(2, 3, [sample('b', 't', 1)], ['b'], { baseline: 'rag-baseline.json', tolerance: 0 });
    expect(() =>
      mergeShardReports([
        { path: 'p1', report: one },
        { path: 'p2', report: tighter },
        { path: 'p3', report: three },
      ]),
    ).toThrow('p2 was written with other reporter options than p1 (tolerance)');
    // Report paths may differ between shards.
    const elsewhere = shard(2, 3, [sample('b', 't', 1)], ['b'], {
      baseline: 'rag-baseline.json',
      json: 'shard-2.json',
    });
    expect(
      mergeShardReports([
        { path: 'p1', report: one },
        { path: 'p2', report: elsewhere },
        { path: 'p3', report: three },
      ]).run.samples,
    ).toHaveLength(3);
  });
});

describe('shard identity', () => {
  const stamped = (index: number, commit: string, declaration = 'd1'): ShardReport => ({
    ...shard(index, 2, [sample(`f${index}.js`, 't', 1)], [`f${index}.js`]),
    stamp: { commit, declaration },
  });

  it('carries the stamp and the outcomes through the file, and merges the outcomes', () => {
    const withOutcomes: ShardReport = {
      ...stamped(1, 'abc'),
      outcomes: [
        { file: 'f1.js', incomplete: [{ describePath: ['d'], test: 'skipped one', reason: 'skipped' }] },
        { file: 'broken.js', notJudged: { reason: 'load-failed', detail: 'SyntaxError' }, incomplete: [] },
      ],
    };
    const read = validateShardReport(JSON.parse(formatShardReport(withOutcomes)), 'f.json');
    expect(read.stamp).toEqual({ commit: 'abc', declaration: 'd1' });
    expect(read.outcomes).toEqual(withOutcomes.outcomes);
    const merged = mergeShardReports([
      { path: 'a.json', report: read },
      { path: 'b.json', report: stamped(2, 'abc') },
    ]);
    expect(merged.run.outcomes!.files.map((outcome) => outcome.file)).toEqual(['broken.js', 'f1.js']);
  });

  it('refuses shards of two runs, and a shard of another commit than the merge, naming the shard', () => {
    expect(() =>
      mergeShardReports([
        { path: 'a.json', report: stamped(1, 'abc') },
        { path: 'b.json', report: stamped(2, 'def') },
      ]),
    ).toThrow(
      'b.json (shard 2/2) comes from another run than a.json: commit def against abc. Merge the shard reports of one run.',
    );
    expect(() =>
      mergeShardReports([
        { path: 'a.json', report: stamped(1, 'abc', 'd1') },
        { path: 'b.json', report: stamped(2, 'abc', 'd2') },
      ]),
    ).toThrow('b.json (shard 2/2) comes from another run than a.json: other declared measures.');
    expect(() =>
      mergeShardReports(
        [
          { path: 'a.json', report: stamped(1, 'abc') },
          { path: 'b.json', report: stamped(2, 'abc') },
        ],
        { commit: 'fff' },
      ),
    ).toThrow(
      'a.json (shard 1/2) is stale: recorded at commit abc, and this merge runs at fff. Run the shards again on this commit, then merge.',
    );
  });

  it('rejects malformed stamps and outcomes, naming the file', () => {
    const good = JSON.parse(formatShardReport(stamped(1, 'abc')));
    expect(() => validateShardReport({ ...good, stamp: { commit: 1 } }, 'f.json')).toThrow(
      'f.json: "stamp" must be { "commit": "…", "declaration": "…" }.',
    );
    expect(() =>
      validateShardReport(
        { ...good, outcomes: [{ file: 'a.js', incomplete: [{ test: 't', describePath: [], reason: 'bored' }] }] },
        'f.json',
      ),
    ).toThrow("f.json: outcomes[0] is not a test file's outcome.");
    // Version 1 files (no stamp, no outcomes) still read.
    const v1 = { ...good, schemaVersion: 1 };
    delete v1.stamp;
    delete v1.outcomes;
    expect(validateShardReport(v1, 'f.json').stamp).toBeUndefined();
  });
});
