// What recording costs on a real Vitest run: 4,000 per-question tests written with the matchers,
// recording the declared measures for the reporter (which compares them with a baseline at the end),
// against the same tests written with plain `expect` on the core functions, without the reporter.
// Both run in one temporary project, alternately (in turn first), several times. The figure is the
// median of each round's own ratio (the two runs of a round are next to each other in time, so a drift
// of the machine's speed moves both) with a distribution-free interval; the target (≤ 1.10) counts as
// met or not only when the whole interval is on one side of it. The ratio of the medians is printed too.
// A third style writes the same questions as labelled files (JSON Lines) run through describeRetrieval,
// with the same reporter: its ratio to plain expect and to the hand-written matchers (issue 35: the helper
// within 10% of the matchers written by hand) are printed too.
// It runs on the toolchains users install: by default Vitest 5 on Node 22 and on Node 24, fetched from
// the npm registry once and cached as `npm run test:compat` does (test/compat/toolchain.mjs).
// BENCH_TOOLCHAINS picks others, comma-separated: node<20|22|24>-vitest<4|5> (Vitest 4.1 or 5; 5 needs
// Node 22 or 24), node<20|22|24>-jest30 (Jest 30: the same tests as CommonJS files without a transform,
// Jest's summary reporter; Jest runs them in band on a machine with 2 cores or fewer), or `repo` (the
// repository's own Vitest on the Node.js running this script: no download), or `none` (no test run: the
// end of the run alone, with BENCH_COMPARE_DIST).
// BENCH_ROUNDS sets the rounds (default 9). BENCH_COMPARE_DIST=<folder> compares two builds: the dist/
// folder of another build (say main's, built and copied aside) runs its matchers and describeRetrieval as
// two more styles in every round, next to this build, their order alternating, and the figures are the
// same-run ratios of this build's runs to that build's (target ≤ 1.10: a change must not slow the
// recording and the reporter's end of run down by more than 10%). It first times the end of the run
// alone, in this process: the reporter's work once the tests are done (summarize against the baseline,
// the console, JSON and Markdown reports, the baseline the run would write) on the same 4,000 questions ×
// 4 measures, each build's rag-matchers/report alternately, 4 × BENCH_ROUNDS times; then the reporter's
// read of that baseline (parseBaseline of its text) alone, the same way.
// BENCH_RANKING_DEPTH=<0..10> (Vitest toolchains) adds a style to every round: the matchers run with the
// reporter's rankingDepth set to it (0: the baseline keeps no ranking), and prints the same-run ratio of the
// default run (rankings kept) to it: what keeping each question's ranked keys costs the recording.
// BENCH_FLOOR=1 adds the least a recording reporter can cost, as a style of every round: the matchers' test
// files run against three stand-in matchers that work out the 4 declared measures once per question with the
// core functions and keep them on the test (Vitest: task.meta; Jest: one file write per test file), and a
// stand-in reporter that reads the baseline (JSON.parse) and prints each suite's means. No audits, label
// fingerprints, rankings, intervals or diff. Its same-run ratio to plain expect is the part of the 1.10 target
// that the design spends before any of those; the matchers' ratio to it, what they cost beyond it.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installedPackages, nodeBinary, VERSIONS } from '../test/compat/toolchain.mjs';
import { describeRatios, median, medianInterval } from './same-run.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUESTIONS = 4_000;
const FILES = 8;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const MEASURES = ['hit@3', 'recall@5', 'ndcg@10', 'mrr@10'];
const DEFAULT_TOOLCHAINS = 'node22-vitest5,node24-vitest5';
const COMPARE_DIST = process.env.BENCH_COMPARE_DIST || undefined;
const RANKING_DEPTH = process.env.BENCH_RANKING_DEPTH || undefined;
const FLOOR = process.env.BENCH_FLOOR === '1';

/** Where the tests run: a Node.js binary and the folder that holds the `vitest` package (or, for Jest, Jest's node_modules). */
interface Toolchain {
  name: string;
  node: string;
  vitestDir: string;
  /** Jest toolchains: the folder of node_modules holding `jest` and its dependencies. */
  jestModules?: string;
}

function toolchainOf(name: string): Toolchain {
  if (name === 'repo') return { name, node: process.execPath, vitestDir: join(ROOT, 'node_modules', 'vitest') };
  const match = /^node(20|22|24)-(vitest4|vitest5|jest30)$/.exec(name);
  if (match === null)
    throw new Error(
      `bench: unknown toolchain '${name}' in BENCH_TOOLCHAINS: expected node<20|22|24>-<vitest4|vitest5|jest30> or repo`,
    );
  const [, major, runner] = match as unknown as [string, string, string];
  if (runner === 'vitest5' && major === '20')
    throw new Error(`bench: '${name}' in BENCH_TOOLCHAINS: Vitest 5 needs Node.js ^22.12; use node22 or node24`);
  const packages = installedPackages(VERSIONS[runner] as Record<string, string>);
  if (runner === 'jest30')
    return { name, node: nodeBinary(major), vitestDir: '', jestModules: join(packages, 'node_modules') };
  return { name, node: nodeBinary(major), vitestDir: join(packages, 'node_modules', 'vitest') };
}

