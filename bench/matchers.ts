// Cost of one toHaveRecallAtK on a 100-hit list, above the bare core call it wraps.
import { pathToFileURL } from 'node:url';
import { expect as jestExpect } from 'expect';
import { evaluate, matchers } from '../src/index.js';

const ITERATIONS = 50_000;

function timePerCall(work: (iteration: number) => void): number {
  for (let iteration = 0; iteration < 2_000; iteration++) work(iteration); // warm up
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    for (let iteration = 0; iteration < ITERATIONS; iteration++) work(iteration);
    best = Math.min(best, (performance.now() - start) / ITERATIONS);
  }
  return best * 1000; // µs
}

export async function benchMatchers(): Promise<void> {
  const hits = Array.from({ length: 100 }, (_, index) => ({ id: `doc-${index}`, score: 100 - index }));
  const relevant = ['doc-1', 'doc-4', 'doc-9', 'doc-40', 'doc-77'];
  jestExpect.extend(matchers);
  const context = { isNot: false, promise: '' };

  let sink = 0;
  const core = timePerCall(() => {
    sink += evaluate(hits, relevant, 5).recallAtK;
  });
  const direct = timePerCall(() => {
    sink += matchers.toHaveRecallAtK.call(context, hits, relevant, 5, 0.4).pass ? 1 : 0;
  });
  const throughExpect = timePerCall(() => {
    (jestExpect(hits) as unknown as { toHaveRecallAtK: (...args: unknown[]) => void }).toHaveRecallAtK(
      relevant,
      5,
      0.4,
    );
  });
  console.log(`matchers: one toHaveRecallAtK on 100 hits (passing, so no message is built)`);
  console.log(`  bare evaluate()              ${core.toFixed(2).padStart(7)} µs`);
  console.log(
    `  matcher function             ${direct.toFixed(2).padStart(7)} µs  (+${(direct - core).toFixed(2)} µs, ${(direct / core).toFixed(2)}× the core)`,
  );
  console.log(
    `  expect(hits).toHaveRecallAtK ${throughExpect.toFixed(2).padStart(7)} µs  (+${(throughExpect - core).toFixed(2)} µs above the core; target ≤ 20 µs per assertion)`,
  );
  if (Number.isNaN(sink)) throw new Error('unreachable');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchMatchers();
