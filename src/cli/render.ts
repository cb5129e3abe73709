// Plain-text and Markdown tables for the eval and compare commands. Cells are given raw: each table
// escapes the user strings in them (query ids, in text columns) for its medium; numeric columns hold
// numbers this program wrote.

import { escapeConsole, escapeMarkdown } from '../core/escape.js';
import { alignColumns, listUpTo } from '../core/present.js';

export interface Column {
  header: string;
  /** Right-align (numbers). */
  numeric?: boolean;
}

/** Columns padded to their widest cell, two spaces apart; numbers right-aligned. */
export function textTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const cells = [columns.map((column) => column.header), ...rows].map((row) =>
    escapeCells(columns, row, escapeConsole),
  );
  const numeric = columns.map((column) => column.numeric === true);
  return alignColumns(cells, numeric).join('\n') + '\n';
}

/** A GitHub-flavoured Markdown table; numeric columns right-aligned. */
export function markdownTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const header = `| ${columns.map((column) => escapeMarkdown(column.header)).join(' | ')} |`;
  const rule = `|${columns.map((column) => (column.numeric ? ' ---: ' : ' --- ')).join('|')}|`;
  const body = rows.map((row) => `| ${escapeCells(columns, row, escapeMarkdown).join(' | ')} |`);
  return [header, rule, ...body].join('\n') + '\n';
}

function escapeCells(
  columns: readonly Column[],
  row: readonly string[],
  escape: (text: string) => string,
): readonly string[] {
  return row.map((cell, index) => (columns[index]?.numeric ? cell : escape(cell)));
}

/** `a, b, c, … and 7 more`, each id escaped for the medium (the terminal unless told). */
export function listSome(ids: readonly string[], max = 10, escape: (text: string) => string = escapeConsole): string {
  return listUpTo(ids, max, escape);
}