/** The questions' data, generated once: 20 hits and 3 relevant ids each, from a small deterministic generator. */
const QUESTIONS_GENERATOR = `let state = 12345;
const next = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
const questions = Array.from({ length: ${QUESTIONS} }, (_, index) => {
  const hits = Array.from({ length: 20 }, () => 'd' + Math.floor(next() * 60));
  const relevant = [hits[Math.floor(next() * 3)], 'd' + Math.floor(next() * 60), 'd' + Math.floor(next() * 60)];
  return { id: 'q' + index, hits, relevant };
});
`;

function questionsModule(format: 'esm' | 'cjs' = 'esm'): string {
  const exported = format === 'esm' ? 'export { questions };' : 'module.exports = { questions };';
  return `// Generated by bench/recording.ts.\n${QUESTIONS_GENERATOR}${exported}\n`;
}

/** The same questions as describeRetrieval's labelled files: one JSON Lines file per test file, the hits as an extra field. */
function writeLabelledFiles(dir: string): void {
  const questions = new Function(`${QUESTIONS_GENERATOR}return questions;`)() as {
    id: string;
    hits: string[];
    relevant: string[];
  }[];
  mkdirSync(join(dir, 'labelled'));
  const perFile = QUESTIONS / FILES;
  for (let file = 0; file < FILES; file++) {
    const lines = questions
      .slice(file * perFile, (file + 1) * perFile)
      .map((q) => JSON.stringify({ id: q.id, query: q.id, relevant: q.relevant, hits: q.hits }));
    writeFileSync(join(dir, 'labelled', `f${file}.jsonl`), `${lines.join('\n')}\n`);
  }
}

/**
 * describeRetrieval's test file: the labelled file's questions, the hits from the file (retrieve is a
 * lookup, as the hand-written styles read theirs from a module), the floors the hand-written matchers assert.
 */
function helperTestFile(file: number, format: 'esm' | 'cjs'): string {
  const load =
    format === 'esm'
      ? "import { describeRetrieval } from 'rag-matchers';"
      : "const { describeRetrieval } = require('rag-matchers');";
  return `${load}

describeRetrieval('file ${file}', {
  questions: 'labelled/f${file}.jsonl',
  retrieve: (question) => question.hits,
  measures: { 'hit@3': 1, 'recall@5': 0, 'ndcg@10': 0 },
});
`;
}

/** How the 4,000 questions are tested: plain `expect` on the core functions, hand-written matchers, describeRetrieval. */
type Style = 'plain' | 'matchers' | 'helper' | 'ranked' | 'floor';

function testFile(file: number, style: 'matchers' | 'plain'): string {
  const perFile = QUESTIONS / FILES;
  const body =
    style === 'matchers'
      ? `      expect(q.hits).toHaveHitAtK(q.relevant, 3, { queryId: q.id });
      expect(q.hits).toHaveRecallAtK(q.relevant, 5, 0, { queryId: q.id });
      expect(q.hits).toHaveNdcgAtK(q.relevant, 10, 0, { queryId: q.id });`
      : `      expect(hitAtK(q.hits, q.relevant, 3)).toBe(1);
      expect(recallAtK(q.hits, q.relevant, 5)).toBeGreaterThanOrEqual(0);
      expect(ndcgAtK(q.hits, q.relevant, 10)).toBeGreaterThanOrEqual(0);`;
  return `import { describe, expect, it } from 'vitest';
${style === 'plain' ? "import { hitAtK, ndcgAtK, recallAtK } from 'rag-matchers';\n" : ''}import { questions } from '../questions.js';

describe('file ${file}', () => {
  for (const q of questions.slice(${file * perFile}, ${(file + 1) * perFile})) {
    it(q.id, () => {
${body}
    });
  }
});
`;
}

function config(style: 'matchers' | 'plain', rankingDepth?: number): string {
  if (style === 'plain') return `export default { test: { include: ['plain/**/*.test.js'], reporters: ['dot'] } };\n`;
  const depth = rankingDepth === undefined ? '' : `, rankingDepth: ${rankingDepth}`;
  return `import { ragVitestReporter } from 'rag-matchers';
export default {
  test: {
    include: ['matchers/**/*.test.js'],
    setupFiles: ['rag-matchers/vitest'],
    reporters: ['dot', ragVitestReporter({ baseline: 'rag-baseline.json', measures: ${JSON.stringify(MEASURES)}${depth} })],
  },
};
`;
}

