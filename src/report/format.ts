// Number and text formatting shared by the console and Markdown renderers.

import { plural } from '../core/plural.js';
import type { CollectedRun } from '../recording/collected.js';
import type { GateFinding, RunSummary, SummaryRow } from './summary.js';

export { plural };

/** Values and means: three decimals (`0.740`). */
export function formatValue(value: number): string {
  return value.toFixed(3);
}

/** A signed change: `+0.012`, `-0.080`, and `0.000` when it rounds to zero. */
export function formatDelta(delta: number, minus = '-'): string {
  const text = Math.abs(delta).toFixed(3);
  if (Number(text) === 0) return '0.000';
  return `${delta < 0 ? minus : '+'}${text}`;
}

/** p-values: three decimals, `<0.001` below. */
export function formatP(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** The command that accepts a change (`update`) or removes obsolete entries (`prune`), for the runner that produced the summary. */
export function acceptCommandFor(runner: CollectedRun['runner'], mode: 'update' | 'prune' = 'update'): string {
  return `RAG_BASELINE=${mode} ${runner === 'jest' ? 'npx jest' : 'npx vitest run'}`;
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

/** `sign test p = 0.031, Holm 0.062` for a row with a test result, else ''. */
export function describeTest(row: SummaryRow): string {
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

/** Counts for a one-line verdict: `1 regressed, 2 improved, 5 unchanged, 1 new`. */
export function describeCounts(summary: RunSummary): string {
  const parts = [
    `${summary.regressions} regressed`,
    `${summary.improvements} improved`,
    `${summary.unchanged} unchanged`,
  ];
  if (summary.newRows > 0) parts.push(`${summary.newRows} new`);
  return parts.join(', ');
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

/** Up to `max` names, then `… and N more`. */
export function listNames(names: readonly string[], escape: (text: string) => string, max = 5): string {
  const shown = names.slice(0, max).map(escape).join(', ');
  return names.length > max ? `${shown}, … and ${names.length - max} more` : shown;
}

/**
 * One finding as a sentence, user strings passed through `escape` (the medium's escaping), without the
 * command that accepts it: `baseline out of date: recall@5 0.820 → 0.880 in suite test/a.test.ts > refunds`.
 */
export function describeFinding(finding: GateFinding, escape: (text: string) => string): string {
  const suite = escape(finding.suite);
  const measure = finding.measure === undefined ? '' : escape(finding.measure);
  const questions = finding.questions ?? [];
  const named = questions.length > 0 ? `: ${listNames(questions, escape)}` : '';
  switch (finding.kind) {
    case 'regression':
      return `regression: ${measure} ${formatValue(finding.before!)} → ${formatValue(finding.after!)} in suite ${suite}${questions.length > 0 ? ` (worse${named})` : ''}`;
    case 'improvement':
      return `baseline out of date: ${measure} ${formatValue(finding.before!)} → ${formatValue(finding.after!)} in suite ${suite}${questions.length > 0 ? ` (better${named})` : ''}`;
    case 'new-suite':
      return `suite not in the baseline: ${suite} (${plural(questions.length, 'question')}${named})`;
    case 'new-questions':
      return `${plural(questions.length, 'question')} of suite ${suite} · ${measure} not in the baseline${named}`;
    case 'missing-suite':
      return `suite in the baseline did not run although its test file ran: ${suite} (${plural(questions.length, 'question')}${named})`;
    case 'missing-questions':
      return `${plural(questions.length, 'question')} of suite ${suite} · ${measure} in the baseline did not run although the test file ran${named}`;
    case 'renamed-suite':
      return `suite renamed: ${escape(finding.from!)} → ${suite} (same questions; compared with its baseline rows)`;
    case 'unconfirmed-move':
      return `baseline out of date: ${measure} ${formatValue(finding.before!)} → ${formatValue(finding.after!)} in suite ${suite} (beyond the tolerance but not significant, so not a regression${questions.length > 0 ? `; ${finding.after! < finding.before! ? 'worse' : 'better'}${named}` : ''})`;
    case 'ambiguous-suite':
      return `suite ${suite} of the version-1 baseline matches several suites of this run (${listNames(questions, escape)}): not compared`;
  }
}

/** The command that accepts every failing finding: prune when one of them needs entries removed, else update. */
export function acceptModeOf(findings: readonly GateFinding[]): 'update' | 'prune' {
  return findings.some((finding) => finding.fails && finding.accept === 'prune') ? 'prune' : 'update';
}
