// The Jest twin of test/questions.test.ts: the same questions, the same bar, the same reporter, with
// its own baseline (rag-baseline.jest.json). It keeps the long form, a loop of hand-written tests, where
// test/questions.test.ts declares its suites with describeRetrieval. Run it with `npm run demo:jest` from the repository root,
// or `NODE_OPTIONS=--experimental-vm-modules npx jest` from this directory (the example is ESM).
import { describe, expect, test } from '@jest/globals';
// The matchers' types on @jest/globals' expect (jest.config.js registers them at run time).
import type {} from 'rag-matchers/jest';
import { loadQuestions, retrieve, type Hit, type Question, type QuestionKind } from '../src/index.js';
import { LOOK_ALIKES } from '../test/known-misses.js';

const questions = loadQuestions();
const ofKind = (kind: QuestionKind) => questions.filter((question) => question.kind === kind);
const answering = (question: Question) => Object.keys(question.relevant).filter((id) => question.relevant[id] === 2);

/** `test`, or `test.failing` (Jest's test.fails) for a known miss (`"expect": "miss"` in the file). */
const testFor = (question: Question) => (question.expect === 'miss' ? test.failing : test);

/**
 * Jest has no expect.soft: every assertion runs (and records its measure) even after one fails, and
 * the test then fails with all the messages.
 */
function softly(assertions: (() => void)[]): void {
  const failures: string[] = [];
  for (const assertion of assertions) {
    try {
      assertion();
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  if (failures.length > 0) throw new Error(failures.join('\n\n'));
}

function clearsTheBar(hits: Hit[], question: Question): (() => void)[] {
  const options = { granularity: 'document' as const, queryId: question.id };
  return [
    () => expect(hits).toHaveHitAtK(question.relevant, 5, options),
    () => expect(hits).toHaveRecallAtK(question.relevant, 5, 0.5, options),
    () => expect(hits).toHaveNdcgAbove(question.relevant, 0.4, { ...options, k: 10 }),
  ];
}

describe('single passage', () => {
  for (const question of ofKind('single')) {
    testFor(question)(question.query, async () => {
      softly(clearsTheBar(await retrieve(question.query, 10), question));
    });
  }
});

describe('multi-passage', () => {
  for (const question of ofKind('multi-passage')) {
    testFor(question)(question.query, async () => {
      softly(clearsTheBar(await retrieve(question.query, 10), question));
    });
  }
});

describe('near miss', () => {
  for (const question of ofKind('near-miss')) {
    testFor(question)(question.query, async () => {
      const hits = await retrieve(question.query, 10);
      const lookAlikes = answering(question).flatMap((target) =>
        (LOOK_ALIKES[target] ?? []).map(
          (lookAlike) => () => expect(hits).toRankBefore(target, lookAlike, { granularity: 'document' }),
        ),
      );
      softly([...clearsTheBar(hits, question), ...lookAlikes]);
    });
  }
});
