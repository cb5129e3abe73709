// The whole question set at once: run the retriever over every question, score the run, and assert
// on the means. Where questions.test.ts says "each question clears the bar", this says "the retriever
// is good enough on average" — with a confidence bound, so that a lucky sample cannot pass.
import { evaluateRun, runRetriever, type RunEvaluation } from 'rag-matchers';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadQuestions, retrieve } from '../src/index.js';

const questions = loadQuestions();

describe('whole set', () => {
  let result: RunEvaluation;

  beforeAll(async () => {
    const { run, errors } = await runRetriever(questions, (query) => retrieve(query, 10));
    expect(errors).toEqual([]);
    result = evaluateRun(questions, run, { measures: ['recall@5', 'mrr', 'ndcg@10'], granularity: 'document' });
  });

  test('scores every answerable question; the no-answer ones are left out', () => {
    const noAnswer = questions.filter((question) => question.kind === 'no-answer').map((question) => question.id);
    expect(result.queries.unjudged).toEqual(noAnswer);
    expect(result.queries.evaluated).toBe(questions.length - noAnswer.length);
  });

  test('mean recall@5 is at least 0.75', () => {
    expect(result).toHaveMeanRecallAtK(5, 0.75);
  });

  test('MRR is at least 0.75', () => {
    expect(result).toHaveMrrAbove(0.75);
  });

  test('mean nDCG@10 is at least 0.7, at 95% confidence', () => {
    // The lower bound of the 95% bootstrap interval of the mean must clear 0.7, not just the mean.
    expect(result).toHaveMeanAbove('ndcg@10', 0.7, { confidence: 0.95 });
  });
});
