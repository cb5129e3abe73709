// `rag-matchers update -- <command>` and `prune`: the printed form on Windows, run through the built bin.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, REPO_ROOT } from '../integration/support/build.js';
import { runCommand } from '../integration/support/run.js';
import { reportCommands, withBaselineMode, withoutBaselineMode } from '../../src/report/wording.js';

const cli = (...args: string[]) =>
  runCommand(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), ...args], { cwd: REPO_ROOT, timeoutMs: 60_000 });

/** A command that prints the mode it was given and exits with 3. */
const PRINT_MODE = [process.execPath, '-e', "console.log('mode=' + process.env.RAG_BASELINE); process.exit(3)"];

describe('commands with a baseline mode, as a shell runs them', () => {
  it('POSIX shells take the variable in front; Windows runs the command through the CLI', () => {
    expect(withBaselineMode('update', 'npm test', 'linux')).toBe('RAG_BASELINE=update npm test');
    expect(withBaselineMode('prune', 'npx jest', 'darwin')).toBe('RAG_BASELINE=prune npx jest');
    expect(withBaselineMode('update', 'npm test', 'win32')).toBe('npx rag-matchers update -- npm test');
  });

  it('the prune and plain run commands follow the accept command in either form', () => {
    expect(reportCommands('npx rag-matchers update -- pnpm test')).toEqual({
      update: 'npx rag-matchers update -- pnpm test',
      prune: 'npx rag-matchers prune -- pnpm test',
      run: 'pnpm test',
    });
    expect(reportCommands('RAG_BASELINE=update npm run test:rag')).toEqual({
      update: 'RAG_BASELINE=update npm run test:rag',
      prune: 'RAG_BASELINE=prune npm run test:rag',
      run: 'npm run test:rag',
    });
    expect(withoutBaselineMode('npx rag-matchers prune -- npx vitest run')).toBe('npx vitest run');
  });

  it('docs/cli.md and docs/baselines-and-ci.md show the Windows form as the reporters print it', () => {
    const printed = withBaselineMode('update', 'npm test', 'win32');
    expect(readFileSync(join(REPO_ROOT, 'docs', 'cli.md'), 'utf8')).toContain(`\n${printed}\n`);
    expect(readFileSync(join(REPO_ROOT, 'docs', 'baselines-and-ci.md'), 'utf8')).toContain(`\`${printed}\``);
  });
});

describe('rag-matchers update / prune', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 240_000);

  it('runs the command with RAG_BASELINE set for it, and exits with its exit code', async () => {
    const update = await cli('update', '--', ...PRINT_MODE);
    expect(update.stdout).toBe('mode=update\n');
    expect(update.exitCode).toBe(3);
    const prune = await cli('prune', '--', ...PRINT_MODE);
    expect(prune.stdout).toBe('mode=prune\n');
  });

  it('reads leading NAME=value words as variables, so the Windows form of a Jest ESM command runs as printed', async () => {
    const printed = withBaselineMode('update', 'NODE_OPTIONS=--no-warnings npx jest', 'win32');
    expect(printed).toBe('npx rag-matchers update -- NODE_OPTIONS=--no-warnings npx jest');
    const result = await cli(
      'update',
      '--',
      'NODE_OPTIONS=--no-warnings',
      process.execPath,
      '-e',
      "console.log(process.env.RAG_BASELINE + ' ' + process.env.NODE_OPTIONS)",
    );
    expect(result.stdout).toBe('update --no-warnings\n');
    expect(result.exitCode).toBe(0);
  });

  it('without a command says how to use it and exits 2', async () => {
    const result = await cli('update');
    expect(result.stderr).toContain('Usage: rag-matchers update -- <command that runs the tests>');
    expect(result.exitCode).toBe(2);
  });
});
