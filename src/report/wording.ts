// How reports word things: values, signed changes and p-values, the commands that accept a change,
// findings and counts. Shared by the console, Markdown, HTML and annotation renderers.

import { MIN_TIMED_QUESTIONS, type SuiteCost } from './costs.js';
import { andMore, fixed, formatP, listUpTo, plural, signed, wordFor } from '../core/present.js';
import { parseSuiteKey, type CollectedRun, type SuiteIdentity } from '../recording/collected.js';
import type { NotJudgedReason } from '../recording/outcomes.js';
import { FINDING_KINDS } from './finding-kinds.js';
import type { GateFinding, RowComparison, SummaryRow } from './summary.js';
import type { FindingClear, Verdict } from './verdict.js';

export { formatP, plural };

/** Values and means: three decimals (`0.740`). */
export function formatValue(value: number): string {
  return fixed(value, 3);
}

/** A signed change: `+0.012`, `-0.080`, and `0.000` when it rounds to zero. */
export function formatDelta(delta: number, minus = '-'): string {
  return signed(delta, { digits: 3, minus });
}

/**
 * `command` run with RAG_BASELINE set to `mode`, in a form the user's shell runs: `RAG_BASELINE=update
 * npm test` where a POSIX shell reads it; on Windows, whose cmd and PowerShell do not take `VAR=value` in
 * front of a command, through the CLI, which sets the variable for that one command
 * (`npx rag-matchers update -- npm test`).
 */
export function withBaselineMode(
  mode: 'update' | 'prune',
  command: string,
  platform: NodeJS.Platform | string = process.platform,
): string {
  return platform === 'win32' ? `npx rag-matchers ${mode} -- ${command}` : `RAG_BASELINE=${mode} ${command}`;
}

/** The mode prefix of a command withBaselineMode wrote, in either form. */
const MODE_PREFIX = /^(?:RAG_BASELINE=(update|prune) |npx rag-matchers (update|prune) -- )/;

/** The command that accepts a change (`update`) or removes obsolete entries (`prune`), for the runner that produced the summary. */
export function acceptCommandFor(runner: CollectedRun['runner'], mode: 'update' | 'prune' = 'update'): string {
  return withBaselineMode(mode, runner === 'jest' ? 'npx jest' : 'npx vitest run');
}

/** The commands a report names, all derived from the accept command (`RAG_BASELINE=update npx vitest run`). */
export interface ReportCommands {
  /** Records the run into the baseline. */
  update: string;
  /** Records it and removes the questions the run found gone. */
  prune: string;
  /** Runs the tests and judges them: the accept command without RAG_BASELINE. */
  run: string;
}

export function reportCommands(acceptCommand: string): ReportCommands {
  const prefix = MODE_PREFIX.exec(acceptCommand)?.[0] ?? '';
  const run = acceptCommand.slice(prefix.length);
  return {
    update: acceptCommand,
    prune: prefix === '' ? acceptCommand : prefix.replace('update', 'prune') + run,
    run,
  };
}

/** The command without its mode prefix (either form of withBaselineMode). */
export function withoutBaselineMode(command: string): string {
  return command.replace(MODE_PREFIX, '');
}

/** The environment variable that declares a run a deliberate subset (docs/baselines-and-ci.md, "Partial runs"). */
const PARTIAL_SWITCH = 'RAG_PARTIAL=1';

/** Why baseline questions were not judged, as a report says it. */
const NOT_JUDGED_TEXT: Record<NotJudgedReason, string> = {
  filtered: 'filtered out of this run (-t, file arguments, --project, or a shard of its own)',
  skipped: 'skipped (.skip, .todo, skipIf, or .only elsewhere in the file)',
  failed: 'their test failed before measuring them',
  'timed-out': 'their test timed out before measuring them',
  'load-failed': 'their test file failed to load',
  crashed: 'their test file did not finish (a worker crashed, or the run was cut short)',
  'not-run': 'their test file did not run',
  'shard-missing': "their test file's shard is missing from the merge",
  'shard-stale': 'their samples come from another run (another commit, or other declared measures)',
};

