import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  formatHistory,
  historyBySuite,
  HistoryError,
  parseLog,
  readBaselineHistory,
} from '../../../src/report/history.js';
import { renderHistoryHtml } from '../../../src/report/html/run-report.js';
import { baselineHistoryRepo, createGitRepo, type GitRepo } from '../../browser/git-fixture.js';

const ORDERS = 'test/orders.test.ts > orders API';
let repos: GitRepo[] = [];
const track = <T extends GitRepo>(repo: T): T => {
  repos.push(repo);
  return repo;
};
// One repository with the baseline's five commits, shared by the tests that only read it (building it
// runs some twenty git commands); a test that changes its working tree restores it.
let shared: ReturnType<typeof baselineHistoryRepo>;
beforeAll(() => {
  shared = baselineHistoryRepo();
}, 60_000);
afterAll(() => shared?.remove());
afterEach(() => {
  for (const repo of repos) repo.remove();
  repos = [];
  shared.git('checkout', '-q', '--', '.');
  shared.git('clean', '-fdq');
});

describe('baseline history from git', { timeout: 30_000 }, () => {
  it('prints, per suite, each measure at the commits where it moved, following a rename', async () => {
    const repo = shared;
    const history = await readBaselineHistory(repo.path, { cwd: repo.dir });
    const [first, second, third, moved, last] = repo.shas.map((sha) => repo.short(sha));
    expect(history.versions.map((version) => version.label)).toEqual([first, second, third, moved, last]);
    expect(history.versions.map((version) => version.path)).toEqual([
      'rag-baseline.json',
      'rag-baseline.json',
      'rag-baseline.json',
      'eval/rag-baseline.json',
      'eval/rag-baseline.json',
    ]);
    const pad = (sha: string | undefined): string => sha!.padEnd(7);
    expect(formatHistory(history, historyBySuite(history))).toBe(
      [
        'Baseline history of eval/rag-baseline.json: 5 commits, 2025-01-01 → 2025-01-06',
        '',
        'test/orders.test.ts > orders API',
        '  commit   date        ndcg@10           recall@5          subject',
        `  ${pad(first)}  2025-01-01  0.600 n=2         0.500 n=2         Record the first baseline`,
        `  ${pad(second)}  2025-01-02  0.600             1.000 +0.500      Better chunking`,
        `  ${pad(third)}  2025-01-04  0.700 +0.100 n=3  1.000             Add the search suite`,
        `  ${pad(last)}  2025-01-06  0.700             0.750 -0.250 n=4  Harder questions; drop mrr`,
        '',
        'test/search.test.ts > search',
        '  commit   date        mrr        recall@5   subject',
        `  ${pad(third)}  2025-01-04  0.750 n=2  1.000 n=2  Add the search suite`,
        `  ${pad(last)}  2025-01-06  removed    1.000      Harder questions; drop mrr`,
        '',
      ].join('\n'),
    );
  });

  it('keeps every version in the chart series, with a gap where a measure is absent', async () => {
    const repo = shared;
    const history = await readBaselineHistory(repo.path, { cwd: repo.dir });
    const search = historyBySuite(history).find((suite) => suite.suite === 'test/search.test.ts > search')!;
    expect(search.measures).toEqual(['mrr', 'recall@5']);
    expect(search.series[0]!.map((point) => point?.mean ?? null)).toEqual([null, null, 0.75, 0.75, null]);
    expect(search.series[1]!.map((point) => point?.count ?? null)).toEqual([null, null, 2, 2, 2]);
  });

  it('adds uncommitted changes as the working tree, unless asked not to', async () => {
    const repo = shared;
    const clean = await readBaselineHistory(repo.path, { cwd: repo.dir });
    expect(clean.versions.at(-1)!.label).not.toBe('working tree');
    repo.writeBaseline(repo.path, {
      [ORDERS]: { 'recall@5': { q1: 0, q2: 0, q3: 0, q4: 0 }, 'ndcg@10': { q1: 0.7, q2: 0.5, q3: 0.9 } },
    });
    const history = await readBaselineHistory(repo.path, { cwd: repo.dir });
    expect(history.versions.at(-1)).toMatchObject({ label: 'working tree', commit: null, state: 'ok' });
    const text = formatHistory(history, historyBySuite(history, { suites: ['ORDERS'] }));
    expect(text).toContain('5 commits and uncommitted changes');
    expect(text.split('\n').at(-2)).toBe(
      '  working tree              0.700             0.000 -0.750      (not committed)',
    );
    expect(text).not.toContain('test/search.test.ts');
    const committedOnly = await readBaselineHistory(repo.path, { cwd: repo.dir, workingTree: false });
    expect(committedOnly.versions).toHaveLength(5);
  });

  it('reads the path relative to the working directory, from a subdirectory too', async () => {
    const repo = shared;
    const history = await readBaselineHistory('rag-baseline.json', { cwd: join(repo.dir, 'eval') });
    expect(history.versions).toHaveLength(5);
    expect(history.repoRoot).toBe(repo.dir);
  });

  it('filters suites and measures, and takes the last N commits', async () => {
    const repo = shared;
    const history = await readBaselineHistory(repo.path, { cwd: repo.dir });
    const only = historyBySuite(history, { measures: ['recall@5'] });
    expect(only.map((suite) => suite.measures)).toEqual([['recall@5'], ['recall@5']]);
    // search's recall@5 never moved after it appeared: one line.
    expect(only[1]!.rows).toHaveLength(1);
    expect(historyBySuite(history, { suites: ['nothing like it'] })).toEqual([]);
    expect(formatHistory(history, [])).toContain('\nNo suite matched.\n');
    const lastTwo = await readBaselineHistory(repo.path, { cwd: repo.dir, limit: 2 });
    expect(lastTwo.versions.map((version) => version.commit!.subject)).toEqual([
      'Move the baseline under eval/',
      'Harder questions; drop mrr',
    ]);
  });

  it('notes a committed version that is not a readable baseline and compares across it', async () => {
    const repo = track(createGitRepo());
    repo.writeBaseline('rag-baseline.json', { s: { mrr: { a: 0.5 } } });
    repo.commit('one', 1);
    repo.write('rag-baseline.json', '<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> branch\n');
    const broken = repo.short(repo.commit('oops, a conflict', 2));
    repo.writeBaseline('rag-baseline.json', { s: { mrr: { a: 0.75 } } });
    repo.commit('three', 3);
    const history = await readBaselineHistory('rag-baseline.json', { cwd: repo.dir });
    expect(history.versions[1]).toMatchObject({ state: 'invalid', label: broken });
    const text = formatHistory(history, historyBySuite(history));
    // A committed version has nothing to resolve (before, it was told to run `git checkout -m <sha>:<path>`,
    // which git refuses); the command it names shows that version, run here as printed.
    const note = `Note: ${broken} left out: ${broken}:rag-baseline.json: line 1 holds a Git merge-conflict marker (<<<<<<<): this version was committed before its merge was resolved, so it holds no baseline. See it with git show ${broken}:rag-baseline.json\n`;
    expect(text).toContain(note);
    expect(text).not.toContain('checkout');
    const printed = /See it with (git show \S+)\n/.exec(text)![1]!;
    expect(execSync(printed, { cwd: repo.dir, encoding: 'utf8' })).toBe(
      '<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> branch\n',
    );
    expect(text).toMatch(/0\.750 \+0\.250 +three\n$/);
    expect(renderHistoryHtml(history, historyBySuite(history))).toContain(`${broken} left out`);
  });

  it("names the working tree's conflicted baseline by the path given, in the command that resolves it", async () => {
    const repo = track(createGitRepo());
    repo.writeBaseline('rag-baseline.json', { s: { mrr: { a: 0.5 } } });
    repo.commit('one', 1);
    repo.write('rag-baseline.json', '<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> branch\n');
    const history = await readBaselineHistory('rag-baseline.json', { cwd: repo.dir });
    const text = formatHistory(history, historyBySuite(history));
    // Before: `git checkout -m working tree:rag-baseline.json`.
    expect(text).toContain(
      "Note: working tree left out: rag-baseline.json: line 1 holds a Git merge-conflict marker (<<<<<<<): git's line merge stopped here.",
    );
    expect(text).toContain('run git checkout -m rag-baseline.json;');
  });

  it('ends every suite at a commit that deleted the file', async () => {
    const repo = track(createGitRepo());
    repo.writeBaseline('rag-baseline.json', { s: { mrr: { a: 0.5 } } });
    repo.commit('one', 1);
    repo.git('rm', '-q', 'rag-baseline.json');
    const gone = repo.short(repo.commit('drop the baseline', 2));
    const history = await readBaselineHistory('rag-baseline.json', { cwd: repo.dir });
    expect(history.versions.map((version) => version.state)).toEqual(['ok', 'deleted']);
    const text = formatHistory(history, historyBySuite(history));
    expect(text).toContain(`Note: ${gone} deleted the file.`);
    expect(text.split('\n').at(-2)).toBe(`  ${gone.padEnd(7)}  2025-01-02  removed    drop the baseline`);
  });

  it('streams large versions intact (blobs split across many pipe reads)', async () => {
    const repo = track(createGitRepo());
    const expected: number[] = [];
    for (let version = 0; version < 3; version++) {
      const samples: Record<string, number> = {};
      let total = 0;
      for (let q = 0; q < 4000; q++) {
        const value = (((q * 37) % 1000) / 1000) * ((version + 1) / 3);
        samples[`question number ${q} of a long-running evaluation set`] = value;
        total += value;
      }
      expected.push(total / 4000);
      repo.writeBaseline('rag-baseline.json', { big: { 'ndcg@10': samples } });
      repo.commit(`version ${version}`, version + 1);
    }
    const history = await readBaselineHistory('rag-baseline.json', { cwd: repo.dir });
    const points = history.versions.map((version) => version.suites.get('big')!.get('ndcg@10')!);
    expect(points.map((point) => point.count)).toEqual([4000, 4000, 4000]);
    points.forEach((point, index) => expect(point.mean).toBeCloseTo(expected[index]!, 12));
    expect(new Set(points.map((point) => point.mean.toFixed(6))).size).toBe(3);
  });

  it('says when the clone is shallow', async () => {
    const source = shared;
    const target = realpathSync(mkdtempSync(join(tmpdir(), 'rag-shallow-')));
    try {
      execFileSync('git', ['clone', '-q', '--depth', '1', `file://${source.dir}`, join(target, 'clone')], {
        stdio: 'ignore',
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      });
      const history = await readBaselineHistory('eval/rag-baseline.json', { cwd: join(target, 'clone') });
      expect(history.shallow).toBe(true);
      expect(history.versions).toHaveLength(1);
      expect(formatHistory(history, historyBySuite(history))).toContain('Note: this clone is shallow');
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });

  it('fails clearly outside a repository, for a file never committed, and in a repository without commits', async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'rag-nogit-')));
    try {
      await expect(readBaselineHistory('rag-baseline.json', { cwd: outside })).rejects.toThrow(
        new HistoryError(`'.' is not inside a git repository; history reads the baseline's commits from git`),
      );
      await expect(readBaselineHistory('missing-dir/rag-baseline.json', { cwd: outside })).rejects.toThrow(
        "cannot read 'missing-dir/rag-baseline.json': its directory does not exist",
      );
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    const empty = track(createGitRepo());
    await expect(readBaselineHistory('rag-baseline.json', { cwd: empty.dir })).rejects.toThrow(
      "no commit in this repository touches 'rag-baseline.json'",
    );
    const repo = shared;
    repo.write('other.json', '{}');
    await expect(readBaselineHistory('other.json', { cwd: repo.dir })).rejects.toThrow(
      "no commit in this repository touches 'other.json'; commit the baseline first (or pass its path with --baseline)",
    );
    await expect(readBaselineHistory(repo.path, { cwd: repo.dir, git: 'git-that-does-not-exist' })).rejects.toThrow(
      'git is not installed or not on PATH',
    );
    unlinkSync(join(repo.dir, repo.path));
    // A deleted working file still has its history.
    expect((await readBaselineHistory(repo.path, { cwd: repo.dir })).versions).toHaveLength(5);
  });
});

describe('parseLog', () => {
  const header = (sha: string, subject: string): string =>
    `\x1e${sha}\x1f${sha.slice(0, 7)}\x1f2025-01-01T00:00:00+00:00\x1fAda\x1f${subject}`;

  it('reads status lines, renames and merges without a status line', () => {
    const text =
      `${header('c'.repeat(40), 'edit')}\0\nM\0new/path.json\0` +
      `${header('b'.repeat(40), 'merge branch')}\n` +
      `${header('a'.repeat(40), 'rename with \x1f inside')}\0\nR095\0old.json\0new/path.json\0` +
      `${header('9'.repeat(40), 'first')}\0\nA\0old.json\0`;
    const entries = parseLog(text, 'new/path.json');
    expect(entries.map((entry) => [entry.commit.subject, entry.path, entry.deleted])).toEqual([
      ['edit', 'new/path.json', false],
      ['merge branch', 'new/path.json', false],
      ['rename with \x1f inside', 'new/path.json', false],
      ['first', 'old.json', false],
    ]);
    expect(parseLog(`${header('d'.repeat(40), 'gone')}\0\nD\0x.json\0`, 'x.json')[0]!.deleted).toBe(true);
  });
});
