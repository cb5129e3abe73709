// The command the messages print to run the tests again (record, accept, prune): the one that ran them.
// The environments are what npm 10, pnpm 9 and yarn 1 set for a package script (npm_lifecycle_event,
// npm_lifecycle_script, npm_package_json, npm_config_user_agent).
import { describe, expect, it } from 'vitest';
import { runCommandFor } from '../../../src/gate/mode.js';
import { resolveReporterOptions } from '../../../src/gate/options.js';
import { suiteKeyOf } from '../../../src/recording/collected.js';
import type { GateFinding } from '../../../src/report/summary.js';
import { findingCommand, reportCommands, suiteUpdateCommand } from '../../../src/report/wording.js';

const ROOT = '/work/app';
const npmScript = (
  event: string,
  script: string,
  userAgent = 'npm/10.9.2 node/v22.12.0 linux x64 workspaces/false',
) => ({
  npm_lifecycle_event: event,
  npm_lifecycle_script: script,
  npm_package_json: `${ROOT}/package.json`,
  npm_config_user_agent: userAgent,
});

describe('runCommandFor', () => {
  it('run directly: npx and the runner (Jest in ESM mode with its NODE_OPTIONS)', () => {
    expect(runCommandFor('vitest', { env: {}, rootDir: ROOT })).toBe('npx vitest run');
    expect(runCommandFor('jest', { env: {}, rootDir: ROOT })).toBe('npx jest');
    expect(runCommandFor('jest', { env: { NODE_OPTIONS: '--experimental-vm-modules' }, rootDir: ROOT })).toBe(
      'NODE_OPTIONS=--experimental-vm-modules npx jest',
    );
    expect(runCommandFor('jest', { env: {}, rootDir: ROOT, execArgv: ['--experimental-vm-modules'] })).toBe(
      'NODE_OPTIONS=--experimental-vm-modules npx jest',
    );
  });

  it('run by npx (npm exec, which sets npm_lifecycle_event to npx): npx and the runner, not a script', () => {
    // What npm 11 sets for `npx vitest run` in a folder with a package.json (seen with `npx <bin>` printing its env).
    const npx = { ...npmScript('npx', 'vitest'), npm_command: 'exec' };
    // Before: `npm run npx -- --run`.
    expect(runCommandFor('vitest', { env: npx, rootDir: ROOT })).toBe('npx vitest run');
    expect(runCommandFor('jest', { env: { ...npmScript('npx', 'jest'), npm_command: 'exec' }, rootDir: ROOT })).toBe(
      'npx jest',
    );
  });

  it('run by a package script: that script, as its package manager runs it', () => {
    expect(runCommandFor('vitest', { env: npmScript('test', 'vitest run'), rootDir: ROOT })).toBe('npm test');
    expect(runCommandFor('vitest', { env: npmScript('test:rag', 'vitest run --project rag'), rootDir: ROOT })).toBe(
      'npm run test:rag',
    );
    // The script sets NODE_OPTIONS itself: `npm test` is the whole command.
    expect(
      runCommandFor('jest', {
        env: {
          ...npmScript('test', 'NODE_OPTIONS=--experimental-vm-modules jest'),
          NODE_OPTIONS: '--experimental-vm-modules',
        },
        rootDir: ROOT,
      }),
    ).toBe('npm test');
    expect(
      runCommandFor('jest', { env: npmScript('test', 'jest', 'pnpm/9.15.0 npm/? node/v22.12.0'), rootDir: ROOT }),
    ).toBe('pnpm test');
    expect(
      runCommandFor('jest', {
        env: npmScript('check', 'jest --ci', 'yarn/1.22.22 npm/? node/v22.12.0'),
        rootDir: ROOT,
      }),
    ).toBe('yarn check');
  });

  it('a bare `vitest` script would watch: --run goes after it', () => {
    expect(runCommandFor('vitest', { env: npmScript('test', 'vitest'), rootDir: ROOT })).toBe('npm test -- --run');
    expect(
      runCommandFor('vitest', { env: npmScript('test', 'vitest', 'pnpm/9.15.0 npm/? node/v22.12.0'), rootDir: ROOT }),
    ).toBe('pnpm test --run');
  });

  it('a script that does not run the runner, or another package’s script (npm test of a repository spawning a fixture): npx', () => {
    expect(runCommandFor('vitest', { env: npmScript('test:compat', 'node test/compat/run.mjs'), rootDir: ROOT })).toBe(
      'npx vitest run',
    );
    expect(runCommandFor('vitest', { env: npmScript('test', 'vitest run'), rootDir: '/work/app/fixture' })).toBe(
      'npx vitest run',
    );
    expect(
      runCommandFor('vitest', { env: { npm_config_user_agent: 'pnpm/9.15.0 npm/? node/v22.12.0' }, rootDir: ROOT }),
    ).toBe('pnpm exec vitest run');
  });

  it('the reporters’ accept and prune commands, and a suite’s update command after npm’s --', () => {
    const resolved = resolveReporterOptions(
      {},
      { rootDir: ROOT, runner: 'vitest', env: npmScript('test', 'vitest run') },
    );
    expect(resolved.acceptCommand).toBe('RAG_BASELINE=update npm test');
    expect(resolved.pruneCommand).toBe('RAG_BASELINE=prune npm test');
    expect(suiteUpdateCommand({ file: 'test/a.test.ts', describe: ['refunds'] }, 'vitest')).toBe(
      "RAG_BASELINE=update npx vitest run test/a.test.ts -t 'refunds '",
    );
  });

  it('a suite re-recorded through an npm script: its file and -t after --, so that npm passes them on', () => {
    const finding = {
      accept: 'suite',
      suiteKey: suiteKeyOf({ file: 'test/a.test.ts', describe: ['refunds'] }),
    } as unknown as GateFinding;
    expect(findingCommand(finding, reportCommands('RAG_BASELINE=update npm test'))).toBe(
      "RAG_BASELINE=update npm test -- test/a.test.ts -t 'refunds '",
    );
    expect(findingCommand(finding, reportCommands('RAG_BASELINE=update pnpm test'))).toBe(
      "RAG_BASELINE=update pnpm test test/a.test.ts -t 'refunds '",
    );
  });
});
