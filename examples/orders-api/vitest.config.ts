// The example's test run: the matchers registered in every test file, and the retrieval reporter
// after Vitest's own. `npm run demo` runs it; so does `npx vitest run` from this directory.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run demo:regression` runs the degraded retriever (ORDERS_RETRIEVER=degraded): its reports go
// to reports/degraded/, next to the demo's rather than over them.
const reports = process.env.ORDERS_RETRIEVER === 'degraded' ? 'reports/degraded' : 'reports';

export default defineConfig({
  test: {
    // This directory, wherever Vitest is started from: the baseline and reports paths are relative to it.
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['test/**/*.test.ts'],
    // test/setup.ts imports 'rag-matchers/vitest': the matchers at run time and their types for tsc.
    setupFiles: ['./test/setup.ts'],
    reporters: [
      'default',
      [
        'rag-matchers/vitest-reporter',
        {
          baseline: 'rag-baseline.json',
          json: `${reports}/rag-report.json`,
          markdown: `${reports}/rag-report.md`,
          html: `${reports}/rag-report.html`,
        },
      ],
    ],
  },
});
