// One escaping helper per medium, used by every renderer for every string that comes from users (suite,
// test and question names, measure names, file paths): such a string must never change the structure of
// the report it is shown in.
//
// - Console: control characters (ESC sequences, CR, LF, tab, DEL, C1), line and paragraph separators and
//   bidirectional overrides are shown as visible escapes (`\x1b`, `\n`, `\u202e`), so a name can neither
//   colour nor move the cursor nor add a line (no fake "No retrieval regressions").
// - Markdown (PR comments, $GITHUB_STEP_SUMMARY): the same characters made visible, then Markdown and
//   HTML specials escaped, `$` (math) escaped, and `@mentions` neutralised with a zero-width space.
// - HTML: src/report/html (escapeHtml) escapes markup; line breaks are harmless there.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Control and layout characters shown as escapes: `a\nb` → `a\\nb`, ESC → `\\x1b`, U+202E → `\\u202e`. */
export function visibleControls(text: string): string {
  return text.replace(INVISIBLE, (character) => {
    const named = NAMED[character];
    if (named !== undefined) return named;
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A user string for the terminal: one line, no escape sequences. */
export function escapeConsole(text: string): string {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text) ? visibleControls(text) : text;
}

/**
 * A user string for Markdown inline text: one line; `\`, `` ` ``, `*`, `_`, `[`, `]`, `|`, `~`, `$` escaped;
 * `<` and entity-like `&` as entities; `@name` broken with a zero-width space so it mentions no one.
 * (`>` and `#` only matter at a line start, where this text never is.)
 */
export function escapeMarkdown(text: string): string {
  return visibleControls(text)
    .replace(/&(?=#?\w+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/[\\`*_[\]|~$]/g, '\\$&')
    .replace(/(^|[^\w`])@(?=[A-Za-z0-9])/g, '$1@\u200b');
}

/** An inline code span for Markdown that survives backticks and line breaks in the text. */
export function markdownCode(text: string): string {
  const flat = visibleControls(text);
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
