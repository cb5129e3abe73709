// A failing toPassJudge under real `vitest run` and `jest`, against a loopback server that quotes every
// credential it is sent (the API key, a Bearer token in a gateway header, a cookie, ?code= in the URL):
// none may reach anything the runner prints or writes (console, "Caused by", the serialized error, the
// JSON report). Before, each key was printed three times: the message, "Caused by" and error.reply.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFixtureProject,
  describeRun,
  ensureBuilt,
  runJest,
  runVitest,
  snapshotPackage,
  type FixtureProject,
  type PackageSnapshot,
  type RunnerResult,
} from '../support/index.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');
const SHARED = resolve(FIXTURES, 'judge-secrets');
const SECRETS = ['sk-e2e-0f1e2d3c4b5a', 'gw-e2e-6a7b8c9d0e', 'sess-e2e-1f2e3d4c', 'azfn-e2e-5b6c7d8e'];

let snapshot: PackageSnapshot | undefined;
const projects: FixtureProject[] = [];
let vitest: RunnerResult;
let jest: RunnerResult;

beforeAll(async () => {
  await ensureBuilt();
  snapshot = await snapshotPackage();
  const withJudgeTest = (fixture: string, testFile: string, packages: string[]): FixtureProject =>
    createFixtureProject({
      fixture: resolve(FIXTURES, fixture),
      files: {
        'test/judge/echoing-judge.ts': resolve(SHARED, 'echoing-judge.ts'),
        'test/judge/secrets.test.ts': resolve(SHARED, testFile),
      },
      links: { 'rag-matchers': snapshot!.dir },
      packages,
    });
  const vitestProject = withJudgeTest('vitest-project', 'vitest.test.ts', ['vitest', 'typescript']);
  const jestProject = withJudgeTest('jest-project', 'jest.test.ts', [
    'jest',
    'ts-jest',
    '@jest/globals',
    '@types/jest',
    'typescript',
  ]);
  projects.push(vitestProject, jestProject);
  [vitest, jest] = await Promise.all([
    runVitest(vitestProject, { args: ['test/judge'] }),
    runJest(jestProject, { args: ['test/judge'] }),
  ]);
}, 300_000);

afterAll(() => {
  for (const project of projects) project.remove();
  snapshot?.remove();
});

describe.each([
  ['vitest', () => vitest, 0],
  ['jest', () => jest, 1],
] as const)('a failing toPassJudge under %s', (_runner, result, projectIndex) => {
  it('fails both tests, with the judge failure and the low grade in the messages', () => {
    const { run, summary } = result();
    expect(run.exitCode, describeRun(run)).toBe(1);
    expect(summary.failed).toEqual(['judge answers grade', 'judge answers http']);
    expect(summary.messages['judge answers http']).toMatch(/failed \(http\) after 1 attempt/);
    expect(summary.messages['judge answers grade']).toMatch(/Dimensions: \[redacted\] 0\.1/);
  });

  it('prints no credential anywhere: console output and the runner JSON report', () => {
    const { run } = result();
    const report = readFileSync(projects[projectIndex]!.path('.runner-report.json'), 'utf8');
    const everything = `${run.stdout}\n${run.stderr}\n${report}`;
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
    expect(everything).toContain('[redacted]');
  });
});