/**
 * The floor style's stand-in matchers (BENCH_FLOOR): the 4 declared measures of a question worked out once with
 * the core functions, asserted from there, and kept for the stand-in reporter. `keep` is the runner's part.
 */
function floorMatchers(format: 'esm' | 'cjs', keep: string): string {
  const load =
    format === 'esm'
      ? "import { expect } from 'vitest';\nimport { hitAtK, ndcgAtK, recallAtK, reciprocalRank } from 'rag-matchers';"
      : "const { hitAtK, ndcgAtK, recallAtK, reciprocalRank } = require('rag-matchers');";
  return `${load}
${keep}let last;
function declared(context, hits, relevant, options) {
  if (last === undefined || last.queryId !== options.queryId) {
    const values = [hitAtK(hits, relevant, 3), recallAtK(hits, relevant, 5), ndcgAtK(hits, relevant, 10), reciprocalRank(hits, relevant, 10)];
    last = { queryId: options.queryId, values };
    keep(context, options.queryId, values);
  }
  return last.values;
}
expect.extend({
  toHaveHitAtK(hits, relevant, k, options) { return { pass: declared(this, hits, relevant, options)[0] === 1, message: () => '' }; },
  toHaveRecallAtK(hits, relevant, k, floor, options) { return { pass: declared(this, hits, relevant, options)[1] >= floor, message: () => '' }; },
  toHaveNdcgAtK(hits, relevant, k, floor, options) { return { pass: declared(this, hits, relevant, options)[2] >= floor, message: () => '' }; },
});
`;
}

const VITEST_FLOOR_KEEP = `function keep(context, queryId, values) {
  context.task.meta.floor = { queryId, values };
}
`;

const JEST_FLOOR_KEEP = `const { appendFileSync } = require('node:fs');
const kept = [];
function keep(context, queryId, values) {
  kept.push({ file: context.testPath, queryId, values });
}
afterAll(() => {
  appendFileSync(__dirname + '/floor-samples.jsonl', kept.map((sample) => JSON.stringify(sample)).join('\\n') + '\\n');
  kept.length = 0;
});
`;

/** The floor style's stand-in reporter: the baseline read, each suite's mean of each declared measure printed. */
function floorReporter(format: 'esm' | 'cjs'): string {
  const measures = JSON.stringify(MEASURES);
  const print = `function print(bySuite, baselineText) {
  JSON.parse(baselineText);
  const lines = [];
  for (const [suite, sums] of bySuite)
    ${measures}.forEach((measure, index) => lines.push(suite + ' ' + measure + ' ' + (sums.total[index] / sums.count).toFixed(3)));
  console.log(lines.join('\\n'));
}
function add(bySuite, suite, values) {
  let sums = bySuite.get(suite);
  if (sums === undefined) bySuite.set(suite, (sums = { total: [0, 0, 0, 0], count: 0 }));
  values.forEach((value, index) => (sums.total[index] += value));
  sums.count++;
}
`;
  if (format === 'esm')
    return `import { readFileSync } from 'node:fs';
${print}export default class FloorReporter {
  onTestRunEnd(modules) {
    const bySuite = new Map();
    for (const module of modules)
      for (const test of module.children.allTests()) {
        const kept = test.meta().floor;
        if (kept !== undefined) add(bySuite, module.moduleId, kept.values);
      }
    print(bySuite, readFileSync('rag-baseline.json', 'utf8'));
  }
}
`;
  return `const { readFileSync, rmSync } = require('node:fs');
${print}module.exports = class FloorReporter {
  onRunComplete() {
    const bySuite = new Map();
    const file = __dirname + '/floor-samples.jsonl';
    for (const line of readFileSync(file, 'utf8').split('\\n'))
      if (line !== '') {
        const sample = JSON.parse(line);
        add(bySuite, sample.file, sample.values);
      }
    rmSync(file);
    print(bySuite, readFileSync(__dirname + '/rag-baseline.matchers.json', 'utf8'));
  }
};
`;
}

