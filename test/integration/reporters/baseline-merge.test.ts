// Baselines that merge, as a team meets them: a real git repository, branches that each record questions
// through a real `vitest run` with the reporter, `git merge`, and the commands the docs give run as written
// through a shell (`npx …` resolved from the project's node_modules/.bin, as after `npm install`).
// The tests are one story on one repository and run in order; each leaves main committed and clean.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { REPO_ROOT } from '../support/build.js';
import { createFixtureProject, type FixtureProject, type PackageSnapshot } from '../support/project.js';
import { describeRun, runCommand, type RunResult } from '../support/run.js';
import { preparePackage } from './support.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'merge-project');
const RECORD = 'RAG_BASELINE=update npx vitest run';
const CHECK = 'CI=true npx vitest run';
const DRIVER_SETUP = [
  "echo 'rag-baseline.json merge=rag-baseline' >> .gitattributes",
  'git config merge.rag-baseline.driver "npx rag-matchers merge-baseline %O %A %B"',
];
const REFUNDS_ONLY = "RAG_BASELINE=update npx vitest run test/orders.test.ts -t 'orders API refunds '";
/** What the driver prints for the conflict of the last test, as docs/baselines-and-ci.md shows it. */
const CONFLICT_REPORT = [
  'rag-matchers merge-baseline: 1 row was changed differently on both branches; the file keeps it between conflict markers:',
  '  test/orders.test.ts > orders API > refunds · refund-window · ndcg@3: ours 1, theirs 0.6131471927654584 (was 0.9197207891481876)',
  "In each conflict keep one side's rows and delete the marker lines, then re-record just that suite and commit the file:",
  `  ${REFUNDS_ONLY}`,
].join('\n');

let pkg: PackageSnapshot;
let project: FixtureProject;

/** A command line run by sh in the project, as a user types it. */
function sh(command: string, env: Record<string, string | undefined> = {}): Promise<RunResult> {
  return runCommand('sh', ['-c', command], {
    cwd: project.dir,
    timeoutMs: 120_000,
    env: { CI: undefined, RAG_BASELINE: undefined, GITHUB_ACTIONS: undefined, ...env },
  });
}

async function ok(command: string): Promise<RunResult> {
  const result = await sh(command);
  expect(result.exitCode, describeRun(result)).toBe(0);
  return result;
}

function addQuestion(topic: string, id: string, hits: string[]): void {
  const question = { id, question: `question ${id}`, relevant: [hits[0]], hits };
  writeFileSync(project.path('questions', topic, `${id}.json`), `${JSON.stringify(question)}\n`);
}

/** A branch from main on which `change` is made and recorded with the update command, then committed. */
async function recordOnBranch(branch: string, change: () => void): Promise<void> {
  await ok(`git checkout -q -b ${branch} main`);
  change();
  await ok(RECORD);
  await ok(`git add -A && git commit -q -m "${branch}"`);
}

const baselineText = (): string => readFileSync(project.path('rag-baseline.json'), 'utf8');
const calls = (): string[] => readFileSync(project.path('calls.log'), 'utf8').trim().split('\n');

beforeAll(async () => {
  pkg = await preparePackage();
  project = createFixtureProject({
    fixture: FIXTURE,
    name: 'rag-baseline-merge',
    packages: ['vitest'],
    links: { 'rag-matchers': pkg.dir },
  });
  // What npm install adds: the packages' commands in node_modules/.bin, which npx runs.
  mkdirSync(project.path('node_modules', '.bin'));
  symlinkSync('../vitest/vitest.mjs', project.path('node_modules', '.bin', 'vitest'));
  symlinkSync('../rag-matchers/dist/cli.js', project.path('node_modules', '.bin', 'rag-matchers'));
  await ok(
    'git init -q -b main && git config user.name Tester && git config user.email tester@example.com && git config commit.gpgsign false',
  );
  await ok(RECORD);
  await ok('git add -A && git commit -q -m "Record the baseline"');
}, 180_000);

afterAll(() => {
  project?.remove();
  pkg?.remove();
});

