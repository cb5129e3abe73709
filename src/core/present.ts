// How counts, lists and numbers are written for people: one kit for the matchers' failure messages,
// the reports (console, Markdown, HTML, history) and the CLI, so that "… and 3 more" or a p-value
// reads the same wherever it is shown. Escaping user strings is src/core/escape.ts's job.

/** `1 query`, `3 queries`: the count and the noun in the form the count needs. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${wordFor(count, singular, pluralForm)}`;
}

/** The word alone in the form `count` needs: `wordFor(2, 'shard')` is `shards`, `wordFor(1, 'is', 'are')` is `is`. */
export function wordFor(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}

/** `… and 4 more`: what stands in a list for the `hidden` items it leaves out. */
export function andMore(hidden: number): string {
  return `… and ${hidden} more`;
}

/** `a, b, c, … and 4 more`: the first `max` items, each as `show` writes it (given the item and its index), and a count of the rest. */
export function listUpTo(
  items: readonly string[],
  max: number,
  show: (item: string, index: number) => string = (item) => item,
): string {
  const shown = items.slice(0, max).map(show).join(', ');
  return items.length > max ? `${shown}, ${andMore(items.length - max)}` : shown;
}

/** A value with `digits` decimals (`0.7400`); "–" for a missing or non-finite one. */
export function fixed(value: number | undefined, digits = 4): string {
  return value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
}

/** 0.6 → "0.60", 0.795 → "0.795", 2/3 → "0.6667": enough digits to see why 0.795 fails ≥ 0.8. */
export function formatNumber(value: number): string {
  return value.toFixed(4).replace(/0{1,2}$/, '');
}

export interface SignedOptions {
  /** Decimals of the magnitude when `format` is not given (default 3). */
  digits?: number;
  /** How the magnitude is written (default: `digits` decimals). */
  format?: (magnitude: number) => string;
  /** The minus sign: `-`, or `−` (U+2212) where typography matters. */
  minus?: string;
  /**
   * Whether a change that rounds to zero keeps its sign (`+0.000`), as the columns of the CLI and of
   * `toNotRegressFrom` always have; by default it is written `0.000`.
   */
  signZero?: boolean;
}

/** A signed change: `+0.012`, `-0.080`, `0.000` when it rounds to zero; "–" when it is not finite. */
export function signed(value: number, options: SignedOptions = {}): string {
  if (!Number.isFinite(value)) return '–';
  const { digits = 3, minus = '-', signZero = false } = options;
  const magnitude = options.format === undefined ? Math.abs(value).toFixed(digits) : options.format(Math.abs(value));
  if (!signZero && Number(magnitude) === 0) return magnitude;
  return `${value < 0 ? minus : '+'}${magnitude}`;
}

/** A p-value with `digits` decimals, `<0.001` (for 3 digits) below what they can show; "–" when not finite. */
export function formatP(p: number, digits = 3): string {
  if (!Number.isFinite(p)) return '–';
  const smallest = 10 ** -digits;
  return p < smallest ? `<${smallest.toFixed(digits)}` : p.toFixed(digits);
}

/** A share as a percentage with at most `digits` decimals and no trailing zeros: 0.95 → `95%`, 0.975 → `97.5%`. */
export function percent(share: number, digits = 2): string {
  return `${+(share * 100).toFixed(digits)}%`;
}

/**
 * A confidence level as a percentage, `95%`, with as many decimals as it takes never to round a level
 * below 1 up to `100%` (0.9999999999 → `99.99999999%`): an interval is never a certain one.
 */
export function confidencePercent(level: number): string {
  let digits = 2;
  while (digits < 15 && level < 1 && +(level * 100).toFixed(digits) >= 100) digits += 1;
  return percent(level, digits);
}

/** Rows as lines of columns padded to their widest cell, two spaces apart, right-aligned where `rightAligned` says. */
export function alignColumns(rows: readonly (readonly string[])[], rightAligned: readonly boolean[]): string[] {
  const columnCount = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columnCount }, (_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  return rows.map((row) =>
    row
      .map((cell, column) =>
        rightAligned[column] ? cell.padStart(widths[column] as number) : cell.padEnd(widths[column] as number),
      )
      .join('  ')
      .trimEnd(),
  );
}
