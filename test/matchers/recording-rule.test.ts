// The recording rule, on the matchers themselves with a Vitest-shaped test context: with declared
// measures, the first retrieval matcher of a question records all of them (before its verdict), later
// matchers record none of them again. Values are worked by hand for:
//   hits d1…d6, relevant d2 and d9 (d9 never retrieved)
//   hit@3 = 1 (d2 at rank 2) · recall@5 = 1/2 · ndcg@10 = (1/log2 3) / (1 + 1/log2 3) = 0.386853 · mrr@10 = 1/2 · P@5 = 1/5
import { afterEach, describe, expect, it, vi } from 'vitest';
import { matchers } from '../../matchers/index.js';
import { evaluateRun } from '../../src/index.js';
import { publishDeclaration, resolveDeclaration } from '../../src/recording/declaration.js';
import { applyTestQuestion } from '../../src/recording/question.js';
import type { CollectedRun } from '../../src/recording/collected.js';
import { TASK_META_KEY, type MetricSample } from '../../src/recording/sample.js';
import { summarize } from '../../src/report/summary.js';

const HITS = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'];
const RELEVANT = ['d2', 'd9'];
const NDCG10 = 1 / Math.log2(3) / (1 + 1 / Math.log2(3));

interface FakeTask {
  name: string;
  meta: Record<string, unknown>;
  suite: { name: string; suite?: unknown; filepath?: string };
  file: { filepath: string };
  result: { retryCount: number; repeatCount: number };
}

function fakeTest(describeTitle = 'orders'): FakeTask {
  const file = { name: 'test/q.test.ts', filepath: '/repo/test/q.test.ts' };
  return {
    name: 't',
    meta: {},
    suite: { name: describeTitle, suite: file },
    file,
    result: { retryCount: 0, repeatCount: 0 },
  };
}

function withAudits(task: FakeTask): MetricSample[] {
  return (task.meta[TASK_META_KEY] as MetricSample[] | undefined) ?? [];
}

/** The recorded samples without what they kept about their judgments and ranking (tested on their own below). */
function recorded(task: FakeTask): MetricSample[] {
  return withAudits(task).map(
    ({
      labels: _labels,
      unjudgedIds: _ids,
      unjudgedCount: _count,
      positiveOnly: _positiveOnly,
      topHits: _top,
      ...sample
    }) => sample,
  );
}

function declare(options: Parameters<typeof resolveDeclaration>[0]): void {
  publishDeclaration(resolveDeclaration(options, '/repo'));
}

afterEach(() => {
  publishDeclaration(undefined);
});

describe('what a question keeps of its ranking', () => {
  it('the first sample of the call: its top keys down to the largest declared cutoff, graded where judged', () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const task = fakeTest();
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q1' });
    const samples = withAudits(task);
    // Largest cutoff 5: d1…d5, only d2 judged (grade 1 from the array of relevant ids).
    expect(samples[0]!.topHits).toEqual([
      { key: 'd1' },
      { key: 'd2', grade: 1 },
      { key: 'd3' },
      { key: 'd4' },
      { key: 'd5' },
    ]);
    expect(samples.slice(1).map((sample) => sample.topHits)).toEqual([undefined]);
  });

  it("options.query is the question's text: recorded on the matcher's own samples, left out of the core's options", () => {
    declare({ measures: ['hit@3'] });
    const task = fakeTest();
    const query = 'how long do refunds take?';
    expect(matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q1', query }).pass).toBe(true);
    const samples = withAudits(task);
    // The declared hit@3 is recorded first and carries the text too.
    expect(samples.map((sample) => [sample.measure, sample.query])).toEqual([
      ['hit@3', query],
      ['recall@5', query],
    ]);
    const targets = fakeTest();
    matchers.toMeetRetrievalTargets.call({ task: targets }, HITS, RELEVANT, { 'hit@3': 1 }, { query });
    expect(withAudits(targets).map((sample) => sample.query)).toEqual([query]);
  });

  it('a blank or non-string options.query is a usage error naming it', () => {
    const task = fakeTest();
    expect(() => matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { query: ' ' })).toThrow(
      /"options\.query" must be the question's text \(a string that is not blank\)/,
    );
    expect(() => matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { query: 7 as never })).toThrow(
      /"options\.query" must be the question's text/,
    );
  });

  it('a measure without a cutoff keeps the first 10 keys', () => {
    const task = fakeTest();
    const twelve = Array.from({ length: 12 }, (_, index) => `k${index + 1}`);
    matchers.toHaveNdcgAbove.call({ task }, twelve, { k12: 2 }, 0);
    expect(withAudits(task)[0]!.topHits).toEqual(twelve.slice(0, 10).map((key) => ({ key })));
  });

  it("no deeper than the reporter's rankingDepth: 2 keeps d1 and d2, 0 an empty list (the question's text is still kept)", () => {
    publishDeclaration({ ...resolveDeclaration({ measures: ['hit@3', 'recall@5'] }, '/repo'), rankingDepth: 2 });
    const task = fakeTest();
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q1' });
    expect(withAudits(task)[0]!.topHits).toEqual([{ key: 'd1' }, { key: 'd2', grade: 1 }]);
    publishDeclaration({ ...resolveDeclaration({ measures: ['hit@3', 'recall@5'] }, '/repo'), rankingDepth: 0 });
    const none = fakeTest();
    matchers.toHaveRecallAtK.call({ task: none }, HITS, RELEVANT, 5, 0.4, { queryId: 'q1' });
    expect(withAudits(none)[0]!.topHits).toEqual([]);
  });
});

