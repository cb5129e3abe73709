// The Markdown report: a compact table for a pull-request comment or $GITHUB_STEP_SUMMARY. Changed rows
// (▼ regressed, ▲ improved, new) in the table, unchanged rows folded into a <details> block, and the
// questions that got worse in a collapsible list.

import {
  acceptCommandFor,
  questionLabel,
  describeAdvice,
  describeChange,
  describeRule,
  formatDelta,
  formatP,
  formatValue,
  isPartialComparison,
  plural,
  describeFinding,
  describeSuiteCost,
  describeSensitivity,
  describeChurnSettings,
  actionFor,
  reportCommands,
  type ReportCommands,
} from './wording.js';
import { escapeMarkdown, markdownCode } from '../core/escape.js';
import { andMore } from '../core/present.js';
import type { RowStatus, RunSummary, SummaryRow } from './summary.js';
import type { VerdictSection } from './verdict.js';
import { describeMoves, describeRanking, evidenceOfFinding, type QuestionEvidence } from './evidence.js';

export interface MarkdownRenderOptions {
  /** Questions listed per regressed row. Default 10. */
  maxWorse?: number;
  /** Rows listed per table (changed rows, then unchanged rows) before "… and N more". Default 50. */
  maxRows?: number;
  /** Heading text. Default "RAG retrieval quality". */
  title?: string;
  /** The command that accepts a change. Default as in the console report. */
  acceptCommand?: string;
  /** The longest text to write, in characters. Default 65,536, GitHub's limit on a comment. */
  maxLength?: number;
  /** One line (the verdict) when nothing changed: no finding, nothing improved, regressed, new or not judged. */
  quiet?: boolean;
}

const MARKER: Record<RowStatus, string> = { regressed: '▼', improved: '▲', unchanged: '', new: 'new' };
const STATUS_ORDER: Record<RowStatus, number> = { regressed: 0, improved: 1, new: 2, unchanged: 3 };