describe('merging rag-baseline.json', { timeout: 240_000 }, () => {
  it('runs the commands the docs give, as they give them', () => {
    const docs = (page: string): string => readFileSync(join(REPO_ROOT, 'docs', page), 'utf8');
    for (const page of ['baselines-and-ci.md', 'cli.md']) expect(docs(page)).toContain(DRIVER_SETUP.join('\n'));
    expect(docs('baselines-and-ci.md')).toContain('\ngit checkout -m rag-baseline.json\ngit add rag-baseline.json\n');
    expect(docs('baselines-and-ci.md')).toContain(`\n${CONFLICT_REPORT}\n`);
  });

  it('merges two branches that each recorded a different question with plain git merge, and CI passes without re-recording', async () => {
    await recordOnBranch('add-late', () =>
      addQuestion('refunds', 'refund-late', ['late-refunds', 'refund-policy', 'returns']),
    );
    await recordOnBranch('add-wrong-item', () =>
      addQuestion('refunds', 'refund-wrong-item', ['returns', 'wrong-items', 'refund-policy']),
    );
    await ok('git checkout -q main && git merge -q --no-edit add-late && git merge -q --no-edit add-wrong-item');

    expect(baselineText()).toMatch(
      /\n {4},\["test\/orders\.test\.ts", \["orders API", "refunds"\], "refund-late", "recall@3", 1, \{"labels": "[0-9a-f]{8}"[^\n]*\}\]\n/,
    );
    expect(baselineText()).toMatch(
      /\n {4},\["test\/orders\.test\.ts", \["orders API", "refunds"\], "refund-wrong-item", "recall@3", 1, \{"labels": "[0-9a-f]{8}"[^\n]*\}\]\n/,
    );
    const ci = await sh(CHECK);
    expect(ci.exitCode, describeRun(ci)).toBe(0);
    expect(ci.stdout).not.toContain('not in the baseline');
  });

  it('tells how to resolve a baseline git left with conflict markers, and the merge driver resolves it with git checkout -m', async () => {
    // Both new questions sort between the same two rows: git's line merge cannot order them.
    await recordOnBranch('add-partial', () =>
      addQuestion('refunds', 'refund-partial', ['partial-refunds', 'returns', 'refund-faq']),
    );
    await recordOnBranch('add-status', () =>
      addQuestion('refunds', 'refund-status', ['refund-tracking', 'returns', 'order-status']),
    );
    await ok('git checkout -q main && git merge -q --no-edit add-partial');
    const merge = await sh('git merge --no-edit add-status');
    expect(merge.exitCode, describeRun(merge)).toBe(1);
    expect(merge.stdout).toContain('CONFLICT (content): Merge conflict in rag-baseline.json');

    const stuck = await sh(CHECK);
    expect(stuck.exitCode).toBe(1);
    expect(stuck.stdout + stuck.stderr).toMatch(
      /rag-baseline\.json: line \d+ holds a Git merge-conflict marker \(<<<<<<<\): git's line merge stopped here\. To merge it without re-running anything, set up the rag-matchers merge driver once \(docs\/baselines-and-ci\.md, "Merging baselines"\) and run git checkout -m (\S+)\/rag-baseline\.json; or take one side whole \(git checkout --ours \1\/rag-baseline\.json, or --theirs\)/,
    );

    for (const command of DRIVER_SETUP) await ok(command);
    writeFileSync(project.path('calls.log'), '');
    await ok('git checkout -m rag-baseline.json');
    expect(baselineText()).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m);
    await ok('git add rag-baseline.json');
    await ok('git add .gitattributes && git commit -q --no-edit');
    expect(readFileSync(project.path('calls.log'), 'utf8')).toBe('');

    const ci = await sh(CHECK);
    expect(ci.exitCode, describeRun(ci)).toBe(0);
  });

  it('merges with the driver configured where git alone would conflict', async () => {
    await recordOnBranch('add-express', () =>
      addQuestion('shipping', 'ship-express', ['express-shipping', 'shipping-times', 'customs']),
    );
    await recordOnBranch('add-free', () =>
      addQuestion('shipping', 'ship-free', ['free-shipping', 'shipping-times', 'customs']),
    );
    // Both rows go after the last one: git's line merge alone conflicts (git merge-file counts 1 conflict).
    const versions = join(project.dir, '..', `${basename(project.dir)}-versions`);
    mkdirSync(versions);
    const show = (rev: string, name: string) => `git show ${rev}:rag-baseline.json > ${join(versions, name)}`;
    await ok([show('main', 'base'), show('add-express', 'ours'), show('add-free', 'theirs')].join(' && '));
    const plain = await sh(
      `git merge-file -p ${['ours', 'base', 'theirs'].map((name) => join(versions, name)).join(' ')}`,
    );
    rmSync(versions, { recursive: true });
    expect(plain.exitCode, describeRun(plain)).toBe(1);

    await ok('git checkout -q main && git merge -q --no-edit add-express && git merge -q --no-edit add-free');

    const text = baselineText();
    expect(text).toContain('"ship-express", "recall@3", 1, {"labels": ');
    expect(text).toContain('"ship-free", "recall@3", 1, {"labels": ');
    const ci = await sh(CHECK);
    expect(ci.exitCode, describeRun(ci)).toBe(0);
  });

  it('keeps a question both branches changed differently as a conflict naming it and the command that re-records just its suite', async () => {
    // refund-window's hits lose a different document on each branch: its nDCG moves both ways.
    await recordOnBranch('drop-noise', () => writeFileSync(project.path('excluded', 'shipping-times'), ''));
    await recordOnBranch('drop-faq', () => writeFileSync(project.path('excluded', 'refund-faq'), ''));
    await ok('git checkout -q main && git merge -q --no-edit drop-noise');
    const merge = await sh('git merge --no-edit drop-faq');
    expect(merge.exitCode, describeRun(merge)).toBe(1);
    expect(merge.stderr).toContain(CONFLICT_REPORT);

    const stuck = await sh(CHECK);
    expect(stuck.exitCode).toBe(1);
    expect(stuck.stdout + stuck.stderr).toContain(
      `holds a conflict the merge driver left (<<<<<<<): the same question was recorded differently on both branches. In each conflict keep one side's rows and delete the marker lines, then re-record just those suites: ${REFUNDS_ONLY}`,
    );

    // Keep ours, then re-record the suite with the command as printed: only the refunds questions run.
    const kept = baselineText()
      .replace(/^=======\n[^]*?^>>>>>>> .*\n/m, '')
      .replace(/^<<<<<<< ours\n/m, '');
    writeFileSync(project.path('rag-baseline.json'), kept);
    writeFileSync(project.path('calls.log'), '');
    await ok(REFUNDS_ONLY);
    expect(calls().sort()).toEqual([
      'refund-damaged',
      'refund-late',
      'refund-partial',
      'refund-status',
      'refund-window',
      'refund-wrong-item',
    ]);
    await ok('git add rag-baseline.json && git commit -q --no-edit');

    const ci = await sh(CHECK);
    expect(ci.exitCode, describeRun(ci)).toBe(0);
  });
});