/**
 * What clears a finding, with each command passed through `code` (the medium's code span): `run
 * RAG_BASELINE=update npx vitest run and commit` for the baseline's findings, or what says this run records
 * it; for questions not judged, what makes a run judge them, or RAG_PARTIAL=1 for a deliberate subset.
 * `clear` is the verdict's (Verdict.clears).
 */
export function actionFor(
  finding: GateFinding,
  clear: FindingClear,
  commands: ReportCommands,
  code: (text: string) => string,
): string {
  if (finding.kind === 'unstable')
    return finding.limit === undefined || !finding.fails
      ? 'its mean is what the baseline compares; seed what varies between runs to make it repeatable'
      : `seed or fix what varies between runs, or raise ${code('maxSpread')}`;
  if (finding.kind === 'held-moves') return "the suite's mean held within tolerance, so the gate passes this row";
  if (finding.kind === 'latency') return `make its retrieval faster, or raise the budget (${code('latency')})`;
  if (finding.kind === 'calls' && !finding.fails && clear !== 'this-run')
    return `shown, not failing (${code('failOnCallChange: true')} fails on it); ${code(commands.update)} records it`;
  if (finding.kind === 'insensitive')
    return finding.limitedBy === 'significance'
      ? `add questions to the suite (${code('rag-matchers plan')} says how many), or judge it by the tolerance alone`
      : 'lower its tolerance, or add questions it can get wrong';
  if (finding.kind === 'rankings-changed')
    return 'shown, not failing: the next update records them; strict CI does not require it';
  if (finding.kind === 'too-few-repeats')
    return `run each question at least ${finding.limit} times (Vitest ${code(`repeats: ${finding.limit! - 1}`)}, or ${code('test.each')} over a repeat index with the same queryId)`;
  if (clear === 'this-run')
    return finding.accept === 'prune'
      ? 'this run removes it from the baseline: commit the file'
      : 'this run writes it into the baseline: commit the file';
  if (finding.kind === 'tag-regression' && !finding.fails && clear === 'update')
    return `shown, not gating (${code('failOnTagRegression')} is off); if intended, run ${code(commands.update)} and commit`;
  if (clear === 'suite') return `re-record the suite with ${code(findingCommand(finding, commands))} and commit`;
  if (clear !== 'run') return `run ${code(commands[clear])} and commit`;
  const partial = `or set ${code(PARTIAL_SWITCH)} on a job that runs a deliberate subset`;
  switch (finding.reason) {
    case 'skipped':
      return `run them (or delete those tests, then ${code(commands.prune)} and commit), ${partial}`;
    case 'failed':
    case 'timed-out':
    case 'load-failed':
    case 'crashed':
      // After the fix an update records what the test now measures (a value its earlier assertion
      // changed included), so the next run judges every row.
      return `fix the test file, then run ${code(commands.update)} and commit`;
    case 'shard-missing':
      return 'merge the reports of every shard of this run';
    case 'shard-stale':
      return 'run every shard again on this commit, then merge';
    default:
      return `run the whole suite, ${code(commands.run)}, ${partial}`;
  }
}

/** The advice of the verdict as a sentence, commands passed through `code`; '' when it has none. */
export function describeAdvice(
  verdict: Verdict,
  findings: readonly GateFinding[],
  commands: ReportCommands,
  code: (text: string) => string,
): string {
  const advice = verdict.advice;
  if (advice === null) return '';
  switch (advice.kind) {
    case 'accept':
      return `If this change is intended, accept it with: ${code(commands[advice.command])}`;
    case 'commit':
      return `Accept with: ${code(commands[advice.command])} and commit the baseline.`;
    case 'record-new':
      return `Record them with: ${code(commands.update)}`;
    case 'record-baseline':
      return `Record one with ${code(commands.update)}`;
    case 'finding': {
      const finding = findings[advice.finding]!;
      const action = actionFor(finding, verdict.clears[advice.finding]!, commands, code);
      return `${FINDING_KINDS[finding.kind].section === 'not-judged' ? 'To judge them' : 'To clear it'}: ${action}.`;
    }
  }
}

