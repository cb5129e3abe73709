import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Runs the code samples extracted from README.md and docs/ (scripts/extract-doc-samples.mjs)
// against the source, as a user of the published package would write them.
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^rag-matchers\/vitest$/, replacement: source('./src/vitest/setup.ts') },
      { find: /^rag-matchers\/trec$/, replacement: source('./src/entries/trec.ts') },
      { find: /^rag-matchers\/stats$/, replacement: source('./src/entries/stats.ts') },
      { find: /^rag-matchers\/generation$/, replacement: source('./src/entries/generation.ts') },
      { find: /^rag-matchers\/report$/, replacement: source('./src/entries/report.ts') },
      { find: /^rag-matchers$/, replacement: source('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/docs/generated/**/*.test.ts'],
    setupFiles: [source('./src/vitest/setup.ts')],
  },
});
