// A progress bar on stderr for long inputs: drawn only when stderr is a terminal, only once the work
// has taken a moment (short runs print nothing), redrawn at most every 100 ms, erased when done.
// Piped or redirected stderr (CI logs, `2> file`) gets nothing.
import type { WritableLike } from './io.js';

export interface Progress {
  /** Sets the amount done so far (bytes, queries, …). */
  update(done: number): void;
  /** Erases the bar. */
  finish(): void;
}

export interface ProgressOptions {
  /** What is counted, shown after the numbers: `queries`, `bytes`. */
  unit: 'queries' | 'bytes';
  /** The total, when known (a file's size); else only the count is shown. */
  total?: number;
  /** Milliseconds before the bar first appears. Default 500. */
  delayMs?: number;
  /** Milliseconds between redraws. Default 100. */
  intervalMs?: number;
  now?: () => number;
}

const NO_PROGRESS: Progress = { update() {}, finish() {} };
const BAR_WIDTH = 24;

function formatAmount(value: number, unit: ProgressOptions['unit']): string {
  if (unit === 'bytes') {
    if (value >= 1e9) return `${(value / 1e9).toFixed(1)} GB`;
    if (value >= 1e6) return `${(value / 1e6).toFixed(1)} MB`;
    return `${Math.round(value / 1e3)} kB`;
  }
  return value.toLocaleString('en-US');
}

export function createProgress(stream: WritableLike, label: string, options: ProgressOptions): Progress {
  if (stream.isTTY !== true) return NO_PROGRESS;
  const now = options.now ?? (() => performance.now());
  const delayMs = options.delayMs ?? 500;
  const intervalMs = options.intervalMs ?? 100;
  const startedAt = now();
  let lastDrawnAt = -Infinity;
  let drawn = false;
  let current = 0;

  const draw = () => {
    const total = options.total;
    let line = `${label} `;
    if (total !== undefined && total > 0) {
      const share = Math.min(1, current / total);
      const filled = Math.round(share * BAR_WIDTH);
      line += `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%  `;
      line += `${formatAmount(current, options.unit)} / ${formatAmount(total, options.unit)}`;
    } else {
      line += formatAmount(current, options.unit);
    }
    if (options.unit === 'queries') line += ' queries';
    const width = stream.columns ?? 80;
    if (line.length > width - 1) line = line.slice(0, width - 1);
    stream.write(`\r\x1b[2K${line}`);
    drawn = true;
  };

  return {
    update(done: number) {
      current = done;
      const time = now();
      if (time - startedAt < delayMs || time - lastDrawnAt < intervalMs) return;
      lastDrawnAt = time;
      draw();
    },
    finish() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
