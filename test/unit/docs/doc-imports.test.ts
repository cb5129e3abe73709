// The docs check of imported names (scripts/doc-imports.mjs): what it reads from a page, and that the
// module it writes fails tsc, pointing at the page, when an entry does not export a name.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docImports, importsModule } from '../../../scripts/doc-imports.mjs';
import { runCommand } from '../../integration/support/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

const PAGE = [
  '# A page',
  '',
  '```ts no-run',
  "import { defineConfig } from 'vitest/config';",
  "import { ragVitestReporter, type MeasureSpelling } from 'rag-matchers';",
  '```',
  '',
  '```js',
  "const { ragJestReporter } = require('rag-matchers');",
  '```',
  '',
  '```ts',
  'import {',
  '  parseRun,',
  '  formatRunJsonl as format,',
  "} from 'rag-matchers/trec';",
  "import RagMatchersJestReporter from 'rag-matchers/jest-reporter';",
  "import 'rag-matchers/vitest';",
  '```',
  '',
  '```text',
  "import { notCode } from 'rag-matchers';",
  '```',
].join('\n');

describe('docImports', () => {
  it('reads every import of the package from ts and js fences, with its line, and no other fence', () => {
    expect(docImports(PAGE)).toEqual([
      { entry: 'rag-matchers', names: ['ragVitestReporter', 'MeasureSpelling'], line: 5 },
      { entry: 'rag-matchers', names: ['ragJestReporter'], line: 9 },
      { entry: 'rag-matchers/trec', names: ['parseRun', 'formatRunJsonl'], line: 13 },
      { entry: 'rag-matchers/jest-reporter', names: ['default'], line: 17 },
      { entry: 'rag-matchers/vitest', names: ['*'], line: 18 },
    ]);
  });
});

describe('importsModule', () => {
  const work = mkdtempSync(join(tmpdir(), 'doc-imports-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('fails tsc at the line of a name its entry does not export, naming the page and line', async () => {
    const page = "```ts no-run\nimport { evaluate, formatRunJsonl } from 'rag-matchers';\n```\n";
    writeFileSync(join(work, 'imports.ts'), importsModule([{ source: 'docs/page.md', markdown: page }]));
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.docs.json'),
        compilerOptions: { typeRoots: [join(ROOT, 'node_modules', '@types')] },
        include: [],
        files: ['imports.ts'],
      }),
    );
    const run = await runCommand(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', work], {
      cwd: work,
      timeoutMs: 120_000,
    });
    const errors = run.stdout.split('\n').filter((line) => line.includes('error TS'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/imports\.ts\(4,\d+\): error TS2\d+: .*has no exported member .*'formatRunJsonl'/);
    expect(run.stdout).not.toMatch(/'evaluate'/);
    expect(importsModule([{ source: 'docs/page.md', markdown: page }]).split('\n')[3]).toMatch(
      /formatRunJsonl.* \/\/ docs\/page\.md:2$/,
    );
  }, 120_000);
});