describe('the tags option', () => {
  it("gives the question's tags (sorted, each once) to every sample the call records, declared ones included", () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const task = fakeTest();
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q1', tags: ['eu', 'billing', 'eu'] });
    matchers.toMeetRetrievalTargets.call({ task }, HITS, RELEVANT, { 'mrr@10': 0.5 }, { queryId: 'q1', tags: ['x'] });
    expect(recorded(task).map((sample) => [sample.measure, sample.tags])).toEqual([
      ['hit@3', ['billing', 'eu']],
      ['recall@5', ['billing', 'eu']],
      ['mrr@10', ['x']],
    ]);
    // Without the option, no tags; an empty list is none.
    const untagged = fakeTest();
    matchers.toHaveHitAtK.call({ task: untagged }, HITS, RELEVANT, 3, { tags: [] });
    expect(recorded(untagged).map((sample) => sample.tags)).toEqual([undefined, undefined]);
  });

  it('the answer checks take it too: faithfulness and a judge record the tags with their score', async () => {
    const task = fakeTest();
    const answer = 'Refunds take five days.';
    matchers.toBeFaithfulTo.call({ task }, answer, [answer], { queryId: 'q1', tags: ['billing'] });
    const judge = { name: 'rubric', judge: async () => ({ score: 1, reason: 'fine' }) };
    await matchers.toPassJudge.call({ task }, answer, judge, {
      question: 'How long do refunds take?',
      min: 0.5,
      queryId: 'q1',
      tags: ['billing', 'eu'],
    });
    expect(recorded(task).map((sample) => [sample.measure, sample.tags])).toEqual([
      ['faithfulness', ['billing']],
      ['judge:rubric', ['billing', 'eu']],
    ]);
    expect(() => matchers.toBeFaithfulTo.call({ task }, answer, [answer], { tags: [''] })).toThrow(
      /"options\.tags\[0\]" must be a non-empty string/,
    );
  });

  it('anything but a list of non-empty strings is a usage error naming the option', () => {
    const task = fakeTest();
    expect(() => matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { tags: 'billing' as never })).toThrow(
      /"options\.tags" must be a list of strings such as \['billing'\]\n\ntags has type: {2}string\ntags has value: "billing"/,
    );
    expect(() => matchers.toHaveNdcgAbove.call({ task }, HITS, RELEVANT, 0.1, { tags: ['billing', ''] })).toThrow(
      /"options\.tags\[1\]" must be a non-empty string \(a tag such as "billing"\)/,
    );
    expect(() =>
      matchers.toMeetRetrievalTargets.call({ task }, HITS, RELEVANT, { 'recall@5': 0.4 }, { tags: [3 as never] }),
    ).toThrow(/"options\.tags\[0\]" must be a non-empty string/);
    expect(recorded(task)).toEqual([]);
  });
});

