// The report's charts, as SVG strings drawn from the JSON report's rows:
//   meansChart        one suite's measures: this run's mean with its interval, and the baseline mean
//   changesChart      one row's questions that got worse / better: a diverging bar per question
//   distributionChart one row's per-question values: a histogram of this run, the baseline outlined
// Every data mark carries class "mark" and a <title> (the browser's tooltip) stating its numbers.

import { percent, plural } from '../../core/present.js';
import { formatDelta, formatValue } from '../wording.js';
import type { JsonReportRow } from '../json.js';
import { escapeHtml, escapeHtmlName, truncate } from './escape.js';
import { linearScale, px, svgOpen, textWidth, xAxis, yAxis } from './svg.js';

const FONT = 12;

/** `0.740` */
export const fmt = formatValue;

/** `+0.012`, `−0.080` (a real minus sign), `0.000` when it rounds to zero. */
export function fmtDelta(delta: number): string {
  return formatDelta(delta, '−');
}

export { percent };

/** A domain that holds 0 and 1 (the range of nearly every measure) and all the given values. */
function unitDomain(values: number[]): [number, number] {
  let lo = 0;
  let hi = 1;
  for (const value of values) {
    if (value < lo) lo = value;
    if (value > hi) hi = value;
  }
  return [lo, hi];
}

/** One suite's rows: mean ● with its interval ├─┤ and the baseline mean ◇, one line per measure. */
export function meansChart(suite: string, rows: readonly JsonReportRow[]): string {
  const rowHeight = 28;
  const top = 8;
  const labelWidth = Math.min(220, Math.max(70, ...rows.map((row) => textWidth(truncate(row.measure, 32)) + 16)));
  const deltaWidth = 96;
  const width = 760;
  const plotLeft = labelWidth;
  const plotRight = width - deltaWidth;
  const axisY = top + rows.length * rowHeight + 4;
  const legendY = axisY + 34;
  const height = legendY + 10;
  const values: number[] = [];
  for (const row of rows) {
    values.push(row.interval.lower, row.interval.upper, row.mean);
    if (row.baseline !== null) values.push(row.baseline.mean);
  }
  const [lo, hi] = unitDomain(values);
  const x = linearScale(lo, hi, plotLeft + 8, plotRight - 8, 10);
  const level = percent(rows[0]?.interval.confidence ?? 0.95);

  const parts = [
    svgOpen({
      width,
      height,
      kind: 'means',
      label: `${suite}: mean of each measure with its ${level} interval, and the baseline mean`,
    }),
  ];
  parts.push(xAxis(x, top, axisY));
  rows.forEach((row, index) => {
    const y = top + index * rowHeight + rowHeight / 2;
    const title = [
      `${row.measure}: mean ${fmt(row.mean)} (${level} interval ${fmt(row.interval.lower)}–${fmt(row.interval.upper)}, ${row.count} questions)`,
      row.baseline === null ? 'no baseline' : `baseline ${fmt(row.baseline.mean)} (${row.baseline.count} questions)`,
      row.delta === null ? '' : `Δ ${fmtDelta(row.delta)} on ${row.comparison?.shared ?? 0} shared questions`,
      row.status,
    ]
      .filter((part) => part !== '')
      .join(' · ');
    const x1 = px(x(row.interval.lower));
    const x2 = px(x(row.interval.upper));
    parts.push(
      `<g class="row status-${row.status}" data-measure="${escapeHtml(row.measure)}"><title>${escapeHtml(title)}</title>`,
    );
    parts.push(
      `<text class="label" x="${px(labelWidth - 8)}" y="${px(y + 4)}" text-anchor="end">${escapeHtml(truncate(row.measure, 32))}</text>`,
    );
    parts.push(`<line class="ci" x1="${x1}" y1="${px(y)}" x2="${x2}" y2="${px(y)}"/>`);
    parts.push(
      `<line class="ci" x1="${x1}" y1="${px(y - 5)}" x2="${x1}" y2="${px(y + 5)}"/><line class="ci" x1="${x2}" y1="${px(y - 5)}" x2="${x2}" y2="${px(y + 5)}"/>`,
    );
    if (row.baseline !== null) {
      const bx = x(row.baseline.mean);
      parts.push(
        `<path class="mark baseline" d="M${px(bx)} ${px(y - 7)}l7 7l-7 7l-7-7z" data-value="${row.baseline.mean}"/>`,
      );
    }
    parts.push(`<circle class="mark mean" cx="${px(x(row.mean))}" cy="${px(y)}" r="5" data-value="${row.mean}"/>`);
    const note = row.delta === null ? (row.status === 'new' ? 'new' : '') : `Δ ${fmtDelta(row.delta)}`;
    parts.push(`<text class="delta" x="${px(plotRight + 8)}" y="${px(y + 4)}">${escapeHtml(note)}</text>`);
    parts.push('</g>');
  });
  parts.push(
    legend(plotLeft + 8, legendY, [
      ['<circle class="mean" cx="0" cy="-4" r="5"/>', 'this run’s mean'],
      ['<line class="ci" x1="-8" y1="-4" x2="8" y2="-4"/>', `${level} interval`],
      ['<path class="baseline" d="M0 -11l7 7l-7 7l-7-7z"/>', 'baseline mean'],
    ]),
  );
  parts.push('</svg>');
  return parts.join('');
}