/** Markdown text ending in a newline. */
export function renderMarkdown(summary: RunSummary, options: MarkdownRenderOptions = {}): string {
  const maxWorse = options.maxWorse ?? 10;
  const maxRows = options.maxRows ?? 50;
  const acceptCommand = options.acceptCommand ?? acceptCommandFor(summary.runner);
  const commands = reportCommands(acceptCommand);
  const verdict = summary.verdict;
  const out: string[] = [`### ${escapeText(options.title ?? 'RAG retrieval quality')}`, ''];
  const tally = verdict.tally.map((part) => ` · ${part}`).join('');
  const remark = verdict.remark === null ? '' : `; ${escapeText(verdict.remark)}`;
  out.push(
    `${verdict.passed ? '✅' : '❌'} **${escapeText(verdict.headline)}**${tally}${remark} — ${plural(summary.totals.samples, 'sample')} in ${plural(summary.totals.suites, 'suite')} (${summary.runner})` +
      (summary.baselinePath !== undefined ? `, baseline ${code(summary.baselinePath)}` : ''),
    '',
  );
  if (options.quiet === true && nothingChanged(summary)) return `${out[2]}\n`;
  if (summary.rows.length === 0) {
    out.push('No retrieval measures were recorded in this run.', '');
    for (const section of verdict.sections) out.push(...sectionLines(summary, section, commands));
    return out.join('\n');
  }

  // Verdict first: what to do comes right under the headline, then what the run found, then the
  // tables and the questions behind them; whatever does not fit GitHub's comment limit is cut from the
  // end of a section with a line that says so (the JSON report keeps everything).
  const limit = options.maxLength ?? MARKDOWN_COMMENT_LIMIT;
  const text = new BoundedText(out, limit);
  const advice = describeAdvice(verdict, summary.findings, commands, code);
  if (advice !== '') text.add([advice, '']);
  for (const warning of summary.warnings) text.add([`> [!WARNING]\n> ${escapeText(warning)}`, '']);

  for (const section of verdict.sections) {
    // Only the items that fit are written out: a finding's line may name hundreds of questions.
    const shown = Math.min(section.findings.length, maxRows);
    const item = (index: number) => sectionItem(summary, section.findings[index]!, commands);
    text.addList(sectionHead(section), { count: shown, item }, section.findings.length - shown, ['']);
  }
  for (const note of verdict.notes) text.add([escapeText(note), '']);

  const withP = summary.settings.significance !== undefined;
  const changed = summary.rows
    .filter((row) => row.status !== 'unchanged')
    .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  const unchanged = summary.rows.filter((row) => row.status === 'unchanged');
  if (changed.length > 0) text.add([...table(changed, maxRows, withP, true), '']);
  if (unchanged.length > 0) {
    const rows = table(unchanged, maxRows, withP, false);
    if (changed.length > 0)
      text.add([
        `<details><summary>${plural(unchanged.length, 'unchanged row')}</summary>`,
        '',
        ...rows,
        '',
        '</details>',
        '',
      ]);
    else text.add([...rows, '']);
  }
  if (summary.rows.some(isPartialComparison))
    text.add(['<sub>* Δ and the test use only the questions both this run and the baseline have.</sub>', '']);
  const costs = summary.costs ?? [];
  if (costs.length > 0)
    text.add([
      '**Latency and calls** (wall clock, nearest rank)',
      '',
      ...costs.map((cost) => `- ${describeSuiteCost(cost, escapeText)}`),
      '',
    ]);
  if (summary.tags.length > 0) text.add([...tagTable(summary, maxRows), '']);
  const churn = churnBlock(summary, maxRows);
  if (churn.length > 0) text.add(churn);

  // The rows of the verdict's regressions, in its order.
  const regressed = (verdict.sections.find((section) => section.section === 'regressions')?.findings ?? [])
    .map((index) => summary.findings[index]!)
    .flatMap((finding) =>
      summary.rows.filter((row) => row.suiteKey === finding.suiteKey && row.measure === finding.measure),
    );
  if (regressed.length > 0) {
    const item = (index: number): string => {
      const row = regressed[index]!;
      const rule = describeRule(row, summary.settings.significance);
      const lines = [
        `**${escapeText(row.suite)}** · ${escapeText(describeChange(row))}${rule ? ` (${rule})` : ''}`,
        '',
      ];
      for (const change of row.worse.slice(0, maxWorse)) {
        const label = questionLabel(change, escapeText);
        lines.push(`- ${label}: ${formatValue(change.before)} → ${formatValue(change.after)}`);
        lines.push(...evidenceLines(row.evidence?.[change.sampleId]));
      }
      if (row.worse.length > maxWorse) lines.push(`- ${andMore(row.worse.length - maxWorse)}`);
      lines.push('');
      return lines.join('\n');
    };
    text.addList(
      [`<details><summary>Questions that got worse (${worseQuestions(regressed)})</summary>`, ''],
      { count: regressed.length, item },
      0,
      ['</details>', ''],
    );
  }
  const sensitivity = sensitivityRows(summary.rows);
  text.addList(
    [
      '<details><summary>Sensitivity: the smallest change that fails each row</summary>',
      '',
      '| suite | measure | n | fails when |',
      '|---|---|--:|---|',
    ],
    listed(sensitivity.slice(0, maxRows)),
    Math.max(0, sensitivity.length - maxRows),
    ['', '</details>', ''],
  );
  return text.toString();
}

/**
 * The tag rows (RunSummary.tags) under a heading of their own, collapsed when none regressed: one line per
 * tag × measure, its questions across suites, mean, baseline, Δ and p, as the suite table shows them.
 */
