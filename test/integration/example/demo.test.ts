// `npm run demo` and `npm run demo:regression`: the runnable example the README starts with. The
// scripts run as users run them (plain `node`, Vitest spawned by the script, the package imported by its
// name), on a copy of the built package with the example inside it: a snapshot of dist/, so that a
// build started elsewhere in the working tree cannot change the files under the runs, and a copy of
// the example, so that its reports are written there and not into the repository.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
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
const BASELINE = 'rag-baseline.json';
/** Unset in the scripts' environment: the scripts must behave the same whatever the shell had. */
const ENV = { CI: undefined, RAG_BASELINE: undefined, ORDERS_RETRIEVER: undefined, GITHUB_STEP_SUMMARY: undefined };

interface ReportRow {
  suite: string;
  measure: string;
  status: string;
  worse: { sampleId: string; before: number; after: number }[];
}
interface Report {
  passed: boolean;
  counts: { rows: number; regressed: number; unchanged: number; newSamples: number };
  baseline: { found: boolean };
  rows: ReportRow[];
}

let pkg: PackageSnapshot;
/** The example inside the package snapshot. */
let example: string;
/** The committed baseline's bytes. */
let committed: Buffer;

const script = (name: string) => join(example, 'scripts', name);
const run = (name: string, timeoutMs = 150_000): Promise<RunResult> =>
  runCommand(process.execPath, [script(name)], { cwd: pkg.dir, env: ENV, timeoutMs });
const readReport = (dir: string): Report =>
  JSON.parse(readFileSync(join(example, dir, 'rag-report.json'), 'utf8')) as Report;
/** Files the baseline write could leave behind (temporary files of an atomic write). */
const strayFiles = () => readdirSync(example).filter((name) => name !== BASELINE && name.startsWith(BASELINE));

beforeAll(async () => {
  await ensureBuilt();
  pkg = await snapshotPackage();
  example = join(pkg.dir, 'examples', 'orders-api');
  const skipped = [join(EXAMPLE, 'reports'), join(EXAMPLE, 'node_modules')];
  cpSync(EXAMPLE, example, {
    recursive: true,
    filter: (source) => !skipped.some((dir) => source === dir || source.startsWith(dir + sep)),
  });
  // The example's tsconfig.json extends the repository's, which Vite reads to transform the tests.
  cpSync(join(REPO_ROOT, 'tsconfig.json'), join(pkg.dir, 'tsconfig.json'));
  committed = readFileSync(join(EXAMPLE, BASELINE));
}, 240_000);

afterAll(() => {
  pkg?.remove();
});