/**
 * The report's last line, in two parts for a medium that colours the first: the headline (with the tally
 * and remark on a pass: `No retrieval regressions (2 improved, 5 unchanged).`), then the advice.
 */
export function verdictLine(
  verdict: Verdict,
  findings: readonly GateFinding[],
  commands: ReportCommands,
  code: (text: string) => string,
): { headline: string; advice: string } {
  const passed = verdict.tone === 'passed';
  const tally = passed && verdict.tally.length > 0 ? ` (${verdict.tally.join(', ')})` : '';
  const remark = verdict.remark === null ? '' : passed ? `; ${verdict.remark}` : `. ${verdict.remark}`;
  const advice = describeAdvice(verdict, findings, commands, code);
  // `No baseline yet (rag-baseline.json): record one with …`
  if (verdict.advice?.kind === 'record-baseline')
    return { headline: `${verdict.headline}:`, advice: ` ${advice[0]!.toLowerCase()}${advice.slice(1)}` };
  return { headline: `${verdict.headline}${tally}${remark}.`, advice: advice === '' ? '' : ` ${advice}` };
}

/**
 * The command that re-records one suite and no other: its test file, its project, and a test-name filter
 * on its describe path (`-t` is a regular expression over "describe … test name", so the names are
 * escaped, and a space follows them so that `refunds` does not also select `refunds v2`). A run filtered
 * this way updates the suite's rows and never prunes anything.
 */
export function suiteUpdateCommand(identity: SuiteIdentity, runner: CollectedRun['runner']): string {
  return narrowToSuite(acceptCommandFor(runner), identity, runner === 'vitest');
}

/** The command a finding names: the one that accepts it (for `suite`, the update command narrowed to its suite). */
export function findingCommand(finding: GateFinding, commands: ReportCommands): string {
  if (finding.accept !== 'suite') return commands[finding.accept];
  // A JSON report's finding (the HTML report's input) carries its command already narrowed.
  const given = (finding as { command?: unknown }).command;
  if (typeof given === 'string') return given;
  return finding.suiteKey === ''
    ? commands.update
    : narrowToSuite(commands.update, parseSuiteKey(finding.suiteKey), !/\bjest\b/.test(commands.update));
}

/** `command` (an update command) narrowed to one suite: see suiteUpdateCommand. */
function narrowToSuite(command: string, identity: SuiteIdentity, withProject: boolean): string {
  // npm passes a script's arguments on only after `--` (pnpm and yarn pass them as they are).
  const words = /(^|\s)npm (test|run \S+)$/.test(command) ? [command, '--'] : [command];
  words.push(shellWord(identity.file));
  if (withProject && identity.project !== undefined) words.push('--project', shellWord(identity.project));
  if (identity.describe.length > 0) {
    const pattern = `${identity.describe.join(' ').replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} `;
    words.push('-t', shellWord(pattern));
  }
  return words.join(' ');
}

/** `word` as one word for a POSIX shell: as it is when it holds only safe characters, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** True when Δ and the test rest on fewer questions than the row or the baseline has. */
export function isPartialComparison(row: SummaryRow): boolean {
  const shared = row.comparison?.shared;
  return shared !== undefined && (shared !== row.count || shared !== row.baseline?.count);
}

/** A question as listed: its id, with the test's name when that adds something (`q17 (refund window)`). */
export function questionLabel(
  change: { sampleId: string; test: string },
  escape: (text: string) => string = (text) => text,
): string {
  // Each part escaped alone, so that a trailing space of the id shows before " (test)".
  return change.test === '' || change.test.includes(change.sampleId)
    ? escape(change.sampleId)
    : `${escape(change.sampleId)} (${escape(change.test)})`;
}

