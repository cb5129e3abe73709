// One diff of a run against its baseline (diffRun), applied by an update (applyDiff), read by the summary.
// Values below are worked out by hand from the runs and baselines written here.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyDiff } from '../../../src/baseline/apply.js';
import { diffRun, prepareRun, refusalToWrite } from '../../../src/baseline/diff.js';
import { describeUpdate, updateBaseline, updateBaselineWithDiff } from '../../../src/baseline/store.js';
import { readBaseline } from '../../../src/baseline/file/read.js';
import { emptyBaseline, type BaselineFile } from '../../../src/baseline/file/types.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import { suiteKeyOf, type CollectedRun, type CollectedSample } from '../../../src/recording/collected.js';
import type { RunOutcomes } from '../../../src/recording/outcomes.js';
import { summarize } from '../../../src/report/summary.js';

const FILE = 'a.test.ts';
const KEY = suiteKeyOf({ file: FILE, describe: [] });

/** A sample of the test named after its question (no queryId), at the top level of a.test.ts. */
function sample(test: string, measure: string, value: number, pass = true): CollectedSample {
  return { file: FILE, describePath: [], test, measure, value, pass };
}

/** hit@1 and recall@3 of q01–q03, each 1: what the first run recorded. */
function recorded(): BaselineFile {
  const file = emptyBaseline();
  file.suites[KEY] = { 'hit@1': { q01: 1, q02: 1, q03: 1 }, 'recall@3': { q01: 1, q02: 1, q03: 1 } };
  return file;
}

/**
 * q02's test now fails at its first assertion (hit@1 = 0), so its recall@3 never runs; q01 and q03 measure
 * both as before.
 */
function q02StopsEarly(): CollectedRun {
  const outcomes: RunOutcomes = {
    files: [{ file: FILE, incomplete: [{ describePath: [], test: 'q02', reason: 'failed' }] }],
  };
  return {
    runner: 'vitest',
    outcomes,
    samples: [
      sample('q01', 'hit@1', 1),
      sample('q01', 'recall@3', 1),
      sample('q02', 'hit@1', 0, false),
      sample('q03', 'hit@1', 1),
      sample('q03', 'recall@3', 1),
    ],
  };
}

describe('a measure a question of this run did not produce', () => {
  it('is not judged when its test stopped early: strict CI fails naming the question, its measure and the reason', () => {
    const summary = summarize(q02StopsEarly(), recorded(), { strict: true });
    const finding = summary.findings.find((each) => each.kind === 'not-judged');
    expect(finding).toMatchObject({
      reason: 'failed',
      count: 1,
      questions: ['a.test.ts › q02 · recall@3'],
      fails: true,
    });
    expect(summary.passed).toBe(false);
    expect(summary.rows.find((row) => row.measure === 'recall@3')!.notJudgedSamples).toEqual(['q02']);
    expect(summary.coverage.notJudged).toEqual([
      { reason: 'failed', questions: 1, suites: ['a.test.ts'], examples: ['a.test.ts › q02 · recall@3'] },
    ]);
    // Each question once: q01 and q03 judged, q02 not judged (its hit@1 was measured, its recall@3 not).
    expect(summary.coverage.judged).toBe(2);
  });

  it('is kept on update, and the update line says so: 1 changed (q02 hit@1 1 → 0), 1 kept not judged', () => {
    const prepared = prepareRun(q02StopsEarly());
    const applied = applyDiff(diffRun(prepared, recorded()));
    expect(applied.file.suites[KEY]).toEqual({
      'hit@1': { q01: 1, q02: 0, q03: 1 },
      'recall@3': { q01: 1, q02: 1, q03: 1 },
    });
    expect(applied.counts).toEqual({
      addedSamples: 0,
      updatedSamples: 1,
      relabelledSamples: 0,
      obsoleteSamples: 0,
      notJudgedSamples: 1,
    });
    expect(describeUpdate({ ...applied, path: 'rag-baseline.json', written: true })).toBe(
      'Updated rag-baseline.json: 1 sample changed; kept 1 sample this run did not judge (1 whose test failed before measuring them: a.test.ts › q02 · recall@3).',
    );
  });

  it('is missing when the suite ran in full and no test measures it any more: prune removes it', () => {
    const run: CollectedRun = {
      runner: 'vitest',
      outcomes: { files: [{ file: FILE, incomplete: [] }] },
      samples: [sample('q01', 'hit@1', 1), sample('q02', 'hit@1', 1), sample('q03', 'hit@1', 1)],
    };
    const summary = summarize(run, recorded(), { strict: true });
    expect(summary.coverage.notJudged).toEqual([]);
    expect(summary.missing).toMatchObject([{ measure: 'recall@3', questions: ['q01', 'q02', 'q03'] }]);
    const pruned = applyDiff(diffRun(prepareRun(run), recorded()), { prune: true });
    expect(pruned.file.suites[KEY]).toEqual({ 'hit@1': { q01: 1, q02: 1, q03: 1 } });
    expect(pruned.counts.obsoleteSamples).toBe(3);
    expect(describeUpdate({ ...pruned, path: 'rag-baseline.json', written: true })).toBe(
      'Updated rag-baseline.json: 3 samples removed.',
    );
  });
});

