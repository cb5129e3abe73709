// Public API of rag-matchers. The runner entries (rag-matchers/vitest, rag-matchers/jest) live in src/vitest and src/jest.
export * from './core/index.js';
export { matchers } from '../matchers/index.js';
export type * from '../matchers/index.js';
export { type MetricSample, TASK_META_KEY } from './recording/sample.js';
export * from './generation/index.js';
export * from './dataset/index.js';
export { defineRagOptions, ragVitestReporter, ragJestReporter, type RagReporterOptions, type MeasureDeclaration, type SuiteDeclaration } from './recording/reporter-options.js';
