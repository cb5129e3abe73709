import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ByteLines,
  FAST_VALUE_BYTES,
  formatFixed,
  measureColumn,
  writeCount,
  writeFixed,
} from '../../src/trec/eval/format.js';
import { createProgress } from '../../src/cli/progress.js';

describe("formatFixed: C printf's %.Nf", () => {
  it('rounds exact ties to even, as glibc does (toFixed rounds them up)', () => {
    // 1/32 = 0.03125 exactly: printf("%.4f") gives 0.0312; (0.03125).toFixed(4) gives 0.0313.
    expect((0.03125).toFixed(4)).toBe('0.0313');
    expect(formatFixed(0.03125, 4)).toBe('0.0312');
    expect(formatFixed(0.09375, 4)).toBe('0.0938'); // 3/32: the even neighbour is above
    expect(formatFixed(2.5, 0)).toBe('2');
    expect(formatFixed(3.5, 0)).toBe('4');
    expect(formatFixed(0.125, 2)).toBe('0.12');
    expect(formatFixed(-0.03125, 4)).toBe('-0.0312');
  });

  it('rounds everything else to nearest, from the exact binary value', () => {
    expect(formatFixed(1 / 3, 4)).toBe('0.3333');
    expect(formatFixed(2 / 3, 4)).toBe('0.6667');
    // 0.00005 is slightly above 5e-5 as a double: not a tie, rounds up.
    expect(formatFixed(0.00005, 4)).toBe('0.0001');
    // 1.0005 is slightly below as a double: rounds down.
    expect(formatFixed(1.0005, 3)).toBe('1.000');
    expect(formatFixed(0, 4)).toBe('0.0000');
    expect(formatFixed(1, 17)).toBe('1.00000000000000000');
  });

  it("writes trec_eval's lines (%-22s\\t%s\\t%6.4f\\n and %ld), as the engine does: through ByteLines", () => {
    expect(measureColumn('P_5')).toBe('P_5                   ');
    const line = (name: string, queryId: string, write: (lines: ByteLines) => void): string => {
      const lines = new ByteLines(4);
      lines.text(`${measureColumn(name)}\t${queryId}\t`);
      write(lines);
      lines.newline();
      return lines.bytes.toString('utf8', 0, lines.length);
    };
    expect(line('ndcg_cut_10', 'q1', (lines) => lines.fixed(0.03125, 4))).toBe('ndcg_cut_10           \tq1\t0.0312\n');
    expect(line('map', 'all', (lines) => lines.fixed(0.5, 2))).toBe('map                   \tall\t  0.50\n');
    expect(line('num_rel_ret', 'q10', (lines) => lines.count(7))).toBe('num_rel_ret           \tq10\t7\n');
  });
});

describe('progress bar', () => {
  function stream(isTTY: boolean) {
    let written = '';
    return { write: (chunk: string) => ((written += chunk), true), isTTY, columns: 80, written: () => written };
  }

  it('draws on a terminal once the work takes a while, at most every interval, and erases itself', () => {
    let now = 0;
    const tty = stream(true);
    const progress = createProgress(tty, 'trec-eval', {
      unit: 'queries',
      total: 200,
      delayMs: 500,
      intervalMs: 100,
      now: () => now,
    });
    progress.update(10);
    expect(tty.written()).toBe('');
    now = 600;
    progress.update(100);
    expect(tty.written()).toBe('\r\x1b[2Ktrec-eval [████████████░░░░░░░░░░░░]  50%  100 / 200 queries');
    now = 650;
    progress.update(150);
    expect(tty.written()).not.toContain('150');
    now = 800;
    progress.update(150);
    expect(tty.written()).toContain(' 75%  150 / 200 queries');
    progress.finish();
    expect(tty.written().endsWith('\r\x1b[2K')).toBe(true);
  });

  it('stays quiet when stderr is not a terminal', () => {
    let now = 0;
    const piped = stream(false);
    const progress = createProgress(piped, 'trec-eval', { unit: 'bytes', total: 1e9, now: () => now });
    now = 10_000;
    progress.update(5e8);
    progress.finish();
    expect(piped.written()).toBe('');
  });
});

