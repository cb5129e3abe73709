// Public API of rag-matchers. The runner entries (rag-matchers/vitest, rag-matchers/jest) live in src/vitest and src/jest.
export * from './core/index.js';