function tagTable(summary: RunSummary, maxRows: number): string[] {
  const withP = summary.settings.significance !== undefined;
  const header = `| | tag | measure | n (suites) | mean | baseline | Δ |${withP ? ' p (Holm) |' : ''}`;
  const lines = [header, `|---|---|---|---:|---:|---:|---:|${withP ? '---:|' : ''}`];
  for (const row of summary.tags.slice(0, maxRows)) {
    const p = row.comparison?.adjustedP;
    lines.push(
      `| ${MARKER[row.status]} | ${escapeText(row.tag)} | ${escapeText(row.measure)} | ${row.count} (${row.suites}) | ${formatValue(row.mean)} | ${row.baseline === undefined ? '—' : formatValue(row.baseline.mean)} | ${row.delta === undefined ? '—' : formatDelta(row.delta, '−')} |` +
        (withP ? ` ${p === undefined ? '—' : formatP(p)} |` : ''),
    );
  }
  if (summary.tags.length > maxRows) lines.push('', andMore(summary.tags.length - maxRows));
  const regressed = summary.tags.filter((row) => row.status === 'regressed').length;
  const title = `Tags across suites (${plural(summary.tags.length, 'row')}${regressed > 0 ? `, ${regressed} ▼` : ''})`;
  return regressed > 0
    ? [`**${title}**`, '', ...lines]
    : [`<details><summary>${title}</summary>`, '', ...lines, '', '</details>'];
}

/** A changed question's evidence, collapsed under its line: its text and moves, then its rankings before → after. */
function evidenceLines(evidence: QuestionEvidence | undefined): string[] {
  if (evidence === undefined) return [];
  const text = evidence.text === undefined ? '' : `“${escapeText(evidence.text)}”: `;
  return [
    `  <details><summary>${text}${describeMoves(evidence.moves, escapeText)}</summary>`,
    '',
    `  before: ${describeRanking(evidence.before, escapeText)}<br>`,
    `  after: ${describeRanking(evidence.after, escapeText)}`,
    '  </details>',
  ];
}

/** A passing comparison with a baseline in which no row moved and nothing is new, missing or not judged. */
/** The suites whose rankings changed against the baseline's, collapsed: one table row each, lowest RBO first. */
function churnBlock(summary: RunSummary, maxRows: number): string[] {
  const churn = summary.churn;
  const changed = (churn?.suites ?? []).filter((suite) => suite.changes.length > 0);
  if (churn === undefined || changed.length === 0) return [];
  const k = churn.settings.k;
  const lines = [
    `<details><summary>Ranking churn: ${plural(changed.length, 'suite')} whose rankings changed</summary>`,
    '',
    `${escapeText(describeChurnSettings(churn.settings))}.`,
    '',
    `| suite | questions | mean RBO | mean top-${k} overlap | top ${k} changed | lowest RBO |`,
    '|---|--:|--:|--:|--:|---|',
  ];
  for (const suite of changed.slice(0, maxRows)) {
    const lowest = suite.changes
      .slice(0, 3)
      .map((change) => `${escapeCell(change.question)} ${formatValue(change.rbo)}`)
      .join(', ');
    lines.push(
      `| ${escapeCell(suite.suite)} | ${suite.questions} | ${formatValue(suite.meanRbo)} | ${formatValue(suite.meanOverlap)} | ${Math.round(suite.topChangedShare * 100)}% | ${lowest} |`,
    );
  }
  if (changed.length > maxRows)
    lines.push('', `… and ${plural(changed.length - maxRows, 'more suite')} (see the JSON report).`);
  lines.push('', '</details>', '');
  return lines;
}

function nothingChanged(summary: RunSummary): boolean {
  return (
    summary.passed &&
    summary.baselineFound &&
    summary.rows.length > 0 &&
    summary.regressions === 0 &&
    summary.improvements === 0 &&
    summary.newRows === 0 &&
    summary.findings.length === 0 &&
    summary.warnings.length === 0
  );
}

/** The questions worse in any of `rows`, each once whatever its measures (one per suite × id). */
function worseQuestions(rows: readonly SummaryRow[]): number {
  const bySuite = new Map<string, Set<string>>();
  for (const row of rows) {
    let ids = bySuite.get(row.suiteKey);
    if (ids === undefined) bySuite.set(row.suiteKey, (ids = new Set()));
    for (const change of row.worse) ids.add(change.sampleId);
  }
  let total = 0;
  for (const ids of bySuite.values()) total += ids.size;
  return total;
}

/** The items of a BoundedText list, each written only when the list reaches it. */
interface ListItems {
  count: number;
  item: (index: number) => string;
}