/** What describeTest and describeRule read of a row's comparison (a SummaryRow's, or a JSON report row's). */
interface RuleComparison {
  delta: number;
  test: RowComparison['test'];
  p?: number;
  adjustedP?: number;
}

/** `sign test p = 0.031, Holm 0.062` for a row with a test result, else ''. */
export function describeTest(row: { comparison?: RuleComparison }): string {
  const comparison = row.comparison;
  if (comparison?.p === undefined) return '';
  const name =
    comparison.test === 'sign' ? 'sign test' : comparison.test === 't' ? 'paired t-test' : 'randomization test';
  const adjusted =
    comparison.adjustedP !== undefined && comparison.adjustedP !== comparison.p
      ? `, Holm ${formatP(comparison.adjustedP)}`
      : '';
  return `${name} p = ${formatP(comparison.p)}${adjusted}`;
}

/**
 * The rule that made a row regress or improve: `0.070 beyond the tolerance of 0.010`, and with a
 * significance level the p that decided (`…; sign test p = 0.012, Holm 0.031 ≤ 0.05`). No p-value without
 * one: the tolerance alone decided, and a large p beside it would read as "no evidence".
 */
export function describeRule(row: { comparison?: RuleComparison; tolerance: number }, significance?: number): string {
  const comparison = row.comparison;
  if (comparison === undefined) return '';
  const beyond = Math.max(0, Math.abs(comparison.delta) - row.tolerance);
  const tolerance = `${formatValue(beyond)} beyond the tolerance of ${formatValue(row.tolerance)}`;
  const test = describeTest(row);
  return significance === undefined || test === '' ? tolerance : `${tolerance}; ${test} ≤ ${significance}`;
}

/** `recall@5 fell from 0.820 to 0.740 on 6 questions`. */
export function describeChange(row: SummaryRow): string {
  const comparison = row.comparison;
  if (comparison === undefined) return `${row.measure} is new`;
  const verb =
    comparison.meanAfter < comparison.meanBefore
      ? 'fell'
      : comparison.meanAfter > comparison.meanBefore
        ? 'rose'
        : 'stayed';
  const to =
    verb === 'stayed'
      ? `at ${formatValue(comparison.meanAfter)}`
      : `from ${formatValue(comparison.meanBefore)} to ${formatValue(comparison.meanAfter)}`;
  return `${row.measure} ${verb} ${to} on ${plural(comparison.shared, 'question')}`;
}

/**
 * `text` cut to at most `maxWidth` display columns, ending in "…" when cut: a 100 kB suite name would
 * otherwise pad every row of a table to its width.
 */
export function fitWidth(text: string, maxWidth: number): string {
  if (text.length <= maxWidth / 2 || displayWidth(text) <= maxWidth) return text;
  let width = 0;
  let end = 0;
  for (const character of text) {
    const next = width + displayWidth(character);
    if (next > maxWidth - 1) break;
    width = next;
    end += character.length;
  }
  return `${text.slice(0, end)}…`;
}

/** Display width in columns: code points, with East Asian wide characters and emoji as two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x300 && code <= 0x36f) || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f))
      continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** Names listed in a finding before `… and N more`. */
const LISTED_NAMES = 5;

/**
 * One finding as a sentence, user strings passed through `escape` (the medium's escaping), without the
 * command that accepts it: `improvement not recorded: recall@5 0.820 → 0.880 in suite test/a.test.ts > refunds`.
 */
