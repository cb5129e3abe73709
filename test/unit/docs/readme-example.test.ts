// README's example test, run as written (its code block, imports aside, with `test` and `expect` standing
// in for Vitest's on a Vitest-shaped test), records one question: `q017`, given on its first matcher
// only, names the measures of every matcher of the test (docs/matchers.md, "One test, one question").
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchers } from '../../../matchers/index.js';
import { TASK_META_KEY, type MetricSample } from '../../../src/recording/sample.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

function readmeExample(): string {
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```/gm)]
    .map((match) => match[1]!)
    .filter((code) => code.includes("test('how long do I have to ask for a refund?'"));
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

type Matcher = (this: object, received: unknown, ...args: unknown[]) => { pass: boolean; message: () => string };

/** The block's `test` and `expect`, recording on one Vitest-shaped task; throws as `expect` does. */
function runAsWritten(code: string): { name: string; samples: MetricSample[] } {
  const task = {
    name: '',
    meta: {} as Record<string, unknown>,
    suite: { name: '', filepath: '/repo/test/retrieval.test.ts' },
    file: { filepath: '/repo/test/retrieval.test.ts' },
    result: { retryCount: 0, repeatCount: 0 },
  };
  const assertions = (received: unknown, isNot: boolean) =>
    new Proxy(
      {},
      {
        get: (_target, name: string) => {
          if (name === 'not') return assertions(received, true);
          const matcher = (matchers as unknown as Record<string, Matcher>)[name];
          if (matcher === undefined) throw new Error(`README's example calls ${name}, which is not a matcher`);
          return (...args: unknown[]) => {
            const result = matcher.call({ task, isNot }, received, ...args);
            if (result.pass === isNot) throw new Error(result.message());
          };
        },
      },
    );
  const test = (name: string, body: () => void) => {
    task.name = name;
    body();
  };
  const body = code.replace(/^import .*\n/gm, '');
  new Function('test', 'expect', body)(test, (received: unknown) => assertions(received, false));
  return { name: task.name, samples: (task.meta[TASK_META_KEY] as MetricSample[] | undefined) ?? [] };
}

describe("README's example test", () => {
  it('passes and records one question, q017, for every measure its matchers measure', () => {
    const { name, samples } = runAsWritten(readmeExample());
    expect(name).toBe('how long do I have to ask for a refund?');
    // toRankFirst records nothing; recall@5 and ndcg@10 are both q017's.
    expect(samples.map((sample) => [sample.queryId, sample.measure, sample.pass])).toEqual([
      ['q017', 'recall@5', true],
      ['q017', 'ndcg@10', true],
    ]);
  });
});