describe('what a retrieval sample keeps about its judgments', () => {
  it('each declared measure: the fingerprint of the judgments and the unjudged hits within its own cutoff', () => {
    declare({ measures: ['hit@3', 'recall@5', 'mrr'] });
    const task = fakeTest();
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q1' });
    const samples = withAudits(task);
    const fingerprints = new Set(samples.map((sample) => sample.labels));
    expect(fingerprints.size).toBe(1);
    expect([...fingerprints][0]).toMatch(/^[0-9a-f]{8}$/);
    // d2 is judged; d1, d3… are not. hit@3: d1, d3; recall@5: d1, d3, d4, d5; mrr (no cutoff): all five.
    expect(samples.map((sample) => [sample.measure, sample.unjudgedCount, sample.unjudgedIds])).toEqual([
      ['hit@3', 2, ['d1', 'd3']],
      ['recall@5', 4, ['d1', 'd3', 'd4', 'd5']],
      ['mrr', 5, ['d1', 'd3', 'd4', 'd5', 'd6']],
    ]);
  });

  it('positive-only labels mark the samples that have unjudged hits; an explicit 0 does not', () => {
    const positive = fakeTest();
    matchers.toHaveRecallAtK.call({ task: positive }, HITS, ['d2'], 5, 0.4, { queryId: 'q1' });
    expect(withAudits(positive).map((sample) => sample.positiveOnly)).toEqual([true]);
    const withZero = fakeTest();
    matchers.toHaveRecallAtK.call({ task: withZero }, HITS, { d2: 1, d1: 0 }, 5, 0.4, { queryId: 'q1' });
    expect(withAudits(withZero).map((sample) => [sample.unjudgedCount, sample.positiveOnly])).toEqual([[3, undefined]]);
  });

  it('no unjudged hit: no unjudged fields; other judgments: another fingerprint', () => {
    const task = fakeTest();
    matchers.toHaveRecallAtK.call({ task }, ['d2', 'd9'], RELEVANT, 2, 1, { queryId: 'q1' });
    matchers.toHaveRecallAtK.call({ task }, ['d2', 'd9'], { d2: 1, d9: 2 }, 2, 1, { queryId: 'q2' });
    const [first, second] = withAudits(task);
    expect(first).not.toHaveProperty('unjudgedIds');
    expect(first).not.toHaveProperty('unjudgedCount');
    expect(second!.labels).not.toBe(first!.labels);
  });
});