export function describeFinding(
  finding: GateFinding,
  escape: (text: string) => string,
  listed: number = LISTED_NAMES,
): string {
  const suite = escape(finding.suite);
  const measure = finding.measure === undefined ? '' : escape(finding.measure);
  // New and missing questions: one finding names every measure it concerns.
  const measureList = finding.measures ?? (finding.measure === undefined ? [] : [finding.measure]);
  const measures = measureList.length === 0 ? '' : ` (${listUpTo(measureList, LISTED_NAMES, escape)})`;
  const questions = finding.questions ?? [];
  const named = questions.length > 0 ? `: ${listUpTo(questions, LISTED_NAMES, escape)}` : '';
  switch (finding.kind) {
    case 'regression':
      return `regression: ${measure} ${formatValue(finding.before!)} → ${formatValue(finding.after!)} in suite ${suite}${questions.length > 0 ? ` (worse${named})` : ''}${unjudgedNotes(finding, escape)}`;
    case 'labels-changed':
      return `labels changed: ${plural(questions.length, 'question')} of suite ${suite}${measures} measured against other judgments than the baseline's${named}, so not compared: neither a regression nor an improvement`;
    case 'improvement':
      return `improvement not recorded: ${measure} ${formatValue(finding.before!)} → ${formatValue(finding.after!)} in suite ${suite}${questions.length > 0 ? ` (better${named})` : ''}`;
    case 'new-suite':
      return `suite not in the baseline: ${suite} (${plural(questions.length, 'question')}${named})`;
    case 'new-questions':
      return `${plural(questions.length, 'question')} of suite ${suite}${measures} not in the baseline${named}`;
    case 'missing-suite':
      return finding.fileGone === true
        ? `suite in the baseline whose test file was deleted: ${suite} (${plural(questions.length, 'question')}${named})`
        : `suite in the baseline did not run although its test file ran: ${suite} (${plural(questions.length, 'question')}${named})`;
    case 'missing-questions':
      return `${plural(questions.length, 'question')} of suite ${suite}${measures} in the baseline did not run although the test file ran${named}`;
    case 'renamed-suite':
      return `suite renamed: ${escape(finding.from!)} → ${suite} (same questions; compared with its baseline rows)`;
    case 'unconfirmed-move':
      return `move not recorded: ${measure} ${formatValue(finding.before!)} → ${formatValue(finding.after!)} in suite ${suite} (beyond the tolerance but not significant, so not a regression${questions.length > 0 ? `; ${finding.after! < finding.before! ? 'worse' : 'better'}${named}` : ''})${unjudgedNotes(finding, escape)}`;
    case 'unstable': {
      const spreads = finding.spreads ?? [];
      const listed = listUpTo(
        questions,
        LISTED_NAMES,
        (id, index) => `${escape(id)} (spread ${formatValue(spreads[index]!)})`,
      );
      const limit =
        finding.limit === undefined
          ? ''
          : finding.fails
            ? `, over maxSpread ${formatValue(finding.limit)}`
            : `, within maxSpread ${formatValue(finding.limit)}`;
      return `unstable: ${measure} of ${plural(questions.length, 'question')} in suite ${suite} differs between repeated runs${limit}: ${listed}`;
    }
    case 'held-moves': {
      const moves = finding.moves ?? [];
      const named = listUpTo(
        questions,
        listed,
        (id, index) => `${escape(id)} ${formatValue(moves[index]!.before)} → ${formatValue(moves[index]!.after)}`,
      );
      return `${measure} of ${plural(questions.length, 'question')} in suite ${suite} moved beyond the tolerance while its mean held: ${named}`;
    }
    case 'insensitive': {
      const count = plural(finding.count!, 'question');
      return finding.limitedBy === 'significance'
        ? `${measure} of suite ${suite} can never fail: with ${count}, the paired test cannot reach significance ${finding.limit} even if every question gets worse`
        : `${measure} of suite ${suite} can never fail: its mean ${formatValue(finding.before!)} over ${count} cannot fall by more than the tolerance ${finding.limit}`;
    }
    case 'rankings-changed':
      return `${plural(questions.length, 'question')} of suite ${suite}: rankings changed, values held (${describeChurn(finding.churn!)})${named}`;
    case 'ranking-churn': {
      const broken = finding.churn!.broken!;
      const name = broken.measure === 'rbo' ? 'RBO' : `top-${finding.churn!.k} overlap`;
      const value = broken.measure === 'rbo' ? finding.churn!.meanRbo : finding.churn!.meanOverlap;
      const share = `top ${finding.churn!.k} changed for ${Math.round(finding.churn!.topChangedShare * 100)}% of ${plural(finding.churn!.questions, 'question')}`;
      return `ranking churn in suite ${suite}: mean ${name} ${formatValue(value)} is below maxChurn.${broken.measure} ${formatValue(broken.limit)}; ${share}`;
    }
    case 'too-few-repeats': {
      const runs = finding.runs ?? [];
      const listed = listUpTo(
        questions.map((id, index) => `${escape(id)} (${plural(runs[index]!, 'run')})`),
        LISTED_NAMES,
      );
      return `too few repeats: ${plural(questions.length, 'question')} of suite ${suite} · ${measure} ran fewer than ${finding.limit} times (minRepeats): ${listed}`;
    }
    case 'calls': {
      const changes = finding.callChanges ?? [];
      const kind = escape(finding.callKind ?? '');
      const first = changes[0];
      if (
        first !== undefined &&
        changes.every((change) => change.before === first.before && change.after === first.after)
      )
        return `${kind} calls per question ${formatCount(first.before)} → ${formatCount(first.after)} in suite ${suite}${named}`;
      const each = listUpTo(
        questions.map(
          (id, index) => `${escape(id)} ${formatCount(changes[index]!.before)} → ${formatCount(changes[index]!.after)}`,
        ),
        listed,
      );
      return `${kind} calls per question changed in suite ${suite}: ${each}`;
    }
    case 'latency': {
      const over = (finding.overBudget ?? [])
        .map((limit) => `${limit.statistic} ${formatMs(limit.value)} over the budget of ${formatMs(limit.budget)}`)
        .join(', ');
      return `latency over budget in suite ${suite}: ${over} (${plural(finding.timed ?? 0, 'timed question')})`;
    }
    case 'tag-regression':
      return `tag ${escape(finding.tag!)}: ${measure} ${formatValue(finding.before!)} → ${formatValue(finding.after!)} over ${plural(finding.shared!, 'question')} in ${plural(finding.suites!, 'suite')}${questions.length > 0 ? ` (worse${named})` : ''}`;
    case 'not-judged': {
      const count = finding.count ?? questions.length;
      const more = count > questions.length ? `, ${andMore(count - questions.length)}` : '';
      const detail = finding.detail === undefined ? '' : ` (${escape(finding.detail)})`;
      return `${plural(count, 'baseline question')} not judged: ${NOT_JUDGED_TEXT[finding.reason!]}${detail}${questions.length > 0 ? ` — ${questions.map(escape).join(', ')}${more}` : ''}`;
    }
  }
}

