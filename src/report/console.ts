// The console report: one table of every suite × measure, then the questions that got worse in each
// regressed row, then notes, and on a regression a last line that says how to accept the change.
// Colours only when asked (shouldUseColor decides for a stream: a TTY, NO_COLOR and FORCE_COLOR honoured).

import {
  acceptCommandFor,
  questionLabel,
  describeChange,
  describeRule,
  displayWidth,
  fitWidth,
  formatDelta,
  formatP,
  formatValue,
  isPartialComparison,
  plural,
  describeFinding,
  actionFor,
  describeUnjudged,
  describeSuiteCost,
  describeChurn,
  describeChurnSettings,
  reportCommands,
  verdictLine,
  type ReportCommands,
} from './wording.js';
import { escapeConsole } from '../core/escape.js';
import { andMore, percent } from '../core/present.js';
import type { RowStatus, RunSummary, SummaryRow } from './summary.js';
import type { Verdict, VerdictSection } from './verdict.js';
import { describeMoves, describeRanking, evidenceOfFinding, type QuestionEvidence } from './evidence.js';

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

/** The report as text (no trailing newline): header, table, the verdict's sections, notes, last line. */
export function renderConsole(summary: RunSummary, options: ConsoleRenderOptions): string {
  const maxWorse = checkCount(options.maxWorse ?? 10, 'maxWorse');
  const maxMissing = checkCount(options.maxMissing ?? 10, 'maxMissing');
  const acceptCommand = options.acceptCommand ?? acceptCommandFor(summary.runner);
  const commands = reportCommands(acceptCommand);
  const paint = painter(options.color === true);
  const verdict = summary.verdict;
  const lines: string[] = [headerLine(summary, paint)];
  if (summary.rows.length === 0) {
    lines.push('No retrieval measures were recorded in this run.');
    lines.push(...costLines(summary, paint));
    const sections = verdict.sections.flatMap((section) => [
      '',
      ...sectionLines(summary, section, commands, maxMissing, paint),
    ]);
    if (sections.length > 0) lines.push(...sections, '', lastLine(summary, commands, paint));
    return lines.join('\n');
  }
  lines.push('', ...tableLines(summary, paint), ...costLines(summary, paint));
  const churn = churnLines(summary, maxMissing, paint);
  if (churn.length > 0) lines.push('', ...churn);
  for (const section of verdict.sections) {
    if (section.section === 'regressions') {
      for (const index of section.findings) {
        const row = rowOf(summary, index);
        if (row !== undefined) lines.push('', ...regressedRowLines(row, summary, maxWorse, paint));
      }
    } else {
      lines.push('', ...sectionLines(summary, section, commands, maxMissing, paint));
    }
  }
  const notes = noteLines(summary, paint);
  if (notes.length > 0) lines.push('', ...notes);
  lines.push('', lastLine(summary, commands, paint));
  return lines.join('\n').replace(/\n+$/, '');
}

/** Each timed suite's latency and calls, under a heading (nothing when nothing was timed). */
function costLines(summary: RunSummary, paint: Painter): string[] {
  const costs = summary.costs ?? [];
  if (costs.length === 0) return [];
  return [
    '',
    paint.bold('Latency and calls') + paint.dim(' (wall clock, nearest rank)'),
    ...costs.map((cost) => `  ${describeSuiteCost(cost, escapeConsole)}`),
  ];
}

