import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { renderConsole, shouldUseColor } from '../../../src/report/console.js';
import { formatJsonReport, renderJson, REPORT_SCHEMA_VERSION } from '../../../src/report/json.js';
import { writeReports } from '../../../src/report/write.js';
import { renderHtml } from '../../../src/report/html/run-report.js';
import { escapeText, renderMarkdown } from '../../../src/report/markdown.js';
import { summarize } from '../../../src/report/summary.js';
import { BASELINE, regressedRun, RUN } from './fixture.js';
import { escapeConsole } from '../../../src/core/escape.js';
import { suiteKeyOf, type CollectedRun, type CollectedSample } from '../../../src/recording/collected.js';
import { emptyBaseline } from '../../../src/baseline/file/types.js';
import { baselineFile } from '../baseline/keyed.js';

const SUMMARY = summarize(RUN, BASELINE, { baselinePath: 'rag-baseline.json' });

// Hand-checked: recall@5 mean 3.75/7 = 0.536 against 1.000; 6 losses, 1 tie → sign test 2/64 = 0.031, Holm
// with hit@5 (2 wins, p = 0.5) 2 · 0.031 = 0.063; hit@5 6/7 → Wilson [0.487, 0.974]; mrr compared on eu and
// us only (uk is new, gone is missing) → Δ 0 marked *.
const CONSOLE = `RAG retrieval quality · vitest · 3 suites · 4 rows · 18 samples · compared with rag-baseline.json

suite                                   measure   n   mean  95% CI          baseline       Δ  status
test/orders.test.ts > refunds           hit@5     7  0.857  [0.487, 0.974]     0.571  +0.286  ▲ improved
                                        recall@5  7  0.536  [0.321, 0.750]     1.000  -0.464  ▼ regressed
test/orders.test.ts > returns | policy  ndcg@10   1  0.800  [0.800, 0.800]         —       —    new
test/orders.test.ts > shipping          mrr       3  0.583  [0.250, 1.000]     0.667  0.000*    unchanged
* Δ and the test use only the questions that both this run and the baseline have.

▼ test/orders.test.ts > refunds · recall@5 fell from 1.000 to 0.536 on 7 questions (0.454 beyond the tolerance of 0.010); 6 questions got worse:
    q2                         1.000 → 0.000
    q1: refunds after 30 days  1.000 → 0.500
    q3                         1.000 → 0.500
    … and 3 more

What an update of the baseline would change:
  · improvement not recorded: hit@5 0.571 → 0.857 in suite test/orders.test.ts > refunds (better: q3, q4) — run RAG_BASELINE=update npx vitest run and commit

Not in the baseline yet, or no longer produced:
  · 1 question of suite test/orders.test.ts > refunds (precision@5) in the baseline did not run although the test file ran: q1 — run RAG_BASELINE=prune npx vitest run and commit
  · suite not in the baseline: test/orders.test.ts > returns | policy (1 question: r1) — run RAG_BASELINE=update npx vitest run and commit
  · 1 question of suite test/orders.test.ts > shipping (mrr) not in the baseline: uk — run RAG_BASELINE=update npx vitest run and commit
  · 1 question of suite test/orders.test.ts > shipping (mrr) in the baseline did not run although the test file ran: gone — run RAG_BASELINE=prune npx vitest run and commit

Not judged by this run:
  · 1 baseline question not judged: their test file did not run — test/other.test.ts › x — run the whole suite, npx vitest run, or set RAG_PARTIAL=1 on a job that runs a deliberate subset

These do not fail this run; in CI (strict) they do.

Retrieval quality regressed in 1 suite × measure row. 1 baseline question not judged (1 in a file not run). If this change is intended, accept it with: RAG_BASELINE=update npx vitest run`;

