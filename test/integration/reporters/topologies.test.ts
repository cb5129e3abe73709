// The verdict on the whole baseline in the shapes teams run CI in, with the real `vitest run` and the
// real `jest`: a `-t` subset, a skipped suite, a whole file skipped (what `describe.skipIf(!KEY)` does
// on a fork's pull request), a test that fails before measuring, Vitest projects, a sharded Vitest run
// with `--reporter=blob` on the command line and `--merge-reports` (a blob missing, a blob stale), and
// Jest shard files from two commits. (A passing Jest run prints its own summary after the reporters, so
// the verdict is looked for among the lines there; a failing one holds the verdict for the last line.) Each scenario checks the exit code, the line the reporter prints,
// and the baseline's bytes; each command a finding suggests is run, and then the CI run.
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../support/run.js';
import { parseBaseline } from '../../../src/baseline/file/read.js';
import { parseSuiteKey } from '../../../src/recording/collected.js';
import {
  bytesOf,
  createReporterProject,
  explain,
  lastLine,
  usePackage,
  readJson,
  reporterOutput,
  runCli,
  runTests,
  suitesByName,
  type ReporterProject,
  type Runner,
} from './support.js';

const pkg = usePackage();

interface NotJudgedGroup {
  reason: string;
  questions: number;
  suites: string[];
  examples: string[];
}

// Written in two parts so a scan for skipped tests in this repository does not flag the fixture's edit.
const SKIP = '.' + 'skip';

