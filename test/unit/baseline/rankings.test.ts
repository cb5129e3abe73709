// Schema version 7: one compact row per question, ahead of its measures' rows, keeps its text and top
// ranked keys. Version 5's rows (with the suite's cells, a measure cell "" and an object) are still read and
// written as version 7; a file without any ranking stays version 4 or 3, byte for byte.
import { describe, expect, it } from 'vitest';

import { BaselineError } from '../../../src/baseline/file/errors.js';
import { parseBaseline } from '../../../src/baseline/file/read.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import { baselineFromRun, mergeBaseline } from '../../../src/baseline/store.js';
import { formatMergedBaseline, mergeBaselineVersions } from '../../../src/baseline/three-way.js';
import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';
import { rankingEvidence } from '../../../src/report/evidence.js';

const V5 = `{
  "generatedBy": "rag-matchers",
  "schemaVersion": 5,
  "rows": [
    ["file", "describe", "question", "measure", "value", "project", "judgments"]
    ,["test/orders.test.ts", ["refunds"], "q1", "", {"text": "How long do refunds take?", "top": [["refunds#2", 2], "billing#1", ["faq#4", 0]]}]
    ,["test/orders.test.ts", ["refunds"], "q1", "mrr", 1]
    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1, {"labels": "aaaaaaaaaa"}]
    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.5]
    ,["test/orders.test.ts", ["refunds"], "q3", "", {"top": []}, "api"]
    ,["test/orders.test.ts", ["refunds"], "q3", "recall@5", 0, "api"]
  ]
}
`;

// V5 as this version writes it: each ranking row holds the question and a list, the text first (null when
// left out), and belongs to the suite of the row after it.
const V7 = `{
  "generatedBy": "rag-matchers",
  "schemaVersion": 7,
  "rows": [
    ["file", "describe", "question", "measure", "value", "project", "judgments"]
    ,["q1",["How long do refunds take?",["refunds#2",2],"billing#1",["faq#4",0]]]
    ,["test/orders.test.ts", ["refunds"], "q1", "mrr", 1]
    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1, {"labels": "aaaaaaaaaa"}]
    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.5]
    ,["q3",[null]]
    ,["test/orders.test.ts", ["refunds"], "q3", "recall@5", 0, "api"]
  ]
}
`;

const PATH = 'rag-baseline.json';

