// The verdict of a run, decided once from its findings and the kinds table (./finding-kinds.ts): each
// finding's section, whether it fails this run in this mode and what clears it; the sections with their
// headings; the headline; the advice of the last line; the exit code. Console, Markdown, JSON (which
// stores it), HTML (from the JSON), the annotations and the end of the run only read it.
import { plural } from '../core/present.js';
import {
  FINDING_KINDS,
  FINDING_SECTIONS,
  type FindingKindSpec,
  type FindingSection,
  type GateFinding,
} from './finding-kinds.js';
import type { NotJudgedReason } from '../recording/outcomes.js';

/** The settings the verdict reads (RunSummary['settings'] has them; not imported, which would be a cycle). */
interface VerdictSettings {
  failOnRegression: boolean;
  failOnNew: boolean;
  /** Absent: false. */
  failOnTagRegression?: boolean;
  /** Optional: summaries and tests written before it count it false. */
  failOnInsensitive?: boolean;
  strict: boolean;
  partial: boolean;
  updatingBaseline: boolean;
  pruning?: boolean;
  /** A change in calls per question fails the run (reporter option). Default false. */
  failOnCallChange?: boolean;
}

/** Baseline questions judged, and those not judged by reason (RunSummary['coverage']). */
interface VerdictCoverage {
  judged: number;
  notJudged: readonly { reason: NotJudgedReason; questions: number }[];
}

/** What the run does with the baseline: compare with it, or write it (update, or update and prune). */
type RunMode = 'compare' | 'update' | 'prune';

/** What clears a finding: a command to run (see GateFinding.accept), or `this-run` when this very run records it. */
export type FindingClear = GateFinding['accept'] | 'this-run';

export interface VerdictSection {
  section: FindingSection;
  /** What its findings are, without a trailing colon (`Regressions`, `The baseline is out of date`). */
  heading: string;
  /** True when one of its findings fails the run. */
  fails: boolean;
  /** Indexes into the findings (the summary's, and the JSON report's), in their order. */
  findings: number[];
}

/** What the last line advises, worded by wording.ts (verdictAdvice) with the commands of the run. */
type VerdictAdvice =
  /** A regression: accept it with the command, if the change is intended. */
  | { kind: 'accept'; command: 'update' | 'prune' }
  /** The baseline is out of date: run the command and commit the file. */
  | { kind: 'commit'; command: 'update' | 'prune' }
  /** Questions new to the baseline fail the run (failOnNew): record them. */
  | { kind: 'record-new' }
  /** No baseline yet: record one. */
  | { kind: 'record-baseline' }
  /** What clears the finding at this index (questions not judged, repeated questions). */
  | { kind: 'finding'; finding: number };

export interface Verdict {
  mode: RunMode;
  passed: boolean;
  /** The exit code the gate asks for: 1 when the run fails. */
  exitCode: 0 | 1;
  /** How the headline reads: a regression, another failure or a warning, a pass, or nothing judged. */
  tone: 'regressed' | 'attention' | 'passed' | 'neutral';
  /** One sentence without its full stop, the same in every report. */
  headline: string;
  /** Counts shown beside the headline: `2 improved`, `5 unchanged`, `1 new` (empty without a baseline). */
  tally: string[];
  /**
   * Baseline questions not judged, when the headline is about something else: `4 not judged (4 filtered)`
   * after a pass's tally, `1 baseline question not judged (1 skipped)` as a sentence after another headline.
   */
  remark: string | null;
  advice: VerdictAdvice | null;
  /** The sections that have findings, in FINDING_SECTIONS order. */
  sections: VerdictSection[];
  /** What clears each finding, parallel to the findings. */
  clears: FindingClear[];
  /** Sentences that qualify the verdict (what does not fail this run and why), for the report's notes. */
  notes: string[];
}

/** The note of a run that updates the baseline; finishRun takes it back when the write failed. */
export const UPDATING_NOTE = 'The baseline is being updated: these changes are recorded, not judged.';