export interface ChangesChartOptions {
  /** Questions drawn on each side (worse, better). Default 15. */
  maxPerSide?: number;
}

/**
 * One row's changed questions as bars from 0 to after − before, the largest drop at the top and the
 * largest gain at the bottom. Undefined when no question changed.
 */
export function changesChart(suite: string, row: JsonReportRow, options: ChangesChartOptions = {}): string | undefined {
  const maxPerSide = options.maxPerSide ?? 15;
  const worse = row.worse.slice(0, maxPerSide);
  const better = row.better.slice(0, maxPerSide);
  if (worse.length === 0 && better.length === 0) return undefined;
  const items = [...worse, ...[...better].reverse()];
  const barHeight = 18;
  const top = 8;
  // A question's text says more than its id; the id stays in the tooltip.
  const labels = items.map((change) => truncate(row.evidence?.[change.sampleId]?.text ?? change.sampleId, 36));
  const labelWidth = Math.min(260, Math.max(60, ...labels.map((label) => textWidth(label) + 16)));
  const width = 760;
  const valueWidth = 110;
  const axisY = top + items.length * barHeight + 4;
  const height = axisY + 22;
  let lo = 0;
  let hi = 0;
  for (const change of items) {
    if (change.delta < lo) lo = change.delta;
    if (change.delta > hi) hi = change.delta;
  }
  const x = linearScale(lo, hi, labelWidth + 4, width - valueWidth, 8);
  const zero = x(0);
  const parts = [
    svgOpen({
      width,
      height,
      kind: 'changes',
      label: `${suite} · ${row.measure}: questions that got worse and better than the baseline`,
    }),
  ];
  parts.push(xAxis(x, top, axisY));
  parts.push(`<line class="zero" x1="${px(zero)}" y1="${px(top)}" x2="${px(zero)}" y2="${px(axisY)}"/>`);
  items.forEach((change, index) => {
    const y = top + index * barHeight;
    const end = x(change.delta);
    const kind = change.delta < 0 ? 'worse' : 'better';
    const who = change.test !== change.sampleId ? `${change.sampleId} (${change.test})` : change.sampleId;
    const title = `${who}: ${fmt(change.before)} → ${fmt(change.after)} (${fmtDelta(change.delta)})`;
    parts.push(`<g class="question ${kind}"><title>${escapeHtmlName(title)}</title>`);
    parts.push(
      `<text class="label" x="${px(labelWidth - 4)}" y="${px(y + 13)}" text-anchor="end">${escapeHtmlName(labels[index]!)}</text>`,
    );
    parts.push(
      `<rect class="mark bar ${kind}" x="${px(Math.min(zero, end))}" y="${px(y + 3)}" width="${px(Math.max(1, Math.abs(end - zero)))}" height="${barHeight - 6}" data-value="${change.delta}"/>`,
    );
    parts.push(
      `<text class="value" x="${px(width - valueWidth + 8)}" y="${px(y + 13)}">${escapeHtml(`${fmt(change.before)} → ${fmt(change.after)}`)}</text>`,
    );
    parts.push('</g>');
  });
  parts.push('</svg>');
  return parts.join('');
}

export interface HistogramBin {
  lo: number;
  hi: number;
  now: number;
  before: number;
}

