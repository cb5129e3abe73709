// The HTML report (option `html` of both reporters, and `rag-matchers report <report.json>`): one
// self-contained file drawn from the JSON report (src/report/json.ts):
//   - the verdict and the summary table (suite × measure: mean with interval, baseline, Δ, p, status);
//   - per suite: a chart of each measure's mean and interval against the baseline mean, a chart per
//     measure of the questions that got worse and better, and the distribution of per-question values.
//
// The charts are hand-written SVG (src/report/html/charts.ts), drawn here in Node: no charting library,
// no script, no network. A Content-Security-Policy meta tag forbids scripts and remote content, and every
// string from the run is escaped (src/report/html/escape.ts). The same report gives the same bytes.

import fs from 'node:fs';
import path from 'node:path';

import { writeFileAtomic } from '../../files/atomic-write.js';
import type { SuiteCost } from '../costs.js';
import {
  actionFor,
  describeFinding,
  describeSuiteCost,
  describeChurnSettings,
  describeRule,
  describeSensitivity,
  describeTest,
  formatP,
  plural,
  reportCommands,
  withBaselineMode,
  withoutBaselineMode,
} from '../wording.js';
import type { JsonReport, JsonReportCost, JsonReportRow, JsonReportTagRow } from '../json.js';
import { describeMoves, describeRanking, type QuestionEvidence } from '../evidence.js';
import { changesChart, distributionChart, fmt, fmtDelta, meansChart, percent } from './charts.js';
import { escapeHtml, escapeHtmlName } from './escape.js';
import { validateJsonReport } from './input.js';
import { page } from './page.js';

export { parseJsonReport, ReportFormatError, validateJsonReport } from './input.js';
export { renderHistoryHtml, writeHistoryHtml } from './history.js';

export interface HtmlRenderOptions {
  /** Heading and page title. Default "RAG retrieval quality". */
  title?: string;
  /** Questions drawn per side (worse, better) in each row's change chart. Default 15. */
  maxChartQuestions?: number;
  /** Questions listed per row in the table under the change chart. Default 100. */
  maxListedQuestions?: number;
}

const STATUS_TEXT: Record<JsonReportRow['status'], string> = {
  regressed: '▼ regressed',
  improved: '▲ improved',
  unchanged: 'unchanged',
  new: 'new',
};

