import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  escapeConsole,
  escapeMarkdown,
  lookAlikeKey,
  markdownCode,
  visibleControls,
} from '../../../src/core/escape.js';

describe('escapeConsole', () => {
  it('leaves a plain string as it is', () => {
    expect(escapeConsole('q17 refunds')).toBe('q17 refunds');
  });

  it('shows control, bidirectional and invisible characters and trailing spaces as escapes', () => {
    expect(escapeConsole('a\nb')).toBe('a\\nb');
    expect(escapeConsole('\u001b[31mred')).toBe('\\x1b[31mred');
    expect(escapeConsole('abc\u202edef')).toBe('abc\\u202edef');
    expect(escapeConsole('q1 ')).toBe('q1\\x20');
  });
});

describe('escapeMarkdown', () => {
  it('breaks @mentions and links with a zero-width space', () => {
    expect(escapeMarkdown('ask @user')).toBe('ask @\u200buser');
    expect(escapeMarkdown('a@b.com')).toBe('a@b.com');
    expect(escapeMarkdown('https://x.io')).toBe('https:\u200b//x.io');
    expect(escapeMarkdown('www.x.io')).toBe('www\u200b.x.io');
  });

  it('writes < and entity-like & as entities, and escapes Markdown specials', () => {
    expect(escapeMarkdown('<script>')).toBe('&lt;script>');
    expect(escapeMarkdown('&amp; & b')).toBe('&amp;amp; & b');
    expect(escapeMarkdown('a|b *c* _d_ [e] `f` ~g~ $h\\')).toBe(
      'a\\|b \\*c\\* \\_d\\_ \\[e\\] \\`f\\` \\~g\\~ \\$h\\\\',
    );
  });

  it('keeps the text on one line', () => {
    expect(escapeMarkdown('a\nb')).toBe('a\\\\nb');
  });
});

describe('markdownCode', () => {
  it('fences with one backtick more than the longest run inside', () => {
    expect(markdownCode('npx vitest run')).toBe('`npx vitest run`');
    expect(markdownCode('a``b')).toBe('```a``b```');
    expect(markdownCode('`x')).toBe('`` `x ``');
  });

  it('shows line breaks as escapes', () => {
    expect(markdownCode('a\nb')).toBe('`a\\nb`');
    expect(visibleControls('a\tb')).toBe('a\\tb');
  });
});

describe('lookAlikeKey', () => {
  it('drops what does not show: trailing spaces, invisible characters, another normalisation', () => {
    expect(lookAlikeKey('q1')).toBe('q1');
    expect(lookAlikeKey('q1 ')).toBe('q1');
    expect(lookAlikeKey(' q1')).toBe(' q1');
    expect(lookAlikeKey('q\u200b1')).toBe('q1');
    expect(lookAlikeKey('q1\u0000')).toBe('q1');
    expect(lookAlikeKey('cafe\u0301')).toBe('caf\u00e9');
    expect(lookAlikeKey('')).toBe('');
    expect(lookAlikeKey('~')).toBe('~');
  });

  it('gives every string what its definition gives (NFC, invisible characters dropped, end trimmed)', () => {
    const invisible =
      // eslint-disable-next-line no-control-regex -- the definition drops control characters
      /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
    const unit = fc.constantFrom('q', '1', ' ', '~', '\t', '\u007f', '\u00a0', '\u200b', 'e', '\u0301', '\u3000');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 8 }), (units) => {
        const text = units.join('');
        expect(lookAlikeKey(text)).toBe(text.normalize('NFC').replace(invisible, '').trimEnd());
      }),
      { numRuns: 2_000 },
    );
  });
});
