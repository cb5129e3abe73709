// One diff of a run against its baseline, with the real runners: a measure a question did not produce
// because its test failed at an earlier assertion is not judged (an update keeps it and says so; strict
// CI fails naming it, and the advice it prints clears it); the update line counts exactly the rows that
// changed in the file; and an update in which no test file loaded (Jest native ESM without
// --experimental-vm-modules) writes no baseline and says what failed to load.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bytesOf,
  createReporterProject,
  explain,
  usePackage,
  reporterOutput,
  runTests,
  type ReporterProject,
  type Runner,
} from './support.js';

const pkg = usePackage();

const QUESTIONS = ['q01', 'q02', 'q03', 'q04', 'q05', 'q06', 'q07', 'q08', 'q09', 'q10'];

/**
 * Ten top-level tests, each asserting hit@1 then recall@3 of its question's document (no `measures`
 * declared). STALE=1 moves q07's document to rank 5: its first assertion fails, so its second never runs.
 */
function staleTestFile(runner: Runner): string {
  return `${runner === 'vitest' ? "import { expect, it } from 'vitest';\n\n" : ''}const QUESTIONS = ${JSON.stringify(QUESTIONS)};

function search(id) {
  return process.env.STALE === '1' && id === 'q07' ? ['x1', 'x2', 'x3', 'x4', 'q07-doc'] : [id + '-doc', 'x1', 'x2'];
}

for (const id of QUESTIONS) {
  it(id, () => {
    const hits = search(id);
    expect(hits).toHaveHitAtK([id + '-doc'], 1);
    expect(hits).toHaveRecallAtK([id + '-doc'], 3, 0);
  });
}
`;
}

/**
 * The file's value rows (lines after the header) that are not in `before`, and those of `before` no longer
 * in it. A question's ranking row (measure cell "", schema 5) follows its ranking, not its values: left
 * out here (test/integration/reporters/evidence.test.ts checks it).
 */
function changedRows(before: string, after: string): { added: string[]; removed: string[] } {
  const rows = (text: string) =>
    // Schema 7's ranking rows ([question, [text, hits…]]) left out: the rows of values.
    text.split('\n').filter((line) => line.startsWith('    ,[') && !/^ {4},\["(?:[^"\\]|\\.)*",\[/.test(line));
  const was = new Set(rows(before));
  const now = new Set(rows(after));
  return { added: [...now].filter((row) => !was.has(row)), removed: [...was].filter((row) => !now.has(row)) };
}

describe.each(['vitest', 'jest'] as const)(
  'a measure its test never reached, with %s',
  { timeout: 240_000 },
  (runner) => {
    const file = `test/stale.test.${runner === 'vitest' ? 'ts' : 'js'}`;
    const command = runner === 'vitest' ? 'npx vitest run' : 'npx jest';
    let project: ReporterProject;

    beforeAll(() => {
      project = createReporterProject(runner, pkg);
      const ext = runner === 'vitest' ? 'ts' : 'js';
      for (const fixture of ['orders', 'account']) rmSync(project.path(`test/${fixture}.test.${ext}`));
      writeFileSync(project.path(file), staleTestFile(runner));
    });

    afterAll(() => {
      project?.remove();
    });

    it('is not judged on update (kept, and said), fails strict CI naming it, and the advice printed clears it', async () => {
      const args = runner === 'jest' ? ['--runInBand'] : [];
      const run = (env: Record<string, string | undefined>) => runTests(project, { args, env });
      const output = (result: Awaited<ReturnType<typeof run>>) => reporterOutput(project, result);
      const baseline = () => readFileSync(project.path('rag-baseline.json'), 'utf8');

      const first = await run({ RAG_BASELINE: 'update' });
      expect(first.exitCode, explain(first)).toBe(0);
      expect(output(first)).toContain('Updated rag-baseline.json: 20 samples added.');
      const recorded = baseline();

      // q07's hit@1 falls to 0 and its recall@3 is never measured: one row changes, one is kept, and the
      // line says both (the test itself fails, so the run does too).
      const stale = await run({ RAG_BASELINE: 'update', STALE: '1' });
      expect(stale.exitCode, explain(stale)).toBe(1);
      expect(output(stale)).toContain(
        `Updated rag-baseline.json: 1 sample changed; kept 1 sample this run did not judge (1 whose test failed before measuring them: ${file} › q07 · recall@3).`,
      );
      const changed = changedRows(recorded, baseline());
      expect(changed.removed).toEqual([
        `    ,["${file}", [], "q07", "hit@1", 1, {"labels": "${labelsOf(recorded, 'q07', 'hit@1')}"}]`,
      ]);
      expect(changed.added).toEqual([
        // Positive-only labels: no unjudged count, so the value is the row's only change.
        `    ,["${file}", [], "q07", "hit@1", 0, {"labels": "${labelsOf(recorded, 'q07', 'hit@1')}"}]`,
      ]);
      expect(baseline()).toContain(`    ,["${file}", [], "q07", "recall@3", 1, {"labels": `);

      const ci = await run({ CI: 'true', STALE: '1' });
      expect(ci.exitCode, explain(ci)).toBe(1);
      const advice = `fix the test file, then run RAG_BASELINE=update ${command} and commit`;
      expect(output(ci)).toContain(
        `1 baseline question not judged: their test failed before measuring them — ${file} › q07 · recall@3 — ${advice}`,
      );
      expect(output(ci)).not.toContain('No retrieval regressions');

      // The advice, as printed: fix the test (q07 finds its document again), run the update, and CI passes.
      const fixed = await run({ RAG_BASELINE: 'update' });
      expect(fixed.exitCode, explain(fixed)).toBe(0);
      expect(output(fixed)).toContain('Updated rag-baseline.json: 1 sample changed.\n');
      expect(baseline()).toBe(recorded);
      const green = await run({ CI: 'true' });
      expect(green.exitCode, explain(green)).toBe(0);
      expect(output(green)).toContain('No retrieval regressions');
    });
  },
);

