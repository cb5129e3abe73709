// A question's tags in the baseline: kept in its ranking row (schema 6's object; schema 7's last cell,
// written only when a question has tags), read back as written; a changed tag is no finding, no changed
// ranking, and an update writes it.
import { describe, expect, it } from 'vitest';

import { BaselineError } from '../../../src/baseline/file/errors.js';
import { parseBaseline } from '../../../src/baseline/file/read.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import { changedRankings, changedTags } from '../../../src/baseline/rankings.js';
import { baselineFromRun, describeUpdate, mergeBaseline } from '../../../src/baseline/store.js';
import { formatMergedBaseline, mergeBaselineVersions } from '../../../src/baseline/three-way.js';
import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';
import { summarize } from '../../../src/report/summary.js';

const TOP = [{ key: 'a', grade: 1 }, { key: 'b' }];

function sample(queryId: string, value: number, extra: Partial<CollectedSample> = {}): CollectedSample {
  return {
    file: 'test/orders.test.ts',
    describePath: ['refunds'],
    test: `answers ${queryId}`,
    queryId,
    measure: 'recall@5',
    value,
    ...extra,
  };
}

function run(...samples: CollectedSample[]): CollectedRun {
  return { runner: 'vitest', samples, files: ['test/orders.test.ts'] };
}

const TAGGED = `{
  "generatedBy": "rag-matchers",
  "schemaVersion": 6,
  "rows": [
    ["file", "describe", "question", "measure", "value", "project", "judgments"]
    ,["test/orders.test.ts", ["refunds"], "q1", "", {"text": "answers q1", "top": [["a", 1], "b"], "tags": ["billing", "eu"]}]
    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1]
    ,["test/orders.test.ts", ["refunds"], "q2", "", {"top": [], "tags": ["billing"]}]
    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.5]
    ,["test/orders.test.ts", ["refunds"], "q3", "", {"text": "answers q3", "top": ["b"]}]
    ,["test/orders.test.ts", ["refunds"], "q3", "recall@5", 0]
  ]
}
`;

// TAGGED as this version writes it (schema 7): the tags in a last cell of the compact ranking row.
const TAGGED7 = `{
  "generatedBy": "rag-matchers",
  "schemaVersion": 7,
  "rows": [
    ["file", "describe", "question", "measure", "value", "project", "judgments"]
    ,["q1",["answers q1",["a",1],"b"],{"tags":["billing","eu"]}]
    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1]
    ,["q2",[null],{"tags":["billing"]}]
    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.5]
    ,["q3",["answers q3","b"]]
    ,["test/orders.test.ts", ["refunds"], "q3", "recall@5", 0]
  ]
}
`;

