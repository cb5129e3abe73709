// Ranking churn with the real `vitest run`: one recording, then two CI runs of a retriever that reshuffles
// ranks 2–5 of two of the five billing questions while each relevant key stays at rank 1 (recall@5 holds).
// Worked by hand (RBO_EXT, p = 0.9, the stored depth 5): before a b c d e, after a e d c b:
//   A_1 = 1, A_2 = 1/2, A_3 = 1/3, A_4 = 3/4, A_5 = 1;
//   (1/9) · (0.9 + 0.5 · 0.81 + 0.729/3 + 0.75 · 0.6561 + 0.59049) + 0.59049 = 0.292285 + 0.59049 = 0.882775.
// The suite's mean RBO is (3 · 1 + 2 · 0.882775) / 5 = 0.95311; its top 5 changed for 2 of 5 questions (40%),
// its top-5 overlap stays 1 (the same keys). Shipping's rankings do not change.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageSnapshot } from '../support/project.js';
import {
  createReporterProject,
  explain,
  preparePackage,
  readJson,
  reporterOutput,
  runTests,
  type ReporterProject,
} from './support.js';

const CONFIG = `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['rag-matchers/vitest'],
    include: ['test/**/*.test.ts'],
    reporters: [
      'default',
      [
        'rag-matchers/vitest-reporter',
        {
          json: 'rag-report.json',
          markdown: 'rag-report.md',
          html: 'rag-report.html',
          maxChurn: process.env.MAX_CHURN_RBO ? { rbo: Number(process.env.MAX_CHURN_RBO) } : undefined,
        },
      ],
    ],
  },
});
`;

const TESTS = `import { describe, expect, it } from 'vitest';

const reshuffle = process.env.RESHUFFLE === '1';
const hits = (keys: string[]) => keys.map((id, index) => ({ id, score: 1 - index / 10 }));

describe('billing', () => {
  for (const n of [1, 2, 3, 4, 5]) {
    it(\`billing question \${n}\`, () => {
      const top = [\`invoice-\${n}\`, 'billing-faq', 'vat-rules', 'receipts', 'payment-methods'];
      const ranked = reshuffle && n <= 2 ? [top[0]!, ...top.slice(1).reverse()] : top;
      expect(hits(ranked)).toHaveRecallAtK([\`invoice-\${n}\`], 5, 0.5, { queryId: \`b\${n}\` });
    });
  }
});

describe('shipping', () => {
  for (const n of [1, 2]) {
    it(\`shipping question \${n}\`, () => {
      expect(hits([\`parcel-\${n}\`, 'customs', 'carriers'])).toHaveRecallAtK([\`parcel-\${n}\`], 5, 0.5, { queryId: \`s\${n}\` });
    });
  }
});
`;

let pkg: PackageSnapshot;
let project: ReporterProject;

beforeAll(async () => {
  pkg = await preparePackage();
  project = createReporterProject('vitest', pkg);
  rmSync(project.path('test'), { recursive: true });
  writeFileSync(project.path('vitest.config.ts'), CONFIG);
  mkdirSync(project.path('test'));
  writeFileSync(project.path('test', 'churn.test.ts'), TESTS);
}, 240_000);

afterAll(() => {
  project?.remove();
  pkg?.remove();
});

describe('a reshuffled top 5 with unchanged recall', { timeout: 240_000 }, () => {
  it('is reported per suite and as "rankings changed, values held", not failing strict CI; maxChurn fails it', async () => {
    const recorded = await runTests(project, { env: { RAG_BASELINE: 'update' } });
    expect(recorded.exitCode, explain(recorded)).toBe(0);

    const reshuffled = await runTests(project, { env: { CI: 'true', RESHUFFLE: '1' } });
    expect(reshuffled.exitCode, explain(reshuffled)).toBe(0);
    const console = reporterOutput(project, reshuffled);
    expect(console).toContain('Ranking churn against the baseline');
    expect(console).toContain('  test/churn.test.ts > billing: mean RBO 0.953, top 5 changed for 40% of 5 questions');
    expect(console).not.toMatch(/shipping: mean RBO/);
    expect(console).toContain(
      '2 questions of suite test/churn.test.ts > billing: rankings changed, values held (mean RBO 0.953, top 5 changed for 40% of 5 questions): b1, b2',
    );
    expect(console).toContain('No retrieval regressions');

    const markdown = readFileSync(project.path('rag-report.md'), 'utf8');
    expect(markdown).toContain('| test/churn.test.ts > billing | 5 | 0.953 | 1.000 | 40% | b1 0.883, b2 0.883 |');
    expect(markdown).toContain('rankings changed, values held');

    const report = readJson<{
      passed: boolean;
      churn: { suites: { suite: string; meanRbo: number; topChangedShare: number; changes: { question: string }[] }[] };
    }>(project, 'rag-report.json');
    expect(report.passed).toBe(true);
    const billing = report.churn.suites.find((suite) => suite.suite === 'test/churn.test.ts > billing')!;
    expect(billing.meanRbo).toBeCloseTo(0.95311, 5);
    expect(billing.topChangedShare).toBe(0.4);
    expect(billing.changes.map((change) => change.question)).toEqual(['b1', 'b2']);
    expect(report.churn.suites.find((suite) => suite.suite === 'test/churn.test.ts > shipping')!.changes).toEqual([]);

    const html = readFileSync(project.path('rag-report.html'), 'utf8');
    expect(html).toContain('<section id="churn"><h2>Ranking churn</h2>');

    const gated = await runTests(project, { env: { CI: 'true', RESHUFFLE: '1', MAX_CHURN_RBO: '0.96' } });
    expect(gated.exitCode, explain(gated)).toBe(1);
    const gatedConsole = reporterOutput(project, gated);
    expect(gatedConsole).toContain(
      '  ✗ ranking churn in suite test/churn.test.ts > billing: mean RBO 0.953 is below maxChurn.rbo 0.960; top 5 changed for 40% of 5 questions — run RAG_BASELINE=update npx vitest run and commit',
    );
    expect(gatedConsole).toContain('Rankings changed beyond maxChurn in 1 suite');
  });
});