const MARKDOWN = `### RAG retrieval quality

❌ **Retrieval quality regressed in 1 suite × measure row** · 1 improved · 1 unchanged · 1 new; 1 baseline question not judged (1 in a file not run) — 18 samples in 3 suites (vitest), baseline \`rag-baseline.json\`

If this change is intended, accept it with: \`RAG_BASELINE=update npx vitest run\`

**Regressions:**

- ❌ regression: recall@5 1.000 → 0.536 in suite test/orders.test.ts > refunds (worse: q2, q1: refunds after 30 days, q3, q4, q6, … and 1 more) — run \`RAG_BASELINE=update npx vitest run\` and commit

**What an update of the baseline would change:**

- · improvement not recorded: hit@5 0.571 → 0.857 in suite test/orders.test.ts > refunds (better: q3, q4) — run \`RAG_BASELINE=update npx vitest run\` and commit

**Not in the baseline yet, or no longer produced:**

- · 1 question of suite test/orders.test.ts > refunds (precision@5) in the baseline did not run although the test file ran: q1 — run \`RAG_BASELINE=prune npx vitest run\` and commit
- · suite not in the baseline: test/orders.test.ts > returns \\| policy (1 question: r1) — run \`RAG_BASELINE=update npx vitest run\` and commit
- · 1 question of suite test/orders.test.ts > shipping (mrr) not in the baseline: uk — run \`RAG_BASELINE=update npx vitest run\` and commit
- · 1 question of suite test/orders.test.ts > shipping (mrr) in the baseline did not run although the test file ran: gone — run \`RAG_BASELINE=prune npx vitest run\` and commit

**Not judged by this run:**

- · 1 baseline question not judged: their test file did not run — test/other.test.ts › x — run the whole suite, \`npx vitest run\`, or set \`RAG_PARTIAL=1\` on a job that runs a deliberate subset

These do not fail this run; in CI (strict) they do.

|  | suite | measure | n | mean (95% CI) | baseline | Δ |
|:-:|---|---|--:|---|--:|--:|
| ▼ | test/orders.test.ts > refunds | recall@5 | 7 | 0.536 (0.321–0.750) | 1.000 | −0.464 |
| ▲ | test/orders.test.ts > refunds | hit@5 | 7 | 0.857 (0.487–0.974) | 0.571 | +0.286 |
| new | test/orders.test.ts > returns \\| policy | ndcg@10 | 1 | 0.800 (0.800–0.800) | — | — |

<details><summary>1 unchanged row</summary>

| suite | measure | n | mean (95% CI) | baseline | Δ |
|---|---|--:|---|--:|--:|
| test/orders.test.ts > shipping | mrr | 3 | 0.583 (0.250–1.000) | 0.667 | 0.000* |

</details>

<sub>* Δ and the test use only the questions both this run and the baseline have.</sub>

<details><summary>Questions that got worse (6)</summary>

**test/orders.test.ts > refunds** · recall@5 fell from 1.000 to 0.536 on 7 questions (0.454 beyond the tolerance of 0.010)

- q2: 1.000 → 0.000
- q1: refunds after 30 days: 1.000 → 0.500
- q3: 1.000 → 0.500
- q4: 1.000 → 0.500
- q6: 1.000 → 0.500
- q5 (partial refund): 1.000 → 0.750

</details>

<details><summary>Sensitivity: the smallest change that fails each row</summary>

| suite | measure | n | fails when |
|---|---|--:|---|
| test/orders.test.ts > refunds | hit@5 | 7 | 1 question worse (mean −0.143) |
| test/orders.test.ts > refunds | recall@5 | 7 | 1 question worse (mean −0.143) |
| test/orders.test.ts > returns \\| policy | ndcg@10 | 1 | 1 question worse (mean −0.800) |
| test/orders.test.ts > shipping | mrr | 3 | 1 question worse (mean −0.333) |

</details>
`;