describe('what an update counts', () => {
  it('a value that did not change keeps its row as it was, audit included: an unjudged count that moved alone is no change', () => {
    const baseline = recorded();
    baseline.audits = { [KEY]: { 'hit@1': { q01: { labels: 'aaaaaaaa', unjudged: 1 } } } };
    const run: CollectedRun = {
      runner: 'vitest',
      outcomes: { files: [{ file: FILE, incomplete: [] }] },
      samples: [
        { ...sample('q01', 'hit@1', 1), labels: 'aaaaaaaa', unjudgedIds: ['x', 'y'], unjudgedCount: 2 },
        sample('q01', 'recall@3', 1),
        sample('q02', 'hit@1', 1),
        sample('q02', 'recall@3', 1),
        sample('q03', 'hit@1', 1),
        sample('q03', 'recall@3', 1),
      ],
    };
    const applied = applyDiff(diffRun(prepareRun(run), baseline));
    expect(applied.file.audits![KEY]!['hit@1']!.q01).toEqual({ labels: 'aaaaaaaa', unjudged: 1 });
    expect(applied.counts.updatedSamples).toBe(0);
  });

  it('a question measured against other judgments is relabelled, not changed', () => {
    const baseline = recorded();
    baseline.audits = { [KEY]: { 'hit@1': { q01: { labels: 'aaaaaaaa' } } } };
    const run: CollectedRun = {
      runner: 'vitest',
      outcomes: { files: [{ file: FILE, incomplete: [] }] },
      samples: [
        { ...sample('q01', 'hit@1', 0), labels: 'bbbbbbbb' },
        sample('q01', 'recall@3', 1),
        sample('q02', 'hit@1', 1),
        sample('q02', 'recall@3', 1),
        sample('q03', 'hit@1', 1),
        sample('q03', 'recall@3', 1),
      ],
    };
    const applied = applyDiff(diffRun(prepareRun(run), baseline));
    expect(applied.file.suites[KEY]!['hit@1']).toEqual({ q01: 0, q02: 1, q03: 1 });
    expect(applied.counts).toMatchObject({ updatedSamples: 0, relabelledSamples: 1 });
    expect(describeUpdate({ ...applied, path: 'rag-baseline.json', written: true })).toBe(
      'Updated rag-baseline.json: 1 sample relabelled.',
    );
  });
});