/** The floor style's files in a project: its stand-ins and its config, on the matchers' test files. */
function addFloorStyle(dir: string, runner: 'vitest' | 'jest'): void {
  if (runner === 'vitest') {
    writeFileSync(join(dir, 'floor-setup.js'), floorMatchers('esm', VITEST_FLOOR_KEEP));
    writeFileSync(join(dir, 'floor-reporter.js'), floorReporter('esm'));
    writeFileSync(
      join(dir, 'vitest.floor.config.js'),
      `export default { test: { include: ['matchers/**/*.test.js'], setupFiles: ['./floor-setup.js'], reporters: ['dot', './floor-reporter.js'] } };\n`,
    );
    return;
  }
  writeFileSync(join(dir, 'floor-setup.cjs'), floorMatchers('cjs', JEST_FLOOR_KEEP));
  writeFileSync(join(dir, 'floor-reporter.cjs'), floorReporter('cjs'));
  writeFileSync(
    join(dir, 'jest.floor.config.js'),
    `module.exports = { rootDir: __dirname, roots: ['<rootDir>/matchers'], testEnvironment: 'node', transform: {}, cacheDirectory: __dirname + '/.jest-cache', setupFilesAfterEnv: ['<rootDir>/floor-setup.cjs'], reporters: ['summary', '<rootDir>/floor-reporter.cjs'] };\n`,
  );
}

/** testFile for Jest: a CommonJS module on Jest's globals. */
function jestTestFile(file: number, style: 'matchers' | 'plain'): string {
  return testFile(file, style)
    .replace("import { describe, expect, it } from 'vitest';\n", '')
    .replace(
      "import { hitAtK, ndcgAtK, recallAtK } from 'rag-matchers';",
      "const { hitAtK, ndcgAtK, recallAtK } = require('rag-matchers');",
    )
    .replace("import { questions } from '../questions.js';", "const { questions } = require('../questions.js');");
}

/** The Jest project's config of a style: no transform (the files are plain CommonJS), Jest's summary reporter. */
function jestConfig(style: Style): string {
  const common = `rootDir: __dirname, roots: ['<rootDir>/${style}'], testEnvironment: 'node', transform: {}, cacheDirectory: __dirname + '/.jest-cache'`;
  if (style === 'plain') return `module.exports = { ${common}, reporters: ['summary'] };\n`;
  return `const { ragJestReporter } = require('rag-matchers');
module.exports = {
  ${common},
  setupFilesAfterEnv: ['rag-matchers/jest'],
  reporters: ['summary', ragJestReporter({ baseline: 'rag-baseline.${style}.json', measures: ${JSON.stringify(MEASURES)} })],
};
`;
}

/** The Vitest config of describeRetrieval's style: as the hand-written matchers' (helperTestFile). */
function helperConfig(): string {
  return config('matchers')
    .replace("'matchers/**/*.test.js'", "'helper/**/*.test.js'")
    .replace("'rag-baseline.json'", "'rag-baseline.helper.json'");
}

/**
 * The built package as npm installs it: a real folder in node_modules (package.json and dist), its one
 * dependency beside it. A symlink to the repository would be resolved to a path outside node_modules,
 * and Vitest would then run every file of the package through Vite's transform in each worker and, for
 * the reporter, in the main process (about 0.5 s per run here), a cost no installed copy has.
 */
function installPackage(dir: string, dist: string): void {
  const target = join(dir, 'node_modules', 'rag-matchers');
  mkdirSync(target);
  copyFileSync(join(ROOT, 'package.json'), join(target, 'package.json'));
  cpSync(dist, join(target, 'dist'), { recursive: true });
  for (const dependency of Object.keys(
    (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> })
      .dependencies ?? {},
  ))
    // A Jest project already has Jest's own copy (the same version).
    if (!existsSync(join(dir, 'node_modules', dependency)))
      symlinkSync(join(ROOT, 'node_modules', dependency), join(dir, 'node_modules', dependency), 'dir');
}

/** A project with this build (`dist`, default the repository's dist/) of the package installed. */
export function createProject(vitestDir = join(ROOT, 'node_modules', 'vitest'), dist = join(ROOT, 'dist')): string {
  const dir = mkdtempSync(join(tmpdir(), 'rag-bench-recording-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-recording', private: true, type: 'module' }));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(vitestDir, join(dir, 'node_modules', 'vitest'), 'dir');
  installPackage(dir, dist);
  writeFileSync(join(dir, 'questions.js'), questionsModule());
  for (const style of ['matchers', 'plain'] as const) {
    mkdirSync(join(dir, style));
    for (let file = 0; file < FILES; file++) writeFileSync(join(dir, style, `f${file}.test.js`), testFile(file, style));
    writeFileSync(join(dir, `vitest.${style}.config.js`), config(style));
  }
  addHelperStyle(dir);
  if (RANKING_DEPTH !== undefined)
    writeFileSync(join(dir, 'vitest.ranked.config.js'), config('matchers', rankingDepthOf(RANKING_DEPTH)));
  if (FLOOR) addFloorStyle(dir, 'vitest');
  return dir;
}