describe('renderConsole', () => {
  it('without colour: the table, the questions that got worse capped with a count, notes, and the accept line last', () => {
    expect(renderConsole(SUMMARY, { color: false, maxWorse: 3 })).toBe(CONSOLE);
  });

  it('the last line names the command it is given (the Jest reporter passes its own)', () => {
    const text = renderConsole(SUMMARY, { color: false, acceptCommand: 'RAG_BASELINE=update npx jest' });
    expect(text.split('\n').at(-1)).toBe(
      'Retrieval quality regressed in 1 suite × measure row. 1 baseline question not judged (1 in a file not run). If this change is intended, accept it with: RAG_BASELINE=update npx jest',
    );
    expect(
      renderConsole({ ...SUMMARY, runner: 'jest' }, { color: false })
        .split('\n')
        .at(-1),
    ).toMatch(/accept it with: RAG_BASELINE=update npx jest$/);
  });

  it('while the baseline is updated, says the changes are recorded, not that failOnRegression is false', () => {
    const updating = renderConsole(summarize(RUN, BASELINE, { failOnRegression: false, updatingBaseline: true }), {
      color: false,
    });
    expect(updating).toContain('The baseline is being updated: these changes are recorded, not judged.');
    expect(updating).not.toContain('failOnRegression is false');
    const reportOnly = renderConsole(summarize(RUN, BASELINE, { failOnRegression: false }), { color: false });
    expect(reportOnly).toContain('failOnRegression is false: the regressions are reported but do not fail the run.');
  });

  it('with colour: the same text once the ANSI codes are removed, and the regressed status in red', () => {
    const coloured = renderConsole(SUMMARY, { color: true, maxWorse: 3 });
    expect(coloured).not.toBe(CONSOLE);
    expect(coloured).toContain('\u001b[31m▼ regressed\u001b[39m');
    const ansi = new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g');
    expect(coloured.replace(ansi, '')).toBe(CONSOLE);
  });

  it('with significance: a p (Holm) column, and a drop that is not significant is unchanged', () => {
    const text = renderConsole(summarize(RUN, BASELINE, { significance: 0.05 }), { color: false });
    expect(text).toContain('  p (Holm)  status');
    expect(text).toMatch(/recall@5 +7 +0\.536 +\[0\.321, 0\.750\] +1\.000 +-0\.464 +0\.063 +unchanged/);
    expect(text.split('\n').at(-1)).toBe(
      'No retrieval regressions among the 9 judged baseline questions (0 improved, 3 unchanged, 1 new); 1 not judged (1 in a file not run).',
    );
  });

  it('no baseline yet: every row new and a note on how to record one', () => {
    const text = renderConsole(summarize(RUN, undefined, { baselinePath: 'rag-baseline.json' }), { color: false });
    expect(text).toContain('No baseline yet (rag-baseline.json): record one with RAG_BASELINE=update npx vitest run');
    expect(text).not.toContain('regressed in');
  });

  it('failOnNew: the last line says how to record the new questions', () => {
    const text = renderConsole(summarize(RUN, BASELINE, { failOnNew: true, significance: 0.05 }), { color: false });
    expect(text).toContain(
      '  ✗ suite not in the baseline: test/orders.test.ts > returns | policy (1 question: r1) — run RAG_BASELINE=update npx vitest run and commit',
    );
    expect(text).toContain('  ✗ 1 question of suite test/orders.test.ts > shipping (mrr) not in the baseline: uk');
    expect(text.split('\n').at(-1)).toBe(
      '2 questions not in the baseline (failOnNew). 1 baseline question not judged (1 in a file not run). Record them with: RAG_BASELINE=update npx vitest run',
    );
  });

  it('an empty run says so', () => {
    expect(renderConsole(summarize({ runner: 'jest', samples: [] }, undefined), { color: false })).toBe(
      'RAG retrieval quality · jest · 0 suites · 0 rows · 0 samples\nNo retrieval measures were recorded in this run.',
    );
  });

  it('rejects a bad maxWorse', () => {
    expect(() => renderConsole(SUMMARY, { color: false, maxWorse: -1 })).toThrow(
      'maxWorse must be a whole number ≥ 0, got -1.',
    );
  });
});