describe('a run that recorded nothing', () => {
  const esmFailure: CollectedRun = {
    runner: 'jest',
    samples: [],
    outcomes: {
      files: [
        {
          file: 'test/a.test.js',
          notJudged: { reason: 'load-failed', detail: 'Must use import to load ES Module: /p/test/a.test.js' },
          incomplete: [],
        },
        {
          file: 'test/b.test.js',
          notJudged: { reason: 'load-failed', detail: 'Must use import to load ES Module: /p/test/b.test.js' },
          incomplete: [],
        },
      ],
    },
  };

  it('in which no test file loaded may not write, and says which failed and why', () => {
    expect(refusalToWrite(prepareRun(esmFailure), false)).toBe(
      'no test file loaded, so nothing was measured: 2 test files failed to load: test/a.test.js (Must use import to load ES Module: /p/test/a.test.js), test/b.test.js (Must use import to load ES Module: /p/test/b.test.js). Jest loads native ES modules only with NODE_OPTIONS=--experimental-vm-modules set',
    );
    expect(refusalToWrite(prepareRun(esmFailure), true)).toBeDefined();
  });

  it('while a test failed may not write; with nothing failed (every retrieval test deleted) a prune may', () => {
    const failing: CollectedRun = {
      runner: 'vitest',
      samples: [],
      outcomes: { files: [{ file: FILE, incomplete: [{ describePath: [], test: 'q01', reason: 'failed' }] }] },
    };
    expect(refusalToWrite(prepareRun(failing), true)).toBe(
      'the run recorded nothing while a test file had failing tests (a.test.ts)',
    );
    const fiveFailing: CollectedRun = {
      runner: 'vitest',
      samples: [],
      outcomes: {
        files: ['f1', 'f2', 'f3', 'f4', 'f5'].map((name) => ({
          file: `${name}.test.ts`,
          incomplete: [{ describePath: [], test: 't', reason: 'failed' as const }],
        })),
      },
    };
    expect(refusalToWrite(prepareRun(fiveFailing), false)).toBe(
      'the run recorded nothing while 5 test files had failing tests (f1.test.ts, f2.test.ts, f3.test.ts, and 2 more)',
    );
    const clean: CollectedRun = {
      runner: 'vitest',
      samples: [],
      outcomes: { files: [{ file: FILE, incomplete: [] }] },
    };
    expect(refusalToWrite(prepareRun(clean), true)).toBeUndefined();
    expect(refusalToWrite(prepareRun(clean), false)).toBeUndefined();
    // No file at all: an update writes nothing; a prune (every test file deleted) may empty the baseline.
    const none: CollectedRun = { runner: 'vitest', samples: [], outcomes: { files: [] } };
    expect(refusalToWrite(prepareRun(none), false)).toMatch(/^no test file ran/);
    expect(refusalToWrite(prepareRun(none), true)).toBeUndefined();
    // Files judged for another reason (a shard from another run) failed nothing: an update writes what it can.
    const stale: CollectedRun = {
      runner: 'merged',
      samples: [],
      outcomes: { files: [{ file: FILE, notJudged: { reason: 'shard-stale' }, incomplete: [] }] },
    };
    expect(refusalToWrite(prepareRun(stale), true)).toBeUndefined();
  });

  describe('updateBaseline', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'rag-diff-test-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('writes no baseline when none loaded, and leaves an existing one as it was', async () => {
      const path = join(dir, 'rag-baseline.json');
      const first = await updateBaseline(path, esmFailure);
      expect(first).toMatchObject({ written: false });
      expect(existsSync(path)).toBe(false);
      expect(describeUpdate({ ...first, path: 'rag-baseline.json' })).toMatch(
        /^Did not update rag-baseline\.json: no test file loaded, so nothing was measured: 2 test files failed to load: /,
      );
      const text =
        '{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 3,\n  "rows": [\n    ["file", "describe", "question", "measure", "value", "project"]\n    ,["test/a.test.js", [], "q1", "hit@1", 1]\n  ]\n}\n';
      writeFileSync(path, text);
      const second = await updateBaseline(path, esmFailure);
      expect(second.written).toBe(false);
      expect(second.refused).toBeDefined();
      expect(readFileSync(path, 'utf8')).toBe(text);
    });

    it('a prune after every retrieval test was deleted empties the file and says so', async () => {
      const path = join(dir, 'rag-baseline.json');
      writeFileSync(
        path,
        '{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 3,\n  "rows": [\n    ["file", "describe", "question", "measure", "value", "project"]\n    ,["gone.test.ts", [], "q1", "hit@1", 1]\n    ,["gone.test.ts", [], "q2", "hit@1", 0]\n  ]\n}\n',
      );
      const clean: CollectedRun = {
        runner: 'vitest',
        samples: [],
        outcomes: { files: [{ file: FILE, incomplete: [] }] },
      };
      const result = await updateBaseline(path, clean, { prune: true, fileExists: (file) => file === FILE });
      expect(result.written).toBe(true);
      expect(describeUpdate({ ...result, path: 'rag-baseline.json' })).toBe(
        'Updated rag-baseline.json: 2 samples removed; it is now empty: no test records a measure any more.',
      );
    });
  });
});

