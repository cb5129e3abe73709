import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test/fixtures/**', 'test/**/fixtures/**', 'test/docs/generated/**', 'examples/**/node_modules/**', '**/*.cjs', '**/.rag-matchers/**'] },
  js.configs.recommended,
  { files: ['**/*.mjs', '**/*.js', '**/*.cjs'], languageOptions: { globals: globals.node } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    // The metric core knows nothing about test runners, files or colours.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['vitest', 'vitest/*', 'jest', '@jest/*', 'expect', 'node:*', 'fs', 'path', 'jest-matcher-utils', 'chalk'] }],
    },
  },
);
