// One escaping helper per medium, used by every renderer for every string that comes from users (suite,
// test and question names, measure names, file paths): such a string must never change the structure of
// the report it is shown in.
//
// - Console: control characters (ESC sequences, CR, LF, tab, DEL, C1), line and paragraph separators,
//   bidirectional overrides and invisible characters (zero-width space, word joiner, byte order mark,
//   soft hyphen, …) are shown as visible escapes (`\x1b`, `\n`, `\u202e`, `\u200b`), and so are
//   trailing spaces (`\x20`), so a name can neither colour nor move the cursor nor add a line (no fake
//   "No retrieval regressions"), and two names that print alike are told apart.
// - Markdown (PR comments, $GITHUB_STEP_SUMMARY): the same characters made visible, then Markdown and
//   HTML specials escaped, `$` (math) escaped, and `@mentions` and URLs neutralised with a zero-width
//   space (no notification, no link).
// - HTML: src/report/html (escapeHtml) escapes markup; names from the run also go through
//   visibleControls first (escapeHtmlName), so look-alike names differ there too.

import { escapeConsole, visibleControls } from '../core/visible.js';

export { escapeConsole, visibleControls };

/**
 * A user string for Markdown inline text: one line; `\`, `` ` ``, `*`, `_`, `[`, `]`, `|`, `~`, `$` escaped;
 * `<` and entity-like `&` as entities; `@name` broken with a zero-width space so it mentions no one,
 * and `https://…` and `www.…` likewise so that GitHub does not turn them into links.
 * (`>` and `#` only matter at a line start, where this text never is.)
 */
export function escapeMarkdown(text: string): string {
  return visibleControls(text)
    .replace(/&(?=#?\w+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/[\\`*_[\]|~$]/g, '\\$&')
    .replace(/(^|[^\w`])@(?=[A-Za-z0-9])/g, '$1@\u200b')
    .replace(/:\/\//g, ':\u200b//')
    .replace(/\b(www)\./gi, '$1\u200b.');
}

/** An inline code span for Markdown that survives backticks and line breaks in the text. */
export function markdownCode(text: string): string {
  const flat = visibleControls(text);
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
