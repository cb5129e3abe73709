import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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

// Which folders each layer may import (docs/architecture.md draws the same graph). A folder not listed
// for a layer is out of bounds for it, type imports included; the entries (src/index.ts, src/entries/)
// may import anything, and nothing imports them. test/package/layers.test.ts checks there is no cycle.
function layerRules() {
  const mayImport = {
    core: [],
    files: [],
    recording: ['core'],
    generation: ['core'],
    dataset: ['core', 'files', 'trec'],
    trec: ['core', 'files'],
    matchers: ['core', 'generation', 'dataset', 'recording'],
    baseline: ['core', 'files', 'recording'],
    report: ['core', 'files', 'recording', 'baseline'],
    gate: ['core', 'files', 'recording', 'baseline', 'report'],
    vitest: ['files', 'recording', 'matchers', 'report', 'gate'],
    jest: ['files', 'recording', 'matchers', 'report', 'gate'],
    cli: ['core', 'files', 'recording', 'generation', 'dataset', 'trec', 'baseline', 'report', 'gate'],
  };
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