describe('baseline schemas 6 and 7: question tags', () => {
  it("writes each tagged question's tags in its ranking row (sorted, each once) as version 7, and reads them back", () => {
    const file = baselineFromRun(
      run(
        sample('q1', 1, { topHits: TOP, tags: ['eu', 'billing'] }),
        // A second measure of q1 with a tag of its own: the question's tags are the union.
        sample('q1', 1, { measure: 'hit@5', tags: ['billing'] }),
        sample('q2', 0.5, { tags: ['billing'] }),
        sample('q3', 0, { topHits: [{ key: 'b' }] }),
      ),
    );
    const text = formatBaseline(file);
    expect(text).toBe(
      TAGGED7.replace(
        '    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1]\n',
        '    ,["test/orders.test.ts", ["refunds"], "q1", "hit@5", 1]\n    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1]\n',
      ),
    );
    expect(formatBaseline(parseBaseline(text, 'rag-baseline.json'))).toBe(text);
    const expected = {
      '["test/orders.test.ts",["refunds"]]': {
        q1: { text: 'answers q1', top: TOP, tags: ['billing', 'eu'] },
        q2: { top: [], tags: ['billing'] },
        q3: { text: 'answers q3', top: [{ key: 'b' }] },
      },
    };
    expect(parseBaseline(TAGGED7, 'rag-baseline.json').rankings).toEqual(expected);
    // Version 6, as the release before wrote it, reads into the same rankings and is written as version 7.
    expect(parseBaseline(TAGGED, 'rag-baseline.json').rankings).toEqual(expected);
    expect(formatBaseline(parseBaseline(TAGGED, 'rag-baseline.json'))).toBe(TAGGED7);
  });

  it('a ranking without tags or calls is written with no last cell', () => {
    const text = formatBaseline(baselineFromRun(run(sample('q1', 1, { topHits: TOP }))));
    expect(text).toContain('"schemaVersion": 7');
    expect(text).toContain('\n    ,["q1",["answers q1",["a",1],"b"]]\n');
    expect(text).not.toContain('"tags"');
  });

  it('version 7 refuses a last cell that is not { "tags", "calls" }, and tags that are not distinct non-empty strings', () => {
    const refusal = (text: string): BaselineError => {
      try {
        parseBaseline(text, 'rag-baseline.json');
      } catch (error) {
        return error as BaselineError;
      }
      throw new Error('not refused');
    };
    for (const cell of [
      '{"tags":"billing"}',
      '{"tags":[""]}',
      '{"tags":["billing","billing"]}',
      '{"tag":["eu"]}',
      '[]',
    ])
      expect(refusal(TAGGED7.replace('{"tags":["billing","eu"]}', cell)).message).toBe(
        `rag-baseline.json: rows[1]: its last cell must be { "tags": [tag, …], "calls": { kind: count } }, found ["q1",["answers q1",["a",1],"b"],${cell}]; fix it by hand, restore it from version control (git checkout -- <file>), or delete it and record a new one with RAG_BASELINE=update.`,
      );
  });

  it('version 5 refuses a tags key, and version 6 tags that are not a list of distinct non-empty strings', () => {
    const asVersion5 = TAGGED.replace('"schemaVersion": 6', '"schemaVersion": 5');
    const refusal = (text: string): BaselineError => {
      try {
        parseBaseline(text, 'rag-baseline.json');
      } catch (error) {
        return error as BaselineError;
      }
      throw new Error('not refused');
    };
    expect(refusal(asVersion5).message).toContain(
      'rows[1]: its ranking must be { "text": question text, "top": [key or [key, grade], …] }',
    );
    for (const tags of ['"billing"', '[""]', '["billing", "billing"]', '[1]'])
      expect(refusal(TAGGED.replace('"tags": ["billing", "eu"]', `"tags": ${tags}`)).message).toContain(
        'rows[1]: its ranking must be { "text": question text, "top": [key or [key, grade], …], "tags": [tag, …] }',
      );
  });

  it('an update whose values held writes the new tags, counted apart: not a changed ranking', () => {
    const previous = parseBaseline(TAGGED, 'rag-baseline.json');
    const current = run(
      sample('q1', 1, { topHits: TOP, tags: ['refunds'] }),
      sample('q2', 0.5, { tags: ['billing'] }),
      sample('q3', 0, { topHits: [{ key: 'b' }] }),
    );
    const merged = mergeBaseline(previous, baselineFromRun(current), { run: current });
    expect(merged.counts.updatedSamples).toBe(0);
    const suite = merged.file.rankings!['["test/orders.test.ts",["refunds"]]']!;
    expect(suite.q1).toEqual({ text: 'answers q1', top: TOP, tags: ['refunds'] });
    expect(changedRankings(previous, merged.file, [])).toBe(0);
    expect(changedTags(previous, merged.file)).toBe(1);
    expect(
      describeUpdate({ ...merged, path: 'rag-baseline.json', written: true, rankingsChanged: 0, tagsChanged: 1 }),
    ).toBe('Updated rag-baseline.json: the tags of 1 question recorded.');
  });

  it("the merge driver takes a question's tags from the side that changed them, beside the other side's values", () => {
    const base = parseBaseline(TAGGED7, 'rag-baseline.json');
    const ours = parseBaseline(TAGGED7.replace('"tags":["billing","eu"]', '"tags":["eu"]'), 'rag-baseline.json');
    const theirs = parseBaseline(
      TAGGED7.replace('"q3", "recall@5", 0]', '"q3", "recall@5", 0.5]'),
      'rag-baseline.json',
    );
    const merge = mergeBaselineVersions(base, ours, theirs);
    expect(merge.conflicts).toEqual([]);
    expect(formatMergedBaseline(merge, () => 'unused')).toBe(
      TAGGED7.replace('"tags":["billing","eu"]', '"tags":["eu"]').replace(
        '"q3", "recall@5", 0]',
        '"q3", "recall@5", 0.5]',
      ),
    );
  });

  it('a changed tag is not a finding: a strict run whose values held passes', () => {
    const previous = parseBaseline(TAGGED, 'rag-baseline.json');
    const current = run(
      sample('q1', 1, { tags: ['refunds'] }),
      sample('q2', 0.5),
      sample('q3', 0, { tags: ['billing'] }),
    );
    const summary = summarize(current, previous, { strict: true });
    expect(summary.findings).toEqual([]);
    expect(summary.passed).toBe(true);
  });
});
