export { loadCorpus, defaultCorpusDir, type Section } from './corpus.js';
export { chunkSections, type Chunk, type ChunkOptions } from './chunk.js';
export { loadQuestions, defaultQuestionsPath, type Question, type QuestionKind } from './questions.js';
export {
  createRetriever,
  retrieve,
  baselineConfig,
  degradedConfig,
  configs,
  configFromEnv,
  type ConfigName,
  type Hit,
  type Retriever,
  type RetrieverConfig,
} from './retriever.js';
