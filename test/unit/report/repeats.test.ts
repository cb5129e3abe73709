// Repeated runs: a question run several times in one run (Vitest `repeats`, test.each over a repeat index
// with one queryId) is one question whose value is the mean of its runs, with a spread and an unstable
// mark; minRepeats and maxSpread are CI rules with findings of their own.
import { describe, expect, it } from 'vitest';

import { groupRun } from '../../../src/baseline/group.js';
import { baselineFromRun } from '../../../src/baseline/store.js';
import type { CollectedRun, CollectedSample } from '../../../src/recording/collected.js';
import { renderConsole } from '../../../src/report/console.js';
import { renderHtml } from '../../../src/report/html/run-report.js';
import { renderJson } from '../../../src/report/json.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { validateReporterOptions } from '../../../src/gate/user-options.js';
import { spreadOf } from '../../../src/report/repeats.js';
import { summarize } from '../../../src/report/summary.js';
import { baselineFile, key } from '../baseline/keyed.js';

const FILE = 'test/orders.test.ts';

function sample(test: string, value: number, extra: Partial<CollectedSample> = {}): CollectedSample {
  return { file: FILE, describePath: [], test, measure: 'recall@5', value, pass: true, ...extra };
}

/** Vitest `repeats`: one test, the first run without a repeat index, then 1, 2, …. */
function vitestRepeats(test: string, values: number[], queryId?: string): CollectedSample[] {
  return values.map((value, repeat) =>
    sample(test, value, { ...(queryId !== undefined ? { queryId } : {}), ...(repeat > 0 ? { repeat } : {}) }),
  );
}

function run(samples: CollectedSample[]): CollectedRun {
  return { runner: 'vitest', samples, files: [FILE] };
}

const row = (collected: CollectedRun) => groupRun(collected).suites.get(key(FILE))!.get('recall@5')!;

describe('grouping repeated runs', () => {
  it("folds Vitest's repeats of one test into one question, its value the mean", () => {
    const grouped = row(run(vitestRepeats('q1 answers', [1, 0.5, 0.5, 1, 0.5])));
    expect(grouped.ids).toEqual(['q1 answers']);
    expect(grouped.values).toEqual([0.7]); // (1 + 0.5 + 0.5 + 1 + 0.5) / 5 = 3.5 / 5
    expect(grouped.repeats).toEqual([[1, 0.5, 0.5, 1, 0.5]]);
  });

  it('folds tests of different names that give the same queryId (test.each over a repeat index)', () => {
    const grouped = row(
      run([
        sample('q1 run 0', 1, { queryId: 'q1' }),
        sample('q1 run 1', 0, { queryId: 'q1' }),
        sample('q1 run 2', 0.5, { queryId: 'q1' }),
        sample('q2 once', 0.25, { queryId: 'q2' }),
      ]),
    );
    expect(grouped.ids).toEqual(['q1', 'q2']);
    expect(grouped.values).toEqual([0.5, 0.25]);
    expect(grouped.repeats).toEqual([[1, 0, 0.5], undefined]);
  });

  it('keeps ordinals for an id recorded twice within one run (same test name), repeated or not', () => {
    // One test recording q1 twice, run twice: q1 and q1 #2, each with two runs.
    const grouped = row(
      run([
        sample('t', 0.1, { queryId: 'q1' }),
        sample('t', 0.2, { queryId: 'q1' }),
        sample('t', 0.3, { queryId: 'q1', repeat: 1 }),
        sample('t', 0.4, { queryId: 'q1', repeat: 1 }),
      ]),
    );
    expect(grouped.ids).toEqual(['q1', 'q1 #2']);
    expect(grouped.repeats).toEqual([
      [0.1, 0.3],
      [0.2, 0.4],
    ]);
    expect(grouped.values[0]).toBeCloseTo(0.2, 15);
    expect(grouped.values[1]).toBeCloseTo(0.3, 15);
    // Without repeats, the same ids as before this feature: no fold, no `repeats`.
    const plain = row(run([sample('t', 0.1, { queryId: 'q1' }), sample('t', 0.2, { queryId: 'q1' })]));
    expect(plain.ids).toEqual(['q1', 'q1 #2']);
    expect(plain.values).toEqual([0.1, 0.2]);
    expect(plain.repeats).toBeUndefined();
  });

  it('the mean of equal runs is their value exactly, and the baseline stores the mean', () => {
    const grouped = row(run(vitestRepeats('t', [0.1, 0.1, 0.1], 'q1')));
    expect(grouped.values).toEqual([0.1]); // 0.1 + 0.1 + 0.1 = 0.30000000000000004, ÷ 3 ≠ 0.1
    const file = baselineFromRun(run(vitestRepeats('t', [1, 0, 0.5, 0.5], 'q1')));
    expect(file.suites[key(FILE)]).toEqual({ 'recall@5': { q1: 0.5 } });
  });

  it('a failed run is the question’s source, so the row counts it failed', () => {
    const summary = summarize(
      run([sample('t', 1, { queryId: 'q1' }), sample('t', 0, { queryId: 'q1', repeat: 1, pass: false })]),
      undefined,
    );
    expect(summary.rows[0]!.failures).toBe(1);
    expect(summary.rows[0]!.count).toBe(1);
  });

  it('names a bad repeat index', () => {
    expect(() => groupRun(run([sample('t', 1, { repeat: 0 })]))).toThrow(
      'run.samples[0].repeat must be a whole number ≥ 1 when given',
    );
  });
});

