// A/B tests: a retrieval change must not make the set worse than what it replaces. Both sides run
// over the same questions, and toNotRegressFrom compares them question by question (paired): a
// measure regresses when its mean falls by more than the tolerance (0.01 by default). On failure the
// message has a table per measure and lists the questions that got worse.
import { evaluateRun, runRetriever, type RunEvaluation } from 'rag-matchers';
import { describe, expect, test } from 'vitest';
import {
  chunkSections,
  configFromEnv,
  createRetriever,
  loadCorpus,
  loadQuestions,
  type ChunkOptions,
  type RetrieverConfig,
} from '../src/index.js';

const questions = loadQuestions();
const sections = loadCorpus();
const measures = ['recall@5', 'ndcg@10', 'mrr'];

async function evaluate(config: RetrieverConfig, chunking: ChunkOptions = {}): Promise<RunEvaluation> {
  const retriever = createRetriever(chunkSections(sections, chunking), config);
  const { run } = await runRetriever(questions, (query) => retriever.retrieve(query, 10));
  return evaluateRun(questions, run, { measures, granularity: 'document' });
}

// The configuration the app ships (the baseline, unless ORDERS_RETRIEVER says otherwise).
const shipped = configFromEnv();

describe('A/B: section titles', () => {
  test('indexing section titles (boosted ×2) is no worse than indexing the content alone', async () => {
    const withTitles = await evaluate(shipped);
    const contentOnly = await evaluate({ ...shipped, fields: ['content'], boost: {} });
    expect(withTitles).toNotRegressFrom(contentOnly);
  });
});

describe('A/B: chunk size', () => {
  test('chunks of 60 words rank no worse than chunks of 120 words', async () => {
    const small = await evaluate(shipped, { maxWords: 60 });
    const default120 = await evaluate(shipped, { maxWords: 120 });
    // Smaller chunks find more of the relevant sections in the top 5 (recall@5 rises); the question
    // here is whether the ranking suffers. The default tolerance allows a drop of 0.01.
    expect(small).toNotRegressFrom(default120, { measures: ['ndcg@10', 'mrr'] });
  });
});
