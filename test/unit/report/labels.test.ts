// A relabelled question is `labels-changed`, not a regression; a regression whose top k gained unjudged
// hits since the baseline names them. The verdict does not change for the latter.
import { describe, expect, it } from 'vitest';

import { parseBaseline } from '../../../src/baseline/file/read.js';
import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';
import { describeFinding, findingCommand, reportCommands } from '../../../src/report/wording.js';
import { renderConsole } from '../../../src/report/console.js';
import { summarize } from '../../../src/report/summary.js';

const FILE = 'test/orders.test.ts';
const LABELS = 'aaaaaaaaaa';

function sample(queryId: string, value: number, extra: Partial<CollectedSample> = {}): CollectedSample {
  return {
    file: FILE,
    describePath: ['refunds'],
    test: `answers ${queryId}`,
    queryId,
    measure: 'recall@5',
    value,
    labels: LABELS,
    ...extra,
  };
}

function run(...samples: CollectedSample[]): CollectedRun {
  return { runner: 'vitest', samples, files: [FILE] };
}

// Six questions at 1, q6 with doc-3 unjudged already.
const BASELINE = parseBaseline(
  `{
  "generatedBy": "rag-matchers",
  "schemaVersion": 4,
  "rows": [
    ["file", "describe", "question", "measure", "value", "project", "judgments"]
${['q1', 'q2', 'q3', 'q4', 'q5'].map((q) => `    ,["${FILE}", ["refunds"], "${q}", "recall@5", 1, {"labels": "${LABELS}"}]`).join('\n')}
    ,["${FILE}", ["refunds"], "q6", "recall@5", 1, {"labels": "${LABELS}", "unjudged": 1}]
  ]
}
`,
  'rag-baseline.json',
);

const SAME = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'].map((q) => sample(q, 1));
const commands = reportCommands('RAG_BASELINE=update npx vitest run');

describe('labels-changed', () => {
  const relabelled = run(...SAME.slice(0, 5), sample('q6', 0.5, { labels: 'bbbbbbbbbb' }));

  it('is its own finding, one per suite naming its measures and questions, and no regression', () => {
    const summary = summarize(relabelled, BASELINE);
    expect(summary.regressions).toBe(0);
    expect(summary.rows[0]!.status).toBe('unchanged');
    expect(summary.rows[0]!.worse).toEqual([]);
    // Left out of the paired test: the five others, unchanged.
    expect(summary.rows[0]!.comparison).toMatchObject({ wins: 0, losses: 0, ties: 5 });
    expect(summary.findings).toEqual([
      {
        kind: 'labels-changed',
        suite: `${FILE} > refunds`,
        suiteKey: JSON.stringify([FILE, ['refunds']]),
        measures: ['recall@5'],
        questions: ['q6'],
        accept: 'suite',
        fails: false,
      },
    ]);
    expect(summary.passed).toBe(true);
  });

  it('fails strict CI with the command that re-records that suite', () => {
    const summary = summarize(relabelled, BASELINE, { strict: true });
    expect(summary.passed).toBe(false);
    const finding = summary.findings[0]!;
    expect(findingCommand(finding, commands)).toBe(
      "RAG_BASELINE=update npx vitest run test/orders.test.ts -t 'refunds '",
    );
    expect(describeFinding(finding, String)).toBe(
      "labels changed: 1 question of suite test/orders.test.ts > refunds (recall@5) measured against other judgments than the baseline's: q6, so not compared: neither a regression nor an improvement",
    );
    expect(renderConsole(summary, { color: false })).toContain(
      "re-record the suite with RAG_BASELINE=update npx vitest run test/orders.test.ts -t 'refunds ' and commit",
    );
  });

  it('a baseline without fingerprints compares as before', () => {
    const old = parseBaseline(
      `{"generatedBy": "rag-matchers", "schemaVersion": 3, "rows": [["file", "describe", "question", "measure", "value", "project"], ["${FILE}", ["refunds"], "q6", "recall@5", 1]]}`,
      'rag-baseline.json',
    );
    const summary = summarize(run(sample('q6', 1, { labels: 'bbbbbbbbbb' })), old, { strict: true });
    expect(summary.findings).toEqual([]);
  });
});

describe('unjudged hits behind a regression', () => {
  const worse = run(
    ...SAME.slice(0, 2),
    ...['q3', 'q4', 'q5'].map((q) => sample(q, 0.5, { unjudgedIds: ['doc-81', 'doc-90'], unjudgedCount: 2 })),
    // As many unjudged hits in its top 5 as in the baseline: no note.
    sample('q6', 0.5, { unjudgedIds: ['doc-3'], unjudgedCount: 1 }),
  );

  it('names the unjudged hits when more of the top k is unjudged than in the baseline; the verdict stays a regression', () => {
    const summary = summarize(worse, BASELINE, { tolerance: 0 });
    expect(summary.regressions).toBe(1);
    expect(summary.passed).toBe(false);
    const finding = summary.findings.find((candidate) => candidate.kind === 'regression')!;
    expect(finding.unjudged?.map((drop) => drop.question)).toEqual(['q3', 'q4', 'q5']);
    expect(finding.unjudged![0]).toEqual({
      question: 'q3',
      before: 1,
      after: 0.5,
      count: 2,
      ids: ['doc-81', 'doc-90'],
      baselineCount: 0,
      k: 5,
    });
    expect(describeFinding(finding, String)).toContain(
      '; q3 recall@5 1.000 → 0.500; 2 of its top 5 are unjudged: doc-81, doc-90 — label them before trusting this drop',
    );
    expect(describeFinding(finding, String)).not.toContain('q6 recall@5');
    const text = renderConsole(summary, { color: false });
    expect(text).toMatch(
      /q3 +1\.000 → 0\.500; 2 of its top 5 are unjudged: doc-81, doc-90 — label them before trusting this drop/,
    );
  });

  it('with positive-only labels names what now ranks in the top k, neutrally', () => {
    const positiveOnly = run(
      ...SAME.slice(0, 2),
      ...['q3', 'q4', 'q5'].map((q) =>
        sample(q, 0.5, { unjudgedIds: ['doc-81', 'doc-90'], unjudgedCount: 2, positiveOnly: true }),
      ),
      sample('q6', 0.5, { unjudgedIds: ['doc-3'], unjudgedCount: 1, positiveOnly: true }),
    );
    const summary = summarize(positiveOnly, BASELINE, { tolerance: 0 });
    const finding = summary.findings.find((candidate) => candidate.kind === 'regression')!;
    const text = describeFinding(finding, String);
    expect(text).toContain('; q3 recall@5 1.000 → 0.500; now in its top 5: doc-81, doc-90');
    expect(text).not.toMatch(/unjudged|label them/);
    expect(renderConsole(summary, { color: false })).not.toMatch(/unjudged|label them/);
  });
});