/** What decideVerdict reads: the findings, the settings, and the counts the headline states. */
export interface VerdictSources {
  findings: readonly GateFinding[];
  settings: VerdictSettings;
  baselineFound: boolean;
  baselinePath?: string;
  /** Rows recorded: without any there is nothing to judge, nor a baseline to record. */
  rows: number;
  counts: { improved: number; unchanged: number; new: number };
  coverage: VerdictCoverage;
}

type KindsTable = Readonly<
  Record<string, Pick<FindingKindSpec, 'section' | 'fails' | 'accept' | 'valueMove' | 'unit'>>
>;

/** Whether a finding of `kind` fails the run under `settings` (never while the run updates the baseline). */
export function findingFails(kind: string, settings: VerdictSettings, kinds: KindsTable = FINDING_KINDS): boolean {
  if (settings.updatingBaseline) return false;
  switch (kinds[kind]!.fails) {
    case 'regression':
      return settings.failOnRegression;
    case 'new':
      return settings.strict || settings.failOnNew;
    case 'tag':
      return settings.failOnTagRegression === true;
    case 'strict':
      return settings.strict;
    case 'strict-unless-partial':
      return settings.strict && !settings.partial;
    case 'calls':
      return settings.failOnCallChange === true;
    case 'budget':
      return true;
    case 'insensitive':
      return settings.failOnInsensitive === true;
    case 'never':
      return false;
    case 'option':
      return true;
  }
}

/** The verdict of a run (see Verdict). `kinds` is the kinds table, FINDING_KINDS but in tests. */
export function decideVerdict(sources: VerdictSources, kinds: KindsTable = FINDING_KINDS): Verdict {
  const { findings, settings } = sources;
  const mode: RunMode = !settings.updatingBaseline ? 'compare' : settings.pruning === true ? 'prune' : 'update';
  const clears = findings.map((finding) => clearOf(finding.accept, mode));
  const sections = sectionsOf(findings, settings.strict, mode, kinds);
  const passed = !findings.some((finding) => finding.fails);
  const failing = (section: FindingSection): GateFinding[] =>
    findings.filter((finding) => finding.fails && kinds[finding.kind]!.section === section);
  const tally = sources.baselineFound
    ? [
        `${sources.counts.improved} improved`,
        `${sources.counts.unchanged} unchanged`,
        ...(sources.counts.new > 0 ? [`${sources.counts.new} new`] : []),
      ]
    : [];
  // Prune when one of the findings to accept needs entries removed, else update.
  const acceptCommand = findings.some((finding) => finding.fails && finding.accept === 'prune') ? 'prune' : 'update';
  const regressions = findings.filter((finding) => kinds[finding.kind]!.section === 'regressions');
  const notJudged = sources.coverage.notJudged.reduce((sum, group) => sum + group.questions, 0);
  const notJudgedRemark =
    notJudged === 0
      ? null
      : `${plural(notJudged, 'baseline question')} not judged (${describeNotJudgedGroups(sources.coverage)})`;
  const notes = notesOf(findings, settings, mode, regressions.length, kinds);
  const verdict = (
    tone: Verdict['tone'],
    headline: string,
    advice: VerdictAdvice | null,
    remark: string | null = notJudgedRemark,
  ): Verdict => ({
    mode,
    passed,
    exitCode: passed ? 0 : 1,
    tone,
    headline,
    tally,
    remark,
    advice: mode === 'compare' ? advice : null,
    sections,
    clears,
    notes,
  });
  const regressed = `Retrieval quality regressed in ${countOf(regressions, kinds)}`;

  if (failing('regressions').length > 0)
    return verdict('regressed', regressed, { kind: 'accept', command: acceptCommand });
  const tags = failing('tags');
  if (tags.length > 0)
    return verdict(
      'regressed',
      `Retrieval quality regressed in ${plural(new Set(tags.map((finding) => finding.tag)).size, 'tag')} (failOnTagRegression)`,
      { kind: 'accept', command: acceptCommand },
    );
  const baselineFailing = [...failing('changes'), ...failing('new-or-gone')];
  if (baselineFailing.length > 0) {
    // Only new questions fail a run that is not strict (failOnNew): say so in their unit.
    if (baselineFailing.every((finding) => kinds[finding.kind]!.fails === 'new') && !settings.strict)
      return verdict('attention', `${countOf(baselineFailing, kinds)} not in the baseline (failOnNew)`, {
        kind: 'record-new',
      });
    return verdict('attention', `The baseline is out of date: ${describeDifferences(baselineFailing, kinds)}`, {
      kind: 'commit',
      command: acceptCommand,
    });
  }
  const repeats = failing('repeats');
  if (repeats.length > 0)
    return verdict(
      'attention',
      `Repeated questions break the CI rules (minRepeats, maxSpread): ${countOf(repeats, kinds)}`,
      { kind: 'finding', finding: findings.indexOf(repeats[0]!) },
    );
  const churning = failing('rankings');
  if (churning.length > 0)
    return verdict('attention', `Rankings changed beyond maxChurn in ${countOf(churning, kinds)}`, {
      kind: 'accept',
      command: 'update',
    });
  const notJudgedFailing = failing('not-judged');
  if (notJudgedFailing.length > 0)
    return verdict(
      'attention',
      `Not judged: ${plural(notJudged, 'baseline question')} (${describeNotJudgedGroups(sources.coverage)}); in CI every baseline question must be judged`,
      // The advice of the first reason (the section lists each one's): a missing shard is not cleared by
      // declaring the run partial, nor a failing test by running the whole suite.
      { kind: 'finding', finding: findings.indexOf(notJudgedFailing[0]!) },
      null,
    );
  const cost = failing('cost');
  if (cost.length > 0)
    return verdict(
      'attention',
      `Retrieval cost breaks a limit set for it (latency budget, failOnCallChange): ${plural(cost.length, 'finding')}`,
      null,
    );
  const insensitive = failing('sensitivity');
  if (insensitive.length > 0)
    return verdict(
      'attention',
      `${plural(insensitive.length, 'suite × measure row')} can never fail under the gate's rule (failOnInsensitive)`,
      { kind: 'finding', finding: findings.indexOf(insensitive[0]!) },
    );
  // A failing kind without a headline of its own (a kind added to the table with a new rule).
  if (!passed)
    return verdict('attention', `The run fails: ${plural(findings.filter((f) => f.fails).length, 'finding')}`, null);
  if (regressions.length > 0) return verdict('regressed', regressed, { kind: 'accept', command: acceptCommand });
  if (!sources.baselineFound) {
    const where = sources.baselinePath === undefined ? '' : ` (${sources.baselinePath})`;
    return verdict('neutral', `No baseline yet${where}`, sources.rows > 0 ? { kind: 'record-baseline' } : null);
  }
  if (notJudged > 0)
    return verdict(
      'passed',
      `No retrieval regressions among the ${plural(sources.coverage.judged, 'judged baseline question')}`,
      null,
      `${notJudged} not judged (${describeNotJudgedGroups(sources.coverage)})`,
    );
  return verdict('passed', 'No retrieval regressions', null);
}