/** The HTML report of a JSON report (as renderJson returns it, or parsed from its file). Throws ReportFormatError for a malformed report. */
export function renderHtml(report: JsonReport, options: HtmlRenderOptions = {}): string {
  validateJsonReport(report, 'renderHtml(report)');
  const title = options.title ?? 'RAG retrieval quality';
  const suites = groupBySuite(report.rows);
  const body: string[] = [];

  body.push(
    '<header>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${verdict(report)}</p>`,
    `<p class="meta">${settingsLine(report)}</p>`,
  );
  // Reports written before warnings existed have none.
  for (const warning of report.warnings ?? []) body.push(`<p class="warning">⚠ ${escapeHtml(warning)}</p>`);
  body.push('</header>');

  body.push('<section id="summary"><h2>Summary</h2>');
  if (report.rows.length === 0) {
    body.push('<p>No retrieval measures were recorded in this run.</p>');
  } else {
    body.push(summaryTable(report, suites));
  }
  body.push('</section>');
  // Reports written before costs existed have none.
  const costs = report.costs ?? [];
  if (costs.length > 0) {
    body.push('<section id="costs"><h2>Latency and calls</h2><p class="note">Wall clock, nearest rank.</p><ul>');
    for (const cost of costs) body.push(`<li>${describeSuiteCost(suiteCostOf(cost), escapeHtml)}</li>`);
    body.push('</ul></section>');
  }

  // Reports written before tags existed have none.
  const tags = report.tags ?? [];
  if (tags.length > 0) body.push(tagSection(report, tags));

  if (suites.length > 1) {
    body.push('<nav aria-label="Suites"><h2>Suites</h2><ul>');
    suites.forEach(([suite, rows], index) => {
      const marks = rows.filter((row) => row.status === 'regressed').length;
      body.push(
        `<li><a href="#suite-${index + 1}">${escapeHtmlName(suite)}</a>${marks > 0 ? ` <span class="down">▼ ${marks}</span>` : ''}</li>`,
      );
    });
    body.push('</ul></nav>');
  }

  const significance = report.settings.significance;
  suites.forEach(([suite, rows], index) => body.push(suiteSection(suite, rows, index + 1, significance, options)));

  if (report.missing.length > 0) {
    body.push(
      `<section id="missing"><h2>Baseline rows no longer produced</h2><p class="note">${escapeHtml(plural(report.missing.length, 'row'))} of the baseline that the test files run in full did not produce (renamed or deleted tests). An update of the baseline drops them.</p>`,
    );
    body.push(
      '<table><thead><tr><th>suite</th><th>measure</th><th class="num">n</th><th class="num">baseline mean</th></tr></thead><tbody>',
    );
    for (const row of report.missing) {
      body.push(
        `<tr><td class="suite">${escapeHtmlName(row.suite)}</td><td>${escapeHtmlName(row.measure)}</td><td class="num">${row.count}</td><td class="num">${fmt(row.mean)}</td></tr>`,
      );
    }
    body.push('</tbody></table></section>');
  }

  body.push(...sensitivitySection(report.rows));

  // The verdict's sections: every finding with what clears it, as the console and the Markdown list them.
  report.verdict.sections.forEach((section) => {
    body.push(`<section id="${section.section}"><h2>${escapeHtml(section.heading)}</h2><ul>`);
    for (const index of section.findings) {
      const finding = report.findings[index]!;
      const platform = finding.command.startsWith('npx rag-matchers ') ? 'win32' : 'posix';
      const commands = reportCommands(withBaselineMode('update', withoutBaselineMode(finding.command), platform));
      const action = actionFor(
        finding,
        report.verdict.clears[index]!,
        commands,
        (command) => `<code>${escapeHtml(command)}</code>`,
      );
      body.push(
        `<li>${finding.fails ? '✗' : '·'} ${describeFinding(finding, escapeHtmlName, Number.POSITIVE_INFINITY)} — ${action}</li>`,
      );
    }
    body.push('</ul></section>');
  });

  body.push(...churnSection(report));

  body.push(
    `<footer class="note"><p>Generated by rag-matchers from a JSON report (report schema version ${report.schemaVersion}). Point at a mark for its numbers.</p></footer>`,
  );
  return page(title, body.join('\n'));
}

/** Renders the report and writes it atomically (temp file + rename), creating the parent directory. */
export async function writeHtmlReport(
  filePath: string,
  report: JsonReport,
  options: HtmlRenderOptions = {},
): Promise<void> {
  const html = renderHtml(report, options);
  await fs.promises.mkdir(path.dirname(path.resolve(filePath)), { recursive: true });
  await writeFileAtomic(filePath, html);
}

/** A JSON report's suite cost as the summary held it (null parts absent). */
function suiteCostOf(cost: JsonReportCost): SuiteCost {
  const { budget, baseline, ...rest } = cost;
  return { ...rest, ...(budget !== null ? { budget } : {}), ...(baseline !== null ? { baseline } : {}) };
}

/** Every suite whose rankings were compared with the baseline's: its churn, and its questions that changed most. */
function churnSection(report: JsonReport): string[] {
  // Reports written before churn existed have none.
  const churn = report.churn ?? null;
  if (churn === null) return [];
  const k = churn.settings.k;
  const out = [
    '<section id="churn"><h2>Ranking churn</h2>',
    `<p class="note">Each question's ranking against the one the baseline keeps: ${escapeHtml(describeChurnSettings(churn.settings))}.</p>`,
    `<table><thead><tr><th>suite</th><th class="num">questions</th><th class="num">mean RBO</th><th class="num">mean top-${k} overlap</th><th class="num">top ${k} changed</th><th>lowest RBO</th></tr></thead><tbody>`,
  ];
  for (const suite of churn.suites) {
    const lowest = suite.changes
      .slice(0, 5)
      .map(
        (change) =>
          `${escapeHtmlName(change.question)} ${fmt(change.rbo)}${change.valuesHeld ? '' : ' (values moved)'}`,
      )
      .join(', ');
    out.push(
      `<tr><td class="suite">${escapeHtmlName(suite.suite)}</td><td class="num">${suite.questions}</td><td class="num">${fmt(suite.meanRbo)}</td><td class="num">${fmt(suite.meanOverlap)}</td><td class="num">${Math.round(suite.topChangedShare * 100)}%</td><td>${lowest === '' ? '—' : lowest}</td></tr>`,
    );
  }
  out.push('</tbody></table></section>');
  return out;
}

