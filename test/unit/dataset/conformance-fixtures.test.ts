// Reads the trec_eval conformance fixtures and checks counts worked out independently with the shell,
// e.g. for test/fixtures/conformance:
//   wc -l small.run                                          → lines (= entries; no blank lines)
//   cut -d' ' -f1 small.run | sort -u | wc -l                → distinct query ids
//   awk '{print $4}' small.qrels | sort | uniq -c            → judgments per grade
//   awk '$1=="q10"' small.run | wc -l                        → entries of one query
//   awk '$5 ~ /^-/' small.run | wc -l                        → negative scores
//   awk '$1=="q10" {print NR}' small.run                     → q10 on lines 99–107 and 422–431

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import {
  formatQrels,
  formatRun,
  parseQrels,
  parseRun,
  readQrelsFile,
  readRunFile,
  streamRunByQuery,
  TrecFormatError,
  type Qrels,
  type TrecRun,
} from '../../../src/trec/index.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/conformance/', import.meta.url));

function entryCount(run: TrecRun): number {
  return [...run.values()].reduce((total, entries) => total + entries.length, 0);
}

function judgmentCount(qrels: Qrels): number {
  return [...qrels.values()].reduce((total, judgments) => total + judgments.size, 0);
}

function gradeHistogram(qrels: Qrels): Record<string, number> {
  const histogram: Record<string, number> = {};
  for (const judgments of qrels.values()) {
    for (const grade of judgments.values()) histogram[grade] = (histogram[grade] ?? 0) + 1;
  }
  return histogram;
}

describe('small.qrels', () => {
  it('has 414 judgments over 33 queries, grades 0/1/2/3 = 205/121/49/39', async () => {
    const qrels = await readQrelsFile(`${FIXTURES}small.qrels`);
    expect(judgmentCount(qrels)).toBe(414);
    expect(qrels.size).toBe(33);
    expect(gradeHistogram(qrels)).toEqual({ 0: 205, 1: 121, 2: 49, 3: 39 });
    expect(qrels.get('q1')?.size).toBe(17);
    expect(qrels.get('q19')?.size).toBe(22);
    // first and last lines: "q1 0 doc10 0", "q33 0 doc336 0"
    expect([...qrels.keys()][0]).toBe('q1');
    expect(qrels.get('q1')?.get('doc10')).toBe(0);
    expect(qrels.get('q33')?.get('doc336')).toBe(0);
  });

  it('formats back to the identical bytes', async () => {
    const text = await readFile(`${FIXTURES}small.qrels`, 'utf8');
    expect(formatQrels(parseQrels(text))).toBe(text);
  });
});

describe('small.run', () => {
  it('has 438 entries over 33 queries, in file order, including exponent and negative scores', async () => {
    const run = await readRunFile(`${FIXTURES}small.run`);
    expect(entryCount(run)).toBe(438);
    expect(run.size).toBe(33);
    expect(run.get('q1')).toHaveLength(19);
    // q10 and q22 each come in two blocks (lines 99–107 + 422–431; 255–261 + 432–438)
    expect(run.get('q10')).toHaveLength(19);
    expect(run.get('q22')).toHaveLength(14);
    expect(run.get('q22')?.at(-1)).toEqual({ docId: 'doc21', rank: 11, score: 2.0497 });
    expect(run.get('q1')?.[0]).toEqual({ docId: 'doc390', rank: 1, score: 10.152 });
    const scores = [...run.values()].flat().map((entry) => entry.score);
    expect(scores.filter((score) => score < 0)).toHaveLength(10);
    // line 220 "q19 Q0 doc245 2 11082e-4", line 228 "q19 Q0 doc253 10 -39290e-4"
    const q19 = run.get('q19') ?? [];
    expect(q19.find((entry) => entry.docId === 'doc245')?.score).toBe(1.1082);
    expect(q19.find((entry) => entry.docId === 'doc253')?.score).toBe(-3.929);
  });

  it('cannot be streamed by query: q10 comes back on line 422 after q36', async () => {
    let caught: unknown;
    const streamedQueryIds: string[] = [];
    try {
      for await (const group of streamRunByQuery(`${FIXTURES}small.run`)) streamedQueryIds.push(group.queryId);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TrecFormatError);
    expect((caught as TrecFormatError).lineNumber).toBe(422);
    expect((caught as TrecFormatError).message).toContain(
      "query 'q10' appears again after query 'q36' (its earlier lines end on line 107)",
    );
    // q1–q30, q34, q35 were complete and yielded; q36 was still open when line 422 failed
    expect(streamedQueryIds).toHaveLength(32);
    expect(streamedQueryIds.slice(-3)).toEqual(['q30', 'q34', 'q35']);
  });
});

describe('graded.qrels', () => {
  it('has 17459 judgments over 204 numeric query ids, grades 0/1/2/3 = 9967/3881/2214/1397', async () => {
    const qrels = await readQrelsFile(`${FIXTURES}graded.qrels`);
    expect(judgmentCount(qrels)).toBe(17459);
    expect(qrels.size).toBe(204);
    expect(gradeHistogram(qrels)).toEqual({ 0: 9967, 1: 3881, 2: 2214, 3: 1397 });
    const query1 = qrels.get('1');
    expect(query1?.size).toBe(98);
    expect([...(query1?.values() ?? [])].filter((grade) => grade > 0)).toHaveLength(46);
    expect(query1?.get('GX820547')).toBe(3);
  });

  it('formats back to the identical bytes', async () => {
    const text = await readFile(`${FIXTURES}graded.qrels`, 'utf8');
    expect(formatQrels(parseQrels(text))).toBe(text);
  });
});

describe('graded.run', () => {
  it('has 20400 entries: 204 queries × 100', async () => {
    const run = await readRunFile(`${FIXTURES}graded.run`);
    expect(entryCount(run)).toBe(20400);
    expect(run.size).toBe(204);
    expect([...run.values()].every((entries) => entries.length === 100)).toBe(true);
    expect(run.get('1')?.[0]).toEqual({ docId: 'GX551551', rank: 1, score: 16.1828 });
    expect(run.get('208')?.[99]).toEqual({ docId: 'GX112776', rank: 100, score: 7.5417 });
  });

  it('streams as 204 groups of 100 in file order, equal to the whole-file parse', async () => {
    const whole = await readRunFile(`${FIXTURES}graded.run`);
    const streamed: TrecRun = new Map();
    for await (const { queryId, entries } of streamRunByQuery(`${FIXTURES}graded.run`)) {
      expect(streamed.has(queryId)).toBe(false);
      streamed.set(queryId, entries);
    }
    expect(streamed.size).toBe(204);
    expect([...streamed.keys()]).toEqual([...whole.keys()]);
    expect(streamed).toEqual(whole);
  });

  it('survives format → parse unchanged', async () => {
    const run = await readRunFile(`${FIXTURES}graded.run`);
    expect(parseRun(formatRun(run, { tag: 'gradedrun' }))).toEqual(run);
  });
});
