// Plain-text and Markdown tables for the eval and compare commands.

export interface Column {
  header: string;
  /** Right-align (numbers). */
  numeric?: boolean;
}

/** Columns padded to their widest cell, two spaces apart; numbers right-aligned. */
export function textTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) =>
        columns[index]?.numeric ? cell.padStart(widths[index] as number) : cell.padEnd(widths[index] as number),
      )
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...rows.map(line)].join('\n') + '\n';
}

function escapeMarkdown(cell: string): string {
  return cell.replace(/\|/g, '\\|');
}

/** A GitHub-flavoured Markdown table; numeric columns right-aligned. */
export function markdownTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const header = `| ${columns.map((column) => escapeMarkdown(column.header)).join(' | ')} |`;
  const rule = `|${columns.map((column) => (column.numeric ? ' ---: ' : ' --- ')).join('|')}|`;
  const body = rows.map((row) => `| ${row.map(escapeMarkdown).join(' | ')} |`);
  return [header, rule, ...body].join('\n') + '\n';
}

/** A measure value with four decimals (NaN: "–"). */
export function fixed(value: number | undefined, digits = 4): string {
  return value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
}

export function signed(value: number, digits = 4): string {
  if (!Number.isFinite(value)) return '–';
  return `${value < 0 ? '-' : '+'}${Math.abs(value).toFixed(digits)}`;
}

export function formatP(p: number): string {
  if (!Number.isFinite(p)) return '–';
  return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

/** `a, b, c, … and 7 more`. */
export function listSome(ids: readonly string[], max = 10): string {
  const shown = ids.slice(0, max).join(', ');
  return ids.length > max ? `${shown}, … and ${ids.length - max} more` : shown;
}