function groupBySuite(rows: readonly JsonReportRow[]): [string, JsonReportRow[]][] {
  const groups = new Map<string, JsonReportRow[]>();
  for (const row of rows) {
    const list = groups.get(row.suite);
    if (list === undefined) groups.set(row.suite, [row]);
    else list.push(row);
  }
  return [...groups];
}

/** The verdict's headline with its tally, as the JSON report stores it. */
function verdict(report: JsonReport): string {
  const counts = report.counts;
  const badge = report.verdict.passed
    ? '<span class="verdict passed">Passed</span>'
    : '<span class="verdict failed">Failed</span>';
  const tally = report.verdict.tally.length > 0 ? ` · ${escapeHtml(report.verdict.tally.join(' · '))}` : '';
  const remark = report.verdict.remark === null ? '' : `; ${escapeHtml(report.verdict.remark)}`;
  const baseline =
    report.baseline.path === null
      ? ''
      : `, baseline <code>${escapeHtml(report.baseline.path)}</code>${report.baseline.found ? '' : ' (not found)'}`;
  return (
    `${badge} <strong>${escapeHtml(report.verdict.headline)}</strong>${tally}${remark} — ` +
    `${escapeHtml(plural(counts.samples, 'sample'))} in ${escapeHtml(plural(counts.suites, 'suite'))} (${escapeHtml(report.runner)})${baseline}`
  );
}

function settingsLine(report: JsonReport): string {
  const settings = report.settings;
  const overrides = Object.entries(settings.tolerance.byMeasure).map(([measure, value]) => `${measure}: ${value}`);
  const tolerance = `tolerance ${settings.tolerance.default}${overrides.length > 0 ? ` (${overrides.join(', ')})` : ''}`;
  const test = settings.test === 'sign' ? 'sign test' : settings.test === 't' ? 'paired t-test' : 'randomization test';
  const significance =
    settings.significance === null
      ? 'no significance requirement'
      : `significant at ${settings.significance} (Holm-corrected)`;
  return escapeHtml(
    `A row regresses when its mean falls by more than the ${tolerance}, ${significance}; ${test}; ${percent(settings.confidence)} intervals; seed ${settings.seed}.`,
  );
}

/** The tag rows across suites: one per tag × measure, with the questions that got worse in a regressed one. */
function tagSection(report: JsonReport, tags: readonly JsonReportTagRow[]): string {
  const level = percent(report.settings.confidence);
  const out = [
    '<section id="tags"><h2>Tags</h2>',
    `<p class="note">Each tag's questions across suites, for one measure at a time, compared with the baseline under the same rule as a suite${report.settings.failOnTagRegression === true ? '; a regressed tag fails the run (failOnTagRegression)' : '; shown, not gating unless failOnTagRegression is set'}.</p>`,
    '<table class="summary"><thead><tr>',
    `<th>status</th><th>tag</th><th>measure</th><th class="num">n</th><th class="num">suites</th><th class="num">mean</th><th class="num">${escapeHtml(level)} interval</th>`,
    '<th class="num">baseline</th><th class="num">Δ</th><th class="num">p (Holm)</th><th>worse</th>',
    '</tr></thead><tbody>',
  ];
  for (const row of tags) {
    const delta =
      row.delta === null
        ? '—'
        : `<span class="${row.delta < 0 ? 'down' : row.delta > 0 ? 'up' : ''}">${escapeHtml(fmtDelta(row.delta))}</span>`;
    const p = row.comparison?.adjustedP ?? null;
    const worse = row.worse
      .map(
        (change) =>
          `${escapeHtmlName(`${change.suite} › ${change.sampleId}`)} ${fmt(change.before)} → ${fmt(change.after)}`,
      )
      .join('<br>');
    out.push(
      `<tr class="status-${row.status}">` +
        `<td><span class="status ${row.status}">${escapeHtml(STATUS_TEXT[row.status])}</span></td>` +
        `<td>${escapeHtmlName(row.tag)}</td>` +
        `<td>${escapeHtmlName(row.measure)}</td>` +
        `<td class="num">${row.count}</td>` +
        `<td class="num">${row.suites}</td>` +
        `<td class="num">${fmt(row.mean)}</td>` +
        `<td class="num">${fmt(row.interval.lower)}–${fmt(row.interval.upper)}</td>` +
        `<td class="num">${row.baseline === null ? '—' : fmt(row.baseline.mean)}</td>` +
        `<td class="num">${delta}</td>` +
        `<td class="num">${p === null ? '—' : escapeHtml(formatP(p))}</td>` +
        `<td>${worse === '' ? '—' : worse}</td>` +
        '</tr>',
    );
  }
  out.push('</tbody></table></section>');
  return out.join('\n');
}

