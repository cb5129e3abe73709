// One reader of the baseline file: a damaged baseline gets the same diagnosis from the reporters' end of
// a run (finishRun, what both reporters call), `rag-matchers merge`, `merge-baseline` and `history` (the
// built bin). Before, `merge` called any baseline JSON.parse could not read "an existing file that
// rag-matchers did not write" (exit 2): an empty, truncated or conflicted file, or one with a BOM.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { finishRun } from '../../src/gate/finish.js';
import { resolveReporterOptions } from '../../src/gate/options.js';
import type { CollectedRun } from '../../src/recording/collected.js';
import { createGitRepo, type GitRepo } from '../browser/git-fixture.js';
import { ensureBuilt, REPO_ROOT } from '../integration/support/build.js';
import { runCommand } from '../integration/support/run.js';

const HINT =
  'fix it by hand, restore it from version control (git checkout -- <file>), or delete it and record a new one with RAG_BASELINE=update';

const ROWS = [
  '    ["file", "describe", "question", "measure", "value", "project"]',
  '    ,["a.test.ts", [], "q1", "recall@5", 1]',
  '    ,["a.test.ts", [], "q2", "recall@5", 1]',
];
const GOOD = ['{', '  "generatedBy": "rag-matchers",', '  "schemaVersion": 3,', '  "rows": [', ...ROWS, '  ]', '}', ''];

interface Damage {
  name: string;
  text: string;
  /** The problem every reader names, given the path it read the file at. */
  problem: (path: string) => string;
}

const DAMAGES: Damage[] = [
  { name: 'empty', text: '', problem: () => `the file is empty, so it holds no baseline; ${HINT}.` },
  {
    name: 'whitespace only',
    text: '  \n\n',
    problem: () => `the file is empty (only whitespace), so it holds no baseline; ${HINT}.`,
  },
  {
    // Line 4 is `  "rows": [x]`: the x is its 12th character.
    name: 'not JSON',
    text: '{\n  "generatedBy": "rag-matchers",\n  "schemaVersion": 3,\n  "rows": [x]\n}\n',
    problem: () => `not valid JSON: unexpected "x" at line 4, column 12; ${HINT}.`,
  },
  {
    // Cut after the comma that starts row 2's line (line 7, `    ,`): the file ends at its 6th column.
    name: 'truncated',
    text: GOOD.slice(0, 6).join('\n') + '\n    ,',
    problem: () => `not valid JSON: unexpected end of the file at line 7, column 6; ${HINT}.`,
  },
  {
    name: 'git conflict markers',
    text: [
      ...GOOD.slice(0, 6),
      '<<<<<<< HEAD',
      ROWS[2],
      '=======',
      '    ,["a.test.ts", [], "q2", "recall@5", 0.5]',
      '>>>>>>> branch',
      ...GOOD.slice(7),
    ].join('\n'),
    // A committed version (history's `<sha>:<path>`) has no merge to resolve: it is shown, not checked out.
    problem: (path) =>
      /^[0-9a-f]{7,}:/.test(path)
        ? `line 7 holds a Git merge-conflict marker (<<<<<<<): this version was committed before its merge was resolved, so it holds no baseline. See it with git show ${path}`
        : `line 7 holds a Git merge-conflict marker (<<<<<<<): git's line merge stopped here. To merge it without re-running anything, set up the rag-matchers merge driver once (docs/baselines-and-ci.md, "Merging baselines") and run git checkout -m ${path}; or take one side whole (git checkout --ours ${path}, or --theirs) and re-record what the other side changed with RAG_BASELINE=update.`,
  },
  {
    name: 'schema version 2',
    text: '{"generatedBy":"rag-matchers","schemaVersion":2,"suites":[{"file":"a.test.ts","describe":[],"measures":{"recall@5":{"q1":1}}}]}\n',
    problem: () =>
      'written in baseline schema version 2, which rag-matchers no longer reads (it reads versions 3 to 7); delete it and record a new one with RAG_BASELINE=update (e.g. RAG_BASELINE=update npx vitest run). The file was left as it is.',
  },
  {
    name: 'another JSON file',
    text: '{"name": "app", "version": "1.0.0"}\n',
    problem: () =>
      'not a rag-matchers baseline: expected "generatedBy": "rag-matchers" and a "schemaVersion", found keys "name", "version". Check the `baseline` option points at the right file.',
  },
];

/** The good baseline as an editor on Windows saves it: a byte-order mark and CRLF line ends. */
const BOM_CRLF = `\uFEFF${GOOD.join('\r\n')}`;

const RUN: CollectedRun = {
  runner: 'jest',
  files: ['a.test.ts'],
  samples: [1, 2].map((n) => ({
    measure: 'recall@5',
    value: 1,
    pass: true,
    queryId: `q${n}`,
    file: 'a.test.ts',
    describePath: [],
    test: `t${n}`,
  })),
};

let dir: string;
let repo: GitRepo;
/** history's output over a repository whose baseline went through every damage (one spawn). */
let history: { stdout: string; shas: Map<string, string> };

