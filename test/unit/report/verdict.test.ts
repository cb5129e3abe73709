// One verdict: decideVerdict is the only place that decides a finding's section, whether it fails and
// what clears it, the headline and the exit code; every report only reads it. A hand-made verdict with an
// unusual headline and sections is shown exactly as given by the console, Markdown, JSON, HTML and the
// annotations; the failOnNew run gives one headline in all four; a kind added to the table is one entry.
import { describe, expect, it } from 'vitest';

import { workflowAnnotations } from '../../../src/gate/annotations.js';
import { renderConsole } from '../../../src/report/console.js';
import { FINDING_KINDS, type GateFinding } from '../../../src/report/finding-kinds.js';
import { renderHtml } from '../../../src/report/html/run-report.js';
import { renderJson } from '../../../src/report/json.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { summarize, type RunSummary } from '../../../src/report/summary.js';
import { decideVerdict, type Verdict, type VerdictSources } from '../../../src/report/verdict.js';
import { describeRule } from '../../../src/report/wording.js';
import { BASELINE, RUN } from './fixture.js';
import { baselineFile } from '../baseline/keyed.js';
import type { CollectedSample } from '../../../src/recording/collected.js';

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

/** The fixture's summary (a regression, an improvement, new, missing and not-judged findings) with `verdict`. */
function withVerdict(verdict: Verdict): RunSummary {
  const summary = summarize(RUN, BASELINE, { baselinePath: 'rag-baseline.json' });
  return { ...summary, passed: verdict.passed, verdict };
}

describe('every report reads the verdict and decides nothing', () => {
  // Unusual on purpose: a headline no code writes, one section of a name no kind has, holding the
  // fixture's second finding only, with a note; the regression and the new questions are in no section.
  const handMade = (findings: number): Verdict => ({
    mode: 'compare',
    passed: false,
    exitCode: 1,
    tone: 'attention',
    headline: 'Seven zebras crossed the baseline',
    tally: ['3 zebras'],
    remark: null,
    advice: { kind: 'record-new' },
    sections: [{ section: 'repeats', heading: 'Zebras seen', fails: true, findings: [1] }],
    clears: Array.from({ length: findings }, () => 'run' as const),
    notes: ['A hand-made note.'],
  });
  const summary = summarize(RUN, BASELINE, { baselinePath: 'rag-baseline.json' });
  const given = handMade(summary.findings.length);
  const hand = withVerdict(given);
  const second = hand.findings[1]!;

  it('the console: its last line, sections and notes are the verdict’s', () => {
    const text = renderConsole(hand, { color: false });
    expect(text.split('\n').at(-1)).toBe(
      'Seven zebras crossed the baseline. Record them with: RAG_BASELINE=update npx vitest run',
    );
    expect(text).toContain('\nZebras seen:\n');
    expect(text).toContain('\nA hand-made note.\n');
    expect(count(text, /^ {2}[✗·] /gmu)).toBe(1);
    // Neither the regressed row's block nor any heading of its own.
    expect(text).not.toContain('▼ test/orders.test.ts');
    expect(text).not.toMatch(/Regressions|out of date|Not in the baseline yet|Not judged by this run/);
    expect(text).toContain(`  ${second.fails ? '✗' : '·'} `);
  });

  it('the Markdown: the same headline, tally, advice and one section', () => {
    const text = renderMarkdown(hand);
    expect(text.split('\n')[2]).toBe(
      '❌ **Seven zebras crossed the baseline** · 3 zebras — 18 samples in 3 suites (vitest), baseline `rag-baseline.json`',
    );
    expect(text.split('\n')[4]).toBe('Record them with: `RAG_BASELINE=update npx vitest run`');
    expect(text).toContain('\n**Zebras seen:**\n');
    expect(count(text, /^- [❌·] /gmu)).toBe(1);
    expect(text).not.toMatch(/Regressions|out of date|Not in the baseline yet|Not judged by this run/);
    expect(text).not.toContain('Questions that got worse');
  });

  it('the JSON stores it as given, and the HTML draws it from there', () => {
    const json = renderJson(hand);
    expect(json.verdict).toEqual(given);
    expect(json.passed).toBe(false);
    const html = renderHtml(json);
    expect(html).toContain(
      '<span class="verdict failed">Failed</span> <strong>Seven zebras crossed the baseline</strong> · 3 zebras — ',
    );
    expect(html).toContain('<section id="repeats"><h2>Zebras seen</h2>');
    expect(count(html, /<li>[✗·] /gu)).toBe(1);
    expect(html).not.toMatch(/<h2>(Regressions|The baseline is out of date|Not in the baseline yet)/);
  });

  it('the annotations annotate what its sections hold: no section of regressions or new questions, no error', () => {
    expect(workflowAnnotations(summary).some((line) => line.startsWith('::error'))).toBe(true);
    expect(workflowAnnotations(hand)).toEqual([]);
  });
});

