import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { parseBaseline } from '../../src/baseline/file/read.js';
import { type BaselineFile } from '../../src/baseline/file/types.js';
import { formatBaseline } from '../../src/baseline/file/write.js';
import { COMMANDS } from '../../src/cli/commands.js';
import * as mergeBaseline from '../../src/cli/commands/merge-baseline.js';
import { runnersInManifest } from '../../src/cli/commands/merge-baseline.js';
import { suiteUpdateCommand } from '../../src/report/wording.js';
import { baselineFile } from '../unit/baseline/keyed.js';
import { runCommand } from './helpers.js';

const REFUNDS = 'test/orders.test.ts > orders API > refunds';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-merge-baseline-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the three versions (BASE, OURS, THEIRS) and returns their paths. */
function versions(base: BaselineFile | string, ours: BaselineFile | string, theirs: BaselineFile | string): string[] {
  return (
    [
      ['base', base],
      ['ours', ours],
      ['theirs', theirs],
    ] as const
  ).map(([name, content]) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : formatBaseline(content));
    return path;
  });
}

const refunds = (samples: Record<string, number>): BaselineFile => baselineFile({ [REFUNDS]: { 'recall@5': samples } });

describe('rag-matchers merge-baseline', () => {
  it('is registered under a name of its own, apart from merge (Jest shard reports)', async () => {
    expect(COMMANDS['merge-baseline']?.summary).toMatch(/^git's merge driver for rag-baseline\.json/);
    expect(COMMANDS.merge?.summary).toMatch(/rag-shard/);
    expect(typeof (await COMMANDS['merge-baseline']!.load()).run).toBe('function');
  });

  it('writes the merged baseline over OURS and exits 0 when every row merges', async () => {
    const paths = versions(refunds({ q1: 1 }), refunds({ q1: 1, q2: 0.5 }), refunds({ q1: 1, q3: 0 }));
    const result = await runCommand(mergeBaseline, paths);
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(paths[1]!, 'utf8')).toBe(formatBaseline(refunds({ q1: 1, q2: 0.5, q3: 0 })));
  });

  it('reads an empty BASE (both branches added the file)', async () => {
    const paths = versions('', refunds({ q1: 1 }), refunds({ q2: 0.5 }));
    expect((await runCommand(mergeBaseline, paths)).code).toBe(0);
    expect(parseBaseline(readFileSync(paths[1]!, 'utf8'), 'merged')).toEqual(refunds({ q1: 1, q2: 0.5 }));
  });

  it('exits 1 on a row both sides changed, naming it and the command that re-records its suite, and leaves it between markers', async () => {
    const paths = versions(
      refunds({ q1: 1, q2: 1 }),
      refunds({ q1: 0.5, q2: 1, q3: 1 }),
      refunds({ q1: 0, q2: 1, q4: 1 }),
    );
    const result = await runCommand(mergeBaseline, ['--runner', 'jest', ...paths]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        'rag-matchers merge-baseline: 1 row was changed differently on both branches; the file keeps it between conflict markers:',
        '  test/orders.test.ts > orders API > refunds · q1 · recall@5: ours 0.5, theirs 0 (was 1)',
        "In each conflict keep one side's rows and delete the marker lines, then re-record just that suite and commit the file:",
        "  RAG_BASELINE=update npx jest test/orders.test.ts -t 'orders API refunds '",
        '',
      ].join('\n'),
    );
    const text = readFileSync(paths[1]!, 'utf8');
    expect(text).toContain(
      [
        '<<<<<<< ours',
        '    ,["test/orders.test.ts", ["orders API", "refunds"], "q1", "recall@5", 0.5]',
        '=======',
        '    ,["test/orders.test.ts", ["orders API", "refunds"], "q1", "recall@5", 0]',
        ">>>>>>> theirs (rag-matchers merge-baseline); then re-record: RAG_BASELINE=update npx jest test/orders.test.ts -t 'orders API refunds '",
        '    ,["test/orders.test.ts", ["orders API", "refunds"], "q2", "recall@5", 1]',
        '    ,["test/orders.test.ts", ["orders API", "refunds"], "q3", "recall@5", 1]',
        '    ,["test/orders.test.ts", ["orders API", "refunds"], "q4", "recall@5", 1]',
      ].join('\n'),
    );
  });

  it.each([
    [['a', 'b'], /^rag-matchers merge-baseline: expected three files, BASE OURS THEIRS \(git's %O %A %B\), got 2\n/],
    [['--runner', 'mocha', 'a', 'b', 'c'], /--runner must be vitest or jest, got 'mocha'/],
  ])('exits 2 on bad usage (%j)', async (args, message) => {
    const result = await runCommand(mergeBaseline, args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('exits 2 and leaves OURS as it was when a version cannot be read, naming the side and the problem', async () => {
    const v1 = '{"generatedBy":"rag-matchers","schemaVersion":1,"suites":{"test/a.test.ts > x":{"mrr":{"q":1}}}}';
    // Each case writes the three files when it runs (they share their paths).
    const cases: [() => string[], RegExp][] = [
      [
        () => versions(refunds({}), refunds({}), '{ nope'),
        /cannot merge: theirs \(THEIRS\) is not a baseline it can read: .*theirs: not valid JSON/,
      ],
      [
        () => versions(refunds({}), v1, refunds({})),
        /cannot merge: ours \(OURS\) is not a baseline it can read: .*ours: written in baseline schema version 1, which rag-matchers no longer reads \(it reads versions 3 to 7\); delete it and record a new one with RAG_BASELINE=update/,
      ],
      [
        () => [join(dir, 'missing'), ...versions(refunds({}), refunds({}), refunds({})).slice(1)],
        /cannot read the common ancestor \(BASE\) '.*missing'/,
      ],
    ];
    for (const [write, message] of cases) {
      const paths = write();
      const before = readFileSync(paths[1]!, 'utf8');
      const result = await runCommand(mergeBaseline, paths);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(readFileSync(paths[1]!, 'utf8')).toBe(before);
    }
  });
});

describe('the re-record command of a suite', () => {
  it('names the file, the project and an escaped, quoted describe-path filter', () => {
    expect(suiteUpdateCommand({ file: 'test/orders.test.ts', describe: ['orders API', 'refunds'] }, 'vitest')).toBe(
      "RAG_BASELINE=update npx vitest run test/orders.test.ts -t 'orders API refunds '",
    );
    expect(suiteUpdateCommand({ file: 'test/a.test.ts', describe: [] }, 'vitest')).toBe(
      'RAG_BASELINE=update npx vitest run test/a.test.ts',
    );
    expect(
      suiteUpdateCommand({ file: 'test/my tests.ts', describe: ["it's (v2) [new]"], project: 'api' }, 'vitest'),
    ).toBe("RAG_BASELINE=update npx vitest run 'test/my tests.ts' --project api -t 'it'\\''s \\(v2\\) \\[new\\] '");
    expect(suiteUpdateCommand({ file: 'test/a.test.ts', describe: ['a.b*'], project: 'api' }, 'jest')).toBe(
      "RAG_BASELINE=update npx jest test/a.test.ts -t 'a\\.b\\* '",
    );
  });

  it('is for the runner package.json lists, or for both when it lists neither or both', () => {
    expect(runnersInManifest({ devDependencies: { vitest: '^4' } })).toEqual(['vitest']);
    expect(runnersInManifest({ dependencies: { jest: '30' }, devDependencies: { 'ts-jest': '1' } })).toEqual(['jest']);
    expect(runnersInManifest({ devDependencies: { jest: '30', vitest: '4' } })).toEqual(['vitest', 'jest']);
    expect(runnersInManifest(null)).toEqual([]);
  });
});
