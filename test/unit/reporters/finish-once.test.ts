// The end of an update run parses the baseline once, groups the run once and works out its coverage
// once: the summary and the update share one diff (finishRun → prepareRun, diffRun, summarizeDiff,
// updateBaseline with that diff).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { groupRun } from '../../../src/baseline/group.js';
import { coverageOf } from '../../../src/baseline/identity.js';
import { finishRun } from '../../../src/gate/finish.js';
import { resolveReporterOptions } from '../../../src/gate/options.js';
import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';

vi.mock('../../../src/baseline/group.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/baseline/group.js')>();
  return { ...actual, groupRun: vi.fn(actual.groupRun) };
});
vi.mock('../../../src/baseline/identity.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/baseline/identity.js')>();
  return { ...actual, coverageOf: vi.fn(actual.coverageOf) };
});
/** How often the baseline file's text was parsed as JSON (the one parse of the baseline reader). */
let baselineParses = 0;
const parseJson = JSON.parse;
beforeEach(() => {
  baselineParses = 0;
  vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    if (typeof text === 'string' && text.includes('"generatedBy"') && text.includes('"rows"')) baselineParses++;
    return parseJson(text, reviver) as unknown;
  });
});

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rag-finish-once-'));
  writeFileSync(join(root, 'a.test.ts'), '');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  vi.mocked(groupRun).mockClear();
  vi.mocked(coverageOf).mockClear();
  vi.restoreAllMocks();
});

function run(values: number[]): CollectedRun {
  const sample = (id: string, value: number): CollectedSample => ({
    measure: 'recall@5',
    value,
    pass: true,
    queryId: id,
    file: 'a.test.ts',
    describePath: [],
    test: `asks ${id}`,
  });
  return {
    runner: 'vitest',
    outcomes: { files: [{ file: 'a.test.ts', incomplete: [] }] },
    samples: values.map((value, index) => sample(`q${index + 1}`, value)),
  };
}

async function update(collected: CollectedRun) {
  const env = { RAG_BASELINE: 'update' };
  return finishRun(collected, {
    rootDir: root,
    options: resolveReporterOptions({}, { rootDir: root, runner: 'vitest', env }),
    print: () => {},
    printError: () => {},
    color: false,
    env,
  });
}

describe('an update run', () => {
  it('parses the baseline once, groups the run once and works out its coverage once', async () => {
    await update(run([1, 1]));
    vi.mocked(groupRun).mockClear();
    vi.mocked(coverageOf).mockClear();
    baselineParses = 0;

    const result = await update(run([0, 1]));
    expect(result.baselineWritten).toBe(true);
    expect(readFileSync(join(root, 'rag-baseline.json'), 'utf8')).toContain('"q1", "recall@5", 0]');
    expect(baselineParses).toBe(1);
    expect(vi.mocked(groupRun)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(coverageOf)).toHaveBeenCalledTimes(1);
  });
});