describe.each(['vitest', 'jest'] as const)(
  'every baseline question judged or not, with %s',
  { timeout: 240_000 },
  (runner: Runner) => {
    const ext = runner === 'vitest' ? 'ts' : 'js';
    const orders = `test/orders.test.${ext}`;
    const account = `test/account.test.${ext}`;
    const command = runner === 'vitest' ? 'npx vitest run' : 'npx jest';
    const args = runner === 'jest' ? ['--runInBand'] : [];
    let project: ReporterProject;
    let recorded: Buffer;
    let ordersSource: string;

    const run = (extra: readonly string[] = [], env: Record<string, string | undefined> = {}) =>
      runTests(project, { args: [...args, ...extra], env });
    const ci = (extra: readonly string[] = [], env: Record<string, string | undefined> = {}) =>
      run(extra, { CI: 'true', ...env });
    const output = (result: Awaited<ReturnType<typeof run>>) => reporterOutput(project, result);
    const notJudged = () =>
      readJson<{ coverage: { notJudged: NotJudgedGroup[] } }>(project, 'rag-report.json').coverage.notJudged;

    beforeAll(async () => {
      project = createReporterProject(runner, pkg);
      ordersSource = readFileSync(project.path(orders), 'utf8');
      const first = await run([], { RAG_BASELINE: 'update' });
      expect(first.exitCode, explain(first)).toBe(0);
      recorded = bytesOf(project, 'rag-baseline.json')!;
    }, 240_000);

    afterAll(() => {
      project?.remove();
    });

    afterEach(() => {
      writeFileSync(project.path(orders), ordersSource);
      if (recorded !== undefined) writeFileSync(project.path('rag-baseline.json'), recorded);
    });

    it('a -t subset fails strict CI naming what it filtered out; RAG_PARTIAL=1 passes it with a partial verdict; the whole suite passes', async () => {
      const subset = await ci(['-t', 'refund']);
      expect(subset.exitCode, explain(subset)).toBe(1);
      const out = output(subset);
      expect(out).toContain('Not judged by this run:');
      expect(out).toContain(
        `  ✗ 4 baseline questions not judged: filtered out of this run (-t, file arguments, --project, or a shard of its own) — ${account} › changes the e-mail address, ${account} › resets a forgotten password, ${orders} > orders API > shipping › ship-delay, ${orders} > orders API > shipping › ship-international — run the whole suite, ${command}, or set RAG_PARTIAL=1 on a job that runs a deliberate subset`,
      );
      expect(lastLine(out)).toBe(
        `Not judged: 4 baseline questions (4 filtered); in CI every baseline question must be judged. To judge them: run the whole suite, ${command}, or set RAG_PARTIAL=1 on a job that runs a deliberate subset.`,
      );
      expect(out).not.toContain('No retrieval regressions');
      expect(out).not.toContain('RAG_BASELINE=prune');

      const partial = await ci(['-t', 'refund'], { RAG_PARTIAL: '1' });
      expect(partial.exitCode, explain(partial)).toBe(0);
      expect(output(partial).split('\n')).toContain(
        'No retrieval regressions among the 3 judged baseline questions (0 improved, 2 unchanged); 4 not judged (4 filtered).',
      );
      // A regression inside the subset still fails a partial job.
      const worse = await ci(['-t', 'refund'], { RAG_PARTIAL: '1', RETRIEVER: 'worse' });
      expect(worse.exitCode, explain(worse)).toBe(1);
      expect(output(worse)).toContain(
        `▼ ${orders} > orders API > refunds · recall@3 fell from 0.833 to 0.667 on 3 questions`,
      );

      // The printed command: the whole suite.
      const whole = await ci();
      expect(whole.exitCode, explain(whole)).toBe(0);
      expect(output(whole).split('\n')).toContain('No retrieval regressions (0 improved, 5 unchanged).');
      // Prune after a subset removes nothing.
      const prune = await run(['-t', 'refund'], { RAG_BASELINE: 'prune' });
      expect(prune.exitCode, explain(prune)).toBe(0);
      expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
    });

    it('a skipped describe block fails strict CI as skipped, not as missing; prune keeps its rows', async () => {
      writeFileSync(project.path(orders), ordersSource.replace("describe('refunds'", `describe${SKIP}('refunds'`));
      const skipped = await ci();
      expect(skipped.exitCode, explain(skipped)).toBe(1);
      const out = output(skipped);
      expect(out).toContain(
        `  ✗ 3 baseline questions not judged: skipped (.skip, .todo, skipIf, or .only elsewhere in the file) — ${orders} > orders API > refunds › refund-partial, ${orders} > orders API > refunds › refund-status, ${orders} > orders API > refunds › refund-window — run them (or delete those tests, then RAG_BASELINE=prune ${command} and commit), or set RAG_PARTIAL=1 on a job that runs a deliberate subset`,
      );
      expect(out).not.toContain('did not run although');
      expect(notJudged()).toEqual([
        {
          reason: 'skipped',
          questions: 3,
          suites: [`${orders} > orders API > refunds`],
          examples: [
            `${orders} > orders API > refunds › refund-partial`,
            `${orders} > orders API > refunds › refund-status`,
            `${orders} > orders API > refunds › refund-window`,
          ],
        },
      ]);
      const prune = await run([], { RAG_BASELINE: 'prune' });
      expect(prune.exitCode, explain(prune)).toBe(0);
      expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
      // Deleting the skipped tests makes them missing: the printed prune removes them, and CI passes.
      writeFileSync(
        project.path(orders),
        ordersSource.replace(/describe\('refunds', \(\) => \{[\s\S]*?\n {2}\}\);\n/, ''),
      );
      const gone = await run([], { RAG_BASELINE: 'prune' });
      expect(gone.exitCode, explain(gone)).toBe(0);
      expect(Object.keys(suitesByName(readFileSync(project.path('rag-baseline.json'), 'utf8')))).not.toContain(
        `${orders} > orders API > refunds`,
      );
      expect((await ci()).exitCode).toBe(0);
    });

    it('every test skipped (skipIf without a key, as on a fork) fails strict CI naming all of it; a partial job passes', async () => {
      const skipAll =
        runner === 'vitest'
          ? ordersSource.replace("describe('orders API'", "describe.skipIf(!process.env.OPENAI_API_KEY)('orders API'")
          : ordersSource.replace(
              "describe('orders API'",
              "(process.env.OPENAI_API_KEY ? describe : describe.skip)('orders API'",
            );
      writeFileSync(project.path(orders), skipAll);
      // The account file still runs: its 2 questions are judged, the 5 of the orders file are not.
      const none = await ci();
      expect(none.exitCode, explain(none)).toBe(1);
      expect(lastLine(output(none))).toBe(
        `Not judged: 5 baseline questions (5 skipped); in CI every baseline question must be judged. To judge them: run them (or delete those tests, then RAG_BASELINE=prune ${command} and commit), or set RAG_PARTIAL=1 on a job that runs a deliberate subset.`,
      );
      const nothing = await ci(['-t', 'no test has this name'], { RAG_PARTIAL: undefined });
      expect(nothing.exitCode, explain(nothing)).toBe(1);
      const out = output(nothing);
      expect(out).toContain('No retrieval measures were recorded in this run.');
      expect(out).toContain('Not judged by this run:');
      expect(out).toContain('7 baseline questions not judged: filtered out of this run');
      const partial = await ci([], { RAG_PARTIAL: '1' });
      expect(partial.exitCode, explain(partial)).toBe(0);
      expect(output(partial).split('\n')).toContain(
        'No retrieval regressions among the 2 judged baseline questions (0 improved, 1 unchanged); 5 not judged (5 skipped).',
      );
      const withKey = await ci([], { OPENAI_API_KEY: 'set' });
      expect(withKey.exitCode, explain(withKey)).toBe(0);
    });

    it('a test that fails before its first recording matcher: not judged (failed), and prune keeps its rows', async () => {
      writeFileSync(
        project.path(orders),
        ordersSource.replace(
          '        const hits = search(question.id);\n        expect(hits).toHaveRecallAtK',
          "        if (question.id === 'refund-status') throw new Error('the index is not ready');\n        const hits = search(question.id);\n        expect(hits).toHaveRecallAtK",
        ),
      );
      const failed = await ci();
      expect(failed.exitCode, explain(failed)).toBe(1);
      const out = output(failed);
      expect(out).toContain(
        `  ✗ 1 baseline question not judged: their test failed before measuring them — ${orders} > orders API > refunds › refund-status — fix the test file, then run RAG_BASELINE=update ${command} and commit`,
      );
      expect(out).not.toContain('did not run although the test file ran');
      const prune = await run([], { RAG_BASELINE: 'prune' });
      expect(prune.exitCode).toBe(1); // the test still fails
      expect(
        suitesByName(readFileSync(project.path('rag-baseline.json'), 'utf8'))[`${orders} > orders API > refunds`]![
          'recall@3'
        ],
      ).toEqual({ 'refund-partial': 1, 'refund-status': 0.5, 'refund-window': 1 });
    });
  },
);

