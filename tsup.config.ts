import { defineConfig } from 'tsup';

// Every public entry point is listed here and in package.json "exports" (and "bin" for the CLI).
// `npm run demo` builds the ESM JavaScript alone (RAG_MATCHERS_BUILD=js): the declarations are most of
// the build's time, and the demo reads neither them nor the CommonJS files. It keeps whatever else
// dist/ holds.
const javascriptOnly = process.env.RAG_MATCHERS_BUILD === 'js';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    vitest: 'src/vitest/setup.ts',
    jest: 'src/jest/setup.ts',
    'vitest-reporter': 'src/vitest/reporter.ts',
    'jest-reporter': 'src/jest/reporter.ts',
    trec: 'src/entries/trec.ts',
    stats: 'src/entries/stats.ts',
    generation: 'src/entries/generation.ts',
    report: 'src/entries/report.ts',
    cli: 'src/cli/main.ts',
    // Started by the trec-eval engine (src/trec/eval/) on large runs (one per extra thread); not an export.
    'trec-eval-worker': 'src/trec/eval/worker.ts',
  },
  format: javascriptOnly ? ['esm'] : ['esm', 'cjs'],
  dts: !javascriptOnly,
  // Maps without sourcesContent would be most of the tarball for little use: none are shipped.
  sourcemap: false,
  clean: !javascriptOnly,
  target: 'node20',
  splitting: true,
  treeshake: true,
  // Syntax and whitespace minification, lines kept under 160 characters: about 220 KB less. Names stay
  // (identifiers are not minified), so a stack frame still names our function (docs/decisions.md).
  esbuildOptions(options) {
    options.minifySyntax = true;
    options.minifyWhitespace = true;
    options.lineLimit = 160;
  },
  external: ['vitest', 'vitest/node', 'vitest/reporters', 'jest', '@jest/globals', '@jest/reporters', 'expect'],
});
