// Real `vitest run` and `jest` runs whose reports cannot be written (the JSON report path is a folder,
// $GITHUB_STEP_SUMMARY is a folder): the summary is still printed, the gate still decides the exit
// code, and one line per file says what could not be written.
import { mkdirSync, rmSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PackageSnapshot } from '../support/project.js';
import {
  createReporterProject,
  explain,
  preparePackage,
  reporterOutput,
  runTests,
  type ReporterProject,
} from './support.js';

let pkg: PackageSnapshot;
const projects: ReporterProject[] = [];

beforeAll(async () => {
  pkg = await preparePackage();
}, 240_000);

afterAll(() => {
  for (const project of projects) project.remove();
  pkg?.remove();
});

describe.each(['vitest', 'jest'] as const)('%s: a report that cannot be written', (runner) => {
  it(
    'still prints the regression and fails with exit 1, with one line per unwritable file',
    { timeout: 180_000 },
    async () => {
      const project = createReporterProject(runner, pkg);
      projects.push(project);
      const recorded = await runTests(project, { env: { RAG_BASELINE: 'update' } });
      expect(recorded.exitCode, explain(recorded)).toBe(0);

      rmSync(project.path('rag-report.json'), { force: true });
      mkdirSync(project.path('rag-report.json'));
      mkdirSync(project.path('step-summary'));
      const result = await runTests(project, {
        env: { RETRIEVER: 'worse', GITHUB_STEP_SUMMARY: project.path('step-summary') },
      });
      expect(result.exitCode, explain(result)).toBe(1);
      const output = reporterOutput(project, result);
      expect(output).toMatch(/recall@3\s+3\s+0\.667\s+\[[^\]]+\]\s+0\.833\s+-0\.167\s+▼ regressed/);
      expect(output).toContain('If this change is intended, accept it with: RAG_BASELINE=update');
      const combined = `${result.stdout}\n${result.stderr}`;
      expect(combined).toContain(
        `rag-matchers: could not write the JSON report ${project.path('rag-report.json')}: it is a folder; name a file such as rag-report.json (EISDIR).`,
      );
      expect(combined).toContain(
        `rag-matchers: could not write $GITHUB_STEP_SUMMARY (${project.path('step-summary')}): it is a folder; name a file such as step-summary.md (EISDIR).`,
      );
      expect(combined).not.toMatch(/Unhandled Error|at writeFileAtomic|at async/);
    },
  );
});