describe('Vitest projects', { timeout: 240_000 }, () => {
  let project: ReporterProject;
  const config = `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['rag-matchers/vitest'],
    reporters: ['default', ['rag-matchers/vitest-reporter', { baseline: 'rag-baseline.json', json: 'rag-report.json' }]],
    projects: [
      { extends: true, test: { name: 'bm25', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'hybrid', include: ['test/**/*.test.ts'] } },
    ],
  },
});
`;

  beforeAll(() => {
    project = createReporterProject('vitest', pkg);
    writeFileSync(project.path('vitest.config.ts'), config);
  });
  afterAll(() => project?.remove());

  const run = (args: string[], env: Record<string, string | undefined> = {}) => runTests(project, { args, env });
  const projectsOf = () =>
    Object.keys(parseBaseline(readFileSync(project.path('rag-baseline.json'), 'utf8'), 'rag-baseline.json').suites).map(
      (key) => parseSuiteKey(key).project,
    );

  it('--project prune keeps the other project; --project update does not rename one project to the other; --project CI is not judged for the other', async () => {
    const bm25Only = await run(['--project', 'bm25'], { RAG_BASELINE: 'update' });
    expect(bm25Only.exitCode, explain(bm25Only)).toBe(0);
    expect(new Set(projectsOf())).toEqual(new Set(['bm25']));
    // An update of the other project adds its suites beside bm25's: no "renamed".
    const hybrid = await run(['--project', 'hybrid'], { RAG_BASELINE: 'update' });
    expect(hybrid.exitCode, explain(hybrid)).toBe(0);
    expect(hybrid.stdout).not.toContain('renamed');
    expect(new Set(projectsOf())).toEqual(new Set(['bm25', 'hybrid']));
    const both = readFileSync(project.path('rag-baseline.json'));
    // Prune of one project removes nothing of the other.
    const prune = await run(['--project', 'bm25'], { RAG_BASELINE: 'prune' });
    expect(prune.exitCode, explain(prune)).toBe(0);
    expect(prune.stdout).not.toMatch(/removed \d+ obsolete/);
    expect(readFileSync(project.path('rag-baseline.json'))).toEqual(both);
    // CI on one project: the other's questions are filtered out, named, and fail strict unless partial.
    const ci = await run(['--project', 'bm25'], { CI: 'true' });
    expect(ci.exitCode, explain(ci)).toBe(1);
    expect(ci.stdout).toContain(
      '7 baseline questions not judged: filtered out of this run (-t, file arguments, --project, or a shard of its own) (project hybrid was not selected (--project))',
    );
    expect((await run(['--project', 'bm25'], { CI: 'true', RAG_PARTIAL: '1' })).exitCode).toBe(0);
    expect((await run([], { CI: 'true' })).exitCode).toBe(0);
  });
});