function summaryTable(report: JsonReport, suites: [string, JsonReportRow[]][]): string {
  const level = percent(report.settings.confidence);
  const anchors = new Map(suites.map(([suite], index) => [suite, `suite-${index + 1}`]));
  const out = [
    '<table class="summary"><thead><tr>',
    `<th>status</th><th>suite</th><th>measure</th><th class="num">n</th><th class="num">mean</th><th class="num">${escapeHtml(level)} interval</th>`,
    '<th class="num">baseline</th><th class="num">Δ</th><th class="num">p (Holm)</th><th class="num">worse / better</th><th class="num">failed</th>',
    '</tr></thead><tbody>',
  ];
  for (const row of report.rows) {
    const delta =
      row.delta === null
        ? '—'
        : `<span class="${row.delta < 0 ? 'down' : row.delta > 0 ? 'up' : ''}">${escapeHtml(fmtDelta(row.delta))}</span>`;
    const partial =
      row.comparison !== null && (row.comparison.shared !== row.count || row.comparison.shared !== row.baseline?.count)
        ? '*'
        : '';
    const p = row.comparison?.adjustedP ?? null;
    out.push(
      `<tr class="status-${row.status}">` +
        `<td><span class="status ${row.status}">${escapeHtml(STATUS_TEXT[row.status])}</span></td>` +
        `<td class="suite"><a href="#${anchors.get(row.suite)}">${escapeHtmlName(row.suite)}</a></td>` +
        `<td>${escapeHtmlName(row.measure)}</td>` +
        `<td class="num">${row.count}</td>` +
        `<td class="num">${fmt(row.mean)}</td>` +
        `<td class="num">${fmt(row.interval.lower)}–${fmt(row.interval.upper)}</td>` +
        `<td class="num">${row.baseline === null ? '—' : fmt(row.baseline.mean)}</td>` +
        `<td class="num">${delta}${partial}</td>` +
        `<td class="num">${p === null ? '—' : escapeHtml(formatP(p))}</td>` +
        `<td class="num">${row.comparison === null ? '—' : `${row.worse.length} / ${row.better.length}`}</td>` +
        `<td class="num">${row.failures}</td>` +
        '</tr>',
    );
  }
  out.push('</tbody></table>');
  if (
    report.rows.some(
      (row) =>
        row.comparison !== null &&
        (row.comparison.shared !== row.count || row.comparison.shared !== row.baseline?.count),
    )
  ) {
    out.push('<p class="note">* Δ and the test use only the questions both this run and the baseline have.</p>');
  }
  return out.join('\n');
}

/** Each row's smallest failing change (JsonReportRow.sensitivity); nothing for a report written before it. */
function sensitivitySection(rows: readonly JsonReportRow[]): string[] {
  // Reports written before sensitivity existed have none.
  const known = rows.filter((row) => (row as Partial<JsonReportRow>).sensitivity !== undefined);
  if (known.length === 0) return [];
  const out = [
    '<section id="row-sensitivity"><h2>Sensitivity</h2><p class="note">The smallest change of each row that the gate\'s rule would fail, every other row unchanged: how many questions must get worse (each to 0, the highest values first), and how far the mean then falls.</p>',
    '<table><thead><tr><th>suite</th><th>measure</th><th class="num">n</th><th>fails when</th></tr></thead><tbody>',
  ];
  for (const row of known) {
    out.push(
      `<tr${row.sensitivity.canFail ? '' : ' class="warning"'}><td class="suite">${escapeHtmlName(row.suite)}</td><td>${escapeHtmlName(row.measure)}</td><td class="num">${row.count}</td><td>${escapeHtml(describeSensitivity(row.sensitivity, '−'))}</td></tr>`,
    );
  }
  out.push('</tbody></table></section>');
  return out;
}

