// Every failure message docs/generation.md shows (a ```text fence after `<!-- message: <id> -->`)
// must be what the matcher prints today: the docs are copied from runs and must not drift.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JudgeError, type RagJudge } from '../../../src/index.js';
import { asyncFailureOf, failureOf, SEED_ANSWER, SEED_PASSAGE } from './helpers.js';

const DOC = new URL('../../../docs/generation.md', import.meta.url);

function documentedMessages(): Map<string, string> {
  const text = readFileSync(DOC, 'utf8');
  const messages = new Map<string, string>();
  for (const match of text.matchAll(/<!-- message: (\S+) -->\n```text\n([\s\S]*?)\n```/g))
    messages.set(match[1] ?? '', match[2] ?? '');
  return messages;
}

const hits = ['rate-limits#chunk-0', { documentId: 'errors', chunkIndex: 2 }, { id: 'webhooks' }];
const judgeOf = (judge: RagJudge['judge'], name = 'fake'): RagJudge => ({ name, judge });

const runs: Record<string, () => string | Promise<string>> = {
  'faithful-usage': () => failureOf(() => expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { min: 1.5 })),
  'faithful-fail': () => failureOf(() => expect(SEED_ANSWER).toBeFaithfulTo(SEED_PASSAGE, { queryId: 'rate-limits' })),
  'faithful-not': () => failureOf(() => expect(SEED_ANSWER).not.toBeFaithfulTo(SEED_PASSAGE, { min: 0.5 })),
  'faithful-nothing': () => failureOf(() => expect('OK, thanks!').toBeFaithfulTo(SEED_PASSAGE)),
  'cite-bad': () =>
    failureOf(() =>
      expect(
        'Limits are per key [1]. Extra requests get 429 [4]. Retries wait [2-4]. See [rate-limits] and [Webhooks].',
      ).toCiteOnlyRetrieved(hits, { queryId: 'q-429' }),
    ),
  'cite-none': () =>
    failureOf(() =>
      expect('Each key may send 100 requests per minute.').toCiteOnlyRetrieved(hits, { requireCitation: true }),
    ),
  'abstain-miss': () => failureOf(() => expect(SEED_ANSWER).toAbstain()),
  'abstain-not': () => failureOf(() => expect('抱歉，资料中没有关于运费的信息。').not.toAbstain()),
  'judge-low': () =>
    asyncFailureOf(() =>
      expect(SEED_ANSWER).toPassJudge(
        judgeOf(async () => ({
          score: 0.4,
          reason: 'The per-key limit is in the passage; the hourly reset is not.',
          dimensions: { faithfulness: 0.5, relevance: 1, completeness: 1 },
        })),
        {
          question: 'How many requests may one API key send?',
          contexts: [SEED_PASSAGE],
          min: 0.7,
          queryId: 'rate-limits',
        },
      ),
    ),
  'judge-error': () => {
    const name = 'openai-compatible:qwen2.5:7b';
    const error = new JudgeError(
      `judge "${name}": POST http://localhost:11434/v1/chat/completions gave no complete response within 30000 ms, 4 attempts; raise timeoutMs (local models can be slow) or check the server.`,
      { kind: 'timeout', judgeName: name, attempts: 4 },
    );
    return asyncFailureOf(() =>
      expect(SEED_ANSWER).toPassJudge(
        judgeOf(async () => Promise.reject(error), name),
        { question: 'q', min: 0.7 },
      ),
    );
  },
};

describe('docs/generation.md shows the messages the matchers print', () => {
  const documented = documentedMessages();

  it('documents exactly the messages this test knows how to produce', () => {
    expect([...documented.keys()].sort()).toEqual(Object.keys(runs).sort());
  });

  it.each(Object.keys(runs))('%s', async (id) => {
    expect(documented.get(id)).toBe(await runs[id]?.());
  });
});