/** `rank-biased overlap at depth 10 with p = 0.9; top-5 overlap`: how churn was measured. */
export function describeChurnSettings(settings: { k: number; p: number; depth: number }): string {
  return `rank-biased overlap at depth ${settings.depth} with p = ${settings.p}, top-${settings.k} overlap; no labels needed`;
}

/** `mean RBO 0.940, top 5 changed for 40% of 10 questions`: a suite's churn in a few words. */
export function describeChurn(churn: {
  questions: number;
  meanRbo: number;
  k: number;
  topChangedShare: number;
}): string {
  return `mean RBO ${formatValue(churn.meanRbo)}, top ${churn.k} changed for ${Math.round(churn.topChangedShare * 100)}% of ${plural(churn.questions, 'question')}`;
}

/** `; q12 recall@5 1.000 → 0.500; 2 of its top 5 are unjudged: doc-81, doc-90 — label them before trusting this drop` per question. */
function unjudgedNotes(finding: GateFinding, escape: (text: string) => string): string {
  const measure = escape(finding.measure ?? '');
  return (finding.unjudged ?? [])
    .map(
      (drop) =>
        `; ${escape(drop.question)} ${measure} ${formatValue(drop.before)} → ${formatValue(drop.after)}; ${describeUnjudged(drop, escape)}`,
    )
    .join('');
}