// Each scenario spawns one run of the example's suite (99 tests over 88 questions): a few seconds,
// more on a loaded machine.
describe('the runnable example', { timeout: 180_000 }, () => {
  it('npm run demo: passes against the committed baseline, prints the summary, writes the three reports, leaves the baseline alone', async () => {
    const result = await run('demo.mjs');
    expect(result.exitCode, describeRun(result)).toBe(0);
    const out = result.stdout;
    expect(out).toContain('using the built package in dist');
    expect(out).not.toContain('npm run build');
    expect(out).toMatch(/Tests\s+\d+ passed \| \d+ expected fail \(\d+\)/);
    expect(out).toContain(
      'RAG retrieval quality · vitest · 7 suites · 18 rows · 883 samples · compared with rag-baseline.json',
    );
    expect(out).toMatch(/test\/set\.test\.ts > whole set\s+mrr\s+80\s+0\.802\s+\[/);
    expect(out).toContain('No retrieval regressions (0 improved, 18 unchanged).');
    for (const file of ['rag-report.json', 'rag-report.md', 'rag-report.html']) {
      const path = join(example, 'reports', file);
      expect(existsSync(path), `${file} was not written`).toBe(true);
      expect(out).toContain(`examples/orders-api/reports/${file}`);
    }
    const report = readReport('reports');
    expect(report.passed).toBe(true);
    expect(report.baseline.found).toBe(true);
    expect(report.counts).toMatchObject({ rows: 18, regressed: 0, unchanged: 18, newSamples: 0 });
    expect(readFileSync(join(example, 'reports', 'rag-report.md'), 'utf8')).toContain(
      'test/questions.test.ts > single passage',
    );
    expect(readFileSync(join(example, 'reports', 'rag-report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
    expect(readFileSync(join(example, BASELINE)).equals(committed)).toBe(true);
    expect(strayFiles()).toEqual([]);
  });

  it('npm run demo:regression: the degraded retriever fails the gate, the questions that got worse are listed, the script exits 0', async () => {
    const result = await run('demo-regression.mjs');
    expect(result.exitCode, describeRun(result)).toBe(0);
    const out = result.stdout;
    // The run under the script failed: Vitest's exit code, and the gate's last line.
    expect(out).toMatch(
      /Vitest exited with code [1-9]\d*, and that is the expected outcome: the gate caught the degraded retriever/,
    );
    expect(out).toMatch(
      /Retrieval quality regressed in \d+ suite × measure rows\. If this change is intended, accept it with: RAG_BASELINE=update npx vitest run/,
    );
    // A question that got worse, named by its id and its test (the question's words), with its values.
    expect(out).toMatch(
      /▼ test\/questions\.test\.ts > single passage · recall@5 fell from 0\.802 to 0\.\d{3} on 48 questions/,
    );
    // The degraded retriever surfaces other passages for q022 (its labels are grades ≥ 1 only): its line names them.
    expect(out).toMatch(
      /\n\s+q022 \(can we charge people a fee when they send stuff back\)\s+1\.000 → 0\.000; now in its top 5: [^\n]+\n/,
    );
    const report = readReport(join('reports', 'degraded'));
    expect(report.passed).toBe(false);
    expect(report.counts.regressed).toBeGreaterThan(0);
    const recall = report.rows.find(
      (row) => row.suite === 'test/questions.test.ts > single passage' && row.measure === 'recall@5',
    );
    expect(recall?.status).toBe('regressed');
    expect(recall?.worse.map((change) => change.sampleId)).toContain('q022');
    // CI=true: compared, never written; and the demo's own reports were not overwritten.
    expect(readFileSync(join(example, BASELINE)).equals(committed)).toBe(true);
    expect(strayFiles()).toEqual([]);
    expect(readReport('reports').passed).toBe(true);
  });

  it('npm run demo:regression exits non-zero when the run fails for another reason than the gate (here: no baseline to compare with)', async () => {
    const baseline = join(example, BASELINE);
    rmSync(baseline);
    try {
      const result = await run('demo-regression.mjs');
      expect(result.exitCode, describeRun(result)).toBe(1);
      expect(result.stderr).toContain(
        'but not because the gate caught a regression (the report counts 0 regressed rows). Something is wrong.',
      );
      expect(existsSync(baseline)).toBe(false);
    } finally {
      writeFileSync(baseline, committed);
    }
  });
});

describe('building first', { timeout: 60_000 }, () => {
  // A stand-in package whose build fails: the demo must try to build when dist/ is missing or older
  // than the sources, and stop when the build fails.
  let stub: string;
  beforeAll(() => {
    stub = mkdtempSync(join(tmpdir(), 'rag-demo-build-'));
    const manifest = {
      name: 'rag-matchers',
      type: 'module',
      exports: { '.': './dist/index.js' },
      scripts: { 'build:js': 'node -e "process.exit(3)"' },
    };
    writeFileSync(join(stub, 'package.json'), JSON.stringify(manifest));
    mkdirSync(join(stub, 'src'));
    writeFileSync(join(stub, 'src', 'index.ts'), 'export {};\n');
    mkdirSync(join(stub, 'examples', 'orders-api', 'scripts'), { recursive: true });
    for (const file of ['demo.mjs', 'demo-regression.mjs', 'demo-common.mjs']) {
      cpSync(join(EXAMPLE, 'scripts', file), join(stub, 'examples', 'orders-api', 'scripts', file));
    }
  });
  afterAll(() => {
    if (stub !== undefined) rmSync(stub, { recursive: true, force: true });
  });
  const runStub = (name: string) =>
    runCommand(process.execPath, [join(stub, 'examples', 'orders-api', 'scripts', name)], {
      cwd: stub,
      env: ENV,
      timeoutMs: 60_000,
    });

  it('builds when dist/ is missing, and stops when the build fails', async () => {
    for (const name of ['demo.mjs', 'demo-regression.mjs']) {
      const result = await runStub(name);
      expect(result.exitCode, describeRun(result)).toBe(1);
      expect(result.stdout).toContain(
        'rag-matchers: building the package first, dist/index.js is missing: npm run build:js (ESM JavaScript only, a few seconds)',
      );
      expect(result.stderr).toContain('rag-matchers: npm run build:js failed (exit 3)');
      expect(result.stdout).not.toContain('$ npx vitest run');
    }
  });

  it('builds when a source is newer than dist/', async () => {
    mkdirSync(join(stub, 'dist'), { recursive: true });
    writeFileSync(join(stub, 'dist', 'index.js'), 'export {};\n');
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(stub, 'dist', 'index.js'), past, past);
    utimesSync(join(stub, 'package.json'), past, past);
    const result = await runStub('demo.mjs');
    expect(result.exitCode, describeRun(result)).toBe(1);
    expect(result.stdout).toContain(
      'rag-matchers: building the package first, the sources changed since the last build: npm run build:js (ESM JavaScript only, a few seconds)',
    );
    expect(result.stderr).toContain('rag-matchers: npm run build:js failed (exit 3)');
  });
});
