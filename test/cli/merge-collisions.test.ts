// `rag-matchers merge … --json rag-baseline.json` (the built bin): a report flag that names the
// baseline is refused before anything is written (it used to overwrite the baseline and pass); the
// file the message suggests works.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emptyBaseline } from '../../src/baseline/file/types.js';
import { formatBaseline } from '../../src/baseline/file/write.js';
import { suiteKeyOf } from '../../src/recording/collected.js';
import { ensureBuilt, REPO_ROOT } from '../integration/support/build.js';
import { runCommand } from '../integration/support/run.js';

let root: string;
beforeAll(async () => {
  await ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'rag-merge-collisions-'));
  writeFileSync(join(root, 'a.test.ts'), '');
  writeFileSync(
    join(root, 'rag-shard-1-of-1.json'),
    JSON.stringify({
      generatedBy: 'rag-matchers',
      kind: 'shard-samples',
      schemaVersion: 1,
      runner: 'jest',
      shard: { index: 1, count: 1 },
      options: {},
      files: ['a.test.ts'],
      samples: [
        { measure: 'recall@5', value: 1, pass: true, queryId: 'q1', file: 'a.test.ts', describePath: [], test: 't1' },
      ],
    }),
  );
  const baseline = emptyBaseline();
  baseline.suites[suiteKeyOf({ file: 'a.test.ts', describe: [] })] = { 'recall@5': { q1: 1 } };
  writeFileSync(join(root, 'rag-baseline.json'), formatBaseline(baseline));
}, 240_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const merge = (args: string[]) =>
  runCommand(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), 'merge', 'rag-shard-1-of-1.json', ...args], {
    cwd: root,
    timeoutMs: 60_000,
    env: { CI: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined, RAG_BASELINE: 'update' },
  });

describe('rag-matchers merge --json naming the baseline', () => {
  it('is refused with exit 2 and the baseline untouched; --json rag-report.json then works', async () => {
    const before = readFileSync(join(root, 'rag-baseline.json'), 'utf8');
    const refused = await merge(['--json', 'rag-baseline.json']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      'rag-matchers merge: the shard reports’ reporter options: baseline and json name one file, "rag-baseline.json": ' +
        'the JSON report would overwrite the baseline. Give the JSON report a file of its own, such as rag-report.json.\n',
    );
    expect(readFileSync(join(root, 'rag-baseline.json'), 'utf8')).toBe(before);

    const fixed = await merge(['--json', 'rag-report.json']);
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(root, 'rag-report.json'), 'utf8'))).toMatchObject({ kind: 'retrieval-report' });
  });
});
