// One test per labelled question: ask the retriever as the app does, then check the top hits.
//
// Every answerable question must clear the same bar, one a decent retriever meets:
//   - a relevant section in the top 5 (hit@5);
//   - at least half of its relevant sections in the top 5 (recall@5 ≥ 0.5);
//   - a ranking worth at least 0.4 of the ideal one, with the grades (nDCG@10 ≥ 0.4).
// The bar is a floor, not the gate: the reporter averages what these assertions measured per
// describe block and compares it with rag-baseline.json, so a change that makes questions worse
// fails the run even while every question still clears the bar.
//
// The questions are judged per section (`rate-limits`) and the retriever returns chunks
// (`rate-limits#chunk-0`): `granularity: 'document'` makes a chunk count for its section.
// `queryId` names the question in the reports and in the baseline.
import { describe, expect, test } from 'vitest';
import { loadQuestions, retrieve, type Hit, type Question, type QuestionKind } from '../src/index.js';
import { KNOWN_MISSES, LOOK_ALIKES } from './known-misses.js';

const questions = loadQuestions();
const ofKind = (kind: QuestionKind) => questions.filter((question) => question.kind === kind);

/** The sections graded 2: the ones that answer the question. */
const answering = (question: Question) => Object.keys(question.relevant).filter((id) => question.relevant[id] === 2);

/** `test`, or `test.fails` for a known miss. */
const testFor = (question: Question) => (question.id in KNOWN_MISSES ? test.fails : test);

/**
 * The bar. `expect.soft` lets every assertion run (and record its measure) even after one fails, so
 * each question has a value for each measure in the reports, and a failure lists everything missed.
 */
function clearsTheBar(hits: Hit[], question: Question): void {
  const options = { granularity: 'document' as const, queryId: question.id };
  expect.soft(hits).toHaveHitAtK(question.relevant, 5, options);
  expect.soft(hits).toHaveRecallAtK(question.relevant, 5, 0.5, options);
  expect.soft(hits).toHaveNdcgAbove(question.relevant, 0.4, { ...options, k: 10 });
}

describe('single passage', () => {
  for (const question of ofKind('single')) {
    testFor(question)(question.query, async () => {
      const hits = await retrieve(question.query, 10);
      clearsTheBar(hits, question);
    });
  }
});

describe('multi-passage', () => {
  for (const question of ofKind('multi-passage')) {
    testFor(question)(question.query, async () => {
      const hits = await retrieve(question.query, 10);
      // The answer needs both sections graded 2, but the bar asks for half of the relevant sections in
      // the top 5: this lexical retriever rarely finds both parts together (recall@5 averages 0.6 here),
      // which is what a better retriever should improve, and the baseline keeps from getting worse.
      clearsTheBar(hits, question);
    });
  }
});

describe('near miss', () => {
  for (const question of ofKind('near-miss')) {
    testFor(question)(question.query, async () => {
      const hits = await retrieve(question.query, 10);
      clearsTheBar(hits, question);
      // The section asked about must outrank the look-alikes it is confused with (a look-alike that
      // is not retrieved at all is fine).
      for (const target of answering(question)) {
        for (const lookAlike of LOOK_ALIKES[target] ?? []) {
          expect.soft(hits).toRankBefore(target, lookAlike, { granularity: 'document' });
        }
      }
    });
  }
});

// The eight no-answer questions ("Does the API support GraphQL subscriptions?") have nothing to find,
// so no retrieval measure applies (evaluateRun lists them as unjudged), and BM25 scores do not tell
// them apart: their top scores (15–62) lie inside the range of answerable questions (7–260). They are
// checked where the right behaviour shows, in the answer: see answers.test.ts.
