// Schema version 4: a row may end with what its sample kept about its judgments (fingerprint, unjudged
// hits). A file without any stays version 3, byte for byte; updates carry audits and gain fingerprints.
import { describe, expect, it } from 'vitest';

import { baselineFromRun, mergeBaseline } from '../../../src/baseline/store.js';
import { BaselineError } from '../../../src/baseline/file/errors.js';
import { parseBaseline } from '../../../src/baseline/file/read.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';

const FILE = 'test/orders.test.ts';

function sample(queryId: string, value: number, extra: Partial<CollectedSample> = {}): CollectedSample {
  return {
    file: FILE,
    describePath: ['refunds'],
    test: `answers ${queryId}`,
    queryId,
    measure: 'recall@5',
    value,
    ...extra,
  };
}

function run(...samples: CollectedSample[]): CollectedRun {
  return { runner: 'vitest', samples, files: [FILE] };
}

const V3 = `{
  "generatedBy": "rag-matchers",
  "schemaVersion": 3,
  "rows": [
    ["file", "describe", "question", "measure", "value", "project"]
    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1]
    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.5]
  ]
}
`;

const V4 = `{
  "generatedBy": "rag-matchers",
  "schemaVersion": 4,
  "rows": [
    ["file", "describe", "question", "measure", "value", "project", "judgments"]
    ,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 1, {"labels": "aaaaaaaaaa"}]
    ,["test/orders.test.ts", ["refunds"], "q2", "recall@5", 0.5, {"labels": "bbbbbbbbbb", "unjudged": 2}]
  ]
}
`;

describe('baseline schema 4', () => {
  it('a run without audits is written as version 3, as before', () => {
    expect(formatBaseline(baselineFromRun(run(sample('q1', 1), sample('q2', 0.5))))).toBe(V3);
  });

  it('a run with audits is written as version 4, one object at the end of each audited row', () => {
    const text = formatBaseline(
      baselineFromRun(
        run(
          sample('q1', 1, { labels: 'aaaaaaaaaa' }),
          sample('q2', 0.5, { labels: 'bbbbbbbbbb', unjudgedIds: ['doc-81', 'doc-90'], unjudgedCount: 2 }),
        ),
      ),
    );
    expect(text).toBe(V4);
    expect(formatBaseline(parseBaseline(text, 'rag-baseline.json'))).toBe(V4);
  });

  it('keeps the count of unjudged hits, not their ids, and the project before the audit', () => {
    const text = formatBaseline(
      baselineFromRun(
        run(
          sample('q1', 0, {
            project: 'api',
            labels: 'cccccccccc',
            unjudgedIds: ['a', 'b', 'c', 'd', 'e'],
            unjudgedCount: 7,
          }),
        ),
      ),
    );
    expect(text).toContain(
      `,["test/orders.test.ts", ["refunds"], "q1", "recall@5", 0, "api", {"labels": "cccccccccc", "unjudged": 7}]`,
    );
    const read = parseBaseline(text, 'rag-baseline.json');
    expect(Object.values(read.audits!)[0]!['recall@5']!.q1).toEqual({ labels: 'cccccccccc', unjudged: 7 });
    expect(formatBaseline(read)).toBe(text);
  });

  it('refuses a malformed audit, naming the row', () => {
    const bad = V4.replace('{"labels": "aaaaaaaaaa"}', '{"labels": 3}');
    expect(() => parseBaseline(bad, 'rag-baseline.json')).toThrow(BaselineError);
    expect(() => parseBaseline(bad, 'rag-baseline.json')).toThrow(/rows\[1\].*"labels" a non-empty string/);
    // A version-3 file has no audit column.
    const v3WithAudit = V3.replace('"q1", "recall@5", 1]', '"q1", "recall@5", 1, {"labels": "aaaaaaaaaa"}]');
    expect(() => parseBaseline(v3WithAudit, 'rag-baseline.json')).toThrow(/its project must be/);
  });

  it('an update of a version-3 file within tolerance keeps its values and gains the fingerprints', () => {
    const previous = parseBaseline(V3, 'rag-baseline.json');
    const current = baselineFromRun(
      run(sample('q1', 1, { labels: 'aaaaaaaaaa' }), sample('q2', 0.51, { labels: 'bbbbbbbbbb' })),
    );
    const merged = mergeBaseline(previous, current, { run: run() });
    expect(formatBaseline(merged.file)).toBe(V4.replace(', "unjudged": 2', ''));
    // Both rows of the file changed (they gained a fingerprint), so the update counts both.
    expect(merged.counts.updatedSamples).toBe(2);
  });

  it('a relabelled question takes its new value and fingerprint even when the row moved within tolerance', () => {
    const previous = parseBaseline(V4, 'rag-baseline.json');
    const current = baselineFromRun(
      run(sample('q1', 1, { labels: 'aaaaaaaaaa' }), sample('q2', 0.51, { labels: 'dddddddddd' })),
    );
    const merged = mergeBaseline(previous, current, { run: run() });
    expect(merged.file.suites[Object.keys(merged.file.suites)[0]!]!['recall@5']).toEqual({ q1: 1, q2: 0.51 });
    expect(formatBaseline(merged.file)).toContain('"q2", "recall@5", 0.51, {"labels": "dddddddddd"}]');
    expect(merged.counts.relabelledSamples).toBe(1);
    expect(merged.counts.updatedSamples).toBe(0);
  });

  it('a kept value keeps the unjudged count it was measured with', () => {
    const previous = parseBaseline(V4, 'rag-baseline.json');
    const current = baselineFromRun(
      run(
        sample('q1', 1, { labels: 'aaaaaaaaaa' }),
        sample('q2', 0.5, { labels: 'bbbbbbbbbb', unjudgedIds: ['doc-7'], unjudgedCount: 1 }),
      ),
    );
    expect(formatBaseline(mergeBaseline(previous, current, { run: run() }).file)).toBe(V4);
  });
});

describe('positive-only labels', () => {
  it('write no unjudged count: it tells nothing when every label is relevant', () => {
    const written = formatBaseline(
      baselineFromRun(
        run(
          sample('q1', 1, { labels: '3f9a0c21', unjudgedIds: ['doc-7'], unjudgedCount: 1, positiveOnly: true }),
          sample('q2', 0.5, { labels: '0badf00d', unjudgedIds: ['doc-8'], unjudgedCount: 1 }),
        ),
      ),
    );
    expect(written).toContain('"q1", "recall@5", 1, {"labels": "3f9a0c21"}]');
    expect(written).toContain('"q2", "recall@5", 0.5, {"labels": "0badf00d", "unjudged": 1}]');
  });
});
