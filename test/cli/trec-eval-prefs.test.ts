// `rag-matchers trec-eval -R prefs` / `-R qrels_prefs`: the flags, the ranking rule of trec_eval's
// preference code and the errors (the values are checked byte for byte against trec_eval in
// test/conformance/trec-eval-prefs.test.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as trecEval from '../../src/cli/commands/trec-eval.js';
import { HELP } from '../../src/cli/commands/trec-eval.js';
import { planJudgmentGroupMeasures } from '../../src/trec/eval/judgment-groups.js';
import { PREFERENCE_MEASURES } from '../../src/trec/eval/prefs-measures.js';
import { runCommand } from './helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-trec-eval-prefs-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

// q1: a preferred to b. q2: only in the judgments.
const prefs = file('basic.prefs', 'q1 g s a 2\nq1 g s b 1\nq2 g s c 1\nq2 g s d 0\n');
// a and b tie on score: trec_eval's preference code ranks ties by docno ascending (a first), unlike its
// qrels measures (descending), so the preference is fulfilled.
const tiedRun = file('tied.run', 'q1 Q0 b 1 1.0 tag\nq1 Q0 a 2 1.0 tag\n');

describe('trec-eval -R prefs', () => {
  it('ranks tied scores by docno ascending, prints -q lines and the summary', async () => {
    const result = await runCommand(trecEval, ['-q', '-R', 'prefs', '-m', 'prefs_simp', '-m', 'num_q', prefs, tiedRun]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'prefs_simp            \tq1\t1.0000',
        'num_q                 \tall\t1',
        'prefs_simp            \tall\t1.0000',
        '',
      ].join('\n'),
    );
  });

  it('with -c averages over every judged query, a missing one scoring 0; -n prints no summary', async () => {
    const complete = await runCommand(trecEval, ['-c', '-R', 'prefs', '-m', 'prefs_simp', prefs, tiedRun]);
    expect(complete.stdout).toBe('prefs_simp            \tall\t0.5000\n');
    const none = await runCommand(trecEval, ['-n', '-R', 'prefs', '-m', 'prefs_simp', prefs, tiedRun]);
    expect(none.stdout).toBe('');
  });

  it('a docno ranked twice in a query stops with exit 4, as trec_eval', async () => {
    const run = file('twice.run', 'q1 Q0 a 1 2 t\nq1 Q0 a 2 1 t\n');
    const result = await runCommand(trecEval, ['-R', 'prefs', '-m', 'all_prefs', prefs, run]);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/duplicate docno 'a' in query 'q1'/);
  });

  it('contradicting preferences in one judgment group stop with exit 4', async () => {
    const cycle = file('cycle.prefs', 'q1 g s1 a 2\nq1 g s1 b 1\nq1 g s2 b 2\nq1 g s2 a 1\n');
    const result = await runCommand(trecEval, ['-R', 'prefs', '-m', 'prefs_simp', cycle, tiedRun]);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/query 'q1': .*contradict/);
  });

  it.each([
    { args: ['-R', 'prefs'], message: /-R prefs needs the measures named .*-m all_prefs/ },
    { args: ['-R', 'prefs', '-m', 'map'], message: /measure 'map' does not read preference judgments \(-R prefs\)/ },
    { args: ['-R', 'prefs', '-m', 'prefs_simp', '--streaming'], message: /--streaming is not available with -R prefs/ },
    { args: ['-R', 'qrels_jg'], message: /-R qrels_jg needs the measures named .*-m qrels_jg/ },
    { args: ['-R', 'qrels_jg', '-m', 'map'], message: /measure 'map' does not read judgment groups/ },
    { args: ['-R', 'qrels_jg', '-m', 'P_avgjg.0'], message: /cutoffs of 'P_avgjg\.0' must be positive/ },
    {
      args: ['-R', 'judgments', '-m', 'map'],
      message: /-R 'judgments' is not a judgment format; use one of trec_qrels, prefs, qrels_prefs, qrels_jg/,
    },
  ])('$args: exit 2 naming the problem', async ({ args, message }) => {
    const result = await runCommand(trecEval, [...args, prefs, tiedRun]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('reads the run from standard input (-); -R trec_qrels is the qrels path, as without -R', async () => {
    const fromStdin = await runCommand(trecEval, ['-R', 'prefs', '-m', 'prefs_simp', prefs, '-'], {
      stdin: 'q1 Q0 b 1 1.0 tag\nq1 Q0 a 2 1.0 tag\n',
    });
    expect(fromStdin.stdout).toBe('prefs_simp            \tall\t1.0000\n');
    const qrels = file('basic.qrels', 'q1 0 a 1\n');
    const explicit = await runCommand(trecEval, ['-R', 'trec_qrels', '-m', 'P.1', qrels, tiedRun]);
    expect(explicit.stdout).toBe((await runCommand(trecEval, ['-m', 'P.1', qrels, tiedRun])).stdout);
    expect(explicit.stdout).toBe('P_1                   \tall\t0.0000\n'); // ties by docno descending: b first
  });

  it('a line it cannot read names the file and line', async () => {
    const broken = file('broken.prefs', 'q1 g s a 2\nq1 g a 1\n');
    const result = await runCommand(trecEval, ['-R', 'prefs', '-m', 'prefs_simp', broken, tiedRun]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.prefs:2: expected 5 columns/);
  });
});

describe('docs/cli.md and --help', () => {
  const docs = readFileSync(fileURLToPath(new URL('../../docs/cli.md', import.meta.url)), 'utf8');

  it("the docs' preference table lists the preference measures in trec_eval's order", () => {
    const table = docs.slice(
      docs.indexOf('<!-- trec-eval-prefs-measures:start -->'),
      docs.indexOf('<!-- trec-eval-prefs-measures:end -->'),
    );
    const names = table
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|')[1]!.trim().replaceAll('`', ''));
    expect(names).toEqual([...PREFERENCE_MEASURES]);
  });

  it("the docs' judgment-group table lists what -m qrels_jg prints, in trec_eval's order", () => {
    const section = docs.slice(docs.indexOf('### Judgment groups (`-R qrels_jg`)'), docs.indexOf('### Memory'));
    const names = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|')[1]!.trim().replaceAll('`', ''));
    expect(names).toEqual(planJudgmentGroupMeasures(['qrels_jg']).measures.map((measure) => measure.name));
  });

  it('the help names -R and every preference measure', () => {
    expect(HELP).toContain('-R, --Rel_info_format FORMAT');
    expect(HELP).toContain(`Preference measures (-R prefs, -R qrels_prefs): ${PREFERENCE_MEASURES.join(', ')}`);
  });
});
