// The console report: one table of every suite × measure, then the questions that got worse in each
// regressed row, then notes, and on a regression a last line that says how to accept the change.
// Colours only when asked (shouldUseColor decides for a stream: a TTY, NO_COLOR and FORCE_COLOR honoured).

import {
  acceptCommandFor,
  questionLabel,
  describeChange,
  describeTest,
  displayWidth,
  fitWidth,
  formatDelta,
  formatP,
  formatValue,
  isPartialComparison,
  plural,
  describeFinding,
  findingsHeading,
  acceptModeOf,
  actionFor,
  describeUnjudged,
  describeNotJudged,
  isRepeatFinding,
  reportCommands,
  type ReportCommands,
} from './wording.js';
import { escapeConsole } from '../core/escape.js';
import { andMore, percent } from '../core/present.js';
import { FINDING_KINDS } from './finding-kinds.js';
import type { GateFinding, RowStatus, RunSummary, SummaryRow } from './summary.js';

/** The note of a run that updates the baseline; finishRun takes it back when the write failed. */
export const UPDATING_NOTE = 'The baseline is being updated: these changes are recorded, not judged.';

/** Widest suite, measure or question name in the console's columns; the JSON report has the full names. */
const MAX_NAME_WIDTH = 80;

export interface ConsoleRenderOptions {
  /** ANSI colours. Use shouldUseColor(process.stdout) to decide. */
  color: boolean;
  /** Questions listed per regressed row before "… and N more". Default 10. */
  maxWorse?: number;
  /** Missing baseline rows listed before "… and N more". Default 10. */
  maxMissing?: number;
  /** The command that accepts a change. Default: `RAG_BASELINE=update npx vitest run` (`npx jest` for Jest runs). */
  acceptCommand?: string;
}

const STATUS_TEXT: Record<RowStatus, string> = {
  regressed: '▼ regressed',
  improved: '▲ improved',
  unchanged: '  unchanged',
  new: '  new',
};

type Paint = (text: string) => string;

type Painter = ReturnType<typeof painter>;

