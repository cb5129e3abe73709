// Whether a run writes the baseline, and whether it runs under CI: decided from the environment once,
// the same for both reporters and `rag-matchers merge`.
//
//   RAG_BASELINE=update (or Vitest's -u)  → write: merge this run's suites into the baseline
//   RAG_BASELINE=prune                    → write, and remove the rows this run found missing
//   otherwise                             → compare only
//   CI set (and not "false"/"0")          → compare only, whatever was asked: CI never writes the baseline
//   RAG_PARTIAL=1 (or the option partial) → a deliberate subset: baseline questions the run did not
//                                           judge are reported, and do not fail it under strict

import { closestName } from '../core/suggest.js';
import { isCiEnvironment } from '../recording/gate-presence.js';

export type BaselineMode = 'compare' | 'update' | 'prune';

export interface BaselineModeResolution {
  mode: BaselineMode;
  /** True when the CI variable is set. */
  ci: boolean;
  /** Set when an update was asked for but refused (under CI): say it in the report. */
  notice?: string;
}

/**
 * Whether this run writes the baseline. `updateSnapshots`: Vitest's `-u`. Throws for an unknown
 * RAG_BASELINE value (a typo must not silently compare instead of update).
 */
export function resolveBaselineMode(
  env: Record<string, string | undefined> = process.env,
  flags: { updateSnapshots?: boolean } = {},
): BaselineModeResolution {
  const raw = env.RAG_BASELINE?.trim().toLowerCase() ?? '';
  if (raw !== '' && raw !== 'update' && raw !== 'prune' && raw !== 'compare') {
    throw new RangeError(
      `RAG_BASELINE must be "update" (record this run into the baseline) or "prune" (also remove obsolete entries), got ${JSON.stringify(env.RAG_BASELINE)}${variableGuess('RAG_BASELINE', closestName(raw, ['update', 'prune', 'compare']))}.`,
    );
  }
  const asked: BaselineMode =
    raw === 'prune'
      ? 'prune'
      : raw === 'update' || (raw === '' && flags.updateSnapshots === true)
        ? 'update'
        : 'compare';
  const ci = isCiEnvironment(env);
  if (ci && asked !== 'compare') {
    return {
      mode: 'compare',
      ci,
      notice: `The baseline was not written: CI is set, and CI never writes it (${raw !== '' ? `RAG_BASELINE=${raw}` : '-u'} ignored). Update it locally and commit it.`,
    };
  }
  return { mode: asked, ci };
}

/**
 * Whether the run declared itself a deliberate subset: RAG_PARTIAL set to 1/true (or the reporter
 * option `partial`). Throws for another value, so that a typo does not turn the check on or off unseen.
 */
export function resolvePartial(env: Record<string, string | undefined> = process.env, option?: boolean): boolean {
  const raw = env.RAG_PARTIAL?.trim().toLowerCase() ?? '';
  if (raw === '') return option ?? false;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new RangeError(
    `RAG_PARTIAL must be 1 (this job runs a deliberate subset of the tests: baseline questions it does not judge do not fail it) or 0, got ${JSON.stringify(env.RAG_PARTIAL)}${variableGuess('RAG_PARTIAL', SWITCH_WORDS.get(raw) ?? closestName(raw, ['true', 'false']))}.`,
  );
}

/** Words people use for on and off, and the RAG_PARTIAL value each means. */
const SWITCH_WORDS = new Map([
  ['yes', '1'],
  ['y', '1'],
  ['on', '1'],
  ['no', '0'],
  ['n', '0'],
  ['off', '0'],
]);

/** ` (did you mean RAG_BASELINE=update?)`, or '' without a guess. */
function variableGuess(name: string, guess: string | undefined): string {
  return guess === undefined ? '' : ` (did you mean ${name}=${guess}?)`;
}

/** How the run was started, as far as the command that runs the tests again depends on it. */
interface RunStart {
  env: Record<string, string | undefined>;
  /** The folder whose package.json holds the test script (the project root). */
  rootDir: string;
  /** The Node flags of the process that runs the reporter (Jest: `--experimental-vm-modules`). */
  execArgv?: readonly string[];
}

/**
 * The command that runs the tests as this run was started, for the messages that say what to run
 * (record, accept, prune, run again; `RAG_BASELINE=…` goes in front). Started by a package script that
 * runs the runner (`npm_lifecycle_script` names it, from the package.json in `rootDir`): that script, as
 * the package manager that ran it runs it (`npm test`, `npm run test:rag`, `pnpm test`, `yarn test`),
 * with `--run` after a bare `vitest` (which would watch). Otherwise the runner through the package
 * manager's runner (`npx`, `pnpm exec`, `yarn`), with `NODE_OPTIONS=--experimental-vm-modules` when
 * Jest runs in its ESM mode.
 */
export function runCommandFor(runner: 'vitest' | 'jest' | 'merged', start: RunStart): string {
  const { env } = start;
  const manager = packageManagerOf(env.npm_config_user_agent);
  const script = env.npm_lifecycle_event;
  const scriptLine = env.npm_lifecycle_script ?? '';
  const runnerName = runner === 'jest' ? 'jest' : 'vitest';
  // `npx vitest run` (npm exec) sets npm_lifecycle_event to 'npx' and the script to the command's name:
  // no package script ran the tests.
  const scriptRunsTests =
    script !== undefined &&
    script !== '' &&
    script !== 'npx' &&
    env.npm_command !== 'exec' &&
    new RegExp(`\\b${runnerName}\\b`).test(scriptLine) &&
    (env.npm_package_json === undefined || samePath(dirnameOf(env.npm_package_json), start.rootDir));
  if (scriptRunsTests) {
    const watches = runner === 'vitest' && !/\bvitest\s+run\b|--run\b|\bvitest\s+(bench|related)\b/.test(scriptLine);
    const invocation =
      manager === 'npm' ? (script === 'test' ? 'npm test' : `npm run ${script}`) : `${manager} ${script}`;
    return watches ? `${invocation}${manager === 'npm' ? ' --' : ''} --run` : invocation;
  }
  const exec = manager === 'pnpm' ? 'pnpm exec' : manager === 'yarn' ? 'yarn' : 'npx';
  const esmJest =
    runner === 'jest' &&
    [...(start.execArgv ?? []), ...(env.NODE_OPTIONS ?? '').split(/\s+/)].includes('--experimental-vm-modules');
  const command = runner === 'jest' ? `${exec} jest` : `${exec} vitest run`;
  return esmJest ? `NODE_OPTIONS=--experimental-vm-modules ${command}` : command;
}

/** npm, pnpm or yarn, from `npm_config_user_agent` (`pnpm/9.1.0 npm/? node/v22…`); npm when unknown. */
function packageManagerOf(userAgent: string | undefined): 'npm' | 'pnpm' | 'yarn' {
  const name = /^(\w+)\//.exec(userAgent ?? '')?.[1];
  return name === 'pnpm' || name === 'yarn' ? name : 'npm';
}

function dirnameOf(file: string): string {
  return file.replace(/[\\/][^\\/]*$/, '');
}

function samePath(a: string, b: string): boolean {
  const normalise = (path: string) => path.replace(/[\\/]+$/, '').replace(/\\/g, '/');
  return normalise(a) === normalise(b);
}
