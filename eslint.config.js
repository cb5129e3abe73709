import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Which folders each layer may import (docs/architecture.md draws the same table). A folder not listed
// for a layer is out of bounds for it, type imports included; the entries (src/index.ts, src/entries/)
// may import anything, and nothing imports them. The layers form a ladder: each imports only layers
// listed before it, never one after it. test/package/layers.test.ts checks that this table keeps to the
// ladder, that the code does, and that there is no cycle inside a folder.
export const LAYER_IMPORTS = {
  core: [],
  files: [],
  recording: ['core'],
  generation: ['core'],
  trec: ['core', 'files'],
  dataset: ['core', 'files', 'trec'],
  matchers: ['core', 'generation', 'dataset', 'recording'],
  suite: ['core', 'files', 'recording', 'dataset', 'matchers'],
  baseline: ['core', 'files', 'recording'],
  report: ['core', 'files', 'recording', 'baseline'],
  gate: ['core', 'files', 'recording', 'baseline', 'report'],
  vitest: ['files', 'recording', 'matchers', 'suite', 'report', 'gate'],
  jest: ['files', 'recording', 'matchers', 'suite', 'report', 'gate'],
  cli: ['core', 'files', 'recording', 'generation', 'trec', 'dataset', 'baseline', 'report', 'gate'],
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'test/fixtures/**',
      'test/**/fixtures/**',
      'test/docs/generated/**',
      'examples/**/node_modules/**',
      '**/*.cjs',
      '**/.rag-matchers/**',
    ],
  },
  js.configs.recommended,
  { files: ['**/*.mjs', '**/*.js', '**/*.cjs'], languageOptions: { globals: globals.node } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  ...layerRules(),
);

function layerRules() {
  const mayImport = LAYER_IMPORTS;
  // What a layer never imports from outside the project.
  const runnerPackages = ['vitest', 'vitest/*', 'jest', '@jest/*', 'expect', 'jest-matcher-utils'];
  const nodePackages = ['node:*', 'fs', 'path'];
  const packageBans = {
    core: {
      group: [...runnerPackages, ...nodePackages, 'chalk'],
      message: 'The metric core knows nothing about test runners, files or colours.',
    },
    matchers: { group: nodePackages, message: 'The matchers know nothing about files.' },
  };
  const layers = Object.keys(mayImport);
  return layers.map((layer) => {
    const banned = layers.filter((other) => other !== layer && !mayImport[layer].includes(other));
    const patterns = [
      {
        group: banned.map((other) => `**/${other}/**`),
        message: `${layer} may import only ${mayImport[layer].join(', ') || 'its own folder'} (docs/architecture.md).`,
      },
      {
        group: ['**/entries/**', '**/src/index.js', '../index.js', '../../index.js'],
        message: 'Only the package entries import the public barrels.',
      },
    ];
    if (packageBans[layer]) patterns.push(packageBans[layer]);
    return {
      files: [layer === 'matchers' ? 'matchers/**/*.ts' : `src/${layer}/**/*.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns }] },
    };
  });
}