describe('shouldUseColor', () => {
  it('colours a TTY only, honouring NO_COLOR, FORCE_COLOR and TERM=dumb', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor(undefined, {})).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldUseColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
  });
});

describe('renderMarkdown', () => {
  it('a compact PR-comment table: changed rows with ▲▼, unchanged rows and worse questions folded in <details>', () => {
    expect(renderMarkdown(SUMMARY)).toBe(MARKDOWN);
  });

  it('all unchanged: a plain table and a ✅ headline, no accept line', () => {
    const summary = summarize(RUN, summaryAsBaseline(), { baselinePath: 'rag-baseline.json' });
    const text = renderMarkdown(summary);
    expect(text.split('\n')[2]).toBe(
      '✅ **No retrieval regressions** · 0 improved · 4 unchanged — 18 samples in 3 suites (vitest), baseline `rag-baseline.json`',
    );
    // Only the sensitivity is folded: no table of unchanged rows under a fold.
    expect(text).not.toContain('unchanged rows</summary>');
    expect(text).toContain('<details><summary>Sensitivity');
    expect(text).not.toContain('accept it');
  });

  it('caps long tables with a count of the rows left out, after a blank line', () => {
    const lines = renderMarkdown(SUMMARY, { maxRows: 1 }).split('\n');
    const index = lines.indexOf('… and 2 more rows (see the JSON report).');
    expect(index).toBeGreaterThan(0);
    expect(lines[index - 1]).toBe('');
  });

  it('escapes what Markdown or HTML would otherwise interpret', () => {
    expect(escapeText('a|b *c* _d_ `e` <script> [x](y) &amp; 5 > 3')).toBe(
      'a\\|b \\*c\\* \\_d\\_ \\`e\\` &lt;script> \\[x\\](y) &amp;amp; 5 > 3',
    );
    expect(escapeText('line\nbreak')).toBe('line\\\\nbreak');
  });

  it('a CR or LF in a name never starts a line: no fake headings in the Markdown or the step summary', () => {
    const hostile = 'q1\r### ✅ No regressions\r\n# fake\u2028## also';
    const run = {
      runner: 'vitest' as const,
      samples: [
        {
          file: 'test/a.test.ts',
          describePath: [`refunds\r## injected`],
          test: hostile,
          queryId: hostile,
          measure: 'recall@5',
          value: 1,
          pass: true,
        },
      ],
    };
    const text = renderMarkdown(summarize(run, undefined, { strict: true }));
    const headings = text.split(/\r\n|\r|\n|\u2028/).filter((line) => /^\s*#/.test(line));
    expect(headings).toEqual(['### RAG retrieval quality']);
    expect(text).toContain('refunds\\\\r## injected');
    expect(text).not.toMatch(/\r|\u2028/);
  });

  it('@mentions are neutralised in Markdown; recall@5 and e-mail-like ids are left alone', () => {
    expect(escapeText('ping @octocat and @org/team')).toBe('ping @\u200boctocat and @\u200borg/team');
    expect(escapeText('@octocat first')).toBe('@\u200boctocat first');
    expect(escapeText('recall@5 a@b.c')).toBe('recall@5 a@b.c');
  });
});

describe('console escaping', () => {
  it('terminal escapes and line breaks from names are shown, not obeyed: no fake verdict line', () => {
    const fake = '\u001b[2K\r\u001b[32mNo retrieval regressions (5 improved).\u001b[0m\nq';
    const run = {
      runner: 'vitest' as const,
      samples: [
        {
          file: 'test/a.test.ts',
          describePath: [fake],
          test: fake,
          queryId: fake,
          measure: 'recall@5',
          value: 0,
          pass: false,
        },
      ],
    };
    const baseline = baselineFile({});
    baseline.suites[suiteKeyOf({ file: 'test/a.test.ts', describe: [fake] })] = { 'recall@5': { [fake]: 1 } };
    const text = renderConsole(summarize(run, baseline), { color: false });
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\r');
    expect(text.split('\n').filter((line) => line.startsWith('No retrieval regressions'))).toEqual([]);
    expect(text).toContain('\\x1b[32mNo retrieval regressions (5 improved).\\x1b[0m\\nq');
    expect(escapeConsole('a\u202eb\u0007c\td')).toBe('a\\u202eb\\x07c\\td');
  });
});

describe('look-alike names, links and long names', () => {
  it('shows invisible characters and trailing spaces in console and Markdown, so look-alike ids differ', () => {
    // Before, each of these printed exactly like "q1" (U+200B zero-width space, U+2060 word joiner,
    // U+FEFF, U+00AD soft hyphen, a trailing space).
    const ids = ['q\u200b1', 'q\u20601', '\ufeffq1', 'q\u00ad1', 'q1 '];
    const summary = regressedRun('s', ids);
    const text = renderConsole(summary, { color: false, maxWorse: 10 });
    for (const shown of ['q\\u200b1', 'q\\u20601', '\\ufeffq1', 'q\\xad1', 'q1\\x20']) expect(text).toContain(shown);
    expect(text).not.toMatch(/[\u200b\u2060\ufeff\u00ad]/);
    const markdown = renderMarkdown(summary);
    for (const shown of ['q\\\\u200b1', 'q\\\\u20601', 'q\\\\xad1', 'q1\\\\x20']) expect(markdown).toContain(shown);
  });

  it('warns when this run and the baseline name a question with ids that differ only in a trailing space or normalisation', () => {
    // Before: "q1" missing and "q1 " new, printed alike, with no word of why.
    const sample = (queryId: string) => ({
      file: 'test/a.test.ts',
      describePath: ['s'],
      test: 't',
      queryId,
      measure: 'recall@5',
      value: 1,
      pass: true,
    });
    const run = { runner: 'vitest' as const, samples: [sample('q1 '), sample('cafe\u0301')] };
    const baseline = baselineFile({});
    baseline.suites[suiteKeyOf({ file: 'test/a.test.ts', describe: ['s'] })] = {
      'recall@5': { q1: 1, 'caf\u00e9': 1 },
    };
    const summary = summarize(run, baseline);
    expect(summary.warnings).toEqual([
      'test/a.test.ts > s · recall@5: question ids "cafe\u0301" and "caf\u00e9" differ only in invisible characters, trailing spaces or Unicode normalisation (U+0063 U+0061 U+0066 U+0065 U+0301 vs U+0063 U+0061 U+0066 U+00E9); they are two different questions.',
      'test/a.test.ts > s · recall@5: question ids "q1\\x20" and "q1" differ only in invisible characters, trailing spaces or Unicode normalisation (U+0071 U+0031 U+0020 vs U+0071 U+0031); they are two different questions.',
    ]);
    expect(renderConsole(summary, { color: false })).toContain(
      'Warning: test/a.test.ts > s · recall@5: question ids "q1\\x20"',
    );
    expect(renderMarkdown(summary)).toContain('question ids "q1\\\\x20" and "q1" differ only');
  });

  it('does not let Markdown turn a URL in a name into a link', () => {
    expect(escapeText('see https://evil.example/x and www.evil.example')).toBe(
      'see https:\u200b//evil.example/x and www\u200b.evil.example',
    );
  });

  it('caps suite names at 80 columns in the console table (the JSON report keeps them whole)', () => {
    // Before, one 100 kB suite name padded every row of the table to 100,000 columns.
    const longName = 'x'.repeat(100_000);
    const summary = regressedRun(longName, ['q1']);
    const text = renderConsole(summary, { color: false });
    const widest = Math.max(...text.split('\n').map((line) => line.length));
    expect(widest).toBeLessThan(400);
    // "test/a.test.ts > " (17 columns), 62 characters of the name and an ellipsis: 80 columns.
    expect(text).toContain(`test/a.test.ts > ${'x'.repeat(62)}…  recall@5`);
    expect(text).not.toContain('x'.repeat(80));
    expect(renderJson(summary).rows[0]!.suite).toContain(longName);
  });
});

function summaryAsBaseline(): typeof BASELINE {
  const suites: typeof BASELINE.suites = {};
  for (const row of SUMMARY.rows) {
    const samples: Record<string, number> = {};
    row.sampleIds.forEach((id, index) => (samples[id] = row.values[index]!));
    (suites[row.suiteKey] ??= {})[row.measure] = samples;
  }
  return { schemaVersion: 2, generatedBy: 'rag-matchers', suites };
}

describe('renderJson', () => {
  it('holds the settings, counts, every row with its comparison and every sample with its baseline value; absent values are null', () => {
    const report = renderJson(SUMMARY, { files: ['test/orders.test.ts'] });
    expect(report).toMatchObject({
      schemaVersion: REPORT_SCHEMA_VERSION,
      generatedBy: 'rag-matchers',
      kind: 'retrieval-report',
      runner: 'vitest',
      passed: false,
      counts: {
        samples: 18,
        suites: 3,
        rows: 4,
        regressed: 1,
        improved: 1,
        unchanged: 1,
        new: 1,
        newSamples: 2,
        missingRows: 1,
        notRunSuites: 1,
        notRunRows: 1,
      },
      baseline: { path: 'rag-baseline.json', found: true },
      settings: {
        significance: null,
        test: 'sign',
        seed: 42,
        resamples: 10000,
        intervalResamples: 1000,
        holmFamily: 2,
        tolerance: { default: 0.01, byMeasure: {} },
      },
      files: ['test/orders.test.ts'],
    });
    const recall = report.rows.find((row) => row.measure === 'recall@5')!;
    expect(recall.comparison).toMatchObject({
      shared: 7,
      wins: 0,
      losses: 6,
      ties: 1,
      p: 0.03125,
      adjustedP: 0.0625,
      seed: null,
    });
    expect(recall.samples[0]).toEqual({
      id: 'q1: refunds after 30 days',
      test: 'answers q1: refunds after 30 days',
      value: 0.5,
      before: 1,
      pass: true,
      threshold: null,
      negated: false,
    });
    const ndcg = report.rows.find((row) => row.measure === 'ndcg@10')!;
    expect(ndcg).toMatchObject({ status: 'new', baseline: null, delta: null, comparison: null });
    expect(ndcg.samples).toEqual([
      { id: 'r1', test: 'answers r1', value: 0.8, before: null, pass: true, threshold: null, negated: false },
    ]);
    expect(report.missing).toEqual([
      {
        suite: 'test/orders.test.ts > refunds',
        suiteKey: '["test/orders.test.ts",["refunds"]]',
        measure: 'precision@5',
        count: 1,
        mean: 0.2,
        questions: ['q1'],
      },
    ]);
    // The other file's question was not judged (its file did not run): counted, and a finding with the command that judges it.
    expect(report.counts.notJudged).toBe(1);
    expect(report.coverage.notJudged).toEqual([
      { reason: 'not-run', questions: 1, suites: ['test/other.test.ts'], examples: ['test/other.test.ts › x'] },
    ]);
    expect(report.findings.find((finding) => finding.kind === 'not-judged')).toMatchObject({
      reason: 'not-run',
      count: 1,
      accept: 'run',
      command: 'npx vitest run',
      fails: false,
    });
    expect(
      report.findings.find(
        (finding) => finding.kind === 'missing-questions' && finding.measures?.includes('precision@5') === true,
      ),
    ).toMatchObject({
      measures: ['precision@5'],
      questions: ['q1'],
      accept: 'prune',
      command: 'RAG_BASELINE=prune npx vitest run',
      fails: false,
    });
    expect(JSON.parse(formatJsonReport(report))).toEqual(report);
  });

  it('formats one sample per line and ends with a newline', () => {
    const text = formatJsonReport(renderJson(SUMMARY));
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain(
      '\n        {"id":"q2","test":"answers q2","value":0,"before":1,"pass":false,"threshold":null,"negated":false},\n',
    );
  });

  it('puts leaves on one line, empty ones as {} and [], and drops undefined fields', () => {
    const shape = { a: { x: 1, gone: undefined }, b: [], c: { gone: undefined }, d: [[1, 2], { y: null }] };
    expect(formatJsonReport(shape as unknown as Parameters<typeof formatJsonReport>[0])).toBe(
      '{\n  "a": {"x":1},\n  "b": [],\n  "c": {},\n  "d": [\n    [1,2],\n    {"y":null}\n  ]\n}\n',
    );
  });
});

describe('writeReports', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-reports-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('writes the JSON, Markdown and HTML reports (creating directories) and appends the Markdown to $GITHUB_STEP_SUMMARY', async () => {
    const stepSummary = path.join(directory, 'step-summary.md');
    await writeFile(stepSummary, 'earlier step output\n');
    const written = await writeReports(SUMMARY, RUN, {
      json: 'reports/rag-report.json',
      markdown: 'reports/rag-report.md',
      html: 'reports/html/rag-report.html',
      rootDir: directory,
      env: { GITHUB_STEP_SUMMARY: stepSummary },
    });
    expect(written).toEqual({
      json: path.join(directory, 'reports/rag-report.json'),
      markdown: path.join(directory, 'reports/rag-report.md'),
      html: path.join(directory, 'reports/html/rag-report.html'),
      githubStepSummary: stepSummary,
    });
    expect(JSON.parse(await readFile(written.json!, 'utf8'))).toEqual(renderJson(SUMMARY, RUN));
    expect(await readFile(written.markdown!, 'utf8')).toBe(MARKDOWN);
    expect(await readFile(written.html!, 'utf8')).toBe(renderHtml(renderJson(SUMMARY, RUN)));
    expect(await readFile(stepSummary, 'utf8')).toBe(`earlier step output\n${MARKDOWN}\n`);
    expect((await readdir(path.join(directory, 'reports'))).sort()).toEqual([
      'html',
      'rag-report.json',
      'rag-report.md',
    ]);
  });

  it('writes nothing without options or GITHUB_STEP_SUMMARY, and skips the step summary when told', async () => {
    expect(await writeReports(SUMMARY, RUN, { rootDir: directory, env: {} })).toEqual({});
    const stepSummary = path.join(directory, 'step-summary.md');
    expect(
      await writeReports(SUMMARY, RUN, {
        rootDir: directory,
        env: { GITHUB_STEP_SUMMARY: stepSummary },
        githubStepSummary: false,
      }),
    ).toEqual({});
    expect(await readdir(directory)).toEqual([]);
  });

  it('rejects an empty path, naming the option, before writing anything', async () => {
    await expect(writeReports(SUMMARY, RUN, { json: '  ', rootDir: directory, env: {} })).rejects.toThrow(
      /json must be a file path such as "rag-report.json"/,
    );
    await expect(
      writeReports(SUMMARY, RUN, { json: 'rag-report.json', html: '', rootDir: directory, env: {} }),
    ).rejects.toThrow('html must be a file path such as "rag-report.html" (or false for none), got "".');
    expect(await readdir(directory)).toEqual([]);
  });
});

