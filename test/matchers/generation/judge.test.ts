import { describe, expect, it } from 'vitest';
import { toPassJudge } from '../../../matchers/toPassJudge.js';
import { JudgeError, type JudgeInput, type JudgeResult, type RagJudge } from '../../../src/index.js';
import { asyncFailureOf, failureOf, recordingContext, SEED_ANSWER, SEED_PASSAGE } from './helpers.js';

const QUESTION = 'How many requests may one API key send?';

/** An in-memory judge: answers with a fixed grade (or throws), and keeps what it was asked. */
function fakeJudge(outcome: JudgeResult | Error | unknown, name = 'fake'): RagJudge & { inputs: JudgeInput[] } {
  const inputs: JudgeInput[] = [];
  return {
    name,
    inputs,
    async judge(input) {
      inputs.push(input);
      if (outcome instanceof Error) throw outcome;
      return outcome as JudgeResult;
    },
  };
}

const low: JudgeResult = {
  score: 0.4,
  reason: 'The per-key limit is in the passage; the hourly reset is not.',
  dimensions: { faithfulness: 0.5, relevance: 1, completeness: 1 },
};
const high: JudgeResult = { score: 0.9, reason: 'Every claim is in the passage.' };

describe('toPassJudge', () => {
  it('passes when score ≥ min, and sends the question, answer and passages to the judge', async () => {
    const judge = fakeJudge(high);
    await expect(SEED_ANSWER).toPassJudge(judge, {
      question: QUESTION,
      contexts: [{ pageContent: SEED_PASSAGE }],
      min: 0.9,
    });
    await expect(SEED_ANSWER).not.toPassJudge(judge, { question: QUESTION, contexts: SEED_PASSAGE, min: 0.91 });
    expect(judge.inputs[0]).toEqual({ question: QUESTION, answer: SEED_ANSWER, contexts: [SEED_PASSAGE] });
    expect(judge.inputs[1]?.contexts).toEqual([SEED_PASSAGE]);
  });

  it('without contexts the judge is told that nothing was retrieved (an empty list)', async () => {
    const judge = fakeJudge(high);
    await expect("I don't know.").toPassJudge(judge, { question: QUESTION, min: 0.5 });
    expect(judge.inputs[0]?.contexts).toEqual([]);
  });

  it('compares with the same epsilon: 0.1 + 0.7 meets 0.8', async () => {
    await expect(SEED_ANSWER).toPassJudge(fakeJudge({ score: 0.1 + 0.7, reason: '' }), {
      question: QUESTION,
      min: 0.8,
    });
  });

  it('a low score shows the judge, score vs min, reason and dimensions', async () => {
    const message = await asyncFailureOf(() =>
      expect(SEED_ANSWER).toPassJudge(fakeJudge(low), {
        question: QUESTION,
        contexts: [SEED_PASSAGE],
        min: 0.7,
        queryId: 'rate-limits',
      }),
    );
    expect(message).toMatchInlineSnapshot(`
      "expect(answer).toPassJudge(judge, options)

      judge:fake = 0.40, needs ≥ 0.70  (query rate-limits)

      Reason: The per-key limit is in the passage; the hourly reset is not.
      Dimensions: faithfulness 0.50, relevance 1.00, completeness 1.00

      Question: "How many requests may one API key send?"
      Answer: "You can send 100 requests per minute per API key. Extra requests return status 429. Limits reset every hour."
      Passages: 1"
    `);
  });

  it('with .not, says the score reached min', async () => {
    const message = await asyncFailureOf(() =>
      expect(SEED_ANSWER).not.toPassJudge(fakeJudge(high), { question: QUESTION, min: 0.7 }),
    );
    expect(message).toContain('expect(answer).not.toPassJudge(judge, options)');
    expect(message).toContain('judge:fake = 0.90, expected < 0.70');
    expect(message).toContain('Reason: Every claim is in the passage.');
  });
});

