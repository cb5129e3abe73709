// `setupFiles: ['rag-matchers/vitest']`: registers the matchers on Vitest's expect.
// Samples are recorded on `this.task.meta`, which reaches reporters (and survives --merge-reports).
import { expect } from 'vitest';
import { matchers } from '../../matchers/index.js';
import type { RagMatchers } from '../../matchers/types.js';

expect.extend(matchers);

declare module 'vitest' {
  // Vitest 4: one interface types expect(x).matcher, expect.matcher (asymmetric) and expect.extend.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends RagMatchers<void> {}
}