describe('with declared measures', () => {
  it('the first matcher records every declared measure, even when its own assertion fails', () => {
    declare({ measures: ['hit@3', 'recall@5', 'ndcg@10', 'mrr@10'] });
    const task = fakeTest();
    const first = matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.9, { queryId: 'q1' });
    expect(first.pass).toBe(false);
    const samples = recorded(task);
    expect(samples.map((sample) => sample.measure)).toEqual(['hit@3', 'recall@5', 'ndcg@10', 'mrr@10']);
    expect(samples.map((sample) => sample.queryId)).toEqual(['q1', 'q1', 'q1', 'q1']);
    expect(samples[0]!.value).toBe(1);
    expect(samples[1]!.value).toBe(0.5);
    expect(samples[2]!.value).toBeCloseTo(NDCG10, 12);
    expect(samples[3]!.value).toBe(0.5);
    // Values, not verdicts, except the measure the matcher itself asserted: recall@5 = 0.5 < 0.9 failed.
    expect(samples[1]).toMatchObject({ threshold: 0.9, pass: false });
    expect(
      samples
        .filter((_, index) => index !== 1)
        .every((sample) => sample.pass === undefined && sample.threshold === undefined),
    ).toBe(true);
  });

  it('later matchers for the same question record no declared measure again; an undeclared one once', () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const task = fakeTest();
    matchers.toHaveHitAtK.call({ task }, HITS, RELEVANT, 3);
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.5);
    matchers.toHavePrecisionAtK.call({ task }, HITS, RELEVANT, 5, 0.1);
    matchers.toHavePrecisionAtK.call({ task }, HITS, RELEVANT, 5, 0.3);
    const values = recorded(task).filter((sample) => sample.verdictOnly !== true);
    expect(values.map((sample) => [sample.measure, sample.value])).toEqual([
      ['hit@3', 1],
      ['recall@5', 0.5],
      ['precision@5', 0.2],
    ]);
    // The undeclared measure keeps its matcher's threshold and verdict.
    expect(values[2]).toMatchObject({ threshold: 0.1, pass: true });
    // The second precision@5 assertion (0.2 < 0.3) failed: recorded as a verdict, not as a value.
    expect(recorded(task)[3]).toMatchObject({ measure: 'precision@5', threshold: 0.3, pass: false, verdictOnly: true });
  });

  it('a later failed assertion on a recorded measure makes its sample fail, and failures counts each failed assertion', () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const task = fakeTest();
    // recall@5 = 0.5: the first assertion passes, the next two fail, the last passes.
    expect(matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.5, { queryId: 'q1' }).pass).toBe(true);
    expect(matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.9, { queryId: 'q1' }).pass).toBe(false);
    expect(matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.8, { queryId: 'q1' }).pass).toBe(false);
    expect(matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q1' }).pass).toBe(true);
    // A passing question beside it: recall@5 = 1/2 again, asserted once.
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.5, { queryId: 'q2' });
    const run: CollectedRun = {
      runner: 'vitest',
      samples: recorded(task).map((sample) => ({
        ...sample,
        file: 'test/q.test.ts',
        test: 't',
        describePath: ['orders'],
      })),
    };
    const summary = summarize(run, undefined);
    const recall = summary.rows.find((row) => row.measure === 'recall@5')!;
    // Two questions, values as first recorded; q1 failed (two failed assertions), q2 passed.
    expect(recall.sampleIds).toEqual(['q1', 'q2']);
    expect(recall.values).toEqual([0.5, 0.5]);
    expect(recall.sources.map((source) => [source.pass, source.threshold])).toEqual([
      [false, 0.9],
      [true, 0.5],
    ]);
    expect(recall.failures).toBe(2);
    expect(summary.totals.samples).toBe(4);
    const hit = summary.rows.find((row) => row.measure === 'hit@3')!;
    expect([hit.failures, hit.sources.map((source) => source.pass)]).toEqual([0, [undefined, undefined]]);
    // Grouping does not change the run: a second summary is the same.
    expect(summarize(run, undefined)).toEqual(summary);
  });

  it('another question in the same test records its own declared measures', () => {
    declare({ measures: ['recall@5'] });
    const task = fakeTest();
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.5, { queryId: 'a' });
    matchers.toHaveRecallAtK.call({ task }, ['d9'], RELEVANT, 5, 0.5, { queryId: 'b' });
    expect(recorded(task).map((sample) => [sample.queryId, sample.value])).toEqual([
      ['a', 0.5],
      ['b', 0.5],
    ]);
  });

  it('declared measures use the matcher’s options (granularity, key), not its own cutoff', () => {
    declare({ measures: ['recall@2'] });
    const task = fakeTest();
    const chunks = ['a#chunk-1', 'b#chunk-1', 'a#chunk-2'];
    // By document: a, b → both relevant documents in the top 2 (by chunk, neither id is relevant).
    matchers.toHaveNdcgAbove.call({ task }, chunks, ['a', 'b'], 0, { k: 1, granularity: 'document' });
    expect(recorded(task).map((sample) => [sample.measure, sample.value])).toEqual([
      ['recall@2', 1],
      ['ndcg@1', 1],
    ]);
  });

  it('each Vitest repeat records the declared measures once more, marked with its repeat', () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const task = fakeTest();
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.5, { queryId: 'q1' });
    matchers.toHaveHitAtK.call({ task }, HITS, RELEVANT, 3, { queryId: 'q1' });
    task.result.repeatCount = 1;
    matchers.toHaveRecallAtK.call({ task }, ['d9'], RELEVANT, 5, 0, { queryId: 'q1' });
    matchers.toHaveHitAtK.call({ task }, ['d9'], RELEVANT, 3, { queryId: 'q1' });
    expect(recorded(task).map((sample) => [sample.measure, sample.value, sample.repeat])).toEqual([
      ['hit@3', 1, undefined],
      ['recall@5', 0.5, undefined],
      ['hit@3', 1, 1],
      ['recall@5', 0.5, 1], // d9 at rank 1: 1 of the 2 relevant ids
    ]);
  });

  it('a retry starts a fresh attempt: its first matcher records the declared measures again', () => {
    declare({ measures: ['recall@5'] });
    const task = fakeTest();
    matchers.toHaveRecallAtK.call({ task }, ['d9'], RELEVANT, 5, 0.9);
    task.result.retryCount = 1;
    matchers.toHaveRecallAtK.call({ task }, ['d2', 'd9'], RELEVANT, 5, 0.9);
    expect(recorded(task).map((sample) => sample.value)).toEqual([1]);
  });

  it('a per-suite override replaces the project list; [] falls back to each matcher’s own measure', () => {
    declare({
      measures: ['recall@5'],
      suites: { 'test/q.test.ts > faq': { measures: ['mrr'] }, 'test/q.test.ts > plain': { measures: [] } },
    });
    const faq = fakeTest('faq');
    matchers.toHaveRecallAtK.call({ task: faq }, HITS, RELEVANT, 5, 0.1);
    expect(recorded(faq).map((sample) => [sample.measure, sample.value])).toEqual([
      ['mrr', 0.5],
      ['recall@5', 0.5],
    ]);
    const plain = fakeTest('plain');
    matchers.toHaveHitAtK.call({ task: plain }, HITS, RELEVANT, 1);
    expect(recorded(plain)).toEqual([{ measure: 'hit@1', value: 0, pass: false }]);
  });

  it('toMeetRetrievalTargets records each target’s value and whether that target was met', () => {
    declare({ measures: ['hit@3'] });
    const task = fakeTest();
    const result = matchers.toMeetRetrievalTargets.call({ task }, HITS, RELEVANT, { 'recall@5': 0.4, 'P@5': 0.5 });
    expect(result.pass).toBe(false);
    expect(recorded(task)).toEqual([
      { measure: 'hit@3', value: 1 },
      { measure: 'recall@5', value: 0.5, threshold: 0.4, pass: true },
      { measure: 'precision@5', value: 0.2, threshold: 0.5, pass: false },
    ]);
  });

  it('toMeetRetrievalTargets judges targets the declared measures cover by the values measured for them', () => {
    declare({ measures: ['hit@3', 'recall@5', 'ndcg@10'] });
    const task = fakeTest();
    const result = matchers.toMeetRetrievalTargets.call({ task }, HITS, RELEVANT, { 'recall@5': 0.4, 'ndcg@10': 0.5 });
    expect(result.pass).toBe(false);
    expect(result.message()).toContain('1 of 2 targets met');
    expect(recorded(task)).toEqual([
      { measure: 'hit@3', value: 1 },
      { measure: 'recall@5', value: 0.5, threshold: 0.4, pass: true },
      { measure: 'ndcg@10', value: NDCG10, threshold: 0.5, pass: false },
    ]);
  });

  it('set-level matchers record each question’s declared measures from the result, and say when one was not evaluated', () => {
    declare({ measures: ['recall@5', 'mrr'] });
    const set = [
      { id: 'q1', query: 'one', relevant: ['d2', 'd9'] },
      { id: 'q2', query: 'two', relevant: ['d1'] },
    ];
    const run = { q1: HITS, q2: ['d1'] };
    const task = fakeTest();
    const result = evaluateRun(set, run, { measures: ['recall@5', 'mrr', 'ndcg@10'] });
    matchers.toHaveMeanNdcgAbove.call({ task }, result, 0.9, { k: 10 });
    expect(recorded(task).map((sample) => [sample.queryId, sample.measure, +sample.value.toFixed(6)])).toEqual([
      ['q1', 'recall@5', 0.5],
      ['q1', 'mrr', 0.5],
      ['q1', 'ndcg@10', +NDCG10.toFixed(6)],
      ['q2', 'recall@5', 1],
      ['q2', 'mrr', 1],
      ['q2', 'ndcg@10', 1],
    ]);
    const partial = evaluateRun(set, run, { measures: ['ndcg@10'] });
    expect(() => matchers.toHaveMeanNdcgAbove.call({ task: fakeTest() }, partial, 0.5, { k: 10 })).toThrow(
      /declared measures recall@5, mrr were not evaluated/,
    );
  });

  it('toNotRegressFrom records each question’s declared measures, then the compared ones, once each', () => {
    declare({ measures: ['recall@5', 'mrr'] });
    const set = [
      { id: 'q1', query: 'one', relevant: ['d2', 'd9'] },
      { id: 'q2', query: 'two', relevant: ['d1'] },
    ];
    const before = evaluateRun(set, { q1: HITS, q2: ['d1'] }, { measures: ['recall@5', 'mrr'] });
    const after = evaluateRun(set, { q1: HITS, q2: ['d1'] }, { measures: ['recall@5', 'mrr'] });
    const task = fakeTest();
    matchers.toNotRegressFrom.call({ task }, after, before, { measures: ['mrr'] });
    expect(recorded(task).map((sample) => [sample.queryId, sample.measure, sample.value])).toEqual([
      ['q1', 'recall@5', 0.5],
      ['q1', 'mrr', 0.5],
      ['q2', 'recall@5', 1],
      ['q2', 'mrr', 1],
    ]);
  });
});

