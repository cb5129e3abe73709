// Real LangChain.js objects (MemoryVectorStore, RecursiveCharacterTextSplitter) through the matchers.
import { MemoryVectorStore } from '@langchain/classic/vectorstores/memory';
import { Document } from '@langchain/core/documents';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { describe, expect, it } from 'vitest';
import { evaluate, stableKey } from '../../src/index.js';
import { failureOf } from '../matchers/helpers.js';
import { BagOfWordsEmbeddings } from './deterministic-embeddings.js';

const refunds = 'Refunds are issued within 14 days of the return. '.repeat(6);
const shipping = 'Orders ship within 3 business days by courier. '.repeat(6);

async function splitStore(): Promise<MemoryVectorStore> {
  const splitter = new RecursiveCharacterTextSplitter({ chunkSize: 120, chunkOverlap: 0 });
  const chunks = await splitter.splitDocuments([
    new Document({ pageContent: refunds, metadata: { source: 'refunds.md' } }),
    new Document({ pageContent: shipping, metadata: { source: 'shipping.md' } }),
  ]);
  return MemoryVectorStore.fromDocuments(chunks, new BagOfWordsEmbeddings());
}

describe('LangChain.js MemoryVectorStore and a text splitter', () => {
  it('split chunks of one file get distinct chunk keys that collapse to the file', async () => {
    const store = await splitStore();
    const hits = await store.similaritySearch('refunds issued return', 3);
    const keys = hits.map((hit, index) => stableKey(hit, index));
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(/^refunds\.md#chunk-[0-9a-f]{8}$/);
    // The same text keys the same way on every run.
    expect(stableKey(hits[0] as Document, 0)).toBe(keys[0]);
    expect(hits).toHaveRecallAtK(['refunds.md'], 1, 1, { granularity: 'document' });
    const evaluation = evaluate(hits, ['refunds.md'], { granularity: 'document', k: 3 });
    expect(evaluation.duplicateCount).toBe(0);
    expect(evaluation.retrievedCount).toBe(1);
  });

  it('at chunk granularity, document annotations get the granularity hint', async () => {
    const hits = await (await splitStore()).similaritySearch('refunds issued return', 2);
    const message = failureOf(() => expect(hits).toHaveRecallAtK(['refunds.md'], 2, 1));
    expect(message).toContain("pass { granularity: 'document' }");
  });

  it('similaritySearchWithScore pairs are hits, ranked by their score with sortBy: score', async () => {
    const pairs = await (await splitStore()).similaritySearchWithScore('orders ship courier days', 4);
    expect(pairs[0]).toHaveLength(2);
    expect(pairs).toHaveHitAtK(['shipping.md'], 1, { granularity: 'document' });
    expect(pairs).toRankFirst('shipping.md', { granularity: 'document' });
    // Reversed, sortBy: 'score' reads each pair's score and restores the order.
    expect([...pairs].reverse()).toHaveReciprocalRankAbove(['shipping.md'], 1, {
      granularity: 'document',
      sortBy: 'score',
    });
    expect(pairs).toHaveRecallAtK(['shipping.md'], 4, 1, { key: 'metadata.source' });
  });

  it('a Document.id (as vector stores assign) wins, and the message names metadata.source as the field that matches', async () => {
    const store = new MemoryVectorStore(new BagOfWordsEmbeddings());
    await store.addDocuments([
      new Document({
        id: '3f1c0a52-0000-4000-8000-000000000001',
        pageContent: refunds,
        metadata: { source: 'refunds.md' },
      }),
      new Document({
        id: '3f1c0a52-0000-4000-8000-000000000002',
        pageContent: shipping,
        metadata: { source: 'shipping.md' },
      }),
    ]);
    const hits = await store.similaritySearch('refunds issued return', 2);
    expect(hits[0]?.id).toBe('3f1c0a52-0000-4000-8000-000000000001');
    const message = failureOf(() => expect(hits).toHaveRecallAtK(['refunds.md'], 2, 1));
    expect(message).toContain("The hits' metadata.source would have matched: pass { key: 'metadata.source' }.");
    expect(hits).toHaveRecallAtK(['refunds.md'], 2, 1, { key: 'metadata.source' });
  });
});