describe('toPassJudge when the judge fails: fails with and without .not', () => {
  const timeout = new JudgeError(
    'judge "fake": POST http://127.0.0.1:9/v1/chat/completions gave no complete response within 50 ms, 4 attempts; raise timeoutMs (local models can be slow) or check the server.',
    { kind: 'timeout', judgeName: 'fake', attempts: 4 },
  );

  it('a JudgeError names the kind and the attempts', async () => {
    for (const assertion of [
      () => expect(SEED_ANSWER).toPassJudge(fakeJudge(timeout), { question: QUESTION, min: 0.7 }),
      () => expect(SEED_ANSWER).not.toPassJudge(fakeJudge(timeout), { question: QUESTION, min: 0.7 }),
    ]) {
      const message = await asyncFailureOf(assertion);
      expect(message).toContain('Judge "fake" failed (timeout) after 4 attempts:');
      expect(message).toContain('gave no complete response within 50 ms');
    }
  });

  it('an invalid grade (a 0-10 score) fails, naming the judge', async () => {
    const message = await asyncFailureOf(() =>
      expect(SEED_ANSWER).not.toPassJudge(fakeJudge({ score: 8, reason: 'good' }), { question: QUESTION, min: 0.7 }),
    );
    expect(message).toContain('Judge "fake" did not return a usable grade:');
    expect(message).toContain('RangeError: judge "fake" returned score 8; score must be a finite number from 0 to 1');
  });

  it('any other error thrown by the judge fails too', async () => {
    const message = await asyncFailureOf(() =>
      expect(SEED_ANSWER).toPassJudge(fakeJudge(new Error('quota exhausted')), { question: QUESTION, min: 0.7 }),
    );
    expect(message).toContain('Judge "fake" did not return a usable grade:\nError: quota exhausted');
  });
});

describe('toPassJudge records judge:<name> like the metric matchers', () => {
  it('records { measure, value, threshold: min, pass, queryId }', async () => {
    const { context, samples } = recordingContext();
    const result = await toPassJudge.call(context, SEED_ANSWER, fakeJudge(low, 'rubric-v1'), {
      question: QUESTION,
      min: 0.7,
      queryId: 'rate-limits',
    });
    expect(result.pass).toBe(false);
    expect(samples()).toEqual([
      { measure: 'judge:rubric-v1', value: 0.4, threshold: 0.7, pass: false, queryId: 'rate-limits' },
    ]);
  });

  it('under .not, pass is the negated assertion’s outcome', async () => {
    const { context, samples } = recordingContext(true);
    await toPassJudge.call(context, SEED_ANSWER, fakeJudge(low), { question: QUESTION, min: 0.7 });
    expect(samples()).toEqual([{ measure: 'judge:fake', value: 0.4, threshold: 0.7, pass: true, negated: true }]);
  });

  it('records nothing when the judge fails', async () => {
    const { context, samples } = recordingContext();
    await expect(
      toPassJudge.call(
        context,
        SEED_ANSWER,
        fakeJudge(new JudgeError('down', { kind: 'network', judgeName: 'fake', attempts: 1 })),
        { question: QUESTION, min: 0.7 },
      ),
    ).rejects.toThrow(/failed \(network\) after 1 attempt:/);
    expect(samples()).toBeUndefined();
  });
});

describe('toPassJudge usage errors throw before anything is awaited, with and without .not', () => {
  const judge = fakeJudge(high);
  it.each([
    [
      'answer not a string',
      () => expect(42).toPassJudge(judge, { question: QUESTION, min: 0.7 }),
      /received value must be the answer text/,
    ],
    [
      'not a judge',
      () => expect('x').toPassJudge({ name: 'j' } as never, { question: QUESTION, min: 0.7 }),
      /judge.*must be a RagJudge/,
    ],
    ['options missing', () => expect('x').toPassJudge(judge, undefined as never), /options.*must be an object/],
    [
      'question missing',
      () => expect('x').not.toPassJudge(judge, { min: 0.7 } as never),
      /options\.question.*must be the question text/,
    ],
    [
      'min missing',
      () => expect('x').toPassJudge(judge, { question: QUESTION } as never),
      /options\.min.*must be a number from 0 to 1/,
    ],
    [
      'min above 1 under .not',
      () => expect('x').not.toPassJudge(judge, { question: QUESTION, min: 7 }),
      /options\.min.*must be a number from 0 to 1/,
    ],
    [
      'contexts of the wrong type',
      () => expect('x').toPassJudge(judge, { question: QUESTION, contexts: [42] as never, min: 0.7 }),
      /contexts\[0\] must be a string/,
    ],
  ])('%s', (_name, assertion, pattern) => {
    const message = failureOf(assertion);
    expect(message).toMatch(/Matcher error/);
    expect(message).toMatch(pattern);
    expect(judge.inputs).toHaveLength(0);
  });
});

describe('toPassJudge in asymmetric form', () => {
  it('refuses with a message instead of matching silently (expect.not.… would otherwise always match)', () => {
    const options = { question: QUESTION, min: 0.7 };
    // Vitest defines expect.not.<matcher> at run time but does not type custom ones there.
    const not = expect.not as unknown as { toPassJudge: typeof expect.toPassJudge };
    for (const assertion of [
      () => expect({ answer: SEED_ANSWER }).toEqual({ answer: expect.toPassJudge(fakeJudge(high), options) }),
      () => expect({ answer: SEED_ANSWER }).toEqual({ answer: not.toPassJudge(fakeJudge(low), options) }),
    ]) {
      expect(failureOf(assertion)).toContain('toPassJudge is asynchronous and cannot be used in asymmetric form');
    }
  });
});
