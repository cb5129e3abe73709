// The example's Jest twin (examples/orders-api/jest/, jest.config.js, rag-baseline.jest.json), run as a
// user runs it: real Jest, ESM through ts-jest, the package imported by its name from a snapshot of
// the built package, the example copied so that its reports land there and not in the repository.
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeRun,
  ensureBuilt,
  REPO_ROOT,
  runCommand,
  snapshotPackage,
  type PackageSnapshot,
  type RunResult,
} from '../support/index.js';

const EXAMPLE = join(REPO_ROOT, 'examples', 'orders-api');
const BASELINE = 'rag-baseline.jest.json';
const JEST = join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

let pkg: PackageSnapshot;
let example: string;
let committed: Buffer;

const jest = (env: Record<string, string | undefined> = {}): Promise<RunResult> =>
  runCommand(process.execPath, ['--experimental-vm-modules', JEST, '--ci'], {
    cwd: example,
    env: {
      CI: undefined,
      RAG_BASELINE: undefined,
      ORDERS_RETRIEVER: undefined,
      GITHUB_STEP_SUMMARY: undefined,
      NODE_OPTIONS: undefined,
      ...env,
    },
    timeoutMs: 150_000,
  });

beforeAll(async () => {
  await ensureBuilt();
  pkg = await snapshotPackage();
  example = join(pkg.dir, 'examples', 'orders-api');
  const skipped = [join(EXAMPLE, 'reports'), join(EXAMPLE, 'node_modules'), join(EXAMPLE, '.jest-cache')];
  mkdirSync(example, { recursive: true });
  cpSync(EXAMPLE, example, {
    recursive: true,
    filter: (source) => !skipped.some((dir) => source === dir || source.startsWith(dir + sep)),
  });
  cpSync(join(REPO_ROOT, 'tsconfig.json'), join(pkg.dir, 'tsconfig.json'));
  committed = readFileSync(join(EXAMPLE, BASELINE));
}, 240_000);

afterAll(() => {
  pkg?.remove();
});

describe('the example under Jest', { timeout: 180_000 }, () => {
  it('passes against its committed baseline, with the same bar as under Vitest, and leaves the baseline alone', async () => {
    const result = await jest();
    expect(result.exitCode, describeRun(result)).toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toContain('Tests:       80 passed, 80 total');
    expect(output).toContain('No retrieval regressions (0 improved, 9 unchanged).');
    expect(readFileSync(join(example, BASELINE))).toEqual(committed);
    const report = JSON.parse(readFileSync(join(example, 'reports', 'jest', 'rag-report.json'), 'utf8')) as {
      passed: boolean;
      counts: { rows: number };
    };
    expect(report.passed).toBe(true);
    expect(report.counts.rows).toBe(9);
  });

  it('fails the gate with the degraded retriever, naming the questions that got worse', async () => {
    const result = await jest({ ORDERS_RETRIEVER: 'degraded' });
    expect(result.exitCode, describeRun(result)).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toMatch(/Retrieval quality regressed in \d+ suite × measure rows/);
    expect(output).toMatch(/q0\d\d \(.+\)\s+\d\.\d{3} → \d\.\d{3}/);
    expect(readFileSync(join(example, BASELINE))).toEqual(committed);
  });
});
