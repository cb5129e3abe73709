import { describe, expect, it } from 'vitest';
import {
  alignColumns,
  andMore,
  fixed,
  formatNumber,
  formatP,
  listUpTo,
  percent,
  plural,
  signed,
  wordFor,
} from '../../../src/core/present.js';

describe('plural and wordFor', () => {
  it('write the count with the form it needs', () => {
    expect(plural(1, 'commit')).toBe('1 commit');
    expect(plural(0, 'commit')).toBe('0 commits');
    expect(plural(3, 'judged query is', 'judged queries are')).toBe('3 judged queries are');
  });

  it('wordFor gives the form alone', () => {
    expect(wordFor(1, 'shard')).toBe('shard');
    expect(wordFor(2, 'shard')).toBe('shards');
    expect(wordFor(1, 'is', 'are')).toBe('is');
    expect(wordFor(0, 'is', 'are')).toBe('are');
  });
});

describe('andMore and listUpTo', () => {
  it('andMore stands for the items left out', () => {
    expect(andMore(7)).toBe('… and 7 more');
  });

  it('lists up to max items, then counts the rest', () => {
    expect(listUpTo(['a', 'b', 'c', 'd', 'e'], 2)).toBe('a, b, … and 3 more');
    expect(listUpTo(['a', 'b'], 2)).toBe('a, b');
    expect(listUpTo([], 3)).toBe('');
  });

  it('writes each shown item with show, and only the shown ones', () => {
    const shown: string[] = [];
    const upper = (item: string) => {
      shown.push(item);
      return item.toUpperCase();
    };
    expect(listUpTo(['q1', 'q2', 'q3'], 2, upper)).toBe('Q1, Q2, … and 1 more');
    expect(shown).toEqual(['q1', 'q2']);
  });
});

describe('numbers', () => {
  it('fixed: the given decimals, a dash for no value', () => {
    expect(fixed(0.74)).toBe('0.7400');
    expect(fixed(0.74, 3)).toBe('0.740');
    expect(fixed(2 / 3, 2)).toBe('0.67');
    expect(fixed(undefined)).toBe('–');
    expect(fixed(Number.NaN)).toBe('–');
    expect(fixed(Number.POSITIVE_INFINITY)).toBe('–');
  });

  it('formatNumber: four decimals less up to two trailing zeros', () => {
    expect(formatNumber(0.6)).toBe('0.60');
    expect(formatNumber(0.795)).toBe('0.795');
    expect(formatNumber(2 / 3)).toBe('0.6667');
    expect(formatNumber(1)).toBe('1.00');
  });

  it('signed: sign, magnitude, and no sign on a change that rounds to zero', () => {
    expect(signed(0.012)).toBe('+0.012');
    expect(signed(-0.08)).toBe('-0.080');
    expect(signed(-0.0004)).toBe('0.000');
    expect(signed(0)).toBe('0.000');
    expect(signed(-0.08, { minus: '−' })).toBe('−0.080');
    expect(signed(Number.NaN)).toBe('–');
  });

  it('signed: digits, a format for the magnitude, and signZero for columns', () => {
    expect(signed(0.05, { digits: 4 })).toBe('+0.0500');
    expect(signed(0, { digits: 4, signZero: true })).toBe('+0.0000');
    expect(signed(-0.00001, { digits: 4, signZero: true })).toBe('-0.0000');
    expect(signed(-0.08, { format: formatNumber, signZero: true })).toBe('-0.08');
    expect(signed(0.125, { format: formatNumber })).toBe('+0.125');
  });

  it('formatP: three decimals by default, a floor below what they show', () => {
    expect(formatP(0.0312)).toBe('0.031');
    expect(formatP(0.001)).toBe('0.001');
    expect(formatP(0.0009)).toBe('<0.001');
    expect(formatP(0.00009, 4)).toBe('<0.0001');
    expect(formatP(0.0001, 4)).toBe('0.0001');
    expect(formatP(1, 4)).toBe('1.0000');
    expect(formatP(Number.NaN)).toBe('–');
  });

  it('percent: at most two decimals, no trailing zeros', () => {
    expect(percent(0.95)).toBe('95%');
    expect(percent(0.975)).toBe('97.5%');
    expect(percent(0.9999)).toBe('99.99%');
    expect(percent(0.99999)).toBe('100%');
    expect(percent(0.975, 0)).toBe('98%');
  });
});

describe('alignColumns', () => {
  it('pads each column to its widest cell, right-aligning where asked, two spaces apart', () => {
    const lines = alignColumns(
      [
        ['measure', 'mean', 'note'],
        ['hit@10', '0.5', ''],
        ['mrr', '0.25', 'x'],
      ],
      [false, true, false],
    );
    expect(lines).toEqual(['measure  mean  note', 'hit@10    0.5', 'mrr      0.25  x']);
  });
});
