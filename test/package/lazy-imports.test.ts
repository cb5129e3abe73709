// Two dependencies cost every test file that loads the package tens of milliseconds: jest-matcher-utils
// (with jest-diff, pretty-format and chalk, about 60 ms) and the bundled stdlib distribution functions
// (dist/stdlib.cjs, about 25 ms). The built package loads each on first use only: the first message a
// matcher builds, the first interval or t-test. Needs `npm run build`.
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

describe('the stdlib distribution functions are loaded on first use', () => {
  const stdlib = `${resolve(root, 'dist')}/stdlib.cjs`;

  it.each(['esm', 'cjs'] as const)('%s: not by loading the package or by a per-question matcher', (format) => {
    expect(loadedAfter(format, passing, stdlib)).toBe('not loaded');
  });

  it.each(['esm', 'cjs'] as const)('%s: by the first interval, which has the right bounds', (format) => {
    // Wilson, 3 of 10 at 95%: z = 1.959964, centre (0.3 + z²/20) / (1 + z²/10) = 0.355507, half-width
    // z · √(0.3 · 0.7 / 10 + z² / 400) / (1 + z²/10) = 0.247715: [0.107791, 0.603222].
    const body = `
      const { wilsonInterval } = ${format === 'esm' ? `await import(${JSON.stringify(resolve(root, 'dist/stats.js'))})` : `require(${JSON.stringify(resolve(root, 'dist/stats.cjs'))})`};
      const interval = wilsonInterval(3, 10);
      if (Math.abs(interval.lower - 0.107791) > 1e-6 || Math.abs(interval.upper - 0.603222) > 1e-6) throw new Error(JSON.stringify(interval));
    `;
    expect(loadedAfter(format, body, stdlib)).toBe('loaded');
  });
});