describe('baseline schema 7: question rankings', () => {
  it.each([
    ['7', V7],
    ['5', V5],
  ])(
    'reads each ranking row of version %s into its question, a bare key as unjudged and [key, grade] as judged',
    (_, text) => {
      const file = parseBaseline(text, PATH);
      const [refunds, api] = Object.keys(file.rankings!);
      expect(file.rankings![refunds!]).toEqual({
        q1: {
          text: 'How long do refunds take?',
          top: [{ key: 'refunds#2', grade: 2 }, { key: 'billing#1' }, { key: 'faq#4', grade: 0 }],
        },
      });
      expect(file.rankings![api!]).toEqual({ q3: { top: [] } });
      expect(file.suites[refunds!]).toEqual({ mrr: { q1: 1 }, 'recall@5': { q1: 1, q2: 0.5 } });
    },
  );

  it('writes version 5 as version 7, and the same bytes back: write → read → same rankings and the same evidence', () => {
    const file = parseBaseline(V5, PATH);
    expect(formatBaseline(file)).toBe(V7);
    expect(parseBaseline(V7, PATH)).toEqual(file);
    const again = parseBaseline(formatBaseline(file), PATH);
    expect(again).toEqual(file);
    const key = Object.keys(file.rankings!)[0]!;
    expect(rankingEvidence(again.rankings![key]!.q1!.top, [])).toEqual(
      rankingEvidence(file.rankings![key]!.q1!.top, []),
    );
  });

  it('still reads versions 3 and 4, without rankings', () => {
    const v3 = `{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 3,\n  "rows": [\n    ["file", "describe", "question", "measure", "value", "project"]\n    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1]\n  ]\n}\n`;
    const v4 = `{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 4,\n  "rows": [\n    ["file", "describe", "question", "measure", "value", "project", "judgments"]\n    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1, {"labels": "aaaaaaaaaa"}]\n  ]\n}\n`;
    for (const text of [v3, v4]) {
      const file = parseBaseline(text, PATH);
      expect(file.rankings).toBeUndefined();
      expect(Object.values(file.suites)).toEqual([{ 'recall@5': { q1: 1 } }]);
      expect(formatBaseline(file)).toBe(text);
    }
  });

  it('refuses a malformed ranking, naming the row', () => {
    const refused = (text: string): string => {
      try {
        parseBaseline(text, PATH);
      } catch (error) {
        if (error instanceof BaselineError) return error.problem;
      }
      throw new Error('not refused');
    };
    const fix =
      'fix it by hand, restore it from version control (git checkout -- <file>), or delete it and record a new one with RAG_BASELINE=update';
    expect(refused(V7.replace('["q3",[null]]', '["q3",[null,3]]'))).toBe(
      `rows[5]: its ranking must be [question text or null, key or [key, grade], …], found ["q3",[null,3]]; ${fix}.`,
    );
    expect(refused(V7.replace('["q3",[null]]', '["q3",[]]'))).toBe(
      `rows[5] must be a value row or a ranking row [question, [question text or null, key or [key, grade], …]], and last, when the question has them, { "tags": [tag, …], "calls": { kind: count } }, found ["q3",[]]; ${fix}.`,
    );
    expect(refused(V7.replace('["q3",[null]]', '["q3",[null],{"tags":["eu"]},1]'))).toMatch(
      /^rows\[5\] must be \[file/,
    );
    // Version 7 has one form of ranking row: version 5's is refused there.
    expect(refused(V5.replace('"schemaVersion": 5', '"schemaVersion": 7'))).toMatch(
      /^rows\[1\]: its measure must be a measure name/,
    );
    const twice = V7.replace(
      '    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1,',
      '    ,["q1",[null]]\n    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1,',
    );
    expect(refused(twice)).toBe(`rows[3]: question "q1" has two ranking rows; keep one, found ["q1",[null]]; ${fix}.`);
    const bad = V5.replace('"top": []', '"top": [3]');
    expect(() => parseBaseline(bad, PATH)).toThrow(BaselineError);
    expect(() => parseBaseline(bad, PATH)).toThrow(/rows\[5\]: its ranking must be \{ "text"/);
    const twice5 = V5.replace(
      '    ,["test/orders.test.ts", ["refunds"], "q1", "mrr", 1]',
      '    ,["test/orders.test.ts", ["refunds"], "q1", "", {"top": []}]\n    ,["test/orders.test.ts", ["refunds"], "q1", "mrr", 1]',
    );
    expect(() => parseBaseline(twice5, PATH)).toThrow(/rows\[2\]: question "q1" has two ranking rows; keep one/);
  });

  it("drops a ranking row that is not followed by its question's row, as an update drops a ranking without values", () => {
    // A hand-resolved conflict that kept the ranking row of a question whose rows it removed.
    const orphan = V7.replace(
      '    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.5]\n',
      '    ,["q9",["gone"]]\n$&',
    );
    const file = parseBaseline(orphan, PATH);
    expect(file).toEqual(parseBaseline(V7, PATH));
    expect(formatBaseline(file)).toBe(V7);
    // Nor does a ranking row at the end of the rows belong to any question.
    expect(parseBaseline(V7.replace('\n  ]\n}', '\n    ,["q9",["gone"]]\n  ]\n}'), PATH)).toEqual(file);
  });

  it('the merge driver takes each question ranking from the side that changed it, with no conflict', () => {
    const base = parseBaseline(V7, PATH);
    const ours = parseBaseline(V7.replace('"mrr", 1]', '"mrr", 0.5]'), PATH);
    const theirs = parseBaseline(V7.replace('"billing#1",["faq#4",0]', '["faq#4",0],"billing#1"'), PATH);
    const merge = mergeBaselineVersions(base, ours, theirs);
    expect(merge.conflicts).toEqual([]);
    const text = formatMergedBaseline(merge, () => 'unused');
    expect(text).toBe(
      V7.replace('"mrr", 1]', '"mrr", 0.5]').replace('"billing#1",["faq#4",0]', '["faq#4",0],"billing#1"'),
    );
  });

  it('the merge driver keeps ours where both sides changed a question ranking, with no conflict', () => {
    const base = parseBaseline(V7, PATH);
    const ours = parseBaseline(V7.replace('"billing#1",["faq#4",0]', '["faq#4",0],"billing#1"'), PATH);
    const theirs = parseBaseline(V7.replace(',"billing#1",["faq#4",0]', ''), PATH);
    const merge = mergeBaselineVersions(base, ours, theirs);
    expect(merge.conflicts).toEqual([]);
    expect(formatMergedBaseline(merge, () => 'unused')).toBe(
      V7.replace('"billing#1",["faq#4",0]', '["faq#4",0],"billing#1"'),
    );
  });

  it('the merge driver keeps a question ranking ahead of a conflict on its rows', () => {
    const base = parseBaseline(V7, PATH);
    const ours = parseBaseline(V7.replace('"mrr", 1]', '"mrr", 0.5]'), PATH);
    const theirs = parseBaseline(V7.replace('"mrr", 1]', '"mrr", 0.25]'), PATH);
    const text = formatMergedBaseline(mergeBaselineVersions(base, ours, theirs), () => 'rerecord');
    const lines = text.split('\n');
    const rankingLine = lines.findIndex((line) => line.startsWith('    ,["q1",['));
    expect(lines[rankingLine + 1]).toMatch(/^<<<<<<< /);
    expect(lines[rankingLine + 2]).toBe('    ,["test/orders.test.ts", ["refunds"], "q1", "mrr", 0.5]');
    // Resolved by taking either side, the file reads with the ranking in its question.
    const resolved = (keep: 'ours' | 'theirs'): string => {
      const open = lines.findIndex((line) => line.startsWith('<<<<<<< '));
      const middle = lines.findIndex((line) => line.startsWith('======='));
      const close = lines.findIndex((line) => line.startsWith('>>>>>>> '));
      const side = keep === 'ours' ? lines.slice(open + 1, middle) : lines.slice(middle + 1, close);
      return [...lines.slice(0, open), ...side, ...lines.slice(close + 1)].join('\n');
    };
    expect(parseBaseline(resolved('theirs'), PATH).rankings).toEqual(base.rankings);
    expect(formatBaseline(parseBaseline(resolved('ours'), PATH))).toBe(V7.replace('"mrr", 1]', '"mrr", 0.5]'));
  });
});

describe('what an update keeps of each question ranking', () => {
  const sample = (queryId: string, value: number, topHits?: { key: string; grade?: number }[]): CollectedSample => ({
    file: 'test/orders.test.ts',
    describePath: ['refunds'],
    test: `answers ${queryId}`,
    queryId,
    measure: 'recall@5',
    value,
    ...(topHits === undefined ? {} : { topHits }),
  });
  const run = (...samples: CollectedSample[]): CollectedRun => ({
    runner: 'vitest',
    samples,
    files: ['test/orders.test.ts'],
  });
  const TOP = [{ key: 'a', grade: 1 }, { key: 'b' }, { key: 'c', grade: 0 }];

  it('records the run ranking with the test name, as a version-7 row ahead of the question rows', () => {
    const file = baselineFromRun(run(sample('q1', 1, TOP), sample('q2', 0.5)));
    expect(formatBaseline(file)).toBe(`{
  "generatedBy": "rag-matchers",
  "schemaVersion": 7,
  "rows": [
    ["file", "describe", "question", "measure", "value", "project", "judgments"]
    ,["q1",["answers q1",["a",1],"b",["c",0]]]
    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1]
    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.5]
  ]
}
`);
  });

  it("keeps a matcher's query as the question's text instead of the test's name", () => {
    const asked = { ...sample('q1', 1), measure: 'hit@5', query: 'How long do refunds take?' };
    const file = baselineFromRun(run(sample('q1', 1, TOP), asked, sample('q2', 0.5, TOP)));
    expect(Object.values(file.rankings!)).toEqual([
      {
        q1: { text: 'How long do refunds take?', top: TOP },
        q2: { text: 'answers q2', top: TOP },
      },
    ]);
    expect(Object.values(baselineFromRun(run(asked), { questionTexts: false }).rankings ?? {})).toEqual([]);
  });

  it('rankingDepth cuts the ranking, 0 keeps none; questionTexts: false leaves the text out', () => {
    const file = baselineFromRun(run(sample('q1', 1, TOP)), { rankingDepth: 1, questionTexts: false });
    expect(Object.values(file.rankings!)).toEqual([{ q1: { top: [{ key: 'a', grade: 1 }] } }]);
    expect(baselineFromRun(run(sample('q1', 1, TOP)), { rankingDepth: 0, questionTexts: false }).rankings).toBe(
      undefined,
    );
    expect(() => baselineFromRun(run(sample('q1', 1, TOP)), { rankingDepth: 11 })).toThrow(
      'options.rankingDepth must be a whole number from 0 to 10, got 11.',
    );
  });

  it('an update whose values held stores the new ranking, and keeps the ranking of a question it did not judge', () => {
    const previous = baselineFromRun(run(sample('q1', 1, TOP), sample('q2', 0.5, [{ key: 'z' }])));
    const moved = [{ key: 'b' }, { key: 'a', grade: 1 }];
    const current = run(sample('q1', 1, moved));
    const merged = mergeBaseline(previous, baselineFromRun(current), { run: current });
    const [suite] = Object.keys(merged.file.rankings!);
    expect(merged.file.rankings![suite!]).toEqual({
      q1: { text: 'answers q1', top: moved },
      q2: { text: 'answers q2', top: [{ key: 'z' }] },
    });
    expect(merged.counts.updatedSamples).toBe(0);
  });
});
