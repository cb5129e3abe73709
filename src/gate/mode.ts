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
  const ciValue = env.CI?.trim().toLowerCase();
  const ci = ciValue !== undefined && ciValue !== '' && ciValue !== 'false' && ciValue !== '0';
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