/** What does not fail this run although it is shown, and why. */
function notesOf(
  findings: readonly GateFinding[],
  settings: VerdictSettings,
  mode: RunMode,
  regressions: number,
  kinds: KindsTable,
): string[] {
  const notes: string[] = [];
  const baselineSection = (finding: GateFinding): boolean =>
    kinds[finding.kind]!.section === 'changes' || kinds[finding.kind]!.section === 'new-or-gone';
  if (mode === 'compare' && !settings.strict && findings.some((finding) => baselineSection(finding) && !finding.fails))
    notes.push('These do not fail this run; in CI (strict) they do.');
  if (mode === 'compare' && findings.some((finding) => kinds[finding.kind]!.fails === 'tag' && !finding.fails))
    notes.push('Tag rows do not fail this run; with failOnTagRegression they do.');
  if (regressions > 0 && mode !== 'compare') notes.push(UPDATING_NOTE);
  else if (regressions > 0 && !settings.failOnRegression)
    notes.push('failOnRegression is false: the regressions are reported but do not fail the run.');
  return notes;
}

/** What clears a finding that `accept` names, in `mode`: a run that updates (or prunes) records it itself. */
function clearOf(accept: GateFinding['accept'], mode: RunMode): FindingClear {
  if (accept === 'update' && mode !== 'compare') return 'this-run';
  if (accept === 'prune' && mode === 'prune') return 'this-run';
  return accept;
}