describe(
  'a sharded Vitest run with --reporter=blob on the command line, merged with --merge-reports',
  { timeout: 300_000 },
  () => {
    let project: ReporterProject;
    let recorded: Buffer;
    const BLOBS = '.vitest-reports';
    const typedConfig = `import { defineConfig } from 'vitest/config';
import { ragVitestReporter } from 'rag-matchers';

export default defineConfig({
  test: {
    setupFiles: ['rag-matchers/vitest'],
    include: ['test/**/*.test.ts'],
    reporters: ['default', ragVitestReporter({ baseline: 'rag-baseline.json', json: 'rag-report.json', measures: ['hit@1', 'recall@3'] })],
  },
});
`;
    const tupleConfig = typedConfig
      .replace("import { ragVitestReporter } from 'rag-matchers';\n", '')
      .replace(
        "ragVitestReporter({ baseline: 'rag-baseline.json', json: 'rag-report.json', measures: ['hit@1', 'recall@3'] })",
        "['rag-matchers/vitest-reporter', { baseline: 'rag-baseline.json', json: 'rag-report.json', measures: ['hit@1', 'recall@3'] }]",
      );

    const vitest = (args: string[], env: Record<string, string | undefined> = {}) =>
      runTests(project, { args, env: { GITHUB_SHA: 'c0ffee0000000000000000000000000000000001', ...env } });
    const shards = async (env: Record<string, string | undefined> = {}) => {
      rmSync(project.path(BLOBS), { recursive: true, force: true });
      for (const shard of ['1/2', '2/2']) {
        const result = await vitest([`--shard=${shard}`, '--reporter=blob'], env);
        expect(result.exitCode, explain(result)).toBe(0);
      }
    };
    const merge = (env: Record<string, string | undefined> = {}) =>
      vitest([`--merge-reports=${BLOBS}`], { CI: 'true', ...env });

    beforeAll(async () => {
      project = createReporterProject('vitest', pkg);
      writeFileSync(project.path('vitest.config.ts'), typedConfig);
      const first = await vitest([], { RAG_BASELINE: 'update' });
      expect(first.exitCode, explain(first)).toBe(0);
      recorded = bytesOf(project, 'rag-baseline.json')!;
      expect(
        Object.keys(suitesByName(recorded.toString('utf8'))['test/orders.test.ts > orders API > refunds']!),
      ).toEqual(['hit@1', 'ndcg@3', 'recall@3']);
    }, 240_000);
    afterAll(() => project?.remove());

    it('unchanged passes, worse names the questions, a deleted blob fails naming the shard, a stale blob fails', async () => {
      await shards();
      const unchanged = await merge();
      expect(unchanged.exitCode, explain(unchanged)).toBe(0);
      expect(lastLine(unchanged.stdout)).toMatch(/^No retrieval regressions \(0 improved, 8 unchanged\)\.$/);

      await shards({ RETRIEVER: 'worse' });
      const worse = await merge({ GITHUB_ACTIONS: 'true' });
      expect(worse.exitCode, explain(worse)).toBe(1);
      expect(worse.stdout).toContain(
        '▼ test/orders.test.ts > orders API > refunds · recall@3 fell from 0.833 to 0.667 on 3 questions',
      );
      expect(worse.stdout).toContain('refund-window');
      // The shards ran without the reporter (the command line's blob reporter replaced it), so their
      // workers kept each question's asserting line: the merge's annotation points at it (the fixture's
      // first toHaveRecallAtK of the refunds tests, line 9).
      expect(worse.stdout).toMatch(
        /^::error file=test\/orders\.test\.ts,line=9,title=retrieval regressed%3A refund-window::/m,
      );

      await shards();
      const blobs = readdirSync(project.path(BLOBS)).sort();
      expect(blobs).toEqual(['blob-1-2.json', 'blob-2-2.json']);
      rmSync(project.path(BLOBS, 'blob-2-2.json'));
      const missing = await merge();
      expect(missing.exitCode, explain(missing)).toBe(1);
      expect(missing.stdout).toMatch(
        /baseline questions? not judged: their test file's shard is missing from the merge \(blob-2-2\.json not in \.vitest-reports\)/,
      );

      // A stale blob: shard 2 from a run at another commit.
      await shards();
      const fresh1 = readFileSync(project.path(BLOBS, 'blob-1-2.json'));
      await shards({ GITHUB_SHA: 'badc0de000000000000000000000000000000002', RETRIEVER: 'worse' });
      writeFileSync(project.path(BLOBS, 'blob-1-2.json'), fresh1);
      const stale = await merge();
      expect(stale.exitCode, explain(stale)).toBe(1);
      expect(stale.stdout).toMatch(
        /not judged: their samples come from another run \(another commit, or other declared measures\) \(recorded at commit badc0de00000, merged at c0ffee000000: a shard report from an earlier run\)/,
      );
      expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
    });

    it("the docs' sharding commands, as written (3 shards), and the workflow's upload path holds what they write", async () => {
      const docs = readFileSync(new URL('../../../docs/baselines-and-ci.md', import.meta.url), 'utf8');
      const section = docs.slice(docs.indexOf('### Vitest: blob reports and `--merge-reports`'));
      const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
      const [shardLine, mergeLine] = block
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '').trim())
        .filter((line) => line !== '');
      expect(shardLine).toMatch(/^npx vitest run --shard=1\/3 /);
      const argsOf = (line: string) => line.replace(/^npx vitest run\s*/, '').split(/\s+/);
      // A third test file, so that each of the three shards has one.
      writeFileSync(project.path('test/billing.test.ts'), readFileSync(project.path('test/account.test.ts'), 'utf8'));
      try {
        expect((await vitest([], { RAG_BASELINE: 'update' })).exitCode).toBe(0);
        const recordedWithBilling = bytesOf(project, 'rag-baseline.json')!;
        const runShards = async (env: Record<string, string | undefined> = {}) => {
          rmSync(project.path(BLOBS), { recursive: true, force: true });
          for (const index of [1, 2, 3]) {
            const line = shardLine!.replace('--shard=1/3', `--shard=${index}/3`).replace('blob-1-3', `blob-${index}-3`);
            const result = await vitest(argsOf(line), env);
            expect(result.exitCode, explain(result)).toBe(0);
          }
        };
        await runShards();
        const merged = await vitest(argsOf(mergeLine!), { CI: 'true' });
        expect(merged.exitCode, explain(merged)).toBe(0);
        await runShards({ RETRIEVER: 'worse' });
        const worse = await vitest(argsOf(mergeLine!), { CI: 'true' });
        expect(worse.exitCode, explain(worse)).toBe(1);
        expect(worse.stdout).toContain('recall@3 fell from 0.833 to 0.667');
        expect(bytesOf(project, 'rag-baseline.json')).toEqual(recordedWithBilling);
        // The workflow writes where it uploads from, and merges where it downloads to.
        const workflow = docs.slice(docs.indexOf('## GitHub Actions'));
        expect(workflow).toContain(
          'npx vitest run --shard=${{ matrix.shard }}/3 --reporter=blob --outputFile=.vitest-reports/blob-${{ matrix.shard }}-3.json',
        );
        expect(workflow).toContain('path: .vitest-reports/*');
        expect(workflow).toContain('path: .vitest-reports\n');
        expect(workflow).toContain('npx vitest run --merge-reports=.vitest-reports');
      } finally {
        rmSync(project.path('test/billing.test.ts'), { force: true });
        writeFileSync(project.path('rag-baseline.json'), recorded);
      }
    });

    it("with a blob reporter beside this one in the config, off GitHub Actions, the shards keep each question's line for the merge's annotations", async () => {
      writeFileSync(
        project.path('vitest.config.ts'),
        typedConfig.replace(
          "json: 'rag-report.json', measures: ['hit@1', 'recall@3'] })]",
          "json: 'rag-report.json', measures: ['hit@1', 'recall@3'] }), 'blob']",
        ),
      );
      try {
        rmSync(project.path(BLOBS), { recursive: true, force: true });
        // Each shard judges its own files too, and fails on their regression; the blobs are written all the same.
        for (const shard of ['1/2', '2/2'])
          await vitest([`--shard=${shard}`], { RETRIEVER: 'worse', GITHUB_ACTIONS: '' });
        expect(readdirSync(project.path(BLOBS)).sort()).toEqual(['blob-1-2.json', 'blob-2-2.json']);
        // Vitest merges only without a blob reporter among the config's reporters.
        writeFileSync(project.path('vitest.config.ts'), typedConfig);
        const worse = await merge({ GITHUB_ACTIONS: 'true' });
        expect(worse.exitCode, explain(worse)).toBe(1);
        expect(worse.stdout).toMatch(
          /^::error file=test\/orders\.test\.ts,line=9,title=retrieval regressed%3A refund-window::/m,
        );
      } finally {
        writeFileSync(project.path('vitest.config.ts'), typedConfig);
      }
    });

    it('with the reporter as a plain tuple, the blobs lack the declared measures: the merge says so, and the typed helper it names clears it', async () => {
      writeFileSync(project.path('vitest.config.ts'), tupleConfig);
      try {
        await shards();
        const merged = await merge();
        expect(merged.exitCode, explain(merged)).toBe(1);
        expect(merged.stdout).toContain(
          "recorded without the declared measures: a blob reporter given on the command line replaces the config's reporters, so declare them with ragVitestReporter({ measures: [...] }) in vitest.config.ts",
        );
        // Prune after such a merge removes nothing.
        const prune = await vitest([`--merge-reports=${BLOBS}`], { RAG_BASELINE: 'prune' });
        expect(prune.exitCode, explain(prune)).toBe(0);
        expect(bytesOf(project, 'rag-baseline.json')).toEqual(recorded);
      } finally {
        writeFileSync(project.path('vitest.config.ts'), typedConfig);
      }
      await shards();
      expect((await merge()).exitCode).toBe(0);
    });
  },
);

