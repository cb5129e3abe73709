// The answer side: given what the retriever found, is the model's answer backed by it, does it cite
// only what was retrieved, and does it say "not covered" when the documentation has no answer?
//
// The answers below are canned: they stand in for the generation step, which this example does not
// have. In a project with a model, call it here (or replay recorded responses) and keep the same
// assertions. The checks are deterministic word-overlap and pattern checks: no model, no network.
import { faithfulness } from 'rag-matchers';
import { describe, expect, test } from 'vitest';
import { loadQuestions, retrieve, type Question } from '../src/index.js';

const questions = new Map(loadQuestions().map((question) => [question.id, question]));
const question = (id: string): Question => {
  const found = questions.get(id);
  if (found === undefined) throw new Error(`no question ${id} in data/questions.jsonl`);
  return found;
};

/** Answers citing sections by id, as a model prompted with `[section-id]` markers writes them. */
const ANSWERS: Record<string, string> = {
  q004:
    'Access tokens are valid for 3600 seconds [oauth-tokens]. When one expires the API returns 401 with the code token_expired; ' +
    'call the token endpoint again with grant_type=refresh_token to obtain a new pair [oauth-tokens].',
  q071:
    'A delivery that does not get a 2xx response within 10 seconds is retried for up to 3 days: 11 attempts in total, ' +
    'counting the first delivery [webhook-retries].',
  q080:
    'Invite them under Settings → Team and give them the Analyst role: read-only access to all data, plus exports [dashboard-roles]. ' +
    'Roles apply to the dashboard only, and people never share an API key [dashboard-roles].',
};

describe('answers', () => {
  for (const [id, answer] of Object.entries(ANSWERS)) {
    const { query } = question(id);
    test(query, async () => {
      const hits = await retrieve(query, 5);
      // Every sentence's content words are found in the retrieved passages (faithfulness 1, recorded).
      expect(answer).toBeFaithfulTo(hits, { queryId: id });
      // Every [section-id] names a section of which a chunk was retrieved, and there is at least one.
      expect(answer).toCiteOnlyRetrieved(hits, { granularity: 'document', requireCitation: true, queryId: id });
      expect(answer).not.toAbstain();
    });
  }

  test('an invented sentence is caught', async () => {
    const { query } = question('q071');
    const hits = await retrieve(query, 5);
    const invented = `${ANSWERS.q071 ?? ''} Events that still fail are stored in a dead-letter queue you can download as CSV.`;
    const result = faithfulness(invented, hits);
    expect(result.sentences.filter((sentence) => !sentence.supported).map((sentence) => sentence.text)).toEqual([
      'Events that still fail are stored in a dead-letter queue you can download as CSV.',
    ]);
  });
});

/** What the model should say when the documentation has no answer. */
const ABSTENTIONS: Record<string, string> = {
  q081: 'The Orders API documentation does not mention GraphQL subscriptions; it only describes the REST API and webhooks.',
  q082: "I couldn't find a way to schedule an order for later in the documentation.",
  q083: 'Packing slips are not covered in the Orders API documentation.',
  q084: "The documentation doesn't mention any price per API call.",
  q085: 'I could not find anything about Apple Pay in the provided documents.',
  q086: 'The documentation has no information about which data centre region stores your data.',
  q087: "Recurring subscription orders are not covered in the documentation, so I can't answer that.",
  q088: "I don't know: the documentation does not say whether one order can be paid with two cards.",
};

describe('no answer in the documentation', () => {
  const noAnswer = [...questions.values()].filter((entry) => entry.kind === 'no-answer');

  test('every no-answer question has a canned abstention', () => {
    expect(Object.keys(ABSTENTIONS).sort()).toEqual(noAnswer.map((entry) => entry.id).sort());
  });

  for (const entry of noAnswer) {
    test(entry.query, () => {
      expect(ABSTENTIONS[entry.id]).toAbstain();
    });
  }
});