/** The sections that have findings, each with the heading that says what its findings are. */
function sectionsOf(
  findings: readonly GateFinding[],
  strict: boolean,
  mode: RunMode,
  kinds: KindsTable,
): VerdictSection[] {
  const sections: VerdictSection[] = [];
  for (const section of FINDING_SECTIONS) {
    const indexes: number[] = [];
    findings.forEach((finding, index) => {
      if (kinds[finding.kind]!.section === section) indexes.push(index);
    });
    if (indexes.length === 0) continue;
    const fails = indexes.some((index) => findings[index]!.fails);
    sections.push({ section, heading: headingOf(section, fails && strict, mode), fails, findings: indexes });
  }
  return sections;
}

function headingOf(section: FindingSection, strictFailure: boolean, mode: RunMode): string {
  switch (section) {
    case 'regressions':
      return mode === 'compare' ? 'Regressions' : 'Regressions this update records';
    case 'changes':
      return mode !== 'compare'
        ? 'What this update records'
        : strictFailure
          ? 'The baseline is out of date'
          : 'What an update of the baseline would change';
    case 'new-or-gone':
      return 'Not in the baseline yet, or no longer produced';
    case 'not-judged':
      return 'Not judged by this run';
    case 'repeats':
      return 'Repeated questions';
    case 'held':
      return 'Questions that moved while the suite held';
    case 'cost':
      return 'Latency and calls';
    case 'tags':
      return mode === 'compare' ? 'Tags whose questions fell across suites' : 'Tag regressions this update records';
    case 'sensitivity':
      return 'Suites that can never fail';
    case 'rankings':
      return 'Rankings that changed';
  }
}

/**
 * `2 differences beyond tolerance` when every one is a value that moved, `2 differences` when none is (a
 * new, missing or renamed suite or question), `3 differences (1 beyond tolerance)` for a mix.
 */
function describeDifferences(findings: readonly GateFinding[], kinds: KindsTable): string {
  const moves = findings.filter((finding) => kinds[finding.kind]!.valueMove).length;
  const all = plural(findings.length, 'difference');
  if (moves === findings.length) return `${all} beyond tolerance`;
  return moves === 0 ? all : `${all} (${moves} beyond tolerance)`;
}

/**
 * What findings count, in the unit of their kinds (FindingKindSpec.unit): suite × measure rows, or the
 * distinct questions they name (a question of two suites is two; one new to two measures is one; a suite
 * counts by the questions it holds). Rows mixed with questions are counted as findings.
 */
function countOf(findings: readonly GateFinding[], kinds: KindsTable): string {
  const units = new Set(findings.map((finding) => kinds[finding.kind]!.unit));
  if (units.size === 1 && units.has('row')) return plural(findings.length, 'suite × measure row');
  if (units.size === 1 && units.has('suite') && findings.every((finding) => finding.questions === undefined))
    return plural(findings.length, 'suite');
  if (!units.has('row')) {
    const seen = new Set<string>();
    for (const finding of findings)
      for (const question of finding.questions ?? []) seen.add(JSON.stringify([finding.suiteKey, question]));
    return plural(seen.size, 'question');
  }
  return plural(findings.length, 'finding');
}

/** Each reason in a few words, for counts: `4 skipped, 2 in a file not run`. */
const NOT_JUDGED_SHORT: Record<NotJudgedReason, string> = {
  filtered: 'filtered',
  skipped: 'skipped',
  failed: 'failed before measuring',
  'timed-out': 'timed out',
  'load-failed': 'in a file that failed to load',
  crashed: 'in a file that crashed',
  'not-run': 'in a file not run',
  'shard-missing': 'in a missing shard',
  'shard-stale': 'in a stale shard',
};

/** `4 skipped, 2 in a file not run`: the not-judged groups in a few words. */
function describeNotJudgedGroups(coverage: Pick<VerdictCoverage, 'notJudged'>): string {
  return coverage.notJudged.map((group) => `${group.questions} ${NOT_JUDGED_SHORT[group.reason]}`).join(', ');
}
