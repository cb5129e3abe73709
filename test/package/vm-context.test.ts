// The CommonJS build, which Jest loads, reads the built-ins it uses once when it loads (src/intrinsics.ts,
// injected by tsup.config.ts), not at every use: in Jest's vm context each read of a global is an
// interceptor call, and in a metric's loop that read cost more than the loop. Loaded here the way Jest
// loads a package (its modules compiled in a vm context, required from there), with the context's `Math`
// counting its reads. Needs `npm run build` (npm test builds first).
import { resolve } from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { jestLikeGlobals, requireIn } from '../../bench/vm-context.js';

const root = resolve(import.meta.dirname, '../..');

/** A vm context as Jest's node environment makes one, whose global `Math` counts how often code in it reads it. */
function countingContext(): { context: vm.Context; mathReads: () => number } {
  let reads = 0;
  const sandbox = jestLikeGlobals();
  Object.defineProperty(sandbox, 'Math', {
    get: () => {
      reads++;
      return Math;
    },
  });
  return { context: vm.createContext(sandbox), mathReads: () => reads };
}

describe('the CommonJS build in a vm context (Jest)', () => {
  it('reads Math once when it loads, not on every metric call', () => {
    const { context, mathReads } = countingContext();
    const library = requireIn(context)(resolve(root, 'dist/index.cjs')) as Record<string, unknown>;
    const readsAtLoad = mathReads();
    // The test's own code runs in the context too, as a Jest test does (its objects are the context's).
    context.ndcgAtK = library.ndcgAtK;
    const total = vm.runInContext(
      `let total = 0;
      const hits = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9', 'd10'];
      for (let call = 0; call < 200; call++) total += ndcgAtK(hits, { d2: 2, d9: 1, d20: 1 }, 10);
      total;`,
      context,
    ) as number;
    // DCG = 2/log2(3) + 1/log2(10) = 1.5628…; ideal = 2 + 1/log2(3) + 1/log2(4) = 3.1309…: 0.49918
    expect(total / 200).toBeCloseTo(0.49918, 4);
    expect(readsAtLoad).toBeLessThanOrEqual(1);
    expect(mathReads()).toBe(readsAtLoad);
  });
});
