// The findings of a run: every way in which an update would change the baseline beyond tolerance, each
// with what accepts it and whether it fails the run. One list
// that every report (console, Markdown, step summary, HTML, JSON, annotations) reads; the kinds are the
// table in ./finding-kinds.ts.

import { compareIds, type SampleChange } from '../baseline/compare.js';
import type { GroupedRow } from '../baseline/group.js';
import { own, type BaselineFile } from '../baseline/file/types.js';
import { parseSuiteKey } from '../recording/collected.js';
import { FINDING_KINDS, type GateFinding } from './finding-kinds.js';
import { findingFails } from './verdict.js';
import type { MissingRow, NotJudgedGroup, ResolvedSummaryOptions, SummaryRow, TagRow } from './summary-model.js';
import { brokenChurnLimit, type RunChurn, type SuiteChurn } from './churn.js';

export { type GateFinding } from './finding-kinds.js';

/** A finding's fields beyond those its kind decides (accept, fails). */
type FindingFields = Omit<GateFinding, 'accept' | 'fails'>;

function findingOf(fields: FindingFields, settings: ResolvedSummaryOptions): GateFinding {
  return { ...fields, accept: FINDING_KINDS[fields.kind].accept, fails: findingFails(fields.kind, settings) };
}

/** What collectFindings reads: the summary's rows and what it found of the baseline. */
export interface FindingSources {
  rows: readonly SummaryRow[];
  missing: readonly MissingRow[];
  baseline: BaselineFile | undefined;
  /** This run's rows by suite key, then measure. */
  current: ReadonlyMap<string, ReadonlyMap<string, GroupedRow>>;
  notJudged: readonly NotJudgedGroup[];
  /** Whether a test file no longer exists (SummaryOptions.fileExists says so). */
  fileGone?: (file: string) => boolean;
  /** Each suite's ranking churn against the baseline's rankings, when both kept some. */
  churn?: RunChurn;
}

/**
 * Every difference an update would write (beyond tolerance), suite by suite in the order of the rows, each
 * with what accepts it: per suite its rename or newness, the means that moved (one per measure), then
 * its new and missing questions (one finding each for every measure they concern); then the suites that
 * did not run although their file ran, and the questions not judged.
 */
export function collectFindings(sources: FindingSources, settings: ResolvedSummaryOptions): GateFinding[] {
  const findings: GateFinding[] = [];
  const missingBySuite = groupBy(sources.missing, (entry) => entry.suiteKey);
  for (const suiteRows of groupBy(sources.rows, (row) => row.suiteKey).values()) {
    findings.push(...suiteFindings(suiteRows, sources, missingBySuite.get(suiteRows[0]!.suiteKey) ?? [], settings));
  }
  for (const [key, entries] of missingBySuite) {
    if (!sources.current.has(key))
      findings.push(missingSuiteFinding(key, entries, sources.fileGone?.(parseSuiteKey(key).file) ?? false, settings));
  }
  // Baseline questions this run did not judge: in strict CI a run must judge them all, unless it said it is partial.
  for (const group of sources.notJudged) {
    findings.push(
      findingOf(
        {
          kind: 'not-judged',
          suite: group.suites[0]!,
          suiteKey: '',
          reason: group.reason,
          ...(group.detail !== undefined ? { detail: group.detail } : {}),
          count: group.questions,
          questions: group.examples,
        },
        settings,
      ),
    );
  }
  return findings;
}

/** A finding for each regressed tag row: its questions that got worse, as `suite › id`. */
export function tagFindings(tags: readonly TagRow[], settings: ResolvedSummaryOptions): GateFinding[] {
  return tags
    .filter((row) => row.status === 'regressed')
    .map((row) =>
      findingOf(
        {
          kind: 'tag-regression',
          suite: '',
          suiteKey: '',
          tag: row.tag,
          measure: row.measure,
          before: row.comparison!.meanBefore,
          after: row.comparison!.meanAfter,
          shared: row.comparison!.shared,
          suites: row.suites,
          questions: row.worse.map((change) => `${change.suite} › ${change.sampleId}`),
        },
        settings,
      ),
    );
}