/**
 * `2 of its top 5 are unjudged: doc-81, doc-90 — label them before trusting this drop`; for labels that
 * hold no non-relevant judgment (which cannot tell unjudged from non-relevant), neutrally `now in its top 5:
 * doc-81, doc-90`.
 */
export function describeUnjudged(
  unjudged: { count: number; ids: readonly string[]; k?: number; positiveOnly?: true },
  escape: (text: string) => string,
): string {
  const where = unjudged.k === undefined ? 'hits' : `top ${unjudged.k}`;
  const verb = wordFor(unjudged.count, 'is', 'are');
  const more = unjudged.count > unjudged.ids.length ? `, ${andMore(unjudged.count - unjudged.ids.length)}` : '';
  if (unjudged.positiveOnly === true) return `now in its ${where}: ${unjudged.ids.map(escape).join(', ')}${more}`;
  return `${unjudged.count} of its ${where} ${verb} unjudged: ${unjudged.ids.map(escape).join(', ')}${more} — label them before trusting this drop`;
}

/** A count of calls: a whole number as it is, a mean to two decimals. */
function formatCount(count: number): string {
  return Number.isInteger(count) ? String(count) : count.toFixed(2);
}

/** Milliseconds as reports show them: `412 ms`, `3.4 ms` under 10. */
function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/**
 * A suite's latency and calls as one line, user strings through `escape`: `test/a.test.ts > refunds: 24
 * timed questions · p50 41.2 ms · p95 120 ms · max 130 ms (baseline p95 118 ms) · calls per question:
 * embed 1, rerank 1 · budget p95 300 ms: within`.
 */
export function describeSuiteCost(cost: SuiteCost, escape: (text: string) => string): string {
  const parts = [
    `${plural(cost.timed, 'timed question')}`,
    `p50 ${formatMs(cost.latency.p50)}`,
    `p95 ${formatMs(cost.latency.p95)}`,
    `max ${formatMs(cost.latency.max)}${cost.baseline === undefined ? '' : ` (baseline p95 ${formatMs(cost.baseline.p95)})`}`,
  ];
  if (cost.calls.length > 0)
    parts.push(
      `calls per question: ${cost.calls.map((calls) => `${escape(calls.kind)} ${formatCount(calls.perQuestion)}`).join(', ')}`,
    );
  const budget = describeBudget(cost);
  if (budget !== undefined) parts.push(budget);
  return `${escape(cost.suite)}: ${parts.join(' · ')}`;
}

function describeBudget(cost: SuiteCost): string | undefined {
  if (cost.budget === undefined) return undefined;
  const limits = (['p50', 'p95', 'max'] as const)
    .filter((statistic) => cost.budget![statistic] !== undefined)
    .map((statistic) => `${statistic} ${formatMs(cost.budget![statistic]!)}`)
    .join(', ');
  switch (cost.budgetStatus) {
    case 'too-few':
      return `budget ${limits} not judged: ${plural(cost.timed, 'timed question')}, it needs ${MIN_TIMED_QUESTIONS}`;
    case 'over':
      return `budget ${limits}: over`;
    default:
      return `budget ${limits}: within`;
  }
}

/**
 * A row's sensitivity in a few words: `6 questions worse (mean −0.150; the test)`, or why no change can
 * fail it: `never: the test cannot reach significance`.
 */
export function describeSensitivity(sensitivity: SummaryRow['sensitivity'], minus = '-'): string {
  if (!sensitivity.canFail)
    return sensitivity.limitedBy === 'significance'
      ? 'never: the test cannot reach significance'
      : 'never: the mean cannot fall beyond the tolerance';
  const by = sensitivity.limitedBy === 'significance' ? '; set by the test' : '';
  return `${plural(sensitivity.questions, 'question')} worse (mean ${formatDelta(-sensitivity.meanDrop, minus)}${by})`;
}
