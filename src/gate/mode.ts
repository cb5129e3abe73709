// Whether a run writes the baseline, and whether it runs under CI: decided from the environment once,
// the same for both reporters and `rag-matchers merge`.
//
//   RAG_BASELINE=update (or Vitest's -u)  → write: merge this run's suites into the baseline
//   RAG_BASELINE=prune                    → write, and remove the rows this run found missing
//   otherwise                             → compare only
//   CI set (and not "false"/"0")          → compare only, whatever was asked: CI never writes the baseline

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
      `RAG_BASELINE must be "update" (record this run into the baseline) or "prune" (also remove obsolete entries), got ${JSON.stringify(env.RAG_BASELINE)}.`,
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