describe('failOnNew (not strict): one headline in every report', () => {
  // The fixture has two questions new to the baseline: r1 (a new suite) and uk (shipping, mrr).
  const summary = summarize(RUN, BASELINE, { baselinePath: 'rag-baseline.json', failOnNew: true, significance: 0.05 });
  const headline = '2 questions not in the baseline (failOnNew)';

  it('the verdict fails with it, and the console, Markdown and HTML say it', () => {
    expect(summary.verdict).toMatchObject({ passed: false, exitCode: 1, headline, advice: { kind: 'record-new' } });
    expect(renderConsole(summary, { color: false }).split('\n').at(-1)!.startsWith(`${headline}. `)).toBe(true);
    expect(renderMarkdown(summary).split('\n')[2]!.startsWith(`❌ **${headline}**`)).toBe(true);
    const json = renderJson(summary);
    expect(json.verdict.headline).toBe(headline);
    expect(renderHtml(json)).toContain(`<strong>${headline}</strong>`);
  });
});

function sources(findings: GateFinding[], settings: Partial<VerdictSources['settings']> = {}): VerdictSources {
  return {
    findings,
    settings: {
      failOnRegression: true,
      failOnNew: false,
      strict: false,
      partial: false,
      updatingBaseline: false,
      ...settings,
    },
    baselineFound: true,
    rows: 3,
    counts: { improved: 1, unchanged: 2, new: 0 },
    coverage: { judged: 5, notJudged: [] },
  };
}

function finding(kind: GateFinding['kind'], fields: Partial<GateFinding> = {}): GateFinding {
  const spec = FINDING_KINDS[kind];
  return { kind, suite: 's', suiteKey: 'k', accept: spec.accept, fails: false, ...fields };
}

describe('decideVerdict', () => {
  it('heads a regression as a regression, never as "out of date", and accepts it with the update', () => {
    const verdict = decideVerdict(
      sources([finding('regression', { fails: true }), finding('improvement', { fails: true })], { strict: true }),
    );
    expect(verdict.headline).toBe('Retrieval quality regressed in 1 suite × measure row');
    expect(verdict.sections.map((section) => [section.heading, section.findings])).toEqual([
      ['Regressions', [0]],
      ['The baseline is out of date', [1]],
    ]);
    expect(verdict.advice).toEqual({ kind: 'accept', command: 'update' });
    expect(verdict.exitCode).toBe(1);
  });

  it('says "beyond tolerance" only of values that moved, in one unit: differences', () => {
    const strict = (kinds: GateFinding['kind'][]) =>
      decideVerdict(
        sources(
          kinds.map((kind) => finding(kind, { fails: true })),
          { strict: true },
        ),
      ).headline;
    expect(strict(['improvement', 'unconfirmed-move'])).toBe(
      'The baseline is out of date: 2 differences beyond tolerance',
    );
    expect(strict(['missing-questions', 'new-suite'])).toBe('The baseline is out of date: 2 differences');
    expect(strict(['improvement', 'renamed-suite', 'new-questions'])).toBe(
      'The baseline is out of date: 3 differences (1 beyond tolerance)',
    );
  });

  it('counts distinct questions where it says questions: one question new to two measures is one', () => {
    const verdict = decideVerdict(
      sources(
        [
          finding('new-questions', { fails: true, measures: ['mrr', 'hit@5'], questions: ['q1'] }),
          finding('new-suite', { fails: true, suiteKey: 'other', questions: ['q1', 'q2'] }),
        ],
        { failOnNew: true },
      ),
    );
    expect(verdict.headline).toBe('3 questions not in the baseline (failOnNew)');
  });

  it('counts in the unit of the kinds: rows for regressions, questions for repeated questions', () => {
    const regressions = decideVerdict(
      sources([finding('regression', { fails: true, measure: 'mrr' }), finding('regression', { fails: true })]),
    );
    expect(regressions.headline).toBe('Retrieval quality regressed in 2 suite × measure rows');
    // q1 unstable on two measures, q2 on one: two questions over two findings.
    const unstable = decideVerdict(
      sources(
        [
          finding('unstable', { fails: true, measure: 'mrr', questions: ['q1', 'q2'] }),
          finding('unstable', { fails: true, measure: 'recall@5', questions: ['q1'] }),
        ],
        { strict: true },
      ),
    );
    expect(unstable.headline).toBe('Repeated questions break the CI rules (minRepeats, maxSpread): 2 questions');
    expect(unstable.advice).toEqual({ kind: 'finding', finding: 0 });
  });

  it('an update run records what it lists: no advice to run itself, and a prune run prunes too', () => {
    const findings = [finding('improvement'), finding('missing-questions')];
    const update = decideVerdict(sources(findings, { updatingBaseline: true }));
    expect(update.clears).toEqual(['this-run', 'prune']);
    expect(update.advice).toBeNull();
    expect(update.sections[0]!.heading).toBe('What this update records');
    const prune = decideVerdict(sources(findings, { updatingBaseline: true, pruning: true }));
    expect(prune.clears).toEqual(['this-run', 'this-run']);
    expect(prune.mode).toBe('prune');
    const compare = decideVerdict(sources(findings));
    expect(compare.clears).toEqual(['update', 'prune']);
  });

  it('a kind added to the table is one entry: shown in its section, failing nothing', () => {
    const kinds = {
      ...FINDING_KINDS,
      latency: { section: 'changes', accept: 'update', fails: 'never', valueMove: false, unit: 'row' },
    } as const;
    const latency = { ...finding('improvement'), kind: 'latency' } as unknown as GateFinding;
    const verdict = decideVerdict(sources([latency], { strict: true }), kinds);
    expect(verdict.sections).toEqual([
      { section: 'changes', heading: 'What an update of the baseline would change', fails: false, findings: [0] },
    ]);
    expect(verdict).toMatchObject({ passed: true, exitCode: 0, headline: 'No retrieval regressions' });
  });
});

