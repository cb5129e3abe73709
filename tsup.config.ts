import { mkdir, writeFile } from 'node:fs/promises';

import { defineConfig, type Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

// The two @stdlib distributions stats.ts imports pull in some 150 small CommonJS modules, each wrapped
// by the bundler: a third of the tarball, read by nobody. They are bundled once, minified, into one
// module that both imports share; our own code stays as written, so stack traces read like the source.
const STDLIB_IMPORTS: Record<string, string> = {
  '@stdlib/stats-base-dists-t-cdf': 'tCdf',
  '@stdlib/stats-base-dists-normal-quantile': 'normalQuantile',
};

// The bundle is written beside the chunks as dist/stdlib.cjs, minified: bundled into a chunk it would be
// printed again unminified, three times its size. Both formats import it through dist/stdlib-lazy.cjs,
// a few lines that load it on the first call of a function: compiling and starting it costs about 25 ms,
// and most test files (every file of per-question matchers) never call one. CommonJS, so that the
// loading is synchronous; Node's ES modules import it like any CommonJS module.
const STDLIB_FILE = 'stdlib.cjs';
const STDLIB_LAZY_FILE = 'stdlib-lazy.cjs';

function lazyStdlibModule(): string {
  const lines = ["'use strict';", 'let loaded;', `const load = () => (loaded ??= require('./${STDLIB_FILE}'));`];
  for (const name of Object.values(STDLIB_IMPORTS))
    lines.push(`exports.${name} = function ${name}(...args) { return load().${name}(...args); };`);
  return `${lines.join('\n')}\n`;
}

const bundleStdlibOnce: EsbuildPlugin = {
  name: 'bundle-stdlib-once',
  setup(build) {
    // tsup builds CommonJS with splitting as ESM and converts it afterwards: tell the formats by extension.
    const commonJs = build.initialOptions.outExtension?.['.js'] === '.cjs';
    build.onResolve({ filter: /^@stdlib\// }, (args) =>
      args.path === '@stdlib/bundle'
        ? { path: `./${STDLIB_LAZY_FILE}`, external: true }
        : { path: args.path, namespace: 'stdlib' },
    );
    build.onLoad({ filter: /.*/, namespace: 'stdlib' }, (args) => {
      const name = STDLIB_IMPORTS[args.path];
      if (name === undefined)
        throw new Error(`bundle-stdlib-once: ${args.path} is not in STDLIB_IMPORTS; add it there.`);
      return {
        contents: `export { ${name} as default } from '@stdlib/bundle';`,
        loader: 'js',
        resolveDir: process.cwd(),
      };
    });
    // Written once, by the ES build (which every build runs, `npm run demo`'s included).
    if (commonJs) return;
    build.onEnd(async () => {
      const outdir = build.initialOptions.outdir ?? 'dist';
      await mkdir(outdir, { recursive: true });
      await writeFile(`${outdir}/${STDLIB_LAZY_FILE}`, lazyStdlibModule());
      await build.esbuild.build({
        stdin: {
          contents: Object.entries(STDLIB_IMPORTS)
            .map(([from, name]) => `export { default as ${name} } from '${from}';`)
            .join('\n'),
          resolveDir: process.cwd(),
        },
        bundle: true,
        minify: true,
        format: 'cjs',
        platform: 'node',
        outfile: `${outdir}/${STDLIB_FILE}`,
        legalComments: 'none',
      });
    });
  },
};

// Every public entry point is listed here and in package.json "exports" (and "bin" for the CLI).
// `npm run demo` builds the ESM JavaScript alone (RAG_MATCHERS_BUILD=js): the declarations are most of
// the build's time, and the demo reads neither them nor the CommonJS files. It keeps whatever else
// dist/ holds.
const javascriptOnly = process.env.RAG_MATCHERS_BUILD === 'js';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    vitest: 'src/vitest/setup.ts',
    jest: 'src/jest/setup.ts',
    'vitest-reporter': 'src/vitest/reporter.ts',
    'jest-reporter': 'src/jest/reporter.ts',
    trec: 'src/entries/trec.ts',
    stats: 'src/entries/stats.ts',
    generation: 'src/entries/generation.ts',
    report: 'src/entries/report.ts',
    cli: 'src/cli/main.ts',
    // Started by the trec-eval engine (src/trec/eval/) on large runs (one per extra thread); not an export.
    'trec-eval-worker': 'src/trec/eval/worker.ts',
  },
  format: javascriptOnly ? ['esm'] : ['esm', 'cjs'],
  dts: !javascriptOnly,
  // Maps without sourcesContent would be most of the tarball for little use: none are shipped.
  sourcemap: false,
  clean: !javascriptOnly,
  target: 'node20',
  splitting: true,
  treeshake: true,
  // stdlib's distribution functions are bundled: a few KB of code instead of ~200 small runtime packages.
  noExternal: [/^@stdlib\//],
  esbuildPlugins: [bundleStdlibOnce],
  external: ['vitest', 'vitest/node', 'vitest/reporters', 'jest', '@jest/globals', '@jest/reporters', 'expect'],
});