describe('a later matcher of the question, on the same ranking', () => {
  // Declared recall@5 = 1/2 (d2 of d2, d9 in the top 5): the first matcher measures it for the question.
  it('takes the declared value: the same verdicts and message as when it measured it itself', () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const task = fakeTest();
    const hits = [...HITS];
    const relevant = [...RELEVANT];
    expect(matchers.toHaveHitAtK.call({ task }, hits, relevant, 3, { queryId: 'q1' }).pass).toBe(true);
    expect(matchers.toHaveRecallAtK.call({ task }, hits, relevant, 5, 0.5, { queryId: 'q1' }).pass).toBe(true);
    const failed = matchers.toHaveRecallAtK.call({ task }, hits, relevant, 5, 0.6, { queryId: 'q1' });
    expect(failed.pass).toBe(false);
    expect(failed.message()).toContain('recall@5 = 0.5');
    expect(failed.message()).toContain('1 of 2 relevant retrieved in the top 5');
  });

  it('hits changed in place since (reordered, replaced) are judged again', () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const task = fakeTest();
    const hits = [...HITS];
    matchers.toHaveHitAtK.call({ task }, hits, RELEVANT, 3, { queryId: 'q1' });
    hits[0] = 'd9'; // d9 and d2 now both in the top 5: recall@5 = 1
    expect(matchers.toHaveRecallAtK.call({ task }, hits, RELEVANT, 5, 1, { queryId: 'q1' }).pass).toBe(true);
    hits.reverse(); // d2 at rank 5, d9 at rank 6: recall@5 = 1/2
    expect(matchers.toHaveRecallAtK.call({ task }, hits, RELEVANT, 5, 0.6, { queryId: 'q1' }).pass).toBe(false);
  });

  it('judgments changed in place since, a list or an object, are judged again', () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const listTask = fakeTest();
    const list = [...RELEVANT];
    matchers.toHaveHitAtK.call({ task: listTask }, HITS, list, 3, { queryId: 'q1' });
    list.pop(); // only d2 relevant: recall@5 = 1
    expect(matchers.toHaveRecallAtK.call({ task: listTask }, HITS, list, 5, 1, { queryId: 'q1' }).pass).toBe(true);

    const objectTask = fakeTest();
    const graded: Record<string, number> = { d2: 1, d9: 1 };
    matchers.toHaveHitAtK.call({ task: objectTask }, HITS, graded, 3, { queryId: 'q1' });
    delete graded.d9;
    expect(matchers.toHaveRecallAtK.call({ task: objectTask }, HITS, graded, 5, 1, { queryId: 'q1' }).pass).toBe(true);
  });

  it('after toMeetRetrievalTargets too: its declared values serve the same ranking, a changed one is judged again', () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const task = fakeTest();
    const hits = [...HITS];
    expect(matchers.toMeetRetrievalTargets.call({ task }, hits, RELEVANT, { 'hit@3': 1 }, { queryId: 'q1' }).pass).toBe(
      true,
    );
    expect(matchers.toHaveRecallAtK.call({ task }, hits, RELEVANT, 5, 0.6, { queryId: 'q1' }).pass).toBe(false);
    hits[0] = 'd9'; // recall@5 = 1 now
    expect(matchers.toHaveRecallAtK.call({ task }, hits, RELEVANT, 5, 1, { queryId: 'q1' }).pass).toBe(true);
  });

  it('other options are judged with them: a grade floor no judgment reaches is the usual usage error', () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const task = fakeTest();
    matchers.toHaveHitAtK.call({ task }, HITS, RELEVANT, 3, { queryId: 'q1' });
    expect(() =>
      matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.5, { queryId: 'q1', minGrade: 2 }),
    ).toThrow(/holds no relevant id with grade ≥ 2/);
  });
});