/** The fingerprint a baseline row holds. */
function labelsOf(text: string, question: string, measure: string): string {
  const match = new RegExp(`"${question}", "${measure}", [0-9.]+, \\{"labels": "([0-9a-f]+)"`).exec(text);
  if (match === null) throw new Error(`no labels for ${question} ${measure} in\n${text}`);
  return match[1]!;
}

describe(
  'an update in which no test file loaded (Jest native ESM without --experimental-vm-modules)',
  { timeout: 240_000 },
  () => {
    let project: ReporterProject;

    beforeAll(() => {
      project = createReporterProject('jest', pkg);
      writeFileSync(
        project.path('package.json'),
        '{ "name": "rag-reporter-jest-esm", "private": true, "type": "module" }\n',
      );
      renameSync(project.path('jest.config.js'), project.path('jest.config.cjs'));
      rmSync(project.path('retriever.js'));
      for (const name of ['orders', 'account'])
        writeFileSync(
          project.path(`test/${name}.test.js`),
          `import process from 'node:process';\n\nit('${name}', () => {\n  expect([process.env.DOC ?? '${name}-doc']).toHaveHitAtK(['${name}-doc'], 1);\n});\n`,
        );
    });

    afterAll(() => {
      project?.remove();
    });

    it('writes no baseline, says what failed to load, and fails; with a baseline present it leaves it as it was', async () => {
      const run = (env: Record<string, string | undefined>) => runTests(project, { args: ['--runInBand'], env });
      const refusal =
        'Did not update rag-baseline.json: no test file loaded, so nothing was measured: 2 test files failed to load: ';
      const hint = 'Jest loads native ES modules only with NODE_OPTIONS=--experimental-vm-modules set.';

      const none = await run({ RAG_BASELINE: 'update', NODE_OPTIONS: undefined });
      expect(none.exitCode, explain(none)).not.toBe(0);
      expect(none.stderr).toContain(refusal);
      expect(none.stderr).toContain(hint);
      for (const name of ['account', 'orders'])
        expect(none.stderr).toContain(`test/${name}.test.js (Must use import to load ES Module: `);
      expect(none.stderr).not.toContain('Updated rag-baseline.json');
      expect(bytesOf(project, 'rag-baseline.json')).toBeUndefined();

      const recorded = await run({ RAG_BASELINE: 'update', NODE_OPTIONS: '--experimental-vm-modules' });
      expect(recorded.exitCode, explain(recorded)).toBe(0);
      expect(recorded.stderr).toContain('Updated rag-baseline.json: 2 samples added.');
      const bytes = bytesOf(project, 'rag-baseline.json');

      const again = await run({ RAG_BASELINE: 'update', NODE_OPTIONS: undefined });
      expect(again.exitCode, explain(again)).not.toBe(0);
      expect(again.stderr).toContain(refusal);
      expect(again.stderr).not.toContain('is up to date');
      expect(bytesOf(project, 'rag-baseline.json')).toEqual(bytes);
    });
  },
);
