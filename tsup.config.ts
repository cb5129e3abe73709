import { defineConfig, type Options } from 'tsup';

// Every public entry point is listed here and in package.json "exports" (and "bin" for the CLI).
// `npm run demo` builds the ESM JavaScript alone (RAG_MATCHERS_BUILD=js): the declarations are most of
// the build's time, and the demo reads neither them nor the CommonJS files. It keeps whatever else
// dist/ holds.
const javascriptOnly = process.env.RAG_MATCHERS_BUILD === 'js';

// What package.json "exports" reaches, in both formats.
const libraryEntries = {
  index: 'src/index.ts',
  vitest: 'src/vitest/setup.ts',
  jest: 'src/jest/setup.ts',
  'vitest-reporter': 'src/vitest/reporter.ts',
  'jest-reporter': 'src/jest/reporter.ts',
  trec: 'src/entries/trec.ts',
  stats: 'src/entries/stats.ts',
  generation: 'src/entries/generation.ts',
  report: 'src/entries/report.ts',
};
// ESM only: the command (bin) and the worker that trec-eval (src/trec/eval/) starts on large runs (one
// per extra thread; not an export). No require reaches them.
const allEntries = {
  ...libraryEntries,
  cli: 'src/cli/main.ts',
  'trec-eval-worker': 'src/trec/eval/worker.ts',
};

const external = ['vitest', 'vitest/node', 'vitest/reporters', 'jest', '@jest/globals', '@jest/reporters', 'expect'];

const javascript: Options = {
  // Maps without sourcesContent would be most of the tarball for little use: none are shipped.
  sourcemap: false,
  target: 'node20',
  splitting: true,
  treeshake: true,
  // Syntax and whitespace minification, lines kept under 160 characters: about 220 KB less. Names stay
  // (identifiers are not minified), so a stack frame still names our function (docs/decisions.md).
  esbuildOptions(options) {
    options.minifySyntax = true;
    options.minifyWhitespace = true;
    options.lineLimit = 160;
  },
  external,
  dts: false,
  // The builds below run in parallel into one dist/: `npm run build` empties it first.
  clean: false,
};

export default defineConfig([
  { ...javascript, entry: allEntries, format: ['esm'] },
  // The CommonJS build has only the library's entries, so its chunks are cut for them alone: built with
  // the command's and the worker's entries too, it was split into twice as many chunks, each one more
  // require and more `chunk…_cjs.` references (about 58 KB of the tarball). See docs/decisions.md.
  // It is what Jest loads (`require`), in a vm context where every read of a global is an interceptor call,
  // so each module reads the built-ins it uses (Math, JSON, Set, …) from src/intrinsics.ts, once. Not the
  // ESM build: outside a vm context V8 folds `Math.imul` to an instruction, and a module binding measured
  // about 1% slower on evaluate() (docs/decisions.md, "Built-ins read once").
  ...(javascriptOnly
    ? []
    : [{ ...javascript, entry: libraryEntries, format: ['cjs'], inject: ['src/intrinsics.ts'] } satisfies Options]),
  // The declarations of both formats, built from every entry as before (scripts/after-build.mjs then
  // shares what the two formats have in common).
  ...(javascriptOnly
    ? []
    : [{ entry: allEntries, format: ['esm', 'cjs'], dts: { only: true }, external, clean: false } satisfies Options]),
]);