/** The findings of one suite this run produced: rename or newness, moved means, new and missing questions. */
function suiteFindings(
  suiteRows: readonly SummaryRow[],
  sources: FindingSources,
  missingMeasures: readonly MissingRow[],
  settings: ResolvedSummaryOptions,
): GateFinding[] {
  const first = suiteRows[0]!;
  const suite = { suite: first.suite, suiteKey: first.suiteKey };
  const findings: GateFinding[] = [];
  const inBaseline =
    sources.baseline !== undefined &&
    (own(sources.baseline.suites, first.suiteKey) !== undefined || first.renamedFrom !== undefined);
  if (first.renamedFrom !== undefined) {
    findings.push(findingOf({ kind: 'renamed-suite', ...suite, from: first.renamedFrom }, settings));
  } else if (!inBaseline) {
    const questions = new Set<string>();
    for (const row of sources.current.get(first.suiteKey)!.values()) for (const id of row.ids) questions.add(id);
    findings.push(findingOf({ kind: 'new-suite', ...suite, questions: [...questions] }, settings));
    return findings;
  }
  // Questions measured against other judgments than their baseline values: one finding for every measure.
  const relabelled = new QuestionsByMeasure();
  for (const row of suiteRows) relabelled.add(row.measure, ids(row.relabelled ?? []));
  if (relabelled.size > 0)
    findings.push(findingOf({ kind: 'labels-changed', ...suite, ...relabelled.fields() }, settings));
  for (const row of suiteRows) {
    const move = moveFinding(row) ?? heldMoves(row);
    if (move !== undefined) findings.push(findingOf({ ...suite, ...move }, settings));
  }
  const added = new QuestionsByMeasure();
  const gone = new QuestionsByMeasure();
  for (const row of suiteRows) {
    added.add(row.measure, row.newSamples);
    gone.add(row.measure, row.missingSamples);
  }
  // Measures of the suite that this run did not produce at all although the suite ran.
  for (const entry of missingMeasures) gone.add(entry.measure, [...entry.questions].sort(compareIds));
  if (added.size > 0) findings.push(findingOf({ kind: 'new-questions', ...suite, ...added.fields() }, settings));
  if (gone.size > 0) findings.push(findingOf({ kind: 'missing-questions', ...suite, ...gone.fields() }, settings));
  const churn = sources.churn?.suites.find((entry) => entry.suiteKey === first.suiteKey);
  if (churn !== undefined) findings.push(...churnFindings(churn, sources.churn!.settings.k, suite, settings));
  return findings;
}

/**
 * A suite's rankings that changed while their questions' values held (shown, never failing), and its
 * churn when it broke maxChurn (failing: the option asked for it).
 */
function churnFindings(
  churn: SuiteChurn,
  k: number,
  suite: { suite: string; suiteKey: string },
  settings: ResolvedSummaryOptions,
): GateFinding[] {
  const findings: GateFinding[] = [];
  const figures = {
    questions: churn.questions,
    meanRbo: churn.meanRbo,
    meanOverlap: churn.meanOverlap,
    k,
    topChangedShare: churn.topChangedShare,
  };
  const held = churn.changes.filter((change) => change.valuesHeld).map((change) => change.question);
  if (held.length > 0)
    findings.push(findingOf({ kind: 'rankings-changed', ...suite, questions: held, churn: figures }, settings));
  const broken = brokenChurnLimit(churn, settings.maxChurn);
  if (broken !== undefined)
    findings.push(
      findingOf(
        {
          kind: 'ranking-churn',
          ...suite,
          churn: { ...figures, broken: { measure: broken.measure, limit: broken.limit } },
        },
        settings,
      ),
    );
  return findings;
}