describe('renderMarkdown size bound', () => {
  it('fits a pull-request comment (65,536 characters) with 50,000 questions in 400 regressed suites, verdict and accept line first', () => {
    const samples: CollectedSample[] = [];
    const suites: Record<string, Record<string, number>> = {};
    for (let suite = 0; suite < 400; suite++) {
      for (let question = 0; question < 125; question++) {
        const id = `suite ${suite} question ${question} with a long-ish identifier to make rows wide`;
        samples.push({
          file: `test/suite-${suite}.test.ts`,
          describePath: [],
          test: id,
          queryId: id,
          measure: 'recall@5',
          value: 0,
          pass: true,
        });
        (suites[`test/suite-${suite}.test.ts`] ??= {})[id] = 1;
      }
    }
    const baseline = emptyBaseline();
    for (const [file, values] of Object.entries(suites))
      baseline.suites[JSON.stringify([file, []])] = { 'recall@5': values };
    const summary = summarize({ runner: 'vitest', samples }, baseline, { strict: true });
    expect(summary.regressions).toBe(400);
    const markdown = renderMarkdown(summary);
    expect(markdown.length).toBeLessThanOrEqual(65_536);
    const lines = markdown.split('\n');
    expect(lines[2]).toMatch(/^❌ \*\*Retrieval quality regressed in 400 suite × measure rows\*\*/);
    expect(lines[4]).toBe('If this change is intended, accept it with: `RAG_BASELINE=update npx vitest run`');
    expect(markdown).toContain('- … and 350 more (see the JSON report)');
    expect(markdown).toContain(
      '<sub>Cut to fit a pull-request comment (65536 characters): the JSON report has every row.</sub>',
    );
    // Without the bound it would be far larger: a smaller limit cuts sooner and still holds.
    expect(renderMarkdown(summary, { maxLength: 10_000 }).length).toBeLessThanOrEqual(10_000);
  });
});

