// The findings of a run: every way in which an update would change the baseline beyond tolerance (or a
// legacy suite that cannot be matched), each with what accepts it and whether it fails the run. One list
// that every report (console, Markdown, step summary, HTML, JSON, annotations) reads.

import { compareIds } from '../baseline/compare.js';
import type { GroupedRow } from '../baseline/group.js';
import { own, type BaselineFile } from '../baseline/schema.js';
import { movementOfMeans } from '../core/regression-rule.js';
import type { NotJudgedReason } from '../recording/outcomes.js';
import type { MissingRow, NotJudgedGroup, ResolvedSummaryOptions, RunSummary, SummaryRow } from './summary.js';

export type FindingKind =
  | 'regression'
  | 'improvement'
  | 'new-suite'
  | 'new-questions'
  | 'missing-suite'
  | 'missing-questions'
  | 'renamed-suite'
  | 'ambiguous-suite'
  | 'unconfirmed-move'
  | 'not-judged';

/**
 * One way in which an update would change the baseline beyond tolerance (or a legacy suite that cannot
 * be matched). Plain text: each renderer escapes it for its medium.
 */
export interface GateFinding {
  kind: FindingKind;
  /** Display name of the suite (the new name for a rename). */
  suite: string;
  /** Exact key of the suite (suiteKeyOf). */
  suiteKey: string;
  measure?: string;
  /** Question ids concerned (new or missing ones); for a regression, the questions that got worse. */
  questions?: string[];
  /** Renamed suite: its name in the baseline. */
  from?: string;
  /** Means over the shared questions (regression, improvement). */
  before?: number;
  after?: number;
  /** Not judged: why, and how many baseline questions (`questions` holds the first few, as `suite › id`). */
  reason?: NotJudgedReason;
  /** Not judged: what the reason means here (`project bm25 was not selected (--project)`), when known. */
  detail?: string;
  /** Not judged: how many baseline questions. */
  count?: number;
  /** What accepts it: RAG_BASELINE=update or RAG_BASELINE=prune; `run`: running those questions (or declaring the run partial). */
  accept: 'update' | 'prune' | 'run';
  /** True when it fails the run under the current settings. */
  fails: boolean;
}

export /** Every difference an update would write (beyond tolerance), in the order of the rows, each with what accepts it. */
function collectFindings(
  rows: readonly SummaryRow[],
  missing: readonly MissingRow[],
  baseline: BaselineFile | undefined,
  current: ReadonlyMap<string, ReadonlyMap<string, GroupedRow>>,
  legacy: RunSummary['legacy'],
  notJudged: readonly NotJudgedGroup[],
  settings: ResolvedSummaryOptions,
): GateFinding[] {
  const findings: GateFinding[] = [];
  const judged = !settings.updatingBaseline;
  const strict = judged && settings.strict;
  const failsNew = judged && (settings.strict || settings.failOnNew);
  const suitesSeen = new Set<string>();
  for (const row of rows) {
    const inBaseline =
      baseline !== undefined && (own(baseline.suites, row.suiteKey) !== undefined || row.renamedFrom !== undefined);
    if (!suitesSeen.has(row.suiteKey)) {
      suitesSeen.add(row.suiteKey);
      if (row.renamedFrom !== undefined) {
        findings.push({
          kind: 'renamed-suite',
          suite: row.suite,
          suiteKey: row.suiteKey,
          from: row.renamedFrom,
          accept: 'update',
          fails: strict,
        });
      } else if (!inBaseline) {
        const questions = new Set<string>();
        for (const suiteRow of current.get(row.suiteKey)!.values()) for (const id of suiteRow.ids) questions.add(id);
        findings.push({
          kind: 'new-suite',
          suite: row.suite,
          suiteKey: row.suiteKey,
          questions: [...questions],
          accept: 'update',
          fails: failsNew,
        });
      }
    }
    if (!inBaseline) continue;
    if (row.status === 'regressed' || row.status === 'improved') {
      const regressed = row.status === 'regressed';
      findings.push({
        kind: regressed ? 'regression' : 'improvement',
        suite: row.suite,
        suiteKey: row.suiteKey,
        measure: row.measure,
        questions: (regressed ? row.worse : row.better).map((change) => change.sampleId),
        before: row.comparison!.meanBefore,
        after: row.comparison!.meanAfter,
        accept: 'update',
        fails: regressed ? judged && settings.failOnRegression : strict,
      });
    } else if (row.comparison !== undefined && movementOfMeans(row.comparison, row.tolerance) !== 'within') {
      // Beyond the tolerance but not significant: not a regression, yet an update would write it (it
      // writes by tolerance alone), so under CI the file is out of date as with an improvement.
      findings.push({
        kind: 'unconfirmed-move',
        suite: row.suite,
        suiteKey: row.suiteKey,
        measure: row.measure,
        questions: (row.comparison.delta < 0 ? row.worse : row.better).map((change) => change.sampleId),
        before: row.comparison.meanBefore,
        after: row.comparison.meanAfter,
        accept: 'update',
        fails: strict,
      });
    }
    if (row.newSamples.length > 0) {
      findings.push({
        kind: 'new-questions',
        suite: row.suite,
        suiteKey: row.suiteKey,
        measure: row.measure,
        questions: [...row.newSamples],
        accept: 'update',
        fails: failsNew,
      });
    }
    if (row.missingSamples.length > 0) {
      findings.push({
        kind: 'missing-questions',
        suite: row.suite,
        suiteKey: row.suiteKey,
        measure: row.measure,
        questions: [...row.missingSamples],
        accept: 'prune',
        fails: strict,
      });
    }
  }
  // Baseline rows this run did not produce although their file ran: whole suites, or measures of a suite.
  const missingSuites = new Map<string, MissingRow[]>();
  for (const entry of missing) {
    const list = missingSuites.get(entry.suiteKey);
    if (list === undefined) missingSuites.set(entry.suiteKey, [entry]);
    else list.push(entry);
  }
  for (const [key, entries] of missingSuites) {
    if (!current.has(key)) {
      const questions = new Set<string>();
      for (const entry of entries) for (const id of entry.questions) questions.add(id);
      findings.push({
        kind: 'missing-suite',
        suite: entries[0]!.suite,
        suiteKey: key,
        questions: [...questions].sort(compareIds),
        accept: 'prune',
        fails: strict,
      });
      continue;
    }
    for (const entry of entries) {
      const ids = [...entry.questions].sort(compareIds);
      findings.push({
        kind: 'missing-questions',
        suite: entry.suite,
        suiteKey: key,
        measure: entry.measure,
        questions: ids,
        accept: 'prune',
        fails: strict,
      });
    }
  }
  // Baseline questions this run did not judge: in strict CI a run must judge them all, unless it said it is partial.
  for (const group of notJudged) {
    findings.push({
      kind: 'not-judged',
      suite: group.suites[0]!,
      suiteKey: '',
      reason: group.reason,
      ...(group.detail !== undefined ? { detail: group.detail } : {}),
      count: group.questions,
      questions: group.examples,
      accept: 'run',
      fails: strict && !settings.partial,
    });
  }
  for (const ambiguous of legacy?.ambiguous ?? []) {
    findings.push({
      kind: 'ambiguous-suite',
      suite: ambiguous.name,
      suiteKey: '',
      questions: ambiguous.suites,
      accept: 'update',
      fails: strict,
    });
  }
  return findings;
}