/** A row whose mean moved beyond tolerance: regression, improvement, or a move too small to be significant. */
function moveFinding(
  row: SummaryRow,
): Pick<GateFinding, 'kind' | 'measure' | 'questions' | 'before' | 'after' | 'unjudged'> | undefined {
  const comparison = row.comparison;
  if (comparison === undefined) return undefined;
  const means = { measure: row.measure, before: comparison.meanBefore, after: comparison.meanAfter };
  if (row.status === 'regressed')
    return { kind: 'regression', ...means, questions: ids(row.worse), ...unjudgedDrops(row.worse) };
  if (row.status === 'improved') return { kind: 'improvement', ...means, questions: ids(row.better) };
  // Beyond the tolerance but not significant: not a regression, yet an update would write it (it writes
  // by tolerance alone, as the diff decided), so under CI the file is out of date as with an improvement.
  if (row.withinTolerance) return undefined;
  const worse = comparison.delta < 0;
  return {
    kind: 'unconfirmed-move',
    ...means,
    questions: ids(worse ? row.worse : row.better),
    ...(worse ? unjudgedDrops(row.worse) : {}),
  };
}

/**
 * A row whose mean held (no move finding) while some of its questions moved beyond the tolerance, either
 * way: each is named, drops first, though only the suite's mean decides the gate.
 */
function heldMoves(row: SummaryRow): Pick<GateFinding, 'kind' | 'measure' | 'questions' | 'moves'> | undefined {
  if (row.comparison === undefined) return undefined;
  const moved = [...row.worse, ...row.better].filter((change) => Math.abs(change.delta) > row.tolerance);
  if (moved.length === 0) return undefined;
  return {
    kind: 'held-moves',
    measure: row.measure,
    questions: ids(moved),
    moves: moved.map((change) => ({ before: change.before, after: change.after })),
  };
}

/** The drops of `worse` that came with unjudged hits entering the top k, as a finding lists them. */
function unjudgedDrops(worse: readonly SampleChange[]): Pick<GateFinding, 'unjudged'> {
  const drops: NonNullable<GateFinding['unjudged']> = [];
  for (const change of worse) {
    if (change.unjudged === undefined) continue;
    drops.push({ question: change.sampleId, before: change.before, after: change.after, ...change.unjudged });
  }
  return drops.length > 0 ? { unjudged: drops } : {};
}

/** A baseline suite this run did not produce at all: its file ran without it, or was deleted. */
function missingSuiteFinding(
  key: string,
  entries: readonly MissingRow[],
  fileGone: boolean,
  settings: ResolvedSummaryOptions,
): GateFinding {
  const questions = new Set<string>();
  for (const entry of entries) for (const id of entry.questions) questions.add(id);
  return findingOf(
    {
      kind: 'missing-suite',
      suite: entries[0]!.suite,
      suiteKey: key,
      questions: [...questions].sort(compareIds),
      ...(fileGone ? { fileGone: true } : {}),
    },
    settings,
  );
}

/** The questions of one suite and kind, each once, with every measure they concern. */
class QuestionsByMeasure {
  private readonly questions = new Set<string>();
  private readonly measures: string[] = [];

  add(measure: string, ids: readonly string[]): void {
    if (ids.length === 0) return;
    if (!this.measures.includes(measure)) this.measures.push(measure);
    for (const id of ids) this.questions.add(id);
  }

  get size(): number {
    return this.questions.size;
  }

  fields(): { measures: string[]; questions: string[] } {
    return { measures: [...this.measures], questions: [...this.questions] };
  }
}

function ids(changes: readonly { sampleId: string }[]): string[] {
  return changes.map((change) => change.sampleId);
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}

/**
 * A finding per row that no change of its questions can fail under the rule (SummaryRow.sensitivity), in
 * every mode and with or without a baseline: a warning, failing the run only under failOnInsensitive.
 */
export function insensitiveFindings(rows: readonly SummaryRow[], settings: ResolvedSummaryOptions): GateFinding[] {
  const findings: GateFinding[] = [];
  for (const row of rows) {
    const sensitivity = row.sensitivity;
    if (sensitivity.canFail) continue;
    const bySignificance = sensitivity.limitedBy === 'significance';
    findings.push(
      findingOf(
        {
          kind: 'insensitive',
          suite: row.suite,
          suiteKey: row.suiteKey,
          measure: row.measure,
          count: row.count,
          before: row.mean,
          limitedBy: sensitivity.limitedBy,
          limit: bySignificance ? settings.significance! : row.tolerance,
        },
        settings,
      ),
    );
  }
  return findings;
}
