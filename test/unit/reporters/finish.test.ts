import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finishRun, type FinishResult } from '../../../src/gate/finish.js';
import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';
import type { RagReporterOptions } from '../../../src/gate/user-options.js';
import { resolveReporterOptions } from '../../../src/gate/options.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rag-finish-test-'));
  writeFileSync(join(root, 'a.test.ts'), '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function sample(queryId: string, value: number): CollectedSample {
  return {
    measure: 'recall@5',
    value,
    pass: true,
    threshold: 0.1,
    queryId,
    file: 'a.test.ts',
    describePath: ['refunds'],
    test: `asks ${queryId}`,
  };
}

function run(values: number[]): CollectedRun {
  return {
    runner: 'vitest',
    files: ['a.test.ts'],
    samples: values.map((value, index) => sample(`q${index + 1}`, value)),
  };
}

async function finish(
  collected: CollectedRun,
  options: RagReporterOptions = {},
  env: Record<string, string | undefined> = {},
  holdLastLine = false,
): Promise<{ result: FinishResult; out: string[]; err: string[] }> {
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
    holdLastLine,
  });
  return { result, out, err };
}

const lines = (out: string[]): string[] => out.join('\n').split('\n');
const ACCEPT =
  'Retrieval quality regressed in 1 suite × measure row. If this change is intended, accept it with: RAG_BASELINE=update npx vitest run';

describe('finishRun', () => {
  it('without a baseline: prints the table, ends with how to record one, passes, writes nothing', async () => {
    const { result, out } = await finish(run([1, 0.5]));
    expect(result).toMatchObject({ failed: false, baselineWritten: false });
    expect(out.join('\n')).toContain('a.test.ts > refunds  recall@5');
    expect(lines(out).at(-1)).toBe(
      'No baseline yet (rag-baseline.json): record one with RAG_BASELINE=update npx vitest run',
    );
    expect(existsSync(join(root, 'rag-baseline.json'))).toBe(false);
  });

  it('an update records the baseline and its line is the last (not "record one with")', async () => {
    const { result, out } = await finish(run([1, 0.5]), {}, { RAG_BASELINE: 'update' });
    expect(result).toMatchObject({ failed: false, baselineWritten: true });
    expect(lines(out).at(-1)).toBe('Updated rag-baseline.json: 2 samples added.');
    expect(out.join('\n')).not.toContain('record one with');
    expect(JSON.parse(readFileSync(join(root, 'rag-baseline.json'), 'utf8')).rows.slice(1)).toEqual([
      ['a.test.ts', ['refunds'], 'q1', 'recall@5', 1],
      ['a.test.ts', ['refunds'], 'q2', 'recall@5', 0.5],
    ]);
  });

  it('a regression fails with a reason and the accept line last; holdLastLine hands that line back instead', async () => {
    await finish(run([1, 1]), {}, { RAG_BASELINE: 'update' });
    const { result, out } = await finish(run([0, 1]));
    expect(result.failed).toBe(true);
    expect(result.reason).toBe(
      'Retrieval quality regressed in 1 suite × measure row — compared with rag-baseline.json',
    );
    expect(result.lastLine).toBeUndefined();
    expect(lines(out).at(-1)).toBe(ACCEPT);

    const held = await finish(run([0, 1]), {}, {}, true);
    expect(held.result.failed).toBe(true);
    expect(held.result.lastLine).toBe(ACCEPT);
    expect(held.out.join('\n')).not.toContain(ACCEPT);
    expect(held.out.join('\n')).toMatch(/^ +q1\b.*1\.000 → 0\.000$/m);
  });

  it('accepting a regression with an update passes and ends with the update, not with "accept it with"', async () => {
    await finish(run([1, 1]), {}, { RAG_BASELINE: 'update' });
    const { result, out } = await finish(run([0, 1]), {}, { RAG_BASELINE: 'update' });
    expect(result.failed).toBe(false);
    expect(lines(out).at(-1)).toBe('Updated rag-baseline.json: 1 sample changed.');
    expect(out.join('\n')).not.toContain('accept it with');
  });

  it('under CI an update is refused with a notice before the last line, and the gate still applies', async () => {
    await finish(run([1, 1]), {}, { RAG_BASELINE: 'update' });
    const before = readFileSync(join(root, 'rag-baseline.json'));
    const { result, out } = await finish(run([0, 1]), {}, { RAG_BASELINE: 'update', CI: 'true' });
    expect(result).toMatchObject({ failed: true, baselineWritten: false });
    const printed = lines(out);
    expect(printed.at(-1)).toBe(ACCEPT);
    expect(printed.at(-3)).toMatch(/^The baseline was not written: CI is set/);
    expect(readFileSync(join(root, 'rag-baseline.json'))).toEqual(before);
  });

  it('a prune run lists what it removes without advising to run the prune', async () => {
    await finish(run([1, 1]), {}, { RAG_BASELINE: 'update' });
    const { result, out } = await finish(run([1]), {}, { RAG_BASELINE: 'prune' });
    expect(result.failed).toBe(false);
    const text = out.join('\n');
    expect(text).toContain(
      '1 question of suite a.test.ts > refunds (recall@5) in the baseline did not run although the test file ran: q2 — this run removes it from the baseline: commit the file',
    );
    expect(text).not.toContain('RAG_BASELINE=prune');
  });

  it('failOnNew fails on questions missing from the baseline', async () => {
    await finish(run([1]), {}, { RAG_BASELINE: 'update' });
    const { result } = await finish(run([1, 1]), { failOnNew: true });
    expect(result.failed).toBe(true);
    expect(result.reason).toBe('1 question not in the baseline (failOnNew) — compared with rag-baseline.json');
  });

  it('an unusable baseline is an error naming it; the file is left as it is, even on update', async () => {
    writeFileSync(join(root, 'rag-baseline.json'), '[1, 2]');
    const { result, out, err } = await finish(run([1]), {}, { RAG_BASELINE: 'update' });
    expect(result.failed).toBe(true);
    expect(out).toEqual([]);
    expect(err.join('\n')).toMatch(
      /^rag-matchers: cannot use the baseline rag-baseline\.json: not a rag-matchers baseline/,
    );
    expect(result.reason).toBe(err[0]);
    expect(readFileSync(join(root, 'rag-baseline.json'), 'utf8')).toBe('[1, 2]');
  });

  it('writes the JSON, Markdown and HTML reports where the options say', async () => {
    await finish(run([1, 0.5]), { json: 'out/report.json', markdown: 'out/report.md', html: 'out/report.html' });
    expect(JSON.parse(readFileSync(join(root, 'out/report.json'), 'utf8'))).toMatchObject({
      kind: 'retrieval-report',
      counts: { samples: 2 },
    });
    expect(readFileSync(join(root, 'out/report.md'), 'utf8')).toContain('a.test.ts > refunds');
    expect(readFileSync(join(root, 'out/report.html'), 'utf8')).toContain('<html');
  });
});