function listed(items: readonly string[]): ListItems {
  return { count: items.length, item: (index) => items[index]! };
}

/** GitHub's limit on a pull-request comment's body, in characters. */
const MARKDOWN_COMMENT_LIMIT = 65_536;

/**
 * Lines that never grow past `limit` characters (joined with newlines): a block that does not fit is
 * left out, a list is cut after the items that fit, each with a line that says so. Room for that line
 * is kept back from the start.
 */
class BoundedText {
  private length: number;
  private cut = false;
  // The longest "cut" line and its newline.
  private static readonly RESERVE = 200;

  constructor(
    private readonly lines: string[],
    private readonly limit: number,
  ) {
    this.length = lines.join('\n').length;
  }

  private room(): number {
    return this.limit - BoundedText.RESERVE - this.length;
  }

  private push(lines: readonly string[]): void {
    for (const line of lines) {
      this.length += line.length + (this.lines.length > 0 ? 1 : 0);
      this.lines.push(line);
    }
  }

  private size(lines: readonly string[]): number {
    return lines.reduce((sum, line) => sum + line.length + 1, 0);
  }

  /** Adds the block whole, or not at all. */
  add(block: readonly string[]): void {
    if (this.size(block) <= this.room()) this.push(block);
    else this.cut = true;
  }

  /** Adds the head, as many items as fit (and `more` already left out), then the tail. */
  addList(head: readonly string[], items: ListItems, more: number, tail: readonly string[]): void {
    const first = items.count > 0 ? items.item(0) : undefined;
    if (this.size(head) + this.size(tail) + (first !== undefined ? first.length + 1 : 0) > this.room()) {
      this.cut = true;
      return;
    }
    this.push(head);
    let shown = 0;
    for (; shown < items.count; shown++) {
      const item = shown === 0 ? first! : items.item(shown);
      if (this.size([item]) + this.size(tail) > this.room()) break;
      this.push([item]);
    }
    const left = items.count - shown + more;
    if (shown < items.count) this.cut = true;
    if (left > 0) this.push([`- … and ${left} more (see the JSON report)`]);
    this.push(tail);
  }

  toString(): string {
    if (this.cut)
      this.push([
        `<sub>Cut to fit a pull-request comment (${this.limit} characters): the JSON report has every row.</sub>`,
        '',
      ]);
    return this.lines.join('\n');
  }
}

/** A section of the verdict: its heading, then each finding with what clears it. */
function sectionLines(summary: RunSummary, section: VerdictSection, commands: ReportCommands): string[] {
  return [...sectionHead(section), ...sectionItems(summary, section, commands), ''];
}

function sectionHead(section: VerdictSection): string[] {
  return [`**${escapeText(section.heading)}:**`, ''];
}

function sectionItems(summary: RunSummary, section: VerdictSection, commands: ReportCommands): string[] {
  return section.findings.map((index) => sectionItem(summary, index, commands));
}

/** The finding `index` of the summary, with what clears it and its evidence. */
function sectionItem(summary: RunSummary, index: number, commands: ReportCommands): string {
  const finding = summary.findings[index]!;
  const action = actionFor(finding, summary.verdict.clears[index]!, commands, markdownCode);
  const evidence = evidenceOfFinding(summary, finding).flatMap(([id, entry]) => [
    `  - ${escapeText(id)}`,
    ...evidenceLines(entry).map((line) => `  ${line}`),
  ]);
  return [
    `- ${finding.fails ? '❌' : '·'} ${describeFinding(finding, escapeMarkdown, Number.POSITIVE_INFINITY)} — ${action}`,
    ...evidence,
  ].join('\n');
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

/** Each row's sensitivity (SummaryRow.sensitivity) as a table row, the rows that can never fail first. */
function sensitivityRows(rows: readonly SummaryRow[]): string[] {
  return [...rows.filter((row) => !row.sensitivity.canFail), ...rows.filter((row) => row.sensitivity.canFail)].map(
    (row) =>
      `| ${escapeCell(row.suite)} | ${escapeCell(row.measure)} | ${row.count} | ${describeSensitivity(row.sensitivity, '−')} |`,
  );
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