describe('docs/baselines-and-ci.md', () => {
  const docs = readFileSync(new URL('../../../docs/baselines-and-ci.md', import.meta.url), 'utf8');

  it('shows the update line as describeUpdate words it', () => {
    const ref = { suite: 'test/orders.test.ts', suiteKey: '', measure: 'recall@3' };
    const line = describeUpdate({
      path: 'rag-baseline.json',
      written: true,
      pruned: false,
      counts: { addedSamples: 3, updatedSamples: 2, relabelledSamples: 1, obsoleteSamples: 4, notJudgedSamples: 3 },
      notJudged: [
        { ...ref, sampleIds: ['q07'], reason: 'failed' },
        {
          suite: 'test/account.test.ts',
          suiteKey: '',
          measure: 'recall@3',
          sampleIds: ['a1', 'a2'],
          reason: 'not-run',
        },
      ],
      obsolete: [{ suite: 'test/orders.test.ts', suiteKey: '' }],
    });
    expect(docs).toContain(`\n${line}\n`);
  });

  it('shows the refusal of an update in which no test file loaded as the reporter words it', () => {
    const run: CollectedRun = {
      runner: 'jest',
      samples: [],
      outcomes: {
        files: ['account', 'orders'].map((name) => ({
          file: `test/${name}.test.js`,
          notJudged: {
            reason: 'load-failed' as const,
            detail: `Must use import to load ES Module: /repo/test/${name}.test.js`,
          },
          incomplete: [],
        })),
      },
    };
    const line = describeUpdate({
      ...applyDiff(diffRun(prepareRun(run), undefined)),
      path: 'rag-baseline.json',
      written: false,
      refused: refusalToWrite(prepareRun(run), false)!,
    });
    expect(docs).toContain(`\n${line}\n`);
  });
});

describe('an update given the diff made for the summary', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rag-diff-reuse-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('applies it when the file is the one it was made against, and diffs again when the file changed since', async () => {
    const path = join(dir, 'rag-baseline.json');
    writeFileSync(path, formatBaseline(recorded()));
    const read = await readBaseline(path);
    const prepared = prepareRun(q02StopsEarly());
    const diff = diffRun(prepared, read);
    const same = await updateBaselineWithDiff(path, q02StopsEarly(), {}, { prepared, diff });
    expect(readFileSync(path, 'utf8')).toBe(formatBaseline(applyDiff(diff).file));
    expect(same.counts.updatedSamples).toBe(1);

    // Another run wrote a suite of its own in the meantime: the update keeps it.
    const other = recorded();
    other.suites[suiteKeyOf({ file: 'b.test.ts', describe: [] })] = { 'hit@1': { z1: 1 } };
    writeFileSync(path, formatBaseline(other));
    const changed = await updateBaselineWithDiff(path, q02StopsEarly(), {}, { prepared, diff });
    expect(Object.keys(changed.file.suites)).toContain(suiteKeyOf({ file: 'b.test.ts', describe: [] }));
    expect(readFileSync(path, 'utf8')).toContain('["b.test.ts", [], "z1", "hit@1", 1]');
  });
});
