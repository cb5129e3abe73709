// Registers the rag-matchers matchers on Vitest's expect (vitest.config.ts lists this file in
// setupFiles), and, because tsconfig.json includes this file, gives TypeScript their types:
// `expect(hits).toHaveRecallAtK(…)` type-checks in every test file.
import 'rag-matchers/vitest';
