// readFileCarrying: a file read 64 kB at a time into complete lines, the consumer keeping the end of
// each text (the open query) for the next; what it hands over must be the file's lines, whatever
// falls on a chunk boundary.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { readFileCarrying, textLimits } from '../../../src/trec/text.js';

const directory = mkdtempSync(join(tmpdir(), 'rag-matchers-text-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const fileOf = (name: string, content: string | Buffer) => {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
};

/**
 * Reads `path` keeping, after each text, its last `keepLines` lines (as a grouper keeps an open
 * query); returns the lines seen once each, in order, and checks that each text starts with what was kept.
 */
function linesRead(path: string, keepLines: number, range: { start?: number; end?: number } = {}): string[] {
  const seen: string[] = [];
  let kept = '';
  readFileCarrying(
    path,
    (text, carried) => {
      expect(text.slice(0, carried)).toBe(kept);
      const fresh = text.slice(carried);
      seen.push(...fresh.split('\n').filter((line, index, all) => index < all.length - 1 || line !== ''));
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      kept = lines.length <= keepLines ? text : `${lines.slice(-keepLines).join('\n')}\n`;
      return kept.length;
    },
    { file: 'file.txt', lineNumber: () => seen.length + 1, ...range },
  );
  return seen;
}

describe('readFileCarrying', () => {
  const lines = Array.from({ length: 20_000 }, (_, index) => `q${index >> 5} Q0 doc-${index} ${index} 1.5 tag`);

  it('hands over every line once, the kept ones again at the start of the next text', () => {
    const path = fileOf('lines.txt', `${lines.join('\n')}\n`);
    expect(linesRead(path, 0)).toEqual(lines);
    expect(linesRead(path, 40)).toEqual(lines);
    // Keeping more than a chunk (a query over 64 kB): the buffer grows.
    expect(linesRead(path, 5000)).toEqual(lines);
  });

  it('reads the last line without a line end, and a byte range', () => {
    const path = fileOf('no-end.txt', lines.slice(0, 3000).join('\n'));
    expect(linesRead(path, 7)).toEqual(lines.slice(0, 3000));
    // Lines 1000–1999: their bytes, each line `length + 1` bytes with its line end.
    const start = lines.slice(0, 1000).reduce((total, line) => total + line.length + 1, 0);
    const end = start + lines.slice(1000, 2000).reduce((total, line) => total + line.length + 1, 0);
    expect(linesRead(path, 3, { start, end })).toEqual(lines.slice(1000, 2000));
  });

  it('skips a byte order mark and keeps non-ASCII lines whole, however the chunks fall', () => {
    const accented = lines.map((line, index) => (index % 3 === 0 ? `${line} dök-€-${index}` : line));
    const path = fileOf(
      'utf8.txt',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${accented.join('\n')}\n`)]),
    );
    expect(linesRead(path, 0)).toEqual(accented);
    expect(linesRead(path, 33)).toEqual(accented);
  });

  describe('a line longer than the limit', () => {
    const limit = textLimits.maxLineLength;
    afterEach(() => {
      textLimits.maxLineLength = limit;
    });

    it('stops with the file, the line number and the first 200 characters of the line', () => {
      textLimits.maxLineLength = 1000;
      const path = fileOf('long.txt', `a b\nc d\n${'x'.repeat(200_000)}`);
      expect(() => linesRead(path, 1)).toThrow(/file\.txt:3.*line 3 is longer than 1000 characters/s);
      expect(() => linesRead(path, 1)).toThrow(expect.objectContaining({ lineText: 'x'.repeat(200) }));
    });
  });
});
