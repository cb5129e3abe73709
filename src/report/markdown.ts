// The Markdown report: a compact table for a pull-request comment or $GITHUB_STEP_SUMMARY. Changed rows
// (▼ regressed, ▲ improved, new) in the table, unchanged rows folded into a <details> block, and the
// questions that got worse in a collapsible list.

import {
  acceptCommandFor,
  questionLabel,
  describeChange,
  describeTest,
  formatDelta,
  formatP,
  formatValue,
  isPartialComparison,
  plural,
  describeFinding,
  acceptModeOf,
} from './format.js';
import { escapeMarkdown, markdownCode } from './escape.js';
import type { RowStatus, RunSummary, SummaryRow } from './summary.js';

export interface MarkdownRenderOptions {
  /** Questions listed per regressed row. Default 10. */
  maxWorse?: number;
  /** Rows listed per table (changed rows, then unchanged rows) before "… and N more". Default 50. */
  maxRows?: number;
  /** Heading text. Default "RAG retrieval quality". */
  title?: string;
  /** The command that accepts a change. Default as in the console report. */
  acceptCommand?: string;
}

const MARKER: Record<RowStatus, string> = { regressed: '▼', improved: '▲', unchanged: '', new: 'new' };
const STATUS_ORDER: Record<RowStatus, number> = { regressed: 0, improved: 1, new: 2, unchanged: 3 };

/** Markdown text ending in a newline. */
export function renderMarkdown(summary: RunSummary, options: MarkdownRenderOptions = {}): string {
  const maxWorse = options.maxWorse ?? 10;
  const maxRows = options.maxRows ?? 50;
  const acceptCommand = options.acceptCommand ?? acceptCommandFor(summary.runner);
  const commandFor = (mode: 'update' | 'prune'): string =>
    mode === 'prune' ? acceptCommand.replace('RAG_BASELINE=update', 'RAG_BASELINE=prune') : acceptCommand;
  const failing = summary.findings.filter((finding) => finding.fails);
  const out: string[] = [`### ${escapeText(options.title ?? 'RAG retrieval quality')}`, ''];

  const verdict = summary.passed ? '✅' : '❌';
  const headline =
    summary.regressions > 0
      ? `**${plural(summary.regressions, 'regression')}**`
      : !summary.passed && failing.length > 0 && summary.settings.strict
        ? `**Baseline out of date: ${plural(failing.length, 'difference')}**`
        : !summary.passed
          ? `**${plural(summary.newSamples, 'question')} not in the baseline**`
          : summary.baselineFound
            ? '**No regressions**'
            : '**No baseline yet**';
  const counts = summary.baselineFound
    ? ` · ${summary.improvements} improved · ${summary.unchanged} unchanged${summary.newRows > 0 ? ` · ${summary.newRows} new` : ''}`
    : '';
  out.push(
    `${verdict} ${headline}${counts} — ${plural(summary.totals.samples, 'sample')} in ${plural(summary.totals.suites, 'suite')} (${summary.runner})` +
      (summary.baselinePath !== undefined ? `, baseline ${code(summary.baselinePath)}` : ''),
    '',
  );
  if (summary.rows.length === 0) {
    out.push('No retrieval measures were recorded in this run.', '');
    return out.join('\n');
  }

  const withP = summary.settings.significance !== undefined;
  const changed = summary.rows
    .filter((row) => row.status !== 'unchanged')
    .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  const unchanged = summary.rows.filter((row) => row.status === 'unchanged');
  if (changed.length > 0) out.push(...table(changed, maxRows, withP, true), '');
  if (unchanged.length > 0) {
    const rows = table(unchanged, maxRows, withP, false);
    if (changed.length > 0)
      out.push(
        `<details><summary>${plural(unchanged.length, 'unchanged row')}</summary>`,
        '',
        ...rows,
        '',
        '</details>',
        '',
      );
    else out.push(...rows, '');
  }
  if (summary.rows.some(isPartialComparison))
    out.push('<sub>* Δ and the test use only the questions both this run and the baseline have.</sub>', '');

  const regressed = summary.rows.filter((row) => row.status === 'regressed');
  if (regressed.length > 0) {
    const total = regressed.reduce((sum, row) => sum + row.worse.length, 0);
    out.push(`<details><summary>Questions that got worse (${total})</summary>`, '');
    for (const row of regressed) {
      const test = describeTest(row);
      out.push(`**${escapeText(row.suite)}** · ${escapeText(describeChange(row))}${test ? ` (${test})` : ''}`, '');
      for (const change of row.worse.slice(0, maxWorse)) {
        const label = questionLabel(change, escapeText);
        out.push(`- ${label}: ${formatValue(change.before)} → ${formatValue(change.after)}`);
      }
      if (row.worse.length > maxWorse) out.push(`- … and ${row.worse.length - maxWorse} more`);
      out.push('');
    }
    out.push('</details>', '');
  }
  if (summary.findings.length > 0) {
    const strict = failing.length > 0 && summary.settings.strict;
    out.push(strict ? '**The baseline is out of date:**' : '**Not in the baseline yet, or no longer produced:**', '');
    for (const finding of summary.findings.slice(0, maxRows)) {
      out.push(
        `- ${finding.fails ? '❌' : '·'} ${describeFinding(finding, escapeMarkdown)} — run ${markdownCode(commandFor(finding.accept))} and commit`,
      );
    }
    if (summary.findings.length > maxRows)
      out.push(`- … and ${summary.findings.length - maxRows} more (see the JSON report)`);
    out.push('');
  }
  for (const warning of summary.warnings) out.push(`> [!WARNING]\n> ${escapeText(warning)}`, '');
  if (summary.regressions > 0 || !summary.passed || !summary.baselineFound) {
    out.push(
      `If this change is intended, accept it with ${code(commandFor(acceptModeOf(summary.findings)))} and commit the baseline.`,
      '',
    );
  }
  return out.join('\n');
}

