// `rag-matchers merge` (the built bin) with shard reports that point outside the project, an empty
// shard, and reports or a baseline that cannot be written.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { ensureBuilt, REPO_ROOT } from '../integration/support/build.js';
import { cleanEnv, runCommand } from '../integration/support/run.js';

let root: string;

beforeAll(async () => {
  await ensureBuilt();
}, 240_000);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rag-merge-hostile-'));
  writeFileSync(join(root, 'a.test.ts'), '');
  writeFileSync(join(root, 'b.test.ts'), '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCommand(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), 'merge', ...args], {
    cwd: root,
    timeoutMs: 60_000,
    env: { CI: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined, RAG_BASELINE: undefined, ...env },
  });

function shard(
  name: string,
  index: number,
  count: number,
  options: Record<string, unknown>,
  files: string[],
  values: number[] = [],
): string {
  const samples = values.map((value, position) => ({
    measure: 'recall@5',
    value,
    pass: true,
    queryId: `q${position + 1}`,
    file: files[0],
    describePath: [],
    test: `t${position + 1}`,
  }));
  const path = join(root, name);
  writeFileSync(
    path,
    JSON.stringify({
      generatedBy: 'rag-matchers',
      kind: 'shard-samples',
      schemaVersion: 1,
      runner: 'jest',
      shard: { index, count },
      options,
      files,
      samples,
    }),
  );
  return path;
}

const BASELINE = [
  '{',
  '  "generatedBy": "rag-matchers",',
  '  "schemaVersion": 3,',
  '  "rows": [',
  '    ["file", "describe", "question", "measure", "value", "project"]',
  '    ,["a.test.ts", [], "q1", "recall@5", 1]',
  '    ,["a.test.ts", [], "q2", "recall@5", 1]',
  '  ]',
  '}',
  '',
].join('\n');

describe('rag-matchers merge: paths from shard reports', () => {
  it.each([
    ['json', '../escaped-report.json'],
    ['markdown', '/tmp/rag-merge-escape.md'],
    ['html', '../../escaped.html'],
    ['baseline', '../escaped-baseline.json'],
  ])('refuses a shard option %s = %s outside the project root (exit 2), writing nothing', async (name, value) => {
    const first = shard('rag-shard-1-of-1.json', 1, 1, { [name]: value }, ['a.test.ts'], [1]);
    const result = await cli([first], { RAG_BASELINE: 'update' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      `the shard reports' reporter option \`${name}\` is ${JSON.stringify(value)}, outside the project root`,
    );
    expect(result.stderr).toContain(`Pass --${name} <file>`);
    expect(existsSync(join(root, '..', 'escaped-report.json'))).toBe(false);
    expect(existsSync('/tmp/rag-merge-escape.md')).toBe(false);
    expect(existsSync(join(root, '..', 'escaped-baseline.json'))).toBe(false);
  });

  it('writes where the command line says, even outside the root, and inside the root where the shard says', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'rag-merge-out-'));
    try {
      const first = shard(
        'rag-shard-1-of-1.json',
        1,
        1,
        { json: '../nope.json', markdown: 'reports/summary.md' },
        ['a.test.ts'],
        [1],
      );
      const result = await cli([first, '--json', join(outside, 'report.json')]);
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(readFileSync(join(outside, 'report.json'), 'utf8'))).toMatchObject({
        generatedBy: 'rag-matchers',
      });
      expect(readFileSync(join(root, 'reports', 'summary.md'), 'utf8')).toContain('recall@5');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('rag-matchers merge: shard paths inside the root that name project files', () => {
  // Before, each of these was overwritten with the report (git then failed: "bad config line 1").
  it.each([
    ['json', 'package.json', '{ "name": "victim" }\n', 'an existing file that rag-matchers did not write'],
    ['markdown', 'README.md', '# Victim\n', 'an existing file that rag-matchers did not write'],
    // Not a JSON report although rag-matchers wrote it (another suite's baseline): the reporters' own
    // recogniser (src/gate/option-files.ts) refuses it, and merge now asks the same one.
    [
      'json',
      'eval/other-baseline.json',
      '{ "generatedBy": "rag-matchers", "schemaVersion": 5 }\n',
      'an existing file that rag-matchers did not write',
    ],
    ['json', '.git/config', '[core]\n', 'not a .json file'],
    ['html', '.github/workflows/release.yml', 'on: push\n', 'not a .html file'],
    ['baseline', '.github/rag-baseline.json', '{}\n', 'in a hidden folder'],
  ])('refuses %s = %s (exit 2), leaving the file as it was', async (name, value, contents, problem) => {
    mkdirSync(join(root, value, '..'), { recursive: true });
    writeFileSync(join(root, value), contents);
    const result = await cli([shard('rag-shard-1-of-1.json', 1, 1, { [name]: value }, ['a.test.ts'], [1])], {
      RAG_BASELINE: 'update',
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      `the shard reports' reporter option \`${name}\` is ${JSON.stringify(value)}, ${problem}; a path from a shard report may name only a new`,
    );
    expect(result.stderr).toContain(`Pass --${name} <file>`);
    expect(readFileSync(join(root, value), 'utf8')).toBe(contents);
  });

  it('writes over a report rag-matchers wrote before, where the shard says', async () => {
    const report = shard('rag-shard-1-of-1.json', 1, 1, { json: 'out/report.json' }, ['a.test.ts'], [1]);
    mkdirSync(join(root, 'out'));
    expect((await cli([report])).exitCode).toBe(0);
    const second = await cli([report]);
    expect(second.stderr).toBe('');
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(root, 'out', 'report.json'), 'utf8'))).toMatchObject({
      generatedBy: 'rag-matchers',
    });
  });
});

