// Embeddings without a network or a model: each word hashed into one of 32 buckets, so texts that share
// words are near. Enough for real vector stores to rank a handful of documents deterministically.
import { Embeddings } from '@langchain/core/embeddings';
import { BaseEmbedding } from '@llamaindex/core/embeddings';

const DIMENSIONS = 32;

export function bagOfWords(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word === '') continue;
    let hash = 0;
    for (const character of word) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
    vector[hash % DIMENSIONS] = (vector[hash % DIMENSIONS] as number) + 1;
  }
  return vector;
}

export class BagOfWordsEmbeddings extends Embeddings {
  constructor() {
    super({});
  }
  embedDocuments(texts: string[]): Promise<number[][]> {
    return Promise.resolve(texts.map(bagOfWords));
  }
  embedQuery(text: string): Promise<number[]> {
    return Promise.resolve(bagOfWords(text));
  }
}

export class BagOfWordsEmbedding extends BaseEmbedding {
  // BaseEmbedding's constructor is protected.
  constructor() {
    super();
  }
  getTextEmbedding(text: string): Promise<number[]> {
    return Promise.resolve(bagOfWords(text));
  }
}