function table(rows: SummaryRow[], maxRows: number, withP: boolean, withMarker: boolean): string[] {
  const header = [
    ...(withMarker ? [''] : []),
    'suite',
    'measure',
    'n',
    'mean (95% CI)',
    'baseline',
    'Δ',
    ...(withP ? ['p (Holm)'] : []),
  ];
  const align = [...(withMarker ? [':-:'] : []), '---', '---', '--:', '---', '--:', '--:', ...(withP ? ['--:'] : [])];
  const lines = [`| ${header.join(' | ')} |`, `|${align.join('|')}|`];
  for (const row of rows.slice(0, maxRows)) {
    const cells = [
      ...(withMarker ? [MARKER[row.status]] : []),
      escapeCell(row.suite),
      escapeCell(row.measure),
      String(row.count),
      `${formatValue(row.mean)} (${formatValue(row.interval.lower)}–${formatValue(row.interval.upper)})`,
      row.baseline === undefined ? '—' : formatValue(row.baseline.mean),
      row.delta === undefined ? '—' : `${formatDelta(row.delta, '−')}${isPartialComparison(row) ? '*' : ''}`,
      ...(withP ? [row.comparison?.adjustedP === undefined ? '—' : formatP(row.comparison.adjustedP)] : []),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  // A blank line first: GitHub would read a line right under a table as one more row.
  if (rows.length > maxRows)
    lines.push('', `… and ${plural(rows.length - maxRows, 'more row')} (see the JSON report).`);
  return lines;
}

/** Text shown as is (escapeMarkdown): one line, Markdown and HTML specials escaped, mentions neutralised. */
export function escapeText(text: string): string {
  return escapeMarkdown(text);
}

function escapeCell(text: string): string {
  return escapeMarkdown(text);
}

/** An inline code span that survives backticks and line breaks in the text. */
function code(text: string): string {
  return markdownCode(text);
}
