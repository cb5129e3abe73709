import { describe, expect, it } from 'vitest';
import * as generation from '../../../src/generation/index.js';

describe('src/generation/index.ts', () => {
  it('re-exports the public generation API', () => {
    const functions = [
      'splitSentences',
      'contentTerms',
      'faithfulness',
      'extractCitations',
      'checkCitations',
      'detectAbstention',
      'validateJudgeResult',
      'openAiCompatibleJudge',
      'buildJudgeMessages',
      'extractJsonObject',
      'JudgeError',
    ];
    for (const name of functions) expect(typeof (generation as Record<string, unknown>)[name], name).toBe('function');
    expect(generation.DEFAULT_MIN_OVERLAP).toBe(0.75);
    expect(generation.ENGLISH_STOP_WORDS).toContain('per');
    expect(generation.CHINESE_ABSTENTION_PHRASES).toContain('我不知道');
  });

  it('scores the seed example through the public entry', () => {
    const result = generation.faithfulness(
      'You can send 100 requests per minute per API key. Extra requests return status 429. Limits reset every hour.',
      'Each API key may send 100 requests per minute. Extra requests return status 429 with a Retry-After header.',
    );
    expect([result.supportedCount, result.sentenceCount]).toEqual([2, 3]);
  });
});