describe('without a declaration', () => {
  it('each matcher records its own measure, as before', () => {
    const task = fakeTest();
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.9);
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4);
    expect(recorded(task)).toEqual([
      { measure: 'recall@5', value: 0.5, threshold: 0.9, pass: false },
      { measure: 'recall@5', value: 0.5, threshold: 0.4, pass: true },
    ]);
  });
});

describe('one test, one question', () => {
  // README's example test: a queryId on the first matcher only. hits d1…d6, relevant d2, d9:
  // recall@5 = 1/2, ndcg@10 = NDCG10, hit@3 = 1.
  it('matchers without a queryId take the one another matcher of the test gave (README order)', () => {
    const task = fakeTest();
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q017' });
    matchers.toHaveNdcgAbove.call({ task }, HITS, RELEVANT, 0.3, { k: 10 });
    expect(recorded(task).map((sample) => [sample.queryId, sample.measure])).toEqual([
      ['q017', 'recall@5'],
      ['q017', 'ndcg@10'],
    ]);
  });

  it('with declared measures, the question records each measure once, whichever matcher named it', () => {
    declare({ measures: ['hit@3', 'recall@5'] });
    const task = fakeTest();
    matchers.toHaveHitAtK.call({ task }, HITS, RELEVANT, 3);
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.9, { queryId: 'q017' });
    const samples = withAudits(task);
    // The first matcher recorded before the queryId was known; the second recorded no declared measure
    // again, only its failed verdict (1/2 < 0.9), marked as the test's question.
    expect(samples.map((sample) => [sample.queryId, sample.measure, sample.verdictOnly, sample.testQuestion])).toEqual([
      [undefined, 'hit@3', undefined, undefined],
      [undefined, 'recall@5', undefined, undefined],
      ['q017', 'recall@5', true, true],
    ]);
    // The collectors give the earlier samples the test's question and drop the mark.
    applyTestQuestion(samples);
    expect(samples.map((sample) => [sample.queryId, sample.measure, 'testQuestion' in sample])).toEqual([
      ['q017', 'hit@3', false],
      ['q017', 'recall@5', false],
      ['q017', 'recall@5', false],
    ]);
  });

  it('two queryIds for one measure in one test: a warning naming both; a matcher without one stays the test', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const task = fakeTest();
      matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q017' });
      matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q018' });
      matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q019' });
      expect(warn.mock.calls).toEqual([
        [
          "rag-matchers: the test \"t\" records recall@5 for two questions, queryId 'q017' and queryId 'q018'. " +
            'One test is one question: split it into one test per question (test.each), or give every matcher of the test the same queryId.',
        ],
      ]);
      // Different measures under two ids is not the same measure twice: no warning.
      warn.mockClear();
      const other = fakeTest();
      matchers.toHaveRecallAtK.call({ task: other }, HITS, RELEVANT, 5, 0.4, { queryId: 'a' });
      matchers.toHaveHitAtK.call({ task: other }, HITS, RELEVANT, 3, { queryId: 'b' });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('a queryId after matchers without one, then another: the first queryId is the test’s question', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const task = fakeTest();
      matchers.toHaveHitAtK.call({ task }, HITS, RELEVANT, 3);
      matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q1' });
      matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4, { queryId: 'q2' });
      const samples = withAudits(task);
      const marked = samples.map((sample) => sample.testQuestion);
      expect(marked).toEqual([undefined, true, undefined]);
      applyTestQuestion(samples);
      expect(samples.map((sample) => sample.queryId)).toEqual(['q1', 'q1', 'q2']);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });

  it('set-level matchers keep their questions and give none to the per-question matchers', () => {
    const set = [
      { id: 'q1', query: 'one', relevant: ['d2', 'd9'] },
      { id: 'q2', query: 'two', relevant: ['d1'] },
    ];
    const task = fakeTest();
    const result = evaluateRun(set, { q1: HITS, q2: ['d1'] }, { measures: ['recall@5'] });
    matchers.toHaveMeanRecallAtK.call({ task }, result, 5, 0.5);
    matchers.toHaveRecallAtK.call({ task }, HITS, RELEVANT, 5, 0.4);
    expect(recorded(task).map((sample) => [sample.queryId, sample.measure, sample.value])).toEqual([
      ['q1', 'recall@5', 0.5],
      ['q2', 'recall@5', 1],
      [undefined, 'recall@5', 0.5],
    ]);
  });
});

describe('toMeetRetrievalTargets: prototype member names are usage errors', () => {
  for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    it(`${key}, with and without .not`, () => {
      const targets = JSON.parse(`{ ${JSON.stringify(key)}: 1 }`) as Record<string, number>;
      expect(() => matchers.toMeetRetrievalTargets.call({}, HITS, RELEVANT, targets)).toThrow(
        new RegExp(`targets key "${key}": measure "${key}" is not valid: unknown measure`),
      );
      expect(() => matchers.toMeetRetrievalTargets.call({ isNot: true }, HITS, RELEVANT, targets)).toThrow(
        /is not valid: unknown measure/,
      );
    });
  }
});
