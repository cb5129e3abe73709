// Real `vitest run` and `jest` runs (issue 34, round three and errors): a report path that names the
// baseline is refused before any test runs, in one line with exit 1 and the baseline untouched; an
// environment mistake is one line with a guess at what was meant, no banner and no frames; GitHub
// annotations show terminal escapes from question ids and test file names visibly. Five spawns per runner.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PackageSnapshot } from '../support/project.js';
import { createReporterProject, explain, preparePackage, runTests, type ReporterProject } from './support.js';

let pkg: PackageSnapshot;
const projects: ReporterProject[] = [];

beforeAll(async () => {
  pkg = await preparePackage();
}, 240_000);

afterAll(() => {
  for (const project of projects) project.remove();
  pkg?.remove();
});

// A question id and a test file name that carry terminal escapes and a bidirectional override.
const HOSTILE_ID = 'q\\u001b[2J\\u001b]0;pwned\\u0007';
const HOSTILE_FILE = 'test/\u202eevil.test';
const hostileTest = (runner: 'vitest' | 'jest') =>
  `${runner === 'vitest' ? "import { expect, it } from 'vitest';\n" : ''}` +
  `it('hostile names', () => {\n` +
  `  const hits = process.env.RETRIEVER === 'worse' ? [{ id: 'b' }, { id: 'a' }] : [{ id: 'a' }];\n` +
  `  expect(hits).toHaveRecallAtK(['a'], 1, 0, { queryId: '${HOSTILE_ID}' });\n` +
  `});\n`;

// A matcher misused (k = 0) in the run with the worse retriever: its error shows the test's frame, none of ours.
const usageErrorTest = (runner: 'vitest' | 'jest') =>
  `${runner === 'vitest' ? "import { expect, it } from 'vitest';\n" : ''}` +
  `it('misused matcher', () => {\n` +
  `  if (process.env.RETRIEVER === 'worse') expect([{ id: 'a' }]).toHaveRecallAtK(['a'], 0, 0.5);\n` +
  `});\n`;

/** The fixture's config, with its JSON report path taken from RAG_JSON (the Jest fixture already does). */
function jsonPathFromEnvironment(project: ReporterProject): void {
  if (project.runner === 'jest') return;
  const config = project.path('vitest.config.ts');
  const text = readFileSync(config, 'utf8');
  expect(text).toContain("json: 'rag-report.json'");
  writeFileSync(config, text.replace("json: 'rag-report.json'", "json: process.env.RAG_JSON || 'rag-report.json'"));
}

describe.each(['vitest', 'jest'] as const)('%s: hostile options and names', (runner) => {
  it(
    'refuses a report over the baseline and a misspelt RAG_BASELINE in one line each; annotations show escapes; a misused matcher shows no frame of ours; a FIFO baseline is refused',
    { timeout: 240_000 },
    async () => {
      const project = createReporterProject(runner, pkg);
      projects.push(project);
      jsonPathFromEnvironment(project);
      const extension = runner === 'vitest' ? 'ts' : 'js';
      writeFileSync(project.path(`${HOSTILE_FILE}.${extension}`), hostileTest(runner));
      writeFileSync(project.path(`test/usage-error.test.${extension}`), usageErrorTest(runner));
      const recorded = await runTests(project, { env: { RAG_BASELINE: 'update' } });
      expect(recorded.exitCode, explain(recorded)).toBe(0);
      const baseline = readFileSync(project.path('rag-baseline.json'), 'utf8');

      const source = `rag-matchers/${runner}-reporter options`;
      const collision = await runTests(project, {
        env: { RAG_BASELINE: 'update', RAG_JSON: './test/../rag-baseline.json' },
      });
      expect(collision.exitCode, explain(collision)).toBe(1);
      const collisionOutput = `${collision.stdout}\n${collision.stderr}`;
      expect(collisionOutput).toContain(
        `${source}: baseline and json name one file, "./test/../rag-baseline.json": the JSON report would overwrite the baseline. ` +
          'Give the JSON report a file of its own, such as rag-report.json.',
      );
      expect(readFileSync(project.path('rag-baseline.json'), 'utf8')).toBe(baseline);

      const typo = await runTests(project, { env: { RAG_BASELINE: 'updte' } });
      expect(typo.exitCode, explain(typo)).toBe(1);
      const typoOutput = `${typo.stdout}\n${typo.stderr}`;
      expect(typoOutput).toContain(
        'rag-matchers: RAG_BASELINE must be "update" (record this run into the baseline) or "prune" (also remove obsolete entries), got "updte" (did you mean RAG_BASELINE=update?).',
      );
      for (const output of [collisionOutput, typoOutput]) {
        expect(output).not.toMatch(
          /Unhandled Error|Startup Error|An error occurred while adding the reporter|\n\s+at |❯/,
        );
        expect(output).not.toMatch(/✓|PASS/);
      }

      const annotated = await runTests(project, { env: { RETRIEVER: 'worse', GITHUB_ACTIONS: 'true' } });
      expect(annotated.exitCode, explain(annotated)).toBe(1);
      const annotations = annotated.stdout.split('\n').filter((line) => line.startsWith('::'));
      const hostile = annotations.filter((line) => line.includes('pwned'));
      expect(hostile).toEqual([
        `::error file=test/\\u202eevil.test.${runner === 'vitest' ? 'ts' : 'js'},line=${runner === 'vitest' ? 4 : 3},title=retrieval regressed%3A q\\x1b[2J\\x1b]0;pwned\\x07::` +
          `q\\x1b[2J\\x1b]0;pwned\\x07: recall@1 1.000 → 0.000 (suite test/\\u202eevil.test.${runner === 'vitest' ? 'ts' : 'js'})`,
      ]);
      // eslint-disable-next-line no-control-regex -- no control character may reach an annotation
      for (const line of annotations) expect(line).not.toMatch(/[\u0000-\u001f\u007f\u202e]/);

      // The misused matcher: its message, then the test's own frame; no frame from rag-matchers' dist/.
      const failures = `${annotated.stdout}\n${annotated.stderr}`;
      expect(failures).toContain('Matcher error: "k" must be a positive whole number (e.g. 5)');
      expect(failures).toMatch(new RegExp(`test/usage-error\\.test\\.${extension}:${runner === 'vitest' ? 3 : 2}:`));
      expect(failures).not.toMatch(/usageError|argumentError|checkCutoff|runMetricMatcher|[/\\]dist[/\\]chunk-/);

      // A baseline that is a named pipe: refused at once (the run used to wait on it forever).
      rmSync(project.path('rag-baseline.json'));
      execFileSync('mkfifo', [project.path('rag-baseline.json')]);
      const piped = await runTests(project, { timeoutMs: 60_000 });
      expect(piped.exitCode, explain(piped)).toBe(1);
      expect(`${piped.stdout}\n${piped.stderr}`).toContain(
        `${source}: baseline names "rag-baseline.json", which is a named pipe (FIFO), not a regular file; name a file such as rag-baseline.json.`,
      );
    },
  );
});
