// The end of an update run in which no test file loaded: no baseline written, the reason printed last,
// the run failed (finishRun, as both reporters and `rag-matchers merge` end a run).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finishRun } from '../../../src/gate/finish.js';
import { resolveReporterOptions } from '../../../src/gate/options.js';
import type { CollectedRun } from '../../../src/recording/collected.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rag-finish-refusal-'));
  writeFileSync(join(root, 'a.test.ts'), '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const nothingLoaded: CollectedRun = {
  runner: 'vitest',
  samples: [],
  outcomes: {
    files: [
      {
        file: 'a.test.ts',
        notJudged: { reason: 'load-failed', detail: "SyntaxError: Unexpected token ')'" },
        incomplete: [],
      },
    ],
  },
};

async function finish(env: Record<string, string | undefined>) {
  const out: string[] = [];
  const options = resolveReporterOptions({}, { rootDir: root, runner: 'vitest', env });
  const result = await finishRun(nothingLoaded, {
    rootDir: root,
    options,
    print: (text) => out.push(text),
    printError: (text) => out.push(text),
    color: false,
    env,
  });
  return { result, lines: out.join('\n').split('\n') };
}

const REFUSAL =
  "Did not update rag-baseline.json: no test file loaded, so nothing was measured: a test file failed to load: a.test.ts (SyntaxError: Unexpected token ')').";

describe('an update in which no test file loaded', () => {
  it('writes no baseline, ends with why, and fails the run', async () => {
    const { result, lines } = await finish({ RAG_BASELINE: 'update' });
    expect(result).toMatchObject({ failed: true, baselineWritten: false });
    expect(result.reason).toBe(
      "rag-baseline.json was not updated: no test file loaded, so nothing was measured: a test file failed to load: a.test.ts (SyntaxError: Unexpected token ')')",
    );
    expect(lines.at(-1)).toBe(REFUSAL);
    expect(lines.join('\n')).not.toContain('record one with');
    expect(existsSync(join(root, 'rag-baseline.json'))).toBe(false);
  });

  it('leaves a baseline that is there as it was, and does not call it up to date', async () => {
    const text =
      '{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 3,\n  "rows": [\n    ["file", "describe", "question", "measure", "value", "project"]\n    ,["a.test.ts", [], "q1", "hit@1", 1]\n  ]\n}\n';
    writeFileSync(join(root, 'rag-baseline.json'), text);
    const { result, lines } = await finish({ RAG_BASELINE: 'prune' });
    expect(result.failed).toBe(true);
    expect(lines.at(-1)).toBe(REFUSAL);
    expect(lines.join('\n')).not.toContain('is up to date');
    expect(readFileSync(join(root, 'rag-baseline.json'), 'utf8')).toBe(text);
  });
});