describe('spread, the unstable mark and the CI rules', () => {
  const unstableRun = run([
    ...vitestRepeats('q1', [1, 0.5, 0.5, 1, 0.5], 'q1'), // spread 0.5
    ...vitestRepeats('q2', [0.8, 0.8, 0.8, 0.8, 0.8], 'q2'), // stable
    ...vitestRepeats('q3', [0.2, 0.3, 0.2, 0.2, 0.2], 'q3'), // spread 0.1
    sample('q4', 1, { queryId: 'q4' }), // ran once
  ]);
  /** The baseline this run records: in CI the run is then up to date, and only the repeat rules can fail it. */
  const recorded = baselineFromRun(unstableRun);

  it('spreadOf is max − min', () => {
    expect(spreadOf([1, 0.5, 0.5, 1, 0.5])).toBe(0.5);
    expect(spreadOf([0.8])).toBe(0);
  });

  it('marks the questions whose runs differ, largest spread first, without a baseline and outside CI', () => {
    const summary = summarize(unstableRun, undefined);
    expect(summary.passed).toBe(true);
    expect(summary.findings).toEqual([
      {
        kind: 'unstable',
        suite: FILE,
        suiteKey: key(FILE),
        measure: 'recall@5',
        questions: ['q1', 'q3'],
        spreads: [0.5, 0.09999999999999998], // 0.3 − 0.2 in binary floating point
        accept: 'run',
        fails: false,
      },
    ]);
  });

  it('maxSpread: beyond it fails in CI (strict) only; within it stays a mark', () => {
    const local = summarize(unstableRun, recorded, { maxSpread: 0.2 });
    expect(local.passed).toBe(true);
    const ci = summarize(unstableRun, recorded, { maxSpread: 0.2, strict: true });
    const unstable = ci.findings.filter((finding) => finding.kind === 'unstable');
    expect(unstable.map(({ questions, fails, limit }) => ({ questions, fails, limit }))).toEqual([
      { questions: ['q1'], fails: true, limit: 0.2 },
      { questions: ['q3'], fails: false, limit: 0.2 },
    ]);
    expect(ci.passed).toBe(false);
    // A spread equal to the limit is within it.
    const atLimit = summarize(unstableRun, recorded, { maxSpread: 0.5, strict: true });
    expect(atLimit.findings.some((finding) => finding.fails)).toBe(false);
    expect(atLimit.passed).toBe(true);
  });

  it('minRepeats: in CI a question run fewer times is too-few-repeats; outside CI nothing', () => {
    expect(summarize(unstableRun, recorded, { minRepeats: 5 }).findings.map((finding) => finding.kind)).toEqual([
      'unstable',
    ]);
    const ci = summarize(unstableRun, recorded, { minRepeats: 5, strict: true });
    expect(ci.findings.find((finding) => finding.kind === 'too-few-repeats')).toEqual({
      kind: 'too-few-repeats',
      suite: FILE,
      suiteKey: key(FILE),
      measure: 'recall@5',
      questions: ['q4'],
      runs: [1],
      limit: 5,
      accept: 'run',
      fails: true,
    });
    expect(ci.passed).toBe(false);
    expect(summarize(unstableRun, recorded, { minRepeats: 1, strict: true }).passed).toBe(true);
  });

  it('the paired test compares per-question means with the baseline', () => {
    const baseline = baselineFile({ [FILE]: { 'recall@5': { q1: 0.7, q2: 0.8, q3: 0.22, q4: 1 } } });
    const summary = summarize(unstableRun, baseline);
    // Means now: q1 0.7, q2 0.8, q3 0.22, q4 1 — the same as the baseline: nothing moved.
    expect(summary.rows[0]!.values.map((value) => Number(value.toFixed(12)))).toEqual([0.7, 0.8, 0.22, 1]);
    expect(summary.rows[0]!.worse).toEqual([]);
    expect(summary.rows[0]!.comparison!.shared).toBe(4);
    expect(summary.rows[0]!.status).toBe('unchanged');
  });

  it('every report shows the mark; the JSON sample carries its runs, spread and mark', () => {
    const summary = summarize(unstableRun, recorded, { maxSpread: 0.2, strict: true });
    const json = renderJson(summary);
    const samples = json.rows[0]!.samples;
    expect(samples[0]).toMatchObject({
      id: 'q1',
      value: 0.7,
      repeats: [1, 0.5, 0.5, 1, 0.5],
      spread: 0.5,
      unstable: true,
    });
    expect(samples[1]).toMatchObject({ id: 'q2', repeats: [0.8, 0.8, 0.8, 0.8, 0.8], spread: 0, unstable: false });
    expect(samples[3]).not.toHaveProperty('repeats');
    expect(json.settings.maxSpread).toBe(0.2);
    const line =
      'unstable: recall@5 of 1 question in suite test/orders.test.ts differs between repeated runs, over maxSpread 0.200: q1 (spread 0.500)';
    const console = renderConsole(summary, { color: false });
    expect(console).toContain('Repeated questions:');
    expect(console).toContain(`✗ ${line}`);
    expect(console.split('\n').at(-1)).toContain('Repeated questions break the CI rules');
    const markdown = renderMarkdown(summary);
    expect(markdown).toContain('**Repeated questions:**');
    expect(markdown).toContain('q1 (spread 0.500)');
    expect(markdown).toContain('**Repeated questions break the CI rules (minRepeats, maxSpread): 1 question**');
    const html = renderHtml(json);
    expect(html).toContain('<h2>Repeated questions</h2>');
    expect(html).toContain('q1 (spread 0.500)');
  });

  it('without repeats the summary and the JSON report are as before: no mark, no extra keys', () => {
    const once = run([sample('a', 1, { queryId: 'q1' }), sample('b', 0.5, { queryId: 'q2' })]);
    const summary = summarize(once, undefined, { strict: true });
    expect(summary.rows[0]!).not.toHaveProperty('repeats');
    expect(summary.findings.filter((finding) => finding.kind === 'unstable')).toEqual([]);
    const json = renderJson(summary);
    expect(Object.keys(json.rows[0]!.samples[0]!)).toEqual([
      'id',
      'test',
      'value',
      'before',
      'pass',
      'threshold',
      'negated',
    ]);
    expect(json.settings).not.toHaveProperty('minRepeats');
  });
});

describe('the options', () => {
  it('checks minRepeats and maxSpread, naming them', () => {
    expect(validateReporterOptions({ minRepeats: 5, maxSpread: 0.1 })).toEqual({ minRepeats: 5, maxSpread: 0.1 });
    expect(() => validateReporterOptions({ minRepeats: 0 })).toThrow(/minRepeats must be a whole number ≥ 1/);
    expect(() => validateReporterOptions({ minRepeats: 2.5 })).toThrow(/minRepeats must be/);
    expect(() => validateReporterOptions({ maxSpread: -0.1 })).toThrow(/maxSpread must be a number ≥ 0/);
    expect(() => validateReporterOptions({ maxSpread: '0.1' })).toThrow(/maxSpread must be a number ≥ 0/);
    expect(() => summarize(run([]), undefined, { minRepeats: 0 })).toThrow(/summarize: options: minRepeats/);
    expect(() => summarize(run([]), undefined, { maxSpread: Number.NaN })).toThrow(/summarize: options: maxSpread/);
  });
});
