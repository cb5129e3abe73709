import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/cli/commands.js';
import * as plan from '../../src/cli/commands/plan.js';
import { formatBaseline } from '../../src/baseline/file/write.js';
import { baselineFile } from '../unit/baseline/keyed.js';
import { runCommand } from './helpers.js';

let dir: string;
let baseline: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-plan-cli-'));
  baseline = join(dir, 'rag-baseline.json');
  const ids = (count: number, value: (index: number) => number) =>
    Object.fromEntries(Array.from({ length: count }, (_, index) => [`q${index + 1}`, value(index)]));
  writeFileSync(
    baseline,
    formatBaseline(
      baselineFile({
        'test/forty.test.ts': { 'hit@3': ids(40, (index) => (index < 34 ? 1 : 0)) },
        'test/tiny.test.ts': { 'hit@3': ids(5, () => 1), 'ndcg@3': ids(5, () => 0.02) },
      }),
    ),
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** P(X ≥ atLeast) for X ~ Binomial(n, p), summed term by term. */
function binomialUpperTail(n: number, p: number, atLeast: number): number {
  let below = 0;
  let term = (1 - p) ** n; // P(X = 0)
  for (let k = 0; k < atLeast; k++) {
    below += term;
    term *= ((n - k) / (k + 1)) * (p / (1 - p));
  }
  return 1 - below;
}

interface PlanJson {
  settings: Record<string, unknown>;
  rows: { suite: string; measure: string; questions: number; plan: { kind: string; questions?: number } }[];
}

describe('rag-matchers plan', () => {
  it('is registered', async () => {
    expect(COMMANDS.plan?.summary).toMatch(/how many questions/);
    expect(typeof (await COMMANDS.plan!.load()).run).toBe('function');
  });

  it('a suite of hits under the sign test at 0.05: the count where P(Binomial(n, 0.05) ≥ 6) reaches 0.8, within 15%', async () => {
    // Every question a hit, each lost with probability Δ / mean = 0.05; the sign test needs 6 losses (p = 2/64).
    let exact = 6;
    while (binomialUpperTail(exact, 0.05, 6) < 0.8) exact++;
    const result = await runCommand(plan, ['--baseline', baseline, '--significance', '0.05', '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const report = JSON.parse(result.stdout) as PlanJson;
    expect(report.settings).toEqual({
      delta: 0.05,
      power: 0.8,
      tolerance: 0.01,
      significance: 0.05,
      test: 'sign',
      simulations: 1000,
      maxQuestions: 10000,
      seed: 42,
    });
    const tiny = report.rows.find((row) => row.suite === 'test/tiny.test.ts' && row.measure === 'hit@3')!;
    expect(tiny.plan.kind).toBe('needed');
    expect(Math.abs(tiny.plan.questions! - exact) / exact).toBeLessThan(0.15);
    // A mean of 0.02 cannot fall by 0.05.
    expect(report.rows.find((row) => row.measure === 'ndcg@3')!.plan).toEqual({
      kind: 'never',
      reason: 'mean-below-delta',
    });
  });

  it('prints a table, the same for the same seed; --measure picks rows', async () => {
    const args = ['--baseline', baseline, '--measure', 'hit@3', '--tolerance', '0.05'];
    const first = await runCommand(plan, args);
    expect(first.code).toBe(0);
    expect(first.stdout.split('\n').slice(0, 4)).toEqual([
      "Questions needed to catch a drop of 0.05 in a suite's mean with 80% power",
      'Rule: tolerance 0.05 alone; each row alone. 1000 simulated suites per count, seed 42.',
      '',
      'suite               measure  questions   mean  power now                          needed',
    ]);
    expect(first.stdout).toContain('test/forty.test.ts  hit@3           40  0.850');
    expect(first.stdout).toContain('never (Δ within the tolerance)');
    expect(first.stdout).not.toContain('ndcg@3');
    expect((await runCommand(plan, args)).stdout).toBe(first.stdout);
  });

  it("--tolerance takes the reporters' per-measure overrides, as compare does", async () => {
    // A drop of 0.05 is within hit@3's tolerance of 0.06 (never caught); ndcg@3 keeps the default 0.01.
    const args = ['--baseline', baseline, '--tolerance', '0.01,hit@3=0.06'];
    const table = await runCommand(plan, args);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout.split('\n')[1]).toBe(
      'Rule: tolerance 0.01 (hit@3 0.06) alone; each row alone. 1000 simulated suites per count, seed 42.',
    );
    const report = JSON.parse((await runCommand(plan, [...args, '--json'])).stdout) as PlanJson;
    expect(report.settings).toMatchObject({ tolerance: 0.01, toleranceByMeasure: { 'hit@3': 0.06 } });
    for (const row of report.rows.filter((entry) => entry.measure === 'hit@3'))
      expect(row.plan).toEqual({ kind: 'never', reason: 'within-tolerance' });
    expect(await runCommand(plan, ['--baseline', baseline, '--tolerance', '0.01,hit@3'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--tolerance must be a number ≥ 0, got 'hit@3'") as unknown,
    });
    // A percentage where a share is meant: the message names the flag as typed, and the share to give.
    expect((await runCommand(plan, ['--baseline', baseline, '--tolerance', '0.01,hit@3=5'])).stderr).toContain(
      '--tolerance hit@3 must be at most 1 (an absolute drop in a mean between 0 and 1), got 5; a drop of 5 percentage points is 0.05.',
    );
    expect((await runCommand(plan, ['--baseline', baseline, '--tolerance', '5'])).stderr).toContain(
      '--tolerance must be at most 1',
    );
  });

  it('bad flags and a missing baseline are one clear line', async () => {
    expect(await runCommand(plan, ['--delta', '0'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--delta must be a number > 0 and ≤ 1, got '0'") as unknown,
    });
    expect(await runCommand(plan, ['--test', 'wilcoxon'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--test must be one of sign, randomization, t, got 'wilcoxon'") as unknown,
    });
    expect(await runCommand(plan, ['--measure', 'recal@5'])).toMatchObject({ code: 2 });
    const missing = await runCommand(plan, ['--baseline', join(dir, 'none.json')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('no baseline at');
  });
});
