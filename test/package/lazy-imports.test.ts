// jest-matcher-utils (with jest-diff, pretty-format and chalk) costs every test file that loads it
// about 60 ms. The built package loads it on first use only: the first message a matcher builds.
// Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** Runs `body` in a fresh Node process with the built entry loaded; prints whether `module` is loaded. */
function loadedAfter(format: 'esm' | 'cjs', body: string, module = 'jest-matcher-utils'): string {
  const load =
    format === 'esm'
      ? `const lib = await import(${JSON.stringify(resolve(root, 'dist/index.js'))});`
      : `const lib = require(${JSON.stringify(resolve(root, 'dist/index.cjs'))});`;
  const script = `
    const { createRequire } = await import('node:module');
    const require = createRequire(${JSON.stringify(resolve(root, 'package.json'))});
    ${load}
    ${body}
    const loaded = Object.keys(require.cache).some((path) => path.includes(${JSON.stringify(module)}));
    console.log(loaded ? 'loaded' : 'not loaded');
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: root });
  expect(result.stderr).toBe('');
  return result.stdout.trim();
}

const passing = `lib.matchers.toHaveRecallAtK.call({ isNot: false }, ['a', 'b'], ['a'], 5, 0.5);`;
const failing = `
  const result = lib.matchers.toHaveRecallAtK.call({ isNot: false }, ['b'], ['a'], 5, 0.5);
  if (result.pass || !result.message().includes('recall@5')) throw new Error('expected a failure message');
`;

describe('jest-matcher-utils is loaded on first use', () => {
  it.each(['esm', 'cjs'] as const)('%s: not by loading the package or by a passing matcher', (format) => {
    expect(loadedAfter(format, passing)).toBe('not loaded');
  });

  it.each(['esm', 'cjs'] as const)('%s: by the first failure message', (format) => {
    expect(loadedAfter(format, failing)).toBe('loaded');
  });
});
