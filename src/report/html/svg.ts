// Small helpers for the hand-written SVG charts: linear scales with round ticks, compact coordinates,
// axes. The charts are drawn when the report is rendered (in Node), so the file needs no script to show
// them, and every label goes through escapeHtml.

import { escapeHtml } from './escape.js';

export interface Scale {
  (value: number): number;
  readonly domain: readonly [number, number];
  readonly ticks: readonly number[];
}

/** Round tick values covering [lo, hi] (about `count` of them); the domain is widened to the outer ticks. */
export function niceTicks(
  lo: number,
  hi: number,
  count = 5,
): { lo: number; hi: number; ticks: number[]; step: number } {
  if (!Number.isFinite(lo) || !Number.isFinite(hi))
    throw new RangeError(`niceTicks: bounds must be finite, got ${lo} and ${hi}`);
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const raw = (hi - lo) / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / magnitude;
  const step = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10) * magnitude;
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  const ticks: number[] = [];
  for (let i = first; i <= last; i++) ticks.push(roundTo(i * step, step));
  return { lo: ticks[0]!, hi: ticks[ticks.length - 1]!, ticks, step };
}

/** Maps [lo, hi] (made round by niceTicks) onto [start, end] pixels. */
export function linearScale(lo: number, hi: number, start: number, end: number, tickCount = 5): Scale {
  const nice = niceTicks(lo, hi, tickCount);
  const span = nice.hi - nice.lo;
  const scale = ((value: number) => start + ((value - nice.lo) / span) * (end - start)) as Scale;
  Object.defineProperty(scale, 'domain', { value: [nice.lo, nice.hi] as const });
  Object.defineProperty(scale, 'ticks', { value: nice.ticks });
  return scale;
}

/** A coordinate with at most one decimal (keeps the file small; a tenth of a pixel is below what shows). */
export function px(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/** A tick label: as many decimals as the step has (0.25 → 2), no more. */
export function tickLabel(value: number, step: number): string {
  let decimals = 0;
  while (decimals < 6 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-9 * 10 ** decimals)
    decimals++;
  return value.toFixed(decimals).replace(/^-(0(\.0+)?)$/, '$1');
}

function roundTo(value: number, step: number): number {
  const decimals = Math.max(0, Math.min(12, 1 - Math.floor(Math.log10(step))));
  return Number(value.toFixed(decimals));
}

export interface SvgFrame {
  width: number;
  height: number;
  /** Accessible name of the chart. */
  label: string;
  /** Extra classes after `chart`. */
  kind: string;
}

/** `<svg class="chart kind" …>`; the label is escaped. */
export function svgOpen(frame: SvgFrame): string {
  const label = escapeHtml(frame.label);
  return (
    `<svg class="chart ${frame.kind}" role="img" aria-label="${label}" viewBox="0 0 ${px(frame.width)} ${px(frame.height)}" ` +
    `width="${px(frame.width)}" height="${px(frame.height)}"><title>${label}</title>`
  );
}

/** Vertical grid lines and labels of a horizontal axis at `y`, from `top` down. */
export function xAxis(scale: Scale, top: number, y: number, step?: number): string {
  const tickStep = step ?? (scale.ticks.length > 1 ? scale.ticks[1]! - scale.ticks[0]! : 1);
  const parts = ['<g class="axis">'];
  for (const tick of scale.ticks) {
    const x = px(scale(tick));
    parts.push(`<line class="grid" x1="${x}" y1="${px(top)}" x2="${x}" y2="${px(y)}"/>`);
    parts.push(`<text x="${x}" y="${px(y + 14)}" text-anchor="middle">${escapeHtml(tickLabel(tick, tickStep))}</text>`);
  }
  parts.push('</g>');
  return parts.join('');
}

/** Horizontal grid lines and labels of a vertical axis at `x`, across to `right`. */
export function yAxis(scale: Scale, x: number, right: number): string {
  const tickStep = scale.ticks.length > 1 ? scale.ticks[1]! - scale.ticks[0]! : 1;
  const parts = ['<g class="axis">'];
  for (const tick of scale.ticks) {
    const y = px(scale(tick));
    parts.push(`<line class="grid" x1="${px(x)}" y1="${y}" x2="${px(right)}" y2="${y}"/>`);
    parts.push(
      `<text x="${px(x - 4)}" y="${px(scale(tick) + 4)}" text-anchor="end">${escapeHtml(tickLabel(tick, tickStep))}</text>`,
    );
  }
  parts.push('</g>');
  return parts.join('');
}

/** Rough width of text in the charts' 12px sans-serif, for laying out label columns. */
export function textWidth(text: string, size = 12): number {
  let width = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    width += code > 0x2e80 ? 1 : /[ilj.,:;'|!]/.test(character) ? 0.3 : /[mwMW@]/.test(character) ? 0.85 : 0.56;
  }
  return width * size;
}
