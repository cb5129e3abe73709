// `rag-matchers/generation`: the building blocks under the answer checks (whose functions are in
// `rag-matchers`) — sentence and term splitting, the stop-word and abstention phrase lists, the judge's
// prompt and reply parsing — to tune or reuse them.
export {
  splitSentences,
  contentTerms,
  ENGLISH_STOP_WORDS,
  CHINESE_STOP_WORDS,
  DEFAULT_STOP_WORDS,
  DEFAULT_MIN_OVERLAP,
  ENGLISH_ABSTENTION_PHRASES,
  CHINESE_ABSTENTION_PHRASES,
  DEFAULT_ABSTENTION_PHRASES,
  DEFAULT_JUDGE_RUBRIC,
  buildJudgeMessages,
  extractJsonObject,
  type StopWordList,
  type TermOptions,
  type ChatMessage,
} from '../generation/index.js';
