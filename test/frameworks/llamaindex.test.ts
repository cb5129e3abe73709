// Real LlamaIndex.TS objects (VectorStoreIndex.fromDocuments and its retriever) through the matchers.
import { Document, Settings, VectorStoreIndex } from 'llamaindex';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluate, stableKey } from '../../src/index.js';
import { failureOf } from '../matchers/helpers.js';
import { BagOfWordsEmbedding } from './deterministic-embeddings.js';

beforeAll(() => {
  Settings.embedModel = new BagOfWordsEmbedding();
});

const documents = () => [
  new Document({ text: 'Refunds are issued within 14 days of the return.', id_: 'refund-policy' }),
  new Document({ text: 'Orders ship within 3 business days by courier.', id_: 'shipping' }),
  new Document({ text: 'Invoices are emailed at the end of each month.', id_: 'billing' }),
];

async function retrieve(query: string, topK = 3) {
  const index = await VectorStoreIndex.fromDocuments(documents());
  return index.asRetriever({ similarityTopK: topK }).retrieve(query);
}

describe('LlamaIndex.TS VectorStoreIndex retriever', () => {
  it("keys each node on its source document at granularity: 'document'", async () => {
    const hits = await retrieve('refunds issued return');
    // The node ids are random UUIDs; the document id is the node's source.
    expect(hits[0]?.node.id_).not.toBe('refund-policy');
    expect(hits).toRankFirst('refund-policy', { granularity: 'document' });
    expect(hits).toHaveRecallAtK(['refund-policy'], 1, 1, { granularity: 'document' });
    expect(evaluate(hits, { 'refund-policy': 1, billing: 1 }, { granularity: 'document', k: 3 }).recallAtK).toBe(1);
  });

  it('keys each node as a chunk of its document otherwise', async () => {
    const hits = await retrieve('refunds issued return');
    const key = stableKey(hits[0] as object, 0);
    expect(key).toBe(`refund-policy#chunk-${hits[0]?.node.id_}`);
    const message = failureOf(() => expect(hits).toHaveRecallAtK(['refund-policy'], 3, 1));
    expect(message).toContain("pass { granularity: 'document' }");
  });

  it('a node without a source document keys on its own id', () => {
    expect(stableKey({ node: { id_: 'node-7', text: 't' }, score: 0.4 }, 0)).toBe('node-7');
    // Serialised nodes keep the source under relationships.SOURCE.
    expect(stableKey({ node: { id_: 'n-1', relationships: { SOURCE: { nodeId: 'doc-1' } } } }, 0)).toBe(
      'doc-1#chunk-n-1',
    );
  });
});
