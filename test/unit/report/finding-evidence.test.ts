// An improved question, like a regressed one, shows its text and ranking before → after under its finding
// in the console (the first few, the rest counted) and collapsed in the Markdown.
import { describe, expect, it } from 'vitest';

import { createRecord, type QuestionRanking } from '../../../src/baseline/file/types.js';
import { baselineFile } from '../baseline/keyed.js';
import { suiteKeyOf, type CollectedRun, type CollectedSample } from '../../../src/recording/collected.js';
import { summarize } from '../../../src/report/summary.js';
import { renderConsole } from '../../../src/report/console.js';
import { renderMarkdown } from '../../../src/report/markdown.js';

const SUITE = suiteKeyOf({ file: 'test/a.test.ts', describe: ['refunds'] });
const IDS = ['q1', 'q2', 'q3', 'q4', 'q5'];

function sample(queryId: string): CollectedSample {
  return {
    file: 'test/a.test.ts',
    describePath: ['refunds'],
    test: `how do refunds work, ${queryId}`,
    queryId,
    measure: 'hit@1',
    value: 1,
    // After: the relevant key rose from rank 2 to rank 1.
    topHits: [{ key: `doc-${queryId}`, grade: 1 }, { key: 'faq' }],
  };
}

const RUN: CollectedRun = { runner: 'vitest', samples: IDS.map(sample) };

function baseline() {
  const file = baselineFile({ 'test/a.test.ts > refunds': { 'hit@1': Object.fromEntries(IDS.map((id) => [id, 0])) } });
  const rankings = createRecord<QuestionRanking>();
  for (const id of IDS)
    rankings[id] = { text: `how do refunds work, ${id}`, top: [{ key: 'faq' }, { key: `doc-${id}`, grade: 1 }] };
  file.rankings = { [SUITE]: rankings };
  return file;
}

describe('evidence under an improvement', () => {
  const summary = summarize(RUN, baseline());

  it('the console shows the first three improved questions with their rankings, the rest counted', () => {
    const text = renderConsole(summary, { color: false });
    expect(text).toContain(
      [
        '    q1',
        '      “how do refunds work, q1”',
        '      doc-q1 2 → 1',
        '      before: 1 faq · 2 doc-q1 ✓',
        '      after:  1 doc-q1 ✓ · 2 faq',
      ].join('\n'),
    );
    expect(text).toContain('    q3\n');
    expect(text).not.toContain('    q4\n');
    expect(text).toContain('    … and 2 more');
  });

  it('the Markdown collapses every improved question under the finding', () => {
    const markdown = renderMarkdown(summary);
    expect(markdown).toContain('  - q5\n    <details><summary>“how do refunds work, q5”: doc-q5 2 → 1</summary>');
    expect(markdown).toContain('    after: 1 doc-q5 ✓ · 2 faq');
  });
});
