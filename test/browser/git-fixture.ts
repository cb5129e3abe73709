// A real temporary git repository whose baseline file changes over a few commits, for the history tests.
// Author, committer and dates are fixed, and the user's git configuration is ignored, so the same
// commits (and shas) come out on every machine.
import { baselineFile } from '../unit/baseline/keyed.js';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { type BaselineFile } from '../../src/baseline/file/types.js';
import { formatBaseline } from '../../src/baseline/file/write.js';

export interface GitRepo {
  dir: string;
  git(...args: string[]): string;
  write(file: string, text: string): void;
  writeBaseline(file: string, suites: BaselineFile['suites']): void;
  /** Commits everything with the given subject on day `day` of January 2025. */
  commit(subject: string, day: number): string;
  /** The short sha of a revision, as `git log %h` prints it. */
  short(revision: string): string;
  remove(): void;
}

export function createGitRepo(prefix = 'rag-history-'): GitRepo {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Ada Tester',
    GIT_AUTHOR_EMAIL: 'ada@example.invalid',
    GIT_COMMITTER_NAME: 'Ada Tester',
    GIT_COMMITTER_EMAIL: 'ada@example.invalid',
  };
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  const repo: GitRepo = {
    dir,
    git,
    write(file, text) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    },
    writeBaseline(file, suites) {
      repo.write(file, formatBaseline(baselineFile(suites)));
    },
    commit(subject, day) {
      const date = `2025-01-${String(day).padStart(2, '0')}T12:00:00+00:00`;
      git('add', '-A');
      execFileSync('git', ['commit', '-q', '--allow-empty', '-m', subject], {
        cwd: dir,
        env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
        stdio: 'ignore',
      });
      return git('rev-parse', 'HEAD').trim();
    },
    short(revision) {
      return git('log', '-1', '--format=%h', revision).trim();
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return repo;
}

/**
 * Five commits of `rag-baseline.json` (plus one that does not touch it):
 *   1 Jan  first baseline: orders (recall@5 0.5 on 2, ndcg@10 0.6 on 2)
 *   2 Jan  better chunking: recall@5 → 1.0
 *   3 Jan  README only (not a baseline commit)
 *   4 Jan  search suite added; ndcg@10 gets a third question (0.6 → 0.7, n=3)
 *   5 Jan  file moved to eval/rag-baseline.json (no change in values)
 *   6 Jan  search mrr removed, orders recall@5 → 0.75
 */
export function baselineHistoryRepo(): GitRepo & { shas: string[]; path: string } {
  const repo = createGitRepo();
  const orders = 'test/orders.test.ts > orders API';
  const search = 'test/search.test.ts > search';
  const shas: string[] = [];
  repo.writeBaseline('rag-baseline.json', {
    [orders]: { 'recall@5': { q1: 1, q2: 0 }, 'ndcg@10': { q1: 0.7, q2: 0.5 } },
  });
  shas.push(repo.commit('Record the first baseline', 1));
  repo.writeBaseline('rag-baseline.json', {
    [orders]: { 'recall@5': { q1: 1, q2: 1 }, 'ndcg@10': { q1: 0.7, q2: 0.5 } },
  });
  shas.push(repo.commit('Better chunking', 2));
  repo.write('README.md', '# demo\n');
  repo.commit('Docs only', 3);
  repo.writeBaseline('rag-baseline.json', {
    [orders]: { 'recall@5': { q1: 1, q2: 1 }, 'ndcg@10': { q1: 0.7, q2: 0.5, q3: 0.9 } },
    [search]: { mrr: { s1: 1, s2: 0.5 }, 'recall@5': { s1: 1, s2: 1 } },
  });
  shas.push(repo.commit('Add the search suite', 4));
  repo.git('mv', 'rag-baseline.json', 'eval-baseline.json');
  mkdirSync(join(repo.dir, 'eval'), { recursive: true });
  repo.git('mv', 'eval-baseline.json', 'eval/rag-baseline.json');
  shas.push(repo.commit('Move the baseline under eval/', 5));
  repo.writeBaseline('eval/rag-baseline.json', {
    [orders]: { 'recall@5': { q1: 1, q2: 1, q3: 0.25, q4: 0.75 }, 'ndcg@10': { q1: 0.7, q2: 0.5, q3: 0.9 } },
    [search]: { 'recall@5': { s1: 1, s2: 1 } },
  });
  shas.push(repo.commit('Harder questions; drop mrr', 6));
  return Object.assign(repo, { shas, path: 'eval/rag-baseline.json' });
}
