import { describe, expect, it } from 'vitest';
import { JudgeError, validateJudgeResult } from '../../../src/generation/judge.js';

describe('validateJudgeResult', () => {
  it('returns a clean copy of a valid result', () => {
    expect(
      validateJudgeResult(
        { score: 0.7, reason: 'Mostly supported.', dimensions: { relevance: 1 }, extra: true },
        'my-judge',
      ),
    ).toEqual({
      score: 0.7,
      reason: 'Mostly supported.',
      dimensions: { relevance: 1 },
    });
    expect(validateJudgeResult({ score: 0, reason: '' }, 'my-judge')).toEqual({ score: 0, reason: '' });
    expect(validateJudgeResult({ score: 1, reason: 'ok' }, 'my-judge').score).toBe(1);
  });

  it('rejects a score outside 0..1 or not finite, naming the judge and the value', () => {
    expect(() => validateJudgeResult({ score: 7, reason: 'x' }, 'my-judge')).toThrow(RangeError);
    expect(() => validateJudgeResult({ score: 7, reason: 'x' }, 'my-judge')).toThrow(
      /judge "my-judge" returned score 7; score must be a finite number from 0 to 1/,
    );
    expect(() => validateJudgeResult({ score: Number.NaN, reason: 'x' }, 'my-judge')).toThrow(/returned score NaN/);
    expect(() => validateJudgeResult({ score: -0.1, reason: 'x' }, 'my-judge')).toThrow(RangeError);
    expect(() => validateJudgeResult({ score: Number.POSITIVE_INFINITY, reason: 'x' }, 'my-judge')).toThrow(
      /returned score Infinity/,
    );
    expect(() => validateJudgeResult({ score: '0.5', reason: 'x' }, 'my-judge')).toThrow(TypeError);
  });

  it('rejects a missing reason, bad dimensions and a non-object', () => {
    expect(() => validateJudgeResult({ score: 0.5 }, 'j')).toThrow(
      /judge "j" returned reason undefined; reason must be a string/,
    );
    expect(() => validateJudgeResult({ score: 0.5, reason: 'x', dimensions: { relevance: 2 } }, 'j')).toThrow(
      /dimensions\.relevance = 2/,
    );
    expect(() => validateJudgeResult({ score: 0.5, reason: 'x', dimensions: [1] }, 'j')).toThrow(
      /dimensions must be an object of numbers/,
    );
    expect(() => validateJudgeResult(undefined, 'j')).toThrow(
      /judge "j" returned undefined; a judge must resolve to an object/,
    );
  });
});

describe('JudgeError', () => {
  it('carries kind, attempts, judge name and status', () => {
    const error = new JudgeError('boom', { kind: 'http', judgeName: 'j', attempts: 4, status: 500, reply: 'oops' });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'JudgeError',
      message: 'boom',
      kind: 'http',
      judgeName: 'j',
      attempts: 4,
      status: 500,
      reply: 'oops',
    });
  });
});
