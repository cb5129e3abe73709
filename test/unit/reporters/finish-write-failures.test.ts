// A report or baseline that cannot be written fails the run, with one line on stderr naming the file
// and the OS reason; the summary is still printed, and nothing says a baseline that was not written was
// recorded.
import fs, { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { finishRun, type FinishResult } from '../../../src/gate/finish.js';
import type { CollectedRun } from '../../../src/recording/collected.js';
import type { RagReporterOptions } from '../../../src/gate/user-options.js';
import { resolveReporterOptions } from '../../../src/gate/options.js';
import { recallRun } from '../report/fixture.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rag-finish-writes-'));
  writeFileSync(join(root, 'a.test.ts'), '');
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

async function finish(
  collected: CollectedRun,
  options: RagReporterOptions,
  env: Record<string, string | undefined> = {},
): Promise<{ result: FinishResult; out: string; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const resolved = resolveReporterOptions(options, { rootDir: root, runner: 'vitest', env });
  const result = await finishRun(collected, {
    rootDir: root,
    options: resolved,
    print: (text) => out.push(text),
    printError: (text) => err.push(text),
    color: false,
    env,
  });
  return { result, out: out.join('\n'), err };
}

const BASELINE = [
  '{',
  '  "generatedBy": "rag-matchers",',
  '  "schemaVersion": 3,',
  '  "rows": [',
  '    ["file", "describe", "question", "measure", "value", "project"]',
  '    ,["a.test.ts", ["refunds"], "q1", "recall@5", 1]',
  '    ,["a.test.ts", ["refunds"], "q2", "recall@5", 1]',
  '  ]',
  '}',
  '',
].join('\n');

describe('finishRun when a file cannot be written', () => {
  it('a json option naming a folder: the regression is still printed and fails the run, with one line about the report', async () => {
    writeFileSync(join(root, 'rag-baseline.json'), BASELINE);
    mkdirSync(join(root, 'reports'));
    const { result, out, err } = await finish(recallRun([0, 1]), { json: 'reports', markdown: 'reports/summary.md' });
    expect(result.failed).toBe(true);
    expect(result.reason).toContain('Retrieval quality regressed in 1 suite × measure row');
    expect(out).toContain('a.test.ts > refunds  recall@5');
    expect(out.split('\n').at(-1)).toContain('accept it with: RAG_BASELINE=update npx vitest run');
    expect(err).toEqual([
      `rag-matchers: could not write the JSON report ${join(root, 'reports')}: it is a folder; name a file such as rag-report.json (EISDIR).`,
    ]);
    // The other report was still written.
    expect(readFileSync(join(root, 'reports', 'summary.md'), 'utf8')).toContain('recall@5');
  });

  it('an unwritable $GITHUB_STEP_SUMMARY and html path: a passing gate still fails the run, naming the files', async () => {
    mkdirSync(join(root, 'summary-dir'));
    writeFileSync(join(root, 'blocker'), 'a file where a folder should be');
    const { result, out, err } = await finish(
      recallRun([1, 1]),
      { html: 'blocker/report.html' },
      { GITHUB_STEP_SUMMARY: join(root, 'summary-dir') },
    );
    expect(result.failed).toBe(true);
    expect(result.reason).toBe(
      `could not write $GITHUB_STEP_SUMMARY (${join(root, 'summary-dir')}): it is a folder; name a file such as step-summary.md (EISDIR).`,
    );
    expect(out).toContain('a.test.ts > refunds  recall@5');
    expect(out).toContain('The run fails: 2 files could not be written (see the errors below).');
    expect(err).toHaveLength(2);
    expect(err[0]).toBe(
      `rag-matchers: could not write $GITHUB_STEP_SUMMARY (${join(root, 'summary-dir')}): it is a folder; name a file such as step-summary.md (EISDIR).`,
    );
    expect(err[1]).toMatch(/^rag-matchers: could not write the HTML report .*blocker\/report\.html: /);
  });

  it('markdown and html options naming folders: each line suggests a file of its own kind', async () => {
    mkdirSync(join(root, 'md'));
    mkdirSync(join(root, 'page'));
    const { result, err } = await finish(recallRun([1, 1]), { markdown: 'md', html: 'page', json: 'out/rag.json' });
    expect(result.failed).toBe(true);
    expect(err).toEqual([
      `rag-matchers: could not write the Markdown report ${join(root, 'md')}: it is a folder; name a file such as rag-report.md (EISDIR).`,
      `rag-matchers: could not write the HTML report ${join(root, 'page')}: it is a folder; name a file such as rag-report.html (EISDIR).`,
    ]);
    expect(JSON.parse(readFileSync(join(root, 'out', 'rag.json'), 'utf8'))).toMatchObject({ passed: true });
  });

  it('a baseline write that meets a folder: the line suggests a baseline file, not a report', async () => {
    const open = fs.promises.open.bind(fs.promises);
    vi.spyOn(fs.promises, 'open').mockImplementation(async (file, flags, mode) => {
      if (String(file).startsWith(join(root, '.rag-baseline.json')))
        throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${String(file)}'`), {
          code: 'EISDIR',
        });
      return open(file, flags, mode);
    });
    const { result, err } = await finish(recallRun([1, 1]), {}, { RAG_BASELINE: 'update' });
    expect(result).toMatchObject({ failed: true, baselineWritten: false });
    expect(err).toEqual([
      'rag-matchers: could not write the baseline rag-baseline.json: it is a folder; name a file such as rag-baseline.json (EISDIR).',
    ]);
  });

  it('a read-only baseline folder: the update fails with one line, the summary and verdict stay', async () => {
    // Tests run as root here, where chmod cannot make a folder read-only: the file system says EROFS
    // to every file created next to the baseline. test/cli/merge-hostile.test.ts does it for real as another user.
    const open = fs.promises.open.bind(fs.promises);
    vi.spyOn(fs.promises, 'open').mockImplementation(async (file, flags, mode) => {
      if (String(file).startsWith(join(root, '.rag-baseline.json')))
        throw Object.assign(new Error(`EROFS: read-only file system, open '${String(file)}'`), { code: 'EROFS' });
      return open(file, flags, mode);
    });
    writeFileSync(join(root, 'rag-baseline.json'), BASELINE);
    const { result, out, err } = await finish(recallRun([1, 0.5]), {}, { RAG_BASELINE: 'update' });
    expect(result).toMatchObject({
      failed: true,
      baselineWritten: false,
      reason: 'could not write the baseline rag-baseline.json: the file system is read-only (EROFS).',
    });
    expect(out).toContain('a.test.ts > refunds  recall@5');
    expect(out).not.toContain('Updated');
    // A regression during an update is "recorded, not judged": not when the write failed.
    expect(out).not.toContain('these changes are recorded');
    expect(out).toContain('The run fails: a file could not be written (see the error below).');
    expect(err).toEqual([
      'rag-matchers: could not write the baseline rag-baseline.json: the file system is read-only (EROFS).',
    ]);
  });
});
