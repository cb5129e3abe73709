// precomputeIntervals: the Vitest reporter works out each file's intervals when the file ends, into a
// cache of its own, and summarize takes them rather than bootstrapping again, but only for exactly the
// same values and settings.
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';

const bootstraps = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/core/stats.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/core/stats.js')>();
  return {
    ...original,
    meanInterval: (...args: Parameters<typeof original.meanInterval>) => {
      bootstraps.count++;
      return original.meanInterval(...args);
    },
    // The bootstraps of several rows run together: one interval worked out per list of values.
    bootstrapMeanIntervals: (...args: Parameters<typeof original.bootstrapMeanIntervals>) => {
      bootstraps.count += args[0].length;
      return original.bootstrapMeanIntervals(...args);
    },
  };
});

const { IntervalCache, precomputeIntervals, summarize } = await import('../../../src/report/summary.js');

let cache = new IntervalCache();

function samples(file: string, measure: string, values: number[]): CollectedSample[] {
  return values.map((value, index) => ({
    file,
    describePath: ['refunds'],
    test: `question ${index + 1}`,
    queryId: `q${index + 1}`,
    measure,
    value,
    pass: true,
  }));
}
const fileA = [
  ...samples('test/a.test.ts', 'recall@5', [0.2, 0.5, 1, 0.75]),
  ...samples('test/a.test.ts', 'ndcg@10', [0.3, 0.9, 0.1]),
];
const fileB = samples('test/b.test.ts', 'recall@5', [0.4, 0.6, 0.8]);
const whole: CollectedRun = { runner: 'vitest', samples: [...fileA, ...fileB] };

afterEach(() => {
  cache = new IntervalCache();
  bootstraps.count = 0;
});

describe('precomputeIntervals', () => {
  it('gives the same summary, with no interval worked out again at the end', () => {
    const expected = summarize(whole, undefined, { seed: 7 });
    expect(bootstraps.count).toBe(3);
    precomputeIntervals({ runner: 'vitest', samples: fileA }, { seed: 7 }, cache);
    precomputeIntervals({ runner: 'vitest', samples: fileB }, { seed: 7 }, cache);
    expect(cache.size).toBe(3);
    bootstraps.count = 0;
    expect(summarize(whole, undefined, { seed: 7, intervals: cache })).toEqual(expected);
    expect(bootstraps.count).toBe(0);
    // Each was taken once.
    expect(cache.size).toBe(0);
  });

  it('is read only from the cache the caller passes: another summary bootstraps again', () => {
    precomputeIntervals({ runner: 'vitest', samples: fileA }, { seed: 7 }, cache);
    precomputeIntervals({ runner: 'vitest', samples: fileB }, { seed: 7 }, cache);
    bootstraps.count = 0;
    summarize(whole, undefined, { seed: 7 });
    expect(bootstraps.count).toBe(3);
    summarize(whole, undefined, { seed: 7, intervals: new IntervalCache() });
    expect(bootstraps.count).toBe(6);
    expect(cache.size).toBe(3);
  });

  it('names the option when it is not an IntervalCache', () => {
    expect(() => summarize(whole, undefined, { intervals: new Map() as never })).toThrow(
      'intervals must be an IntervalCache (new IntervalCache()) when given.',
    );
  });

  it('is not taken for other settings, or for other values (the same ones in another order included)', () => {
    precomputeIntervals({ runner: 'vitest', samples: fileA }, { seed: 8 }, cache);
    precomputeIntervals(
      { runner: 'vitest', samples: samples('test/b.test.ts', 'recall@5', [0.6, 0.4, 0.8]) },
      { seed: 7 },
      cache,
    );
    bootstraps.count = 0;
    const summary = summarize(whole, undefined, { seed: 7, intervals: cache });
    expect(bootstraps.count).toBe(3);
    cache.clear();
    expect(summarize(whole, undefined, { seed: 7 })).toEqual(summary);
  });
});
