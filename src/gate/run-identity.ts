// The identity of a run, so that a merge can tell its own shards from a stale or foreign one: the
// commit the tests ran on and a fingerprint of the declared measures (src/recording/run-stamp.ts).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { declaresAnything, type WorkerDeclaration } from '../recording/declaration.js';
import type { RunStamp } from '../recording/run-stamp.js';

const commits = new Map<string, string>();

/**
 * The commit the run tests: GITHUB_SHA under GitHub Actions (every job of a workflow run shares it),
 * else `git rev-parse HEAD` in `root`, else '' (not a git checkout: nothing to compare).
 */
export function currentCommit(root: string, env: Record<string, string | undefined> = process.env): string {
  const fromCi = env.GITHUB_SHA?.trim();
  if (fromCi) return fromCi;
  let commit = commits.get(root);
  if (commit === undefined) {
    try {
      commit = execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 5_000,
      }).trim();
    } catch {
      commit = '';
    }
    commits.set(root, commit);
  }
  return commit;
}

/** A short fingerprint of what is declared (measures and overrides; not the root, which differs between machines). */
function declarationFingerprint(declaration: WorkerDeclaration): string {
  if (!declaresAnything(declaration)) return '';
  const canonical = JSON.stringify([
    declaration.measures,
    declaration.suites.map((suite) => [suite.path, suite.measures]),
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 12);
}

export function runStampOf(
  root: string,
  declaration: WorkerDeclaration,
  env: Record<string, string | undefined> = process.env,
): RunStamp {
  return { declaration: declarationFingerprint(declaration), commit: currentCommit(root, env) };
}

/**
 * Why samples stamped `recorded` do not belong to a run stamped `expected`, or undefined when they do.
 * A missing stamp is only a problem when measures are declared (they cannot have been recorded).
 */
export function staleStampReason(recorded: RunStamp | undefined, expected: RunStamp): string | undefined {
  if (recorded === undefined) {
    return expected.declaration === ''
      ? undefined
      : "recorded without the declared measures: a blob reporter given on the command line replaces the config's reporters, so declare them with ragVitestReporter({ measures: [...] }) in vitest.config.ts, which publishes them as the config loads";
  }
  if (recorded.commit !== '' && expected.commit !== '' && recorded.commit !== expected.commit)
    return `recorded at commit ${recorded.commit.slice(0, 12)}, merged at ${expected.commit.slice(0, 12)}: a shard report from an earlier run`;
  if (recorded.declaration !== expected.declaration)
    return "recorded with other declared measures than the merging reporter's options";
  return undefined;
}
