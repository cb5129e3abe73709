// The example under Jest (the Vitest run is vitest.config.ts). The example is ESM ("type": "module"
// above it, import.meta.url in src/), so Jest runs it as ESM: ts-jest's ESM preset, and
// NODE_OPTIONS=--experimental-vm-modules (npm run demo:jest sets it).
/** @type {import('jest').Config} */
export default {
  rootDir: '.',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.jest.json' }] },
  // Imports written with .js, as NodeNext wants, find the .ts file.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/jest/**/*.test.ts'],
  setupFilesAfterEnv: ['rag-matchers/jest'],
  reporters: [
    'default',
    [
      'rag-matchers/jest-reporter',
      {
        baseline: 'rag-baseline.jest.json',
        json: 'reports/jest/rag-report.json',
        markdown: 'reports/jest/rag-report.md',
        html: 'reports/jest/rag-report.html',
      },
    ],
  ],
};