function rankingDepthOf(text: string): number {
  const depth = Number(text);
  if (!/^\d+$/.test(text) || depth > 10)
    throw new Error(`bench: BENCH_RANKING_DEPTH must be a whole number from 0 to 10, got '${text}'`);
  return depth;
}

/** describeRetrieval's style in a Vitest project made by createProject. */
function addHelperStyle(dir: string): void {
  writeLabelledFiles(dir);
  mkdirSync(join(dir, 'helper'));
  for (let file = 0; file < FILES; file++)
    writeFileSync(join(dir, 'helper', `f${file}.test.js`), helperTestFile(file, 'esm'));
  writeFileSync(join(dir, 'vitest.helper.config.js'), helperConfig());
}

/** A CommonJS project on Jest (`jestModules`: the node_modules folder holding Jest) with the three styles. */
function createJestProject(jestModules: string, dist = join(ROOT, 'dist')): string {
  const dir = mkdtempSync(join(tmpdir(), 'rag-bench-recording-jest-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-recording', private: true }));
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(jestModules))
    if (!name.startsWith('.')) symlinkSync(join(jestModules, name), join(dir, 'node_modules', name), 'dir');
  installPackage(dir, dist);
  writeFileSync(join(dir, 'questions.js'), questionsModule('cjs'));
  writeLabelledFiles(dir);
  for (const style of ['matchers', 'plain', 'helper'] as const) {
    mkdirSync(join(dir, style));
    for (let file = 0; file < FILES; file++)
      writeFileSync(
        join(dir, style, `f${file}.test.js`),
        style === 'helper' ? helperTestFile(file, 'cjs') : jestTestFile(file, style),
      );
    writeFileSync(join(dir, `jest.${style}.config.js`), jestConfig(style));
  }
  if (FLOOR) addFloorStyle(dir, 'jest');
  return dir;
}

/** CPU seconds of the waited-for child processes so far (Linux /proc; NaN elsewhere): steadier than wall time on a shared machine. */
function childCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

interface Timing {
  wall: number;
  cpu: number;
}