describe('a sharded Jest run merged with rag-matchers merge', { timeout: 240_000 }, () => {
  let project: ReporterProject;
  beforeAll(async () => {
    project = createReporterProject('jest', pkg);
    const first = await runTests(project, { args: ['--runInBand'], env: { RAG_BASELINE: 'update' } });
    expect(first.exitCode, explain(first)).toBe(0);
  }, 240_000);
  afterAll(() => project?.remove());

  it('a shard file from an earlier commit is refused, naming it; shards of this commit merge and pass', async () => {
    const shard = (index: number, sha: string) =>
      runTests(project, { args: ['--runInBand', `--shard=${index}/2`], env: { GITHUB_SHA: sha } });
    expect((await shard(1, 'aaaa')).exitCode).toBe(0);
    expect((await shard(2, 'bbbb')).exitCode).toBe(0);
    const stale = await runCli(project, ['merge', 'rag-shard-1-of-2.json', 'rag-shard-2-of-2.json'], {
      env: { CI: 'true', GITHUB_SHA: 'aaaa' },
    });
    expect(stale.exitCode, explain(stale)).toBe(2);
    expect(stale.stderr).toContain(
      'rag-matchers merge: rag-shard-2-of-2.json (shard 2/2) comes from another run than rag-shard-1-of-2.json: commit bbbb against aaaa. Merge the shard reports of one run.',
    );
    const second = await shard(2, 'aaaa');
    expect(second.exitCode).toBe(0);
    // The merge command the shard printed, run as printed through a shell (npx finds the package's command
    // in node_modules/.bin, as after npm install).
    const printed = /the baseline is compared once all shards are merged: (.+)\n/.exec(second.stderr)?.[1];
    expect(printed).toBe('npx rag-matchers merge rag-shard-*-of-2.json');
    mkdirSync(project.path('node_modules', '.bin'));
    symlinkSync('../rag-matchers/dist/cli.js', project.path('node_modules', '.bin', 'rag-matchers'));
    const merged = await runCommand('sh', ['-c', printed!], {
      cwd: project.dir,
      timeoutMs: 60_000,
      env: { CI: 'true', GITHUB_SHA: 'aaaa', RAG_BASELINE: undefined, GITHUB_ACTIONS: undefined, TMPDIR: project.tmp },
    });
    expect(merged.exitCode, explain(merged)).toBe(0);
    expect(lastLine(merged.stdout)).toBe('No retrieval regressions (0 improved, 5 unchanged).');
    const later = await runCli(project, ['merge', 'rag-shard-1-of-2.json', 'rag-shard-2-of-2.json'], {
      env: { CI: 'true', GITHUB_SHA: 'cccc' },
    });
    expect(later.exitCode, explain(later)).toBe(2);
    expect(later.stderr).toContain('is stale: recorded at commit aaaa, and this merge runs at cccc');
  });
});