describe('rag-matchers merge: a shard report nested 20,000 levels deep', () => {
  it('is refused with exit 2 naming the file, not a stack overflow', async () => {
    // Before: RangeError: Maximum call stack size exceeded, from comparing the shards' options as JSON.
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const first = shard('rag-shard-1-of-2.json', 1, 2, {}, ['a.test.ts'], [1]);
    const second = join(root, 'rag-shard-2-of-2.json');
    writeFileSync(
      second,
      readFileSync(first, 'utf8')
        .replace('"options":{}', `"options":{"measures":${deep}}`)
        .replace('"index":1', '"index":2'),
    );
    const result = await cli([first, second]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^rag-matchers merge: .*rag-shard-2-of-2\.json: nests objects and arrays more than 64 levels deep \(at character \d+\); not a shard report/,
    );
    expect(result.stderr).not.toContain('RangeError');
  });
});

describe('rag-matchers merge: paths from shard reports through symlinks', () => {
  let outside: string;
  beforeEach(() => {
    outside = mkdtempSync(join(tmpdir(), 'rag-merge-link-target-'));
    writeFileSync(join(outside, 'kept.json'), 'kept\n');
  });
  afterEach(() => rmSync(outside, { recursive: true, force: true }));

  it.each([
    [
      'a folder inside the root that links outside',
      'reports/report.json',
      () => symlinkSync(outside, join(root, 'reports')),
    ],
    [
      'a file inside the root that links outside',
      'rag-report.json',
      () => symlinkSync(join(outside, 'kept.json'), join(root, 'rag-report.json')),
    ],
    [
      'a dangling link that points outside',
      'rag-report.json',
      () => symlinkSync(join(outside, 'new.json'), join(root, 'rag-report.json')),
    ],
    [
      'links that loop',
      'loop/report.json',
      () => {
        symlinkSync(join(root, 'loop2'), join(root, 'loop'));
        symlinkSync(join(root, 'loop'), join(root, 'loop2'));
      },
    ],
  ])('refuses %s (exit 2), writing nothing there', async (_what, json, link) => {
    link();
    const result = await cli([shard('rag-shard-1-of-1.json', 1, 1, { json }, ['a.test.ts'], [1])]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      `the shard reports' reporter option \`json\` is ${JSON.stringify(json)}, outside the project root`,
    );
    expect(readFileSync(join(outside, 'kept.json'), 'utf8')).toBe('kept\n');
    expect(existsSync(join(outside, 'report.json'))).toBe(false);
    expect(existsSync(join(outside, 'new.json'))).toBe(false);
  });

  it('accepts a link that stays inside the root', async () => {
    mkdirSync(join(root, 'out'));
    symlinkSync(join(root, 'out'), join(root, 'reports'));
    const result = await cli([
      shard('rag-shard-1-of-1.json', 1, 1, { json: 'reports/report.json' }, ['a.test.ts'], [1]),
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(root, 'out', 'report.json'), 'utf8'))).toMatchObject({
      generatedBy: 'rag-matchers',
    });
  });
});

describe('rag-matchers merge: empty shards', () => {
  it('merges a shard that ran no test files next to one that did', async () => {
    const first = shard('rag-shard-1-of-2.json', 1, 2, {}, ['a.test.ts'], [1, 0.5]);
    const second = shard('rag-shard-2-of-2.json', 2, 2, {}, []);
    const result = await cli([first, second]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Merged 2 shards: 2 samples from 1 test files.');
  });

  it('merges a run whose only shard recorded nothing', async () => {
    const result = await cli([shard('rag-shard-1-of-1.json', 1, 1, {}, [])]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Merged 1 shard: 0 samples from 0 test files.');
  });
});

describe('rag-matchers merge: a report that cannot be written', () => {
  it('still prints the regression and exits 1 (not 2) when the json report names a folder', async () => {
    writeFileSync(join(root, 'rag-baseline.json'), BASELINE);
    mkdirSync(join(root, 'out'));
    const result = await cli([shard('rag-shard-1-of-1.json', 1, 1, {}, ['a.test.ts'], [0, 1]), '--json', 'out']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('a.test.ts  recall@5');
    expect(result.stdout).toContain('accept it with');
    expect(result.stderr.trim().split('\n')).toEqual([
      `rag-matchers: could not write the JSON report ${join(root, 'out')}: it is a folder; name a file such as rag-report.json (EISDIR).`,
    ]);
  });

  it('run as another user on a read-only baseline folder: prints the summary, says the baseline could not be written, and fails (exit 1)', () => {
    writeFileSync(join(root, 'rag-baseline.json'), BASELINE);
    const shardPath = shard('rag-shard-1-of-1.json', 1, 1, {}, ['a.test.ts'], [1, 1, 0.5]);
    // root owns the folder (0755): "nobody" can read it but not create the lock or temp file.
    chmodSync(root, 0o755);
    const result = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), 'merge', shardPath], {
      cwd: root,
      uid: 65534,
      gid: 65534,
      encoding: 'utf8',
      env: cleanEnv({
        RAG_BASELINE: 'update',
        CI: undefined,
        GITHUB_ACTIONS: undefined,
        GITHUB_STEP_SUMMARY: undefined,
        HOME: root,
      }),
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain('a.test.ts  recall@5');
    expect(result.stderr.trim().split('\n')).toEqual([
      'rag-matchers: could not write the baseline rag-baseline.json: permission denied (EACCES).',
    ]);
    expect(readFileSync(join(root, 'rag-baseline.json'), 'utf8')).toBe(BASELINE);
  });
});