/** Bins over [min(0, values), max(1, values)] (10 of them on [0, 1]); the last bin includes its upper edge. */
export function histogram(values: readonly number[], before: readonly number[], binCount = 10): HistogramBin[] {
  let lo = 0;
  let hi = 1;
  for (const value of values) {
    if (value < lo) lo = value;
    if (value > hi) hi = value;
  }
  for (const value of before) {
    if (value < lo) lo = value;
    if (value > hi) hi = value;
  }
  const width = (hi - lo) / binCount;
  const bins: HistogramBin[] = [];
  for (let i = 0; i < binCount; i++)
    bins.push({ lo: lo + i * width, hi: i === binCount - 1 ? hi : lo + (i + 1) * width, now: 0, before: 0 });
  const binOf = (value: number): HistogramBin =>
    bins[Math.min(binCount - 1, Math.max(0, Math.floor((value - lo) / width + 1e-9)))]!;
  for (const value of values) binOf(value).now++;
  for (const value of before) binOf(value).before++;
  return bins;
}

/** One row's per-question values: this run's histogram (filled) and the baseline's on the same questions (outlined). */
export function distributionChart(suite: string, row: JsonReportRow): string {
  const values = row.samples.map((sample) => sample.value);
  const before: number[] = [];
  for (const sample of row.samples) if (sample.before !== null) before.push(sample.before);
  const bins = histogram(values, before);
  const width = 360;
  const height = 210;
  const left = 40;
  const right = width - 16;
  const top = 22;
  const bottom = height - 44;
  const maxCount = Math.max(1, ...bins.map((bin) => Math.max(bin.now, bin.before)));
  const y = linearScale(0, maxCount, bottom, top, 4);
  const x = linearScale(bins[0]!.lo, bins[bins.length - 1]!.hi, left, right, 5);
  const parts = [
    svgOpen({
      width,
      height,
      kind: 'distribution',
      label: `${suite} · ${row.measure}: distribution of per-question values`,
    }),
  ];
  parts.push(
    `<text class="chart-title" x="${left}" y="14">${escapeHtml(truncate(row.measure, 40))} · ${row.count} questions</text>`,
  );
  parts.push(yAxis(y, left, right));
  parts.push(xAxis(x, bottom, bottom));
  for (const bin of bins) {
    const x1 = x(bin.lo) + 1;
    const x2 = x(bin.hi) - 1;
    const title = `${fmt(bin.lo)}–${fmt(bin.hi)}: ${plural(bin.now, 'question')} in this run${before.length > 0 ? `, ${bin.before} in the baseline` : ''}`;
    parts.push(`<g class="bin"><title>${escapeHtml(title)}</title>`);
    if (bin.now > 0)
      parts.push(
        `<rect class="mark hist-now" x="${px(x1)}" y="${px(y(bin.now))}" width="${px(x2 - x1)}" height="${px(bottom - y(bin.now))}" data-value="${bin.now}"/>`,
      );
    if (bin.before > 0)
      parts.push(
        `<rect class="mark hist-before" x="${px(x1 + 0.5)}" y="${px(y(bin.before))}" width="${px(x2 - x1 - 1)}" height="${px(bottom - y(bin.before))}" data-value="${bin.before}"/>`,
      );
    // An invisible full-height target so the tooltip shows over empty bins too.
    parts.push(`<rect class="hit" x="${px(x1)}" y="${px(top)}" width="${px(x2 - x1)}" height="${px(bottom - top)}"/>`);
    parts.push('</g>');
  }
  parts.push(
    `<line class="mean-line" x1="${px(x(row.mean))}" y1="${px(top)}" x2="${px(x(row.mean))}" y2="${px(bottom)}"><title>${escapeHtml(`mean ${fmt(row.mean)}`)}</title></line>`,
  );
  const entries: [string, string][] = [['<rect class="hist-now" x="-6" y="-10" width="12" height="10"/>', 'this run']];
  if (before.length > 0)
    entries.push(['<rect class="hist-before" x="-6" y="-10" width="12" height="10"/>', 'baseline, same questions']);
  entries.push(['<line class="mean-line" x1="0" y1="-12" x2="0" y2="2"/>', 'mean']);
  parts.push(legend(left + 6, height - 6, entries));
  parts.push('</svg>');
  return parts.join('');
}

/** A row of legend entries: [symbol SVG drawn around (0, 0), text]. */
function legend(x: number, y: number, entries: [string, string][]): string {
  const parts = ['<g class="legend">'];
  let offset = x;
  for (const [symbol, text] of entries) {
    parts.push(`<g transform="translate(${px(offset + 8)} ${px(y)})">${symbol}</g>`);
    parts.push(`<text x="${px(offset + 20)}" y="${px(y)}">${escapeHtml(text)}</text>`);
    offset += 30 + textWidth(text, FONT - 1);
  }
  parts.push('</g>');
  return parts.join('');
}