describe('renderConsole, questions not judged', () => {
  it('the last line gives the advice of the reason: a missing shard is merged, not declared partial', () => {
    const run: CollectedRun = {
      runner: 'vitest',
      samples: [{ file: 'test/a.test.ts', describePath: [], test: 'q1', measure: 'mrr', value: 1 }],
      outcomes: {
        files: [{ file: 'test/a.test.ts', incomplete: [] }],
        absent: { reason: 'shard-missing', detail: 'blob-2-2.json not in .vitest-reports' },
      },
    };
    const baseline = baselineFile({ 'test/a.test.ts': { mrr: { q1: 1 } }, 'test/b.test.ts': { mrr: { q2: 1 } } });
    const text = renderConsole(summarize(run, baseline, { strict: true }), { color: false });
    expect(text.split('\n').at(-1)).toBe(
      'Not judged: 1 baseline question (1 in a missing shard); in CI every baseline question must be judged. To judge them: merge the reports of every shard of this run.',
    );
    expect(text).not.toContain('RAG_PARTIAL');
  });
});

describe('renderMarkdown quiet', () => {
  const samples = (value: number): CollectedSample[] =>
    ['q1', 'q2'].map((id) => ({ file: 'test/a.test.ts', describePath: [], test: id, measure: 'mrr', value }));
  const baseline = baselineFile({ 'test/a.test.ts': { mrr: { q1: 1, q2: 1 } } });

  it('is one line, the verdict, when nothing changed; the whole report otherwise', () => {
    const unchanged = summarize({ runner: 'vitest', samples: samples(1) }, baseline, {
      baselinePath: 'rag-baseline.json',
    });
    expect(renderMarkdown(unchanged, { quiet: true })).toBe(
      '✅ **No retrieval regressions** · 0 improved · 1 unchanged — 2 samples in 1 suite (vitest), baseline `rag-baseline.json`\n',
    );
    expect(renderMarkdown(unchanged).split('\n').length).toBeGreaterThan(2);
    const worse = summarize({ runner: 'vitest', samples: samples(0) }, baseline);
    expect(renderMarkdown(worse, { quiet: true })).toContain('If this change is intended, accept it with');
  });
});