function suiteSection(
  suite: string,
  rows: JsonReportRow[],
  index: number,
  significance: number | null,
  options: HtmlRenderOptions,
): string {
  const maxListed = options.maxListedQuestions ?? 100;
  const out = [`<section class="suite" id="suite-${index}">`, `<h2>${escapeHtmlName(suite)}</h2>`];
  const level = percent(rows[0]?.interval.confidence ?? 0.95);
  out.push(
    `<figure><figcaption>Mean of each measure with its ${escapeHtml(level)} interval, against the baseline mean</figcaption>${meansChart(suite, rows)}</figure>`,
  );

  out.push('<h3>Questions that changed</h3>');
  for (const row of rows) {
    const caption = changeCaption(row, significance);
    const chart = changesChart(
      suite,
      row,
      options.maxChartQuestions === undefined ? {} : { maxPerSide: options.maxChartQuestions },
    );
    if (chart === undefined) {
      out.push(`<p class="note"><strong>${escapeHtmlName(row.measure)}</strong>: ${escapeHtml(caption)}</p>`);
      continue;
    }
    out.push(
      `<figure class="changes"><figcaption><strong>${escapeHtmlName(row.measure)}</strong>: ${escapeHtml(caption)}</figcaption>${chart}`,
    );
    const changes = [...row.worse, ...row.better];
    out.push(
      `<details><summary>${escapeHtml(plural(changes.length, 'changed question'))}</summary><table><thead><tr><th>question</th><th>test</th><th class="num">baseline</th><th class="num">this run</th><th class="num">Δ</th><th>ranking before → after</th></tr></thead><tbody>`,
    );
    for (const change of changes.slice(0, maxListed)) {
      out.push(
        `<tr><td>${escapeHtmlName(change.sampleId)}</td><td>${escapeHtmlName(change.test)}</td><td class="num">${fmt(change.before)}</td><td class="num">${fmt(change.after)}</td>` +
          `<td class="num ${change.delta < 0 ? 'down' : 'up'}">${escapeHtml(fmtDelta(change.delta))}</td><td>${evidenceCell(row.evidence?.[change.sampleId])}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
    if (changes.length > maxListed)
      out.push(`<p class="note">… and ${changes.length - maxListed} more (see the JSON report).</p>`);
    out.push('</details></figure>');
  }

  out.push('<h3>Distribution of per-question values</h3><div class="charts">');
  for (const row of rows) out.push(`<figure class="distribution">${distributionChart(suite, row)}</figure>`);
  out.push('</div></section>');
  return out.join('\n');
}

/** A changed question's evidence in its table cell: text, moves, rankings before and after (relevant keys marked ✓). */
function evidenceCell(evidence: QuestionEvidence | undefined): string {
  if (evidence === undefined) return '';
  const text = evidence.text === undefined ? '' : `<q>${escapeHtml(evidence.text)}</q><br>`;
  return (
    `${text}${escapeHtml(describeMoves(evidence.moves, String))}<br>` +
    `before: ${escapeHtml(describeRanking(evidence.before, String))}<br>after: ${escapeHtml(describeRanking(evidence.after, String))}`
  );
}

function changeCaption(row: JsonReportRow, significance: number | null): string {
  const comparison = row.comparison;
  const extra: string[] = [];
  if (row.newSamples.length > 0 && comparison !== null)
    extra.push(`${plural(row.newSamples.length, 'question')} new to the baseline`);
  if (row.missingSamples.length > 0) extra.push(`${plural(row.missingSamples.length, 'baseline question')} not run`);
  const tail = extra.length > 0 ? `; ${extra.join(', ')}` : '';
  if (comparison === null) return `new, no baseline to compare with (${plural(row.count, 'question')})${tail}.`;
  if (row.worse.length === 0 && row.better.length === 0)
    return `no question changed (${plural(comparison.shared, 'shared question')})${tail}.`;
  const rule = {
    tolerance: row.tolerance,
    comparison: {
      delta: row.delta ?? comparison.meanAfter - comparison.meanBefore,
      test: comparison.test,
      ...(comparison.p !== null ? { p: comparison.p } : {}),
      ...(comparison.adjustedP !== null ? { adjustedP: comparison.adjustedP } : {}),
    },
  };
  // A row that regressed or improved says the rule that decided it; another, its test for what it is worth.
  const decided =
    row.status === 'regressed' || row.status === 'improved'
      ? describeRule(rule, significance ?? undefined)
      : describeTest(rule);
  return `${row.worse.length} worse, ${row.better.length} better of ${plural(comparison.shared, 'shared question')}; mean ${fmt(comparison.meanBefore)} → ${fmt(comparison.meanAfter)}${decided === '' ? '' : `, ${decided}`}${tail}.`;
}