function painter(color: boolean): Record<'red' | 'green' | 'cyan' | 'dim' | 'bold' | 'yellow', Paint> {
  const wrap =
    (open: number, close: number): Paint =>
    (text) =>
      color ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    red: wrap(31, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    yellow: wrap(33, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}

/** True when colours suit `stream`: NO_COLOR unset and a TTY, or FORCE_COLOR set to anything but 0/false. */
export function shouldUseColor(
  stream: { isTTY?: boolean } | undefined,
  env: Record<string, string | undefined> = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream?.isTTY === true;
}

/** The report as text (no trailing newline): header, table, questions that got worse, findings, notes, verdict. */
export function renderConsole(summary: RunSummary, options: ConsoleRenderOptions): string {
  const maxWorse = checkCount(options.maxWorse ?? 10, 'maxWorse');
  const maxMissing = checkCount(options.maxMissing ?? 10, 'maxMissing');
  const acceptCommand = options.acceptCommand ?? acceptCommandFor(summary.runner);
  const commands = reportCommands(acceptCommand);
  const paint = painter(options.color === true);
  const lines: string[] = [headerLine(summary, paint)];
  if (summary.rows.length === 0) {
    lines.push('No retrieval measures were recorded in this run.');
    const notJudged = notJudgedLines(summary, commands, maxMissing, paint);
    if (notJudged.length > 0) lines.push('', ...notJudged, '', verdictLine(summary, commands, paint));
    return lines.join('\n');
  }
  lines.push('', ...tableLines(summary, paint));
  for (const row of summary.rows)
    if (row.status === 'regressed') lines.push('', ...regressedRowLines(row, maxWorse, paint));
  const findings = findingLines(summary, commands, maxMissing, paint);
  if (findings.length > 0) lines.push('', ...findings);
  const notJudged = notJudgedLines(summary, commands, maxMissing, paint);
  if (notJudged.length > 0) lines.push('', ...notJudged);
  const repeated = repeatLines(summary, commands, maxMissing, paint);
  if (repeated.length > 0) lines.push('', ...repeated);
  const notes = noteLines(summary, acceptCommand, paint);
  if (notes.length > 0) lines.push('', ...notes);
  lines.push('', verdictLine(summary, commands, paint));
  return lines.join('\n').replace(/\n+$/, '');
}

function headerLine(summary: RunSummary, paint: Painter): string {
  const baselineName = escapeConsole(summary.baselinePath ?? 'the baseline');
  return (
    paint.bold('RAG retrieval quality') +
    paint.dim(
      ` · ${summary.runner} · ${plural(summary.totals.suites, 'suite')} · ${plural(summary.totals.rows, 'row')} · ${plural(summary.totals.samples, 'sample')}` +
        (summary.baselineFound ? ` · compared with ${baselineName}` : ''),
    )
  );
}

/** The table of suite × measure rows, aligned, with a footnote when Δ rests on part of the questions. */
function tableLines(summary: RunSummary, paint: Painter): string[] {
  const withP = summary.settings.significance !== undefined;
  const header = [
    'suite',
    'measure',
    'n',
    'mean',
    `${percent(summary.settings.confidence)} CI`,
    'baseline',
    'Δ',
    ...(withP ? ['p (Holm)'] : []),
    'status',
  ];
  const rightAligned = new Set([2, 3, 5, 6, ...(withP ? [7] : [])]);
  const table: { cells: string[]; status?: RowStatus }[] = [{ cells: header }];
  let partial = false;
  summary.rows.forEach((row, index) => {
    const previous = summary.rows[index - 1];
    const rowPartial = isPartialComparison(row);
    partial ||= rowPartial;
    table.push({
      status: row.status,
      cells: [
        previous?.suiteKey === row.suiteKey ? '' : fitWidth(escapeConsole(row.suite), MAX_NAME_WIDTH),
        fitWidth(escapeConsole(row.measure), MAX_NAME_WIDTH),
        String(row.count),
        formatValue(row.mean),
        `[${formatValue(row.interval.lower)}, ${formatValue(row.interval.upper)}]`,
        row.baseline === undefined ? '—' : formatValue(row.baseline.mean),
        row.delta === undefined ? '—' : `${formatDelta(row.delta)}${rowPartial ? '*' : ''}`,
        ...(withP ? [row.comparison?.adjustedP === undefined ? '—' : formatP(row.comparison.adjustedP)] : []),
        STATUS_TEXT[row.status],
      ],
    });
  });
  const widths = header.map((_, column) => Math.max(...table.map((line) => displayWidth(line.cells[column]!))));
  const statusColumn = header.length - 1;
  const lines: string[] = [];
  for (const [index, line] of table.entries()) {
    const cells = line.cells.map((cell, column) => {
      const pad = ' '.repeat(widths[column]! - displayWidth(cell));
      const padded = column === statusColumn ? cell : rightAligned.has(column) ? pad + cell : cell + pad;
      if (index === 0) return paint.dim(padded);
      if (column === statusColumn || column === 6) return colourStatus(padded, line.status!, paint);
      return padded;
    });
    lines.push(cells.join('  ').trimEnd());
  }
  if (partial)
    lines.push(paint.dim('* Δ and the test use only the questions that both this run and the baseline have.'));
  return lines;
}

/** A regressed row: what fell, and the questions that got worse. */
function regressedRowLines(row: SummaryRow, maxWorse: number, paint: Painter): string[] {
  const test = describeTest(row);
  return [
    paint.red(`▼ ${fitWidth(escapeConsole(row.suite), MAX_NAME_WIDTH)} · ${escapeConsole(describeChange(row))}`) +
      (test ? paint.dim(` (${test})`) : '') +
      `; ${plural(row.worse.length, 'question')} got worse:`,
    ...worseLines(row, maxWorse, paint),
  ];
}

/** What an update would change beyond tolerance (regressions are above), by name, with the command that accepts it. */
function findingLines(summary: RunSummary, commands: ReportCommands, maxMissing: number, paint: Painter): string[] {
  const listed = listedFindings(summary);
  if (listed.length === 0) return [];
  const failing = listed.some((finding) => finding.fails);
  const lines = [(failing ? paint.yellow : paint.bold)(findingsHeading(listed, failing))];
  for (const finding of listed.slice(0, maxMissing)) {
    lines.push(
      `  ${finding.fails ? '✗' : '·'} ${describeFinding(finding, escapeConsole)} — ${actionFor(finding, commands, String)}`,
    );
  }
  if (listed.length > maxMissing) lines.push(`  … and ${listed.length - maxMissing} more (see the JSON report)`);
  return lines;
}

function listedFindings(summary: RunSummary): GateFinding[] {
  return summary.findings.filter(
    (finding) => finding.kind !== 'regression' && finding.kind !== 'not-judged' && !isRepeatFinding(finding),
  );
}

/** Questions run several times: unstable ones, and the CI rules minRepeats and maxSpread. */
function repeatLines(summary: RunSummary, commands: ReportCommands, maxMissing: number, paint: Painter): string[] {
  const repeated = summary.findings.filter(isRepeatFinding);
  if (repeated.length === 0) return [];
  const lines = [(repeated.some((finding) => finding.fails) ? paint.yellow : paint.bold)('Repeated questions:')];
  for (const finding of repeated.slice(0, maxMissing))
    lines.push(
      `  ${finding.fails ? '✗' : '·'} ${describeFinding(finding, escapeConsole)} — ${actionFor(finding, commands, String)}`,
    );
  if (repeated.length > maxMissing) lines.push(`  … and ${repeated.length - maxMissing} more (see the JSON report)`);
  return lines;
}

/** Notes: no baseline yet, findings that fail only in CI, warnings, regressions that do not fail. */
function noteLines(summary: RunSummary, acceptCommand: string, paint: Painter): string[] {
  const baselineName = escapeConsole(summary.baselinePath ?? 'the baseline');
  const notes: string[] = [];
  if (!summary.baselineFound) {
    notes.push(`No baseline yet${summary.baselinePath ? ` (${baselineName})` : ''}: record one with ${acceptCommand}`);
  } else {
    if (summary.settings.strict === false && listedFindings(summary).length > 0) {
      notes.push('These do not fail this run; in CI (strict) they do.');
    }
  }
  for (const warning of summary.warnings) notes.push(paint.yellow(`Warning: ${warning}`));
  if (summary.regressions > 0 && summary.settings.updatingBaseline) notes.push(UPDATING_NOTE);
  else if (summary.regressions > 0 && !summary.settings.failOnRegression)
    notes.push('failOnRegression is false: the regressions are reported but do not fail the run.');
  return notes;
}

/** The baseline questions this run did not judge, one line per reason with what makes a run judge them. */
function notJudgedLines(summary: RunSummary, commands: ReportCommands, maxLines: number, paint: Painter): string[] {
  const findings = summary.findings.filter((finding) => finding.kind === 'not-judged');
  if (findings.length === 0) return [];
  const failing = findings.some((finding) => finding.fails);
  const lines = [(failing ? paint.yellow : paint.bold)('Not judged by this run:')];
  for (const finding of findings.slice(0, maxLines))
    lines.push(
      `  ${finding.fails ? '✗' : '·'} ${describeFinding(finding, escapeConsole)} — ${actionFor(finding, commands, String)}`,
    );
  return lines;
}

/**
 * `2 differences beyond tolerance` when every one is a value that moved, `2 differences` when none is (a
 * new, missing or renamed suite or question), `3 differences (1 beyond tolerance)` for a mix.
 */
export function describeDifferences(findings: readonly GateFinding[]): string {
  const moves = findings.filter((finding) => FINDING_KINDS[finding.kind].valueMove).length;
  const all = plural(findings.length, 'difference');
  if (moves === findings.length) return `${all} beyond tolerance`;
  return moves === 0 ? all : `${all} (${moves} beyond tolerance)`;
}

/** The report's last line: the verdict, and on a failure the command that clears it. */
function verdictLine(summary: RunSummary, commands: ReportCommands, paint: Painter): string {
  const failingFindings = summary.findings.filter(
    (finding) =>
      finding.fails && finding.kind !== 'regression' && finding.kind !== 'not-judged' && !isRepeatFinding(finding),
  );
  const failingRepeats = summary.findings.filter((finding) => finding.fails && isRepeatFinding(finding));
  const failingNotJudged = summary.findings.filter((finding) => finding.fails && finding.kind === 'not-judged');
  const notJudged = summary.coverage.notJudged.reduce((sum, group) => sum + group.questions, 0);
  const regressionsFail =
    summary.regressions > 0 && summary.settings.failOnRegression && !summary.settings.updatingBaseline;
  const notJudgedNote =
    notJudged === 0 ? '' : ` ${plural(notJudged, 'baseline question')} not judged (${describeNotJudged(summary)}).`;
  if (
    summary.regressions > 0 &&
    (regressionsFail || (failingFindings.length === 0 && failingNotJudged.length === 0 && failingRepeats.length === 0))
  ) {
    return (
      paint.red(`Retrieval quality regressed in ${plural(summary.regressions, 'suite × measure row')}.`) +
      notJudgedNote +
      ` If this change is intended, accept it with: ${commands[acceptModeOf(summary.findings)]}`
    );
  }
  if (failingFindings.length > 0 && summary.settings.strict) {
    return (
      paint.yellow(`The baseline is out of date: ${describeDifferences(failingFindings)}.`) +
      notJudgedNote +
      ` Accept with: ${commands[acceptModeOf(summary.findings)]} and commit the baseline.`
    );
  }
  if (failingRepeats.length > 0) {
    return paint.yellow(
      `Repeated questions break the CI rules (minRepeats, maxSpread): ${plural(failingRepeats.length, 'finding')} under "Repeated questions" above.`,
    );
  }
  if (failingNotJudged.length > 0) {
    // The advice of the first reason (the list above has each one's): a missing shard is not cleared by
    // declaring the run partial, nor a failing test by running the whole suite.
    const action = actionFor(failingNotJudged[0]!, commands, String);
    return (
      paint.yellow(
        `Not judged: ${plural(notJudged, 'baseline question')} (${describeNotJudged(summary)}); in CI every baseline question must be judged.`,
      ) + ` To judge them: ${action}.`
    );
  }
  if (summary.settings.failOnNew && summary.newSamples > 0) {
    return (
      paint.yellow(`${plural(summary.newSamples, 'question')} not in the baseline (failOnNew).`) +
      ` Record them with: ${commands.update}`
    );
  }
  if (!summary.baselineFound) return '';
  const counts = `${summary.improvements} improved, ${summary.unchanged} unchanged${summary.newRows > 0 ? `, ${summary.newRows} new` : ''}`;
  if (notJudged > 0) {
    return paint.green(
      `No retrieval regressions among the ${plural(summary.coverage.judged, 'judged baseline question')} (${counts}); ${notJudged} not judged (${describeNotJudged(summary)}).`,
    );
  }
  return paint.green(`No retrieval regressions (${counts}).`);
}

function worseLines(row: SummaryRow, maxWorse: number, paint: Painter): string[] {
  const shown = row.worse.slice(0, maxWorse);
  const labels = shown.map((change) => fitWidth(questionLabel(change, escapeConsole), MAX_NAME_WIDTH));
  const width = Math.max(0, ...labels.map(displayWidth));
  const lines = shown.map(
    (change, index) =>
      `    ${labels[index]!}${' '.repeat(width - displayWidth(labels[index]!))}  ${formatValue(change.before)} → ${paint.red(formatValue(change.after))}` +
      (change.unjudged === undefined ? '' : paint.yellow(`; ${describeUnjudged(change.unjudged, escapeConsole)}`)),
  );
  if (row.worse.length > maxWorse) lines.push(`    ${andMore(row.worse.length - maxWorse)}`);
  return lines;
}

function colourStatus(text: string, status: RowStatus, paint: Painter): string {
  if (status === 'regressed') return paint.red(text);
  if (status === 'improved') return paint.green(text);
  if (status === 'new') return paint.cyan(text);
  return paint.dim(text);
}

function checkCount(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number ≥ 0, got ${String(value)}.`);
  }
  return value;
}