describe('the messages', () => {
  it('"Questions that got worse (N)" counts questions: one question worse on two measures is one', () => {
    const sample = (id: string, measure: string, value: number): CollectedSample => ({
      file: 'test/a.test.ts',
      describePath: [],
      test: id,
      measure,
      value,
    });
    const baseline = baselineFile({ 'test/a.test.ts': { mrr: { q1: 1, q2: 1 }, 'recall@5': { q1: 1, q2: 1 } } });
    const samples = [
      sample('q1', 'mrr', 0),
      sample('q2', 'mrr', 1),
      sample('q1', 'recall@5', 0),
      sample('q2', 'recall@5', 1),
    ];
    const summary = summarize({ runner: 'vitest', samples }, baseline);
    // Both rows fell from 1.000 to 0.500 on q1 alone: two rows, one question.
    expect(summary.regressions).toBe(2);
    expect(renderMarkdown(summary)).toContain('<details><summary>Questions that got worse (1)</summary>');
  });

  it('a failed row names the rule that failed it: by how much beyond the tolerance, and the p that decided', () => {
    // mean 0.820 → 0.740: Δ = −0.080, 0.070 beyond a tolerance of 0.010.
    const row = { tolerance: 0.01, comparison: { delta: -0.08, test: 'sign' as const, p: 1, adjustedP: 1 } };
    expect(describeRule(row)).toBe('0.070 beyond the tolerance of 0.010');
    const significant = { ...row, comparison: { ...row.comparison, p: 0.012, adjustedP: 0.031 } };
    expect(describeRule(significant, 0.05)).toBe(
      '0.070 beyond the tolerance of 0.010; sign test p = 0.012, Holm 0.031 ≤ 0.05',
    );
    // The HTML report's captions too: recall@5 fell 0.464 (0.454 beyond 0.010), hit@5 rose 0.286 (0.276).
    const html = renderHtml(renderJson(summarize(RUN, BASELINE)));
    expect(html).toContain('mean 1.000 → 0.536, 0.454 beyond the tolerance of 0.010.');
    expect(html).toContain('mean 0.571 → 0.857, 0.276 beyond the tolerance of 0.010.');
    expect(html).not.toContain('sign test p = 0.031');
  });

  it('an update run never advises running the update, nor a prune run the prune', () => {
    const written = 'this run writes it into the baseline: commit the file';
    const update = summarize(RUN, BASELINE, { updatingBaseline: true });
    const updateText = renderConsole(update, { color: false });
    expect(updateText).toContain('\nWhat this update records:\n');
    expect(updateText).toContain(
      `  · improvement not recorded: hit@5 0.571 → 0.857 in suite test/orders.test.ts > refunds (better: q3, q4) — ${written}`,
    );
    expect(updateText).not.toContain('RAG_BASELINE=update');
    // What only a prune removes is still the prune's.
    expect(updateText).toContain('— run RAG_BASELINE=prune npx vitest run and commit');
    expect(renderMarkdown(update)).not.toMatch(/RAG_BASELINE=update|accept it with/);
    const prune = renderConsole(summarize(RUN, BASELINE, { updatingBaseline: true, pruning: true }), { color: false });
    expect(prune).not.toMatch(/RAG_BASELINE=(update|prune)/);
    expect(prune).toContain(
      '(precision@5) in the baseline did not run although the test file ran: q1 — this run removes it from the baseline: commit the file',
    );
  });

  it('a suite of a deleted test file says so, not that it did not run although its file ran', () => {
    const baseline = baselineFile({
      'test/a.test.ts': { mrr: { q1: 1 } },
      'test/gone.test.ts': { mrr: { g1: 1, g2: 0.5 } },
    });
    const run = {
      runner: 'vitest' as const,
      files: ['test/a.test.ts'],
      samples: [{ file: 'test/a.test.ts', describePath: [], test: 'q1', measure: 'mrr', value: 1 }],
    };
    const summary = summarize(run, baseline, { strict: true, fileExists: (file) => file === 'test/a.test.ts' });
    const text = renderConsole(summary, { color: false });
    expect(text).toContain(
      '  ✗ suite in the baseline whose test file was deleted: test/gone.test.ts (2 questions: g1, g2) — run RAG_BASELINE=prune npx vitest run and commit',
    );
    expect(text).not.toContain('although its test file ran');
  });

  it('the HTML footer names the JSON report schema it was drawn from: version 2', () => {
    const html = renderHtml(renderJson(summarize(RUN, BASELINE)));
    expect(html).toContain('Generated by rag-matchers from a JSON report (report schema version 2).');
  });
});
