import { defineConfig } from 'tsup';

// Every public entry point is listed here and in package.json "exports" (and "bin" for the CLI).
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
    // Started by the CLI's trec-eval on large runs (one per extra thread); not an export.
    'trec-eval-worker': 'src/cli/trec-eval/worker.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
  // stdlib's distribution functions are bundled: a few KB of code instead of ~200 small runtime packages.
  noExternal: [/^@stdlib\//],
  external: ['vitest', 'vitest/node', 'vitest/reporters', 'jest', '@jest/globals', '@jest/reporters', 'expect'],
});
