import { describe, expect, it } from 'vitest';
import { escapeConsole, escapeMarkdown, markdownCode, visibleControls } from '../../../src/core/escape.js';

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