/** The row a regression finding names. */
function rowOf(summary: RunSummary, index: number): SummaryRow | undefined {
  const finding = summary.findings[index]!;
  return summary.rows.find((row) => row.suiteKey === finding.suiteKey && row.measure === finding.measure);
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

/** A regressed row: what fell, by which rule, and the questions that got worse. */
function regressedRowLines(row: SummaryRow, summary: RunSummary, maxWorse: number, paint: Painter): string[] {
  const rule = describeRule(row, summary.settings.significance);
  return [
    paint.red(`▼ ${fitWidth(escapeConsole(row.suite), MAX_NAME_WIDTH)} · ${escapeConsole(describeChange(row))}`) +
      (rule ? paint.dim(` (${rule})`) : '') +
      `; ${plural(row.worse.length, 'question')} got worse:`,
    ...worseLines(row, maxWorse, paint),
  ];
}

/** A section of the verdict: its heading, then each finding with what clears it. */
function sectionLines(
  summary: RunSummary,
  section: VerdictSection,
  commands: ReportCommands,
  maxLines: number,
  paint: Painter,
): string[] {
  const lines = [(section.fails ? paint.yellow : paint.bold)(`${section.heading}:`)];
  for (const index of section.findings.slice(0, maxLines)) {
    const finding = summary.findings[index]!;
    const action = actionFor(finding, summary.verdict.clears[index]!, commands, String);
    lines.push(`  ${finding.fails ? '✗' : '·'} ${describeFinding(finding, escapeConsole)} — ${action}`);
    lines.push(...findingEvidenceLines(summary, finding, paint));
  }
  if (section.findings.length > maxLines)
    lines.push(`  … and ${section.findings.length - maxLines} more (see the JSON report)`);
  return lines;
}

/** Briefly, the suites whose rankings changed against the baseline's: one line each, the rest counted. */
function churnLines(summary: RunSummary, maxLines: number, paint: Painter): string[] {
  const changed = (summary.churn?.suites ?? []).filter((suite) => suite.changes.length > 0);
  if (changed.length === 0) return [];
  const lines = [
    paint.bold('Ranking churn against the baseline') +
      paint.dim(` (${describeChurnSettings(summary.churn!.settings)}):`),
  ];
  for (const suite of changed.slice(0, maxLines))
    lines.push(
      `  ${fitWidth(escapeConsole(suite.suite), MAX_NAME_WIDTH)}: ${describeChurn({ ...suite, k: summary.churn!.settings.k })}`,
    );
  if (changed.length > maxLines) lines.push(`  ${andMore(changed.length - maxLines)}`);
  return lines;
}

/** Notes: warnings, then the verdict's. */
function noteLines(summary: RunSummary, paint: Painter): string[] {
  const notes: string[] = [];
  for (const warning of summary.warnings) notes.push(paint.yellow(`Warning: ${warning}`));
  notes.push(...summary.verdict.notes);
  return notes;
}

const TONE: Record<Verdict['tone'], keyof Painter> = {
  regressed: 'red',
  attention: 'yellow',
  passed: 'green',
  neutral: 'bold',
};

/** The report's last line: the verdict's headline, and the advice that clears it. */
function lastLine(summary: RunSummary, commands: ReportCommands, paint: Painter): string {
  const line = verdictLine(summary.verdict, summary.findings, commands, String);
  return paint[TONE[summary.verdict.tone]](line.headline) + line.advice;
}

function worseLines(row: SummaryRow, maxWorse: number, paint: Painter): string[] {
  const shown = row.worse.slice(0, maxWorse);
  const labels = shown.map((change) => fitWidth(questionLabel(change, escapeConsole), MAX_NAME_WIDTH));
  const width = Math.max(0, ...labels.map(displayWidth));
  const lines = shown.flatMap((change, index) => [
    `    ${labels[index]!}${' '.repeat(width - displayWidth(labels[index]!))}  ${formatValue(change.before)} → ${paint.red(formatValue(change.after))}` +
      (change.unjudged === undefined ? '' : paint.yellow(`; ${describeUnjudged(change.unjudged, escapeConsole)}`)),
    ...(index < MAX_EVIDENCE ? evidenceLines(row.evidence?.[change.sampleId], paint) : []),
  ]);
  if (row.worse.length > maxWorse) lines.push(`    ${andMore(row.worse.length - maxWorse)}`);
  return lines;
}

/**
 * Under a finding of a row's questions (an improvement, a move not recorded, questions that moved while the
 * suite held): the first few questions with their evidence, the rest counted.
 */
function findingEvidenceLines(summary: RunSummary, finding: RunSummary['findings'][number], paint: Painter): string[] {
  const evidence = evidenceOfFinding(summary, finding);
  if (evidence.length === 0) return [];
  const lines = evidence
    .slice(0, MAX_EVIDENCE)
    .flatMap(([id, entry]) => [`    ${fitWidth(escapeConsole(id), MAX_NAME_WIDTH)}`, ...evidenceLines(entry, paint)]);
  if (evidence.length > MAX_EVIDENCE) lines.push(`    ${andMore(evidence.length - MAX_EVIDENCE)}`);
  return lines;
}

/** Under a changed question: its text, its moves and what ranks above them now, its rankings before → after. */
function evidenceLines(evidence: QuestionEvidence | undefined, paint: Painter): string[] {
  if (evidence === undefined) return [];
  const lines: string[] = [];
  if (evidence.text !== undefined) lines.push(`      “${fitWidth(escapeConsole(evidence.text), MAX_TEXT_WIDTH)}”`);
  if (evidence.before.length === 0 && evidence.after.length === 0) return lines;
  lines.push(
    paint.dim(`      ${describeMoves(evidence.moves, escapeConsole)}`),
    paint.dim(`      before: ${describeRanking(evidence.before, escapeConsole)}`),
    paint.dim(`      after:  ${describeRanking(evidence.after, escapeConsole)}`),
  );
  return lines;
}

/** How many questions of a row show their evidence in the console (the JSON report has all). */
const MAX_EVIDENCE = 3;

/** How much of a question's text the console shows. */
const MAX_TEXT_WIDTH = 100;

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