describe('ByteLines: -q lines written as bytes', () => {
  const text = (write: (lines: ByteLines) => void): string => {
    const lines = new ByteLines(4);
    write(lines);
    return lines.bytes.toString('utf8', 0, lines.length);
  };

  it('writes %6.4f as printf does, padded to six characters', () => {
    // Hand-worked: 0.99999 rounds up to 1.0000; 0.03125 is an exact tie, which printf rounds to even.
    const values = [0, 0.5, 1, 0.99999, 123.45678, 0.03125, 0.00004, 999999.5, 1234567.891, -0.25, Number.NaN];
    const shown = values.map((value) => text((lines) => lines.fixed(value, 4)));
    expect(shown).toEqual([
      '0.0000',
      '0.5000',
      '1.0000',
      '1.0000',
      '123.4568',
      '0.0312',
      '0.0000',
      '999999.5000',
      '1234567.8910',
      '-0.2500',
      '  -nan',
    ]);
    expect(text((lines) => lines.fixed(0.5, 1))).toBe('   0.5');
    expect(text((lines) => lines.fixed(2.5, 8))).toBe('2.50000000');
  });

  it('writes counts as %ld and ids as UTF-8', () => {
    expect(text((lines) => [0, 7, 1000, 123456789].forEach((count) => (lines.count(count), lines.tab())))).toBe(
      '0\t7\t1000\t123456789\t',
    );
    expect(text((lines) => (lines.text('qü€'), lines.newline()))).toBe('qü€\n');
  });
});

describe('writeFixed and writeCount: the bytes of -q lines', () => {
  const written = (write: (bytes: Uint8Array, at: number) => number) => {
    const bytes = new Uint8Array(FAST_VALUE_BYTES + 8);
    const end = write(bytes, 3);
    return end === -1 ? undefined : Buffer.from(bytes.subarray(3, end)).toString('latin1');
  };

  it('writes %6.Nf of the usual values, up to the largest one (below 10^6), and leaves exact ties to formatFixed', () => {
    expect(written((bytes, at) => writeFixed(bytes, at, 0, 4))).toBe('0.0000');
    expect(written((bytes, at) => writeFixed(bytes, at, 0.5, 1))).toBe('   0.5');
    expect(written((bytes, at) => writeFixed(bytes, at, 1 / 3, 4))).toBe('0.3333');
    expect(written((bytes, at) => writeFixed(bytes, at, 214748.3647, 4))).toBe('214748.3647');
    expect(written((bytes, at) => writeFixed(bytes, at, 214748.3648, 4))).toBe('214748.3648');
    expect(written((bytes, at) => writeFixed(bytes, at, 999999.12345678, 8))).toBe('999999.12345678');
    expect(written((bytes, at) => writeFixed(bytes, at, 0.03125, 4))).toBeUndefined(); // an exact tie: formatFixed's
  });

  it('writes %ld of counts up to 10^15 − 1', () => {
    for (const count of [0, 7, 10, 2147483647, 2147483648, 999999999999999])
      expect(written((bytes, at) => writeCount(bytes, at, count))).toBe(String(count));
    expect(written((bytes, at) => writeCount(bytes, at, 1e15))).toBeUndefined();
  });

  it('property: writeFixed writes what formatFixed prints (padded to six), or leaves it to formatFixed', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 999_999, noNaN: true })),
        fc.integer({ min: 1, max: 8 }),
        (value, digits) => {
          const bytes = written((target, at) => writeFixed(target, at, value, digits));
          if (bytes !== undefined) expect(bytes).toBe(formatFixed(value, digits).padStart(6));
        },
      ),
      { numRuns: 5000 },
    );
  });
});