function runVitest(node: string, dir: string, style: Style, env: Record<string, string> = {}): Timing {
  return timedRun(
    node,
    [join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', `vitest.${style}.config.js`],
    dir,
    `vitest (${style})`,
    env,
  );
}

function runJest(node: string, dir: string, style: Style, env: Record<string, string> = {}): Timing {
  return timedRun(
    node,
    [join(dir, 'node_modules', 'jest', 'bin', 'jest.js'), '--config', `jest.${style}.config.js`],
    dir,
    `jest (${style})`,
    env,
  );
}

/** One run of a test runner, its wall time and the CPU time of it and its workers. */
function timedRun(node: string, args: string[], dir: string, what: string, env: Record<string, string>): Timing {
  const cpuBefore = childCpuSeconds();
  const started = process.hrtime.bigint();
  const result = spawnSync(node, args, {
    cwd: dir,
    env: { ...process.env, CI: '', RAG_BASELINE: '', NO_COLOR: '1', ...env },
    encoding: 'utf8',
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0)
    throw new Error(`bench: ${what} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return { wall, cpu: childCpuSeconds() - cpuBefore };
}

/** Each round's CPU ratio on one toolchain: the hand-written matchers' and describeRetrieval's to plain expect. */
interface ToolchainRatios {
  matchers: number[];
  helper: number[];
}

/** The styles on one toolchain (and the matchers with the other build, BENCH_COMPARE_DIST), alternately. */
function benchToolchain(toolchain: Toolchain): ToolchainRatios {
  const { node, jestModules } = toolchain;
  const make = (dist?: string) =>
    jestModules === undefined ? createProject(toolchain.vitestDir, dist) : createJestProject(jestModules, dist);
  const run = (where: string, style: Style, env?: Record<string, string>) =>
    jestModules === undefined ? runVitest(node, where, style, env) : runJest(node, where, style, env);
  if (RANKING_DEPTH !== undefined && jestModules !== undefined)
    throw new Error(`bench: BENCH_RANKING_DEPTH runs on Vitest toolchains only, not '${toolchain.name}'`);
  const dir = make();
  const otherDir = COMPARE_DIST === undefined ? undefined : make(COMPARE_DIST);
  try {
    // Untimed: the baselines the timed runs compare with, and warm caches for every style.
    run(dir, 'matchers', { RAG_BASELINE: 'update' });
    run(dir, 'plain');
    run(dir, 'helper', { RAG_BASELINE: 'update' });
    if (FLOOR) run(dir, 'floor');
    if (otherDir !== undefined) run(otherDir, 'matchers', { RAG_BASELINE: 'update' });
    if (otherDir !== undefined) run(otherDir, 'helper', { RAG_BASELINE: 'update' });
    const plain: Timing[] = [];
    const matchers: Timing[] = [];
    const helper: Timing[] = [];
    const other: Timing[] = [];
    const otherHelper: Timing[] = [];
    const ranked: Timing[] = [];
    const floor: Timing[] = [];
    const runs: (() => void)[] = [
      () => plain.push(run(dir, 'plain')),
      () => matchers.push(run(dir, 'matchers')),
      () => helper.push(run(dir, 'helper')),
      ...(otherDir === undefined
        ? []
        : [() => other.push(run(otherDir, 'matchers')), () => otherHelper.push(run(otherDir, 'helper'))]),
      ...(RANKING_DEPTH === undefined ? [] : [() => ranked.push(run(dir, 'ranked'))]),
      ...(FLOOR ? [() => floor.push(run(dir, 'floor'))] : []),
    ];
    // The order alternates from round to round, so that whatever the machine does between the runs of
    // a round (a cache filled, a neighbour's load) falls on each style as often.
    for (let round = 0; round < ROUNDS; round++)
      for (const timed of round % 2 === 0 ? runs : [...runs].reverse()) timed();
    const show = (timings: readonly Timing[], key: keyof Timing) =>
      `${median(timings.map((timing) => timing[key])).toFixed(2)} s (${timings.map((timing) => timing[key].toFixed(2)).join(', ')})`;
    const ratio = (key: keyof Timing) =>
      median(matchers.map((timing) => timing[key])) / median(plain.map((timing) => timing[key]));
    const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const runnerPackage = jestModules === undefined ? toolchain.vitestDir : join(jestModules, 'jest');
    const runnerVersion = (JSON.parse(readFileSync(join(runnerPackage, 'package.json'), 'utf8')) as { version: string })
      .version;
    console.log(
      `${toolchain.name}: ${jestModules === undefined ? 'Vitest' : 'Jest'} ${runnerVersion}, Node.js ${nodeVersion}; ${QUESTIONS} per-question tests in ${FILES} files, ${ROUNDS} alternating rounds, medians:`,
    );
    console.log(`  plain expect, no reporter:                  wall ${show(plain, 'wall')}, cpu ${show(plain, 'cpu')}`);
    console.log(
      `  matchers + reporter, ${MEASURES.length} declared measures: wall ${show(matchers, 'wall')}, cpu ${show(matchers, 'cpu')}`,
    );
    console.log(
      `  describeRetrieval + reporter:               wall ${show(helper, 'wall')}, cpu ${show(helper, 'cpu')}`,
    );
    const perRound = (timings: readonly Timing[], against: readonly Timing[], key: keyof Timing) =>
      timings.map((timing, round) => timing[key] / (against[round] as Timing)[key]);
    const withInterval = (ratios: readonly number[]) => {
      const interval = medianInterval(ratios);
      return `${median(ratios).toFixed(3)} [${interval.low.toFixed(3)}, ${interval.high.toFixed(3)}]`;
    };
    console.log(`  ratio of the medians: wall ${ratio('wall').toFixed(3)}, cpu ${ratio('cpu').toFixed(3)}`);
    const coverage = (medianInterval(perRound(matchers, plain, 'wall')).coverage * 100).toFixed(1);
    console.log(
      `  median of the rounds' own ratios [${coverage}% interval]: wall ${withInterval(perRound(matchers, plain, 'wall'))}`,
    );
    console.log(
      `  cpu, matchers + reporter ÷ plain expect: ${describeRatios(perRound(matchers, plain, 'cpu'), 1.1, 'at most')}`,
    );
    console.log(
      `  cpu, describeRetrieval ÷ plain expect: ${describeRatios(perRound(helper, plain, 'cpu'), 1.1, 'at most')}`,
    );
    // Issue 35: the helper within 10% of the same questions written by hand.
    console.log(
      `  cpu, describeRetrieval ÷ hand-written matchers: ${describeRatios(perRound(helper, matchers, 'cpu'), 1.1, 'at most')}`,
    );
    if (RANKING_DEPTH !== undefined) {
      const kept = perRound(matchers, ranked, 'cpu');
      const { low, high } = medianInterval(kept);
      const cost = low > 1 ? 'costs measurably' : high < 1 ? 'cheaper' : 'no measurable cost (the interval holds 1)';
      console.log(
        `  matchers + reporter, rankingDepth ${RANKING_DEPTH}: wall ${show(ranked, 'wall')}, cpu ${show(ranked, 'cpu')}`,
      );
      console.log(
        `  cpu, default depth (rankings kept) ÷ rankingDepth ${RANKING_DEPTH}, median of the rounds' own ratios [${coverage}% interval]: ${withInterval(kept)}: ${cost}`,
      );
    }
    if (FLOOR) {
      console.log(`  the least recording (BENCH_FLOOR): wall ${show(floor, 'wall')}, cpu ${show(floor, 'cpu')}`);
      console.log(`  cpu, the least recording ÷ plain expect: ${withInterval(perRound(floor, plain, 'cpu'))}`);
      console.log(
        `  cpu, matchers + reporter ÷ the least recording: ${withInterval(perRound(matchers, floor, 'cpu'))}`,
      );
      console.log(`  cpu, describeRetrieval ÷ the least recording: ${withInterval(perRound(helper, floor, 'cpu'))}`);
    }
    if (otherDir !== undefined) {
      console.log(
        `  matchers + reporter, build ${COMPARE_DIST}: wall ${show(other, 'wall')}, cpu ${show(other, 'cpu')}`,
      );
      console.log(
        `  this build ÷ that build, median of the rounds' own ratios [${coverage}% interval]: wall ${withInterval(perRound(matchers, other, 'wall'))}`,
      );
      console.log(
        `  cpu, this build ÷ that build: ${describeRatios(perRound(matchers, other, 'cpu'), 1.1, 'at most')}`,
      );
      console.log(`  cpu, that build ÷ plain expect: ${describeRatios(perRound(other, plain, 'cpu'), 1.1, 'at most')}`);
      console.log(
        `  describeRetrieval + reporter, build ${COMPARE_DIST}: wall ${show(otherHelper, 'wall')}, cpu ${show(otherHelper, 'cpu')}`,
      );
      console.log(
        `  cpu, describeRetrieval, this build ÷ that build: ${describeRatios(perRound(helper, otherHelper, 'cpu'), 1.1, 'at most')}`,
      );
    }
    return { matchers: perRound(matchers, plain, 'cpu'), helper: perRound(helper, plain, 'cpu') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (otherDir !== undefined) rmSync(otherDir, { recursive: true, force: true });
  }
}

/** The part of rag-matchers/report that the end of a run uses (either build's). */
interface ReportEntry {
  summarize: (run: unknown, baseline: unknown, options?: unknown) => unknown;
  renderConsole: (summary: unknown, options: { color: boolean }) => string;
  renderMarkdown: (summary: unknown) => string;
  renderJson: (summary: unknown) => unknown;
  formatJsonReport: (report: unknown) => string;
  baselineFromRun: (run: unknown) => unknown;
  formatBaseline: (file: unknown) => string;
  parseBaseline: (text: string, path: string) => unknown;
}

/** The collected run of the Vitest benchmark's matchers style, built directly: 4,000 questions × the declared measures. */
function endOfRunInput(entry: ReportEntry): { run: unknown; baseline: unknown } {
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const samples = (shift: number) => {
    const list: object[] = [];
    for (let index = 0; index < QUESTIONS; index++) {
      const file = Math.floor(index / (QUESTIONS / FILES));
      for (const measure of MEASURES) {
        const drawn = next();
        const value = measure === 'hit@3' ? (drawn < 0.7 ? 1 : 0) : Math.min(1, Math.max(0, drawn + shift));
        list.push({
          measure,
          value,
          queryId: `q${index}`,
          file: `matchers/f${file}.test.js`,
          describePath: [`file ${file}`],
          test: `q${index}`,
        });
      }
    }
    return list;
  };
  const baseline = entry.baselineFromRun({ runner: 'vitest', samples: samples(0) });
  return { run: { runner: 'vitest', samples: samples(-0.01) }, baseline };
}

/** CPU milliseconds of one end of run: on a shared machine steadier than wall time (this is one thread). */
function endOfRun(entry: ReportEntry, input: { run: unknown; baseline: unknown }): number {
  const started = process.cpuUsage();
  const summary = entry.summarize(input.run, input.baseline, { strict: true });
  entry.renderConsole(summary, { color: false });
  entry.renderMarkdown(summary);
  entry.formatJsonReport(entry.renderJson(summary));
  entry.formatBaseline(entry.baselineFromRun(input.run));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** The end of a run with this build and with the build in `otherDist`, alternately; prints the same-run ratio. */
export async function benchEndOfRun(otherDist: string): Promise<void> {
  const load = async (dist: string) => (await import(pathToFileURL(join(dist, 'report.js')).href)) as ReportEntry;
  const mine = await load(join(ROOT, 'dist'));
  const theirs = await load(otherDist);
  const inputs = [endOfRunInput(mine), endOfRunInput(theirs)] as const;
  for (let warm = 0; warm < 2; warm++) {
    endOfRun(mine, inputs[0]);
    endOfRun(theirs, inputs[1]);
  }
  const mineMs: number[] = [];
  const theirsMs: number[] = [];
  for (let round = 0; round < 4 * ROUNDS; round++) {
    if (round % 2 === 0) {
      mineMs.push(endOfRun(mine, inputs[0]));
      theirsMs.push(endOfRun(theirs, inputs[1]));
    } else {
      theirsMs.push(endOfRun(theirs, inputs[1]));
      mineMs.push(endOfRun(mine, inputs[0]));
    }
  }
  const ratios = mineMs.map((ms, round) => ms / (theirsMs[round] as number));
  const interval = medianInterval(ratios);
  // Issue 32's target: the median at most 1.00 and the interval's upper end at most 1.05.
  const verdict =
    median(ratios) <= 1 && interval.high <= 1.05
      ? 'met'
      : interval.low > 1 || median(ratios) > 1.05
        ? 'NOT met'
        : 'undetermined (run more rounds)';
  console.log(
    `end of run (summarize, console, Markdown, JSON, baseline of ${QUESTIONS * MEASURES.length} samples), ${ratios.length} alternating rounds: ` +
      `CPU this build ${median(mineMs).toFixed(0)} ms, build ${otherDist} ${median(theirsMs).toFixed(0)} ms; ` +
      `ratio ${median(ratios).toFixed(3)} [${interval.low.toFixed(3)}, ${interval.high.toFixed(3)}] (${(interval.coverage * 100).toFixed(1)}% interval; target median ≤ 1.00, upper ≤ 1.05: ${verdict})`,
  );
  benchBaselineRead(mine, theirs, otherDist, inputs[0].run);
}

/**
 * The reporter reads its baseline too (summarize above is given it parsed): parseBaseline of the run's
 * baseline text, each row with its judgments' fingerprint as the matchers record it (no ranking rows), with
 * each build, alternately; printed as a figure of its own, without a target.
 */
function benchBaselineRead(mine: ReportEntry, theirs: ReportEntry, otherDist: string, run: unknown): void {
  const samples = (run as { samples: { queryId: string }[] }).samples.map((sample) => ({
    ...sample,
    labels: (Number.parseInt(sample.queryId.slice(1), 10) * 2654435761).toString(16).slice(-8),
  }));
  const text = mine.formatBaseline(mine.baselineFromRun({ runner: 'vitest', samples }));
  const read = (entry: ReportEntry): number => {
    const started = process.cpuUsage();
    entry.parseBaseline(text, 'rag-baseline.json');
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000;
  };
  const mineMs: number[] = [];
  const theirsMs: number[] = [];
  for (let round = 0; round < 4 * ROUNDS; round++) {
    const [first, second] = round % 2 === 0 ? [mine, theirs] : [theirs, mine];
    const firstMs = read(first);
    const secondMs = read(second);
    mineMs.push(first === mine ? firstMs : secondMs);
    theirsMs.push(first === mine ? secondMs : firstMs);
  }
  const ratios = mineMs.map((ms, round) => ms / (theirsMs[round] as number));
  const interval = medianInterval(ratios);
  console.log(
    `baseline read (parseBaseline of the ${(text.length / 1e6).toFixed(1)} MB baseline), ${ratios.length} alternating rounds: ` +
      `CPU this build ${median(mineMs).toFixed(1)} ms, build ${otherDist} ${median(theirsMs).toFixed(1)} ms; ` +
      `ratio ${median(ratios).toFixed(3)} [${interval.low.toFixed(3)}, ${interval.high.toFixed(3)}] (${(interval.coverage * 100).toFixed(1)}% interval)`,
  );
}

export async function benchRecording(): Promise<void> {
  if (COMPARE_DIST !== undefined) await benchEndOfRun(COMPARE_DIST);
  // Every toolchain is resolved (downloaded on first use) before any timing starts.
  // BENCH_TOOLCHAINS=none: the end of the run alone (with BENCH_COMPARE_DIST), no Vitest run.
  const names = process.env.BENCH_TOOLCHAINS || DEFAULT_TOOLCHAINS;
  const toolchains = names === 'none' ? [] : names.split(',').map((name) => toolchainOf(name.trim()));
  const results = toolchains.map((toolchain) => [toolchain.name, benchToolchain(toolchain)] as const);
  // Met or not only when the whole interval is on one side of the target (targetVerdict).
  const verdicts = results.map(
    ([name, ratios]) =>
      `${name} ${describeRatios(ratios.matchers, 1.1, 'at most')}, describeRetrieval ${describeRatios(ratios.helper, 1.1, 'at most')}`,
  );
  if (verdicts.length > 0) console.log(`recording, CPU ratio to plain expect: ${verdicts.join('; ')}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await benchRecording();
