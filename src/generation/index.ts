// Generation-side checks: they score the ANSWER (faithfulness, citations, abstention, judges), not retrieval.
export {
  splitSentences,
  contentTerms,
  ENGLISH_STOP_WORDS,
  CHINESE_STOP_WORDS,
  DEFAULT_STOP_WORDS,
  type StopWordList,
  type TermOptions,
} from './text.js';
export {
  faithfulness,
  DEFAULT_MIN_OVERLAP,
  type ContextPassage,
  type FaithfulnessContexts,
  type FaithfulnessOptions,
  type FaithfulnessResult,
  type SentenceSupport,
  type SkippedSentence,
} from './faithfulness.js';
export {
  extractCitations,
  checkCitations,
  type Citation,
  type CitationKind,
  type CitationExtractor,
  type CheckedCitation,
  type CitationCheckOptions,
  type CitationCheckResult,
} from './citations.js';
export {
  detectAbstention,
  ENGLISH_ABSTENTION_PHRASES,
  CHINESE_ABSTENTION_PHRASES,
  DEFAULT_ABSTENTION_PHRASES,
  type AbstentionOptions,
  type AbstentionResult,
} from './abstain.js';
export {
  JudgeError,
  validateJudgeResult,
  type RagJudge,
  type JudgeInput,
  type JudgeResult,
  type JudgeErrorKind,
  type JudgeErrorDetails,
} from './judge.js';
export {
  openAiCompatibleJudge,
  buildJudgeMessages,
  extractJsonObject,
  DEFAULT_JUDGE_RUBRIC,
  type ChatMessage,
  type OpenAiCompatibleJudgeOptions,
} from './openai-judge.js';
