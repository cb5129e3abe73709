import { defineConfig } from 'tsup';

// Every public entry point is listed here and in package.json "exports".
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    vitest: 'src/vitest/setup.ts',
    jest: 'src/jest/setup.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
  external: ['vitest', 'jest', '@jest/globals', 'expect'],
});
