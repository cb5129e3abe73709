// A question's tags in the baseline (schema 6): kept in its ranking row, written only when a question has
// tags, read back as written; a changed tag is no finding, no changed ranking, and an update writes it.
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

describe('baseline schema 6: question tags', () => {
  it("writes each tagged question's tags in its ranking row (sorted, each once) as version 6, and reads them back", () => {
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
      TAGGED.replace(
        '    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1]\n',
        '    ,["test/orders.test.ts", ["refunds"], "q1", "hit@5", 1]\n    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1]\n',
      ),
    );
    expect(formatBaseline(parseBaseline(text, 'rag-baseline.json'))).toBe(text);
    expect(parseBaseline(TAGGED, 'rag-baseline.json').rankings).toEqual({
      '["test/orders.test.ts",["refunds"]]': {
        q1: { text: 'answers q1', top: TOP, tags: ['billing', 'eu'] },
        q2: { top: [], tags: ['billing'] },
        q3: { text: 'answers q3', top: [{ key: 'b' }] },
      },
    });
  });

  it('a baseline without tags is written as version 5, byte for byte as before', () => {
    const text = formatBaseline(baselineFromRun(run(sample('q1', 1, { topHits: TOP }))));
    expect(text).toContain('"schemaVersion": 5');
    expect(text).not.toContain('"tags"');
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
    const base = parseBaseline(TAGGED, 'rag-baseline.json');
    const ours = parseBaseline(TAGGED.replace('"tags": ["billing", "eu"]', '"tags": ["eu"]'), 'rag-baseline.json');
    const theirs = parseBaseline(TAGGED.replace('"q3", "recall@5", 0]', '"q3", "recall@5", 0.5]'), 'rag-baseline.json');
    const merge = mergeBaselineVersions(base, ours, theirs);
    expect(merge.conflicts).toEqual([]);
    expect(formatMergedBaseline(merge, () => 'unused')).toBe(
      TAGGED.replace('"tags": ["billing", "eu"]', '"tags": ["eu"]').replace(
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
