// The one rule for a baseline question a run did not produce: missing (gone: prune removes it) or not
// judged, with the reason. Each case below is a topology users run.
import { describe, expect, it } from 'vitest';
import { accountFor } from '../../../src/baseline/accounting.js';
import type { CollectedRun } from '../../../src/recording/collected.js';
import type { RunOutcomes } from '../../../src/recording/outcomes.js';

const FILE = 'test/orders.test.ts';
const refunds = { file: FILE, describe: ['refunds'] };

function runWith(outcomes: RunOutcomes): CollectedRun {
  return { runner: 'vitest', samples: [], outcomes };
}

describe('accountFor', () => {
  it('a file that ran with every test of the suite complete: missing', () => {
    const accounting = accountFor(runWith({ files: [{ file: FILE, incomplete: [] }] }));
    expect(accounting.statusOf(refunds, 'q1')).toEqual({ kind: 'missing' });
    expect(accounting.suiteCanBeMissing(refunds)).toBe(true);
  });

  it('a skipped or failed test in the suite: not judged, with the reason of the test named after the question, else of the first one', () => {
    const accounting = accountFor(
      runWith({
        files: [
          {
            file: FILE,
            incomplete: [
              { describePath: ['refunds'], test: 'q2', reason: 'failed' },
              { describePath: ['refunds'], test: 'q3', reason: 'skipped' },
              { describePath: ['shipping'], test: 'q9', reason: 'filtered' },
            ],
          },
        ],
      }),
    );
    expect(accounting.statusOf(refunds, 'q3')).toEqual({ kind: 'not-judged', reason: 'skipped' });
    expect(accounting.statusOf(refunds, 'refund-window')).toEqual({ kind: 'not-judged', reason: 'failed' });
    expect(accounting.suiteCanBeMissing(refunds)).toBe(false);
    // Another describe block's skipped test says nothing about this suite.
    expect(accounting.statusOf({ file: FILE, describe: [] }, 'q1')).toEqual({ kind: 'missing' });
  });

  it('a question produced for other measures: gone from this one unless its own test stopped early', () => {
    const accounting = accountFor(
      runWith({ files: [{ file: FILE, incomplete: [{ describePath: ['refunds'], test: 'late', reason: 'failed' }] }] }),
    );
    const rows = new Map([['recall@5', { ids: ['q1', 'q2'], sources: [{ test: 'early' }, { test: 'late' }] }]]);
    expect(accounting.statusOf(refunds, 'q1', rows)).toEqual({ kind: 'missing' });
    expect(accounting.statusOf(refunds, 'q2', rows)).toEqual({ kind: 'not-judged', reason: 'failed' });
  });

  it('a file that did not load: not judged, with the error', () => {
    const accounting = accountFor(
      runWith({ files: [{ file: FILE, notJudged: { reason: 'load-failed', detail: 'SyntaxError' }, incomplete: [] }] }),
    );
    expect(accounting.statusOf(refunds, 'q1')).toEqual({
      kind: 'not-judged',
      reason: 'load-failed',
      detail: 'SyntaxError',
    });
  });

  it('a file the run did not start: not judged (why: the run says), unless the file is gone', () => {
    const shard = accountFor(
      runWith({ files: [], absent: { reason: 'shard-missing', detail: 'blob-3-3.json not in .vitest/blob' } }),
      () => true,
    );
    expect(shard.statusOf(refunds, 'q1')).toEqual({
      kind: 'not-judged',
      reason: 'shard-missing',
      detail: 'blob-3-3.json not in .vitest/blob',
    });
    expect(accountFor(runWith({ files: [] }), () => true).statusOf(refunds, 'q1')).toEqual({
      kind: 'not-judged',
      reason: 'not-run',
    });
    // Without fileExists nothing of a file the run did not start is called missing.
    expect(accountFor(runWith({ files: [] })).statusOf(refunds, 'q1').kind).toBe('not-judged');
    expect(accountFor(runWith({ files: [] }), () => false).statusOf(refunds, 'q1')).toEqual({ kind: 'missing' });
  });

  it('Vitest projects: another project is filtered out under --project, and gone when no filter chose the projects', () => {
    const hybrid = { file: FILE, describe: ['refunds'], project: 'hybrid' };
    const filtered = accountFor(
      runWith({
        files: [{ file: FILE, project: 'bm25', incomplete: [] }],
        projects: { names: ['bm25'], filtered: true },
      }),
    );
    expect(filtered.statusOf(hybrid, 'q1')).toEqual({
      kind: 'not-judged',
      reason: 'filtered',
      detail: 'project hybrid was not selected (--project)',
    });
    expect(filtered.suiteCanBeMissing(hybrid)).toBe(false);
    // The same file in the project that ran is judged per file and project.
    expect(filtered.statusOf({ ...hybrid, project: 'bm25' }, 'q1')).toEqual({ kind: 'missing' });
    const removed = accountFor(
      runWith({
        files: [{ file: FILE, project: 'bm25', incomplete: [] }],
        projects: { names: ['bm25'], filtered: false },
      }),
    );
    expect(removed.statusOf(hybrid, 'q1')).toEqual({ kind: 'missing' });
  });

  it('a run without outcomes (the library API before them): run.files ran in full, other files with samples did not', () => {
    const run: CollectedRun = {
      runner: 'jest',
      files: [FILE],
      samples: [{ file: 'test/other.test.ts', describePath: [], test: 't', measure: 'mrr', value: 1 }],
    };
    const accounting = accountFor(run);
    expect(accounting.statusOf(refunds, 'q1')).toEqual({ kind: 'missing' });
    expect(accounting.statusOf({ file: 'test/other.test.ts', describe: [] }, 'q1')).toEqual({
      kind: 'not-judged',
      reason: 'failed',
      detail: 'the test file did not run in full',
    });
  });
});