const bin = (args: string[], cwd: string) =>
  runCommand(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), ...args], {
    cwd,
    timeoutMs: 60_000,
    env: { CI: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined, RAG_BASELINE: undefined },
  });

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rag-baseline-damage-'));
  writeFileSync(join(dir, 'a.test.ts'), '');
  repo = createGitRepo('rag-baseline-damage-git-');
  const shas = new Map<string, string>();
  repo.write('rag-baseline.json', GOOD.join('\n'));
  repo.commit('good', 1);
  DAMAGES.forEach((damage, index) => {
    repo.write('rag-baseline.json', damage.text);
    shas.set(damage.name, repo.short(repo.commit(damage.name, index + 2)));
  });
  // Another value than the good commit's, so that history lists the version.
  repo.write('rag-baseline.json', BOM_CRLF.replace('"q2", "recall@5", 1]', '"q2", "recall@5", 0.5]'));
  shas.set('bom', repo.short(repo.commit('bom', DAMAGES.length + 2)));
  const result = await bin(['history', '--baseline', join(repo.dir, 'rag-baseline.json')], repo.dir);
  expect(result.exitCode, result.stderr).toBe(0);
  history = { stdout: result.stdout, shas };
}, 240_000);
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  repo?.remove();
});

/** What the reporters print: finishRun with the baseline at `path` (relative to `root`). */
async function reporterLines(root: string): Promise<string[]> {
  const errors: string[] = [];
  await finishRun(RUN, {
    rootDir: root,
    options: resolveReporterOptions({ baseline: 'rag-baseline.json' }, { rootDir: root, runner: 'jest', env: {} }),
    print: () => {},
    printError: (text) => errors.push(text),
    color: false,
    env: {},
  });
  return errors;
}

function writeShard(root: string): string {
  const path = join(root, 'rag-shard-1-of-1.json');
  writeFileSync(
    path,
    JSON.stringify({
      generatedBy: 'rag-matchers',
      kind: 'shard-samples',
      schemaVersion: 1,
      runner: 'jest',
      shard: { index: 1, count: 1 },
      // Named in the shard's options: the path merge checks before writing there.
      options: { baseline: 'rag-baseline.json' },
      files: RUN.files,
      samples: RUN.samples,
    }),
  );
  return path;
}

describe('a damaged baseline gets one diagnosis from every reader', { timeout: 60_000 }, () => {
  it.each(DAMAGES.map((damage) => [damage.name, damage] as const))('%s', async (_name, damage) => {
    const root = mkdtempSync(join(dir, 'case-'));
    const baseline = join(root, 'rag-baseline.json');
    writeFileSync(baseline, damage.text);
    const problem = damage.problem(baseline);

    // The reporters.
    expect(await reporterLines(root)).toEqual([`rag-matchers: cannot use the baseline rag-baseline.json: ${problem}`]);

    // merge: the same line, unless the file is not a baseline at all (then it refuses to write over it).
    const merge = await bin(['merge', writeShard(root)], root);
    if (damage.name === 'another JSON file') {
      expect(merge.exitCode).toBe(2);
      expect(merge.stderr).toContain(
        'the shard reports\' reporter option `baseline` is "rag-baseline.json", an existing file that rag-matchers did not write',
      );
    } else {
      expect(merge.exitCode, merge.stderr).toBe(1);
      expect(merge.stderr).toContain(`rag-matchers: cannot use the baseline rag-baseline.json: ${problem}\n`);
      expect(merge.stderr).not.toContain('did not write');
    }

    // merge-baseline: OURS is the damaged file.
    const good = join(root, 'good.json');
    writeFileSync(good, GOOD.join('\n'));
    const driver = await bin(['merge-baseline', good, baseline, good], root);
    expect(driver.exitCode).toBe(2);
    expect(driver.stderr).toBe(
      `rag-matchers merge-baseline: cannot merge: ours (OURS) is not a baseline it can read: ${baseline}: ${problem}\n`,
    );

    // history: the commit that damaged the file is left out, naming the problem.
    const sha = history.shas.get(damage.name)!;
    expect(history.stdout).toContain(
      `Note: ${sha} left out: ${sha}:rag-baseline.json: ${damage.problem(`${sha}:rag-baseline.json`)}\n`,
    );
  });

  it('a byte-order mark and CRLF line ends are read as the reporters read them', async () => {
    const root = mkdtempSync(join(dir, 'case-'));
    const baseline = join(root, 'rag-baseline.json');
    writeFileSync(baseline, BOM_CRLF);
    expect(await reporterLines(root)).toEqual([]);
    const merge = await bin(['merge', writeShard(root)], root);
    expect(merge.stderr).toBe('');
    expect(merge.exitCode).toBe(0);
    expect(merge.stdout).toMatch(/a\.test\.ts +recall@5 +2 +1\.000 .* 1\.000 +0\.000 +unchanged\n/);
    const good = join(root, 'good.json');
    writeFileSync(good, GOOD.join('\n'));
    expect(await bin(['merge-baseline', good, baseline, good], root)).toMatchObject({ exitCode: 0, stderr: '' });
    const bom = history.shas.get('bom')!;
    expect(history.stdout).not.toContain(`${bom} left out`);
    expect(history.stdout).toMatch(new RegExp(`\\n  ${bom}  2025-01-09  0\\.750 -0\\.250  bom\\n`));
  });
});
