// The one escaping of user strings (suite, test and question names, query and document ids, measure
// names, file paths) for every terminal and Markdown output: the reporters, the matchers' failure
// messages and the CLI's `eval` and `compare`. Here in the core so that every layer may import it.
// Such a string must never change the structure of the output it is shown in.
//
// - Terminal: control characters (ESC sequences, CR, LF, tab, DEL, C1), line and paragraph separators,
//   bidirectional overrides and invisible characters (zero-width space, word joiner, byte order mark,
//   soft hyphen, …) are shown as visible escapes (`\x1b`, `\n`, `\u202e`, `\u200b`), and so are
//   trailing spaces (`\x20`), so a name can neither colour nor move the cursor nor add a line (no fake
//   "No retrieval regressions"), and two names that print alike are told apart.
// - Markdown (PR comments, $GITHUB_STEP_SUMMARY, the CLI's `--format markdown`): the same characters
//   made visible, then Markdown and HTML specials escaped, `$` (math) escaped, and `@mentions` and URLs
//   neutralised with a zero-width space (no notification, no link).
// - HTML: src/report/html (escapeHtml) escapes markup; names from the run also go through
//   visibleControls first (escapeHtmlName), so look-alike names differ there too.

const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Control, layout and invisible characters shown as escapes: `a\nb` → `a\\nb`, ESC → `\\x1b`, U+202E → `\\u202e`, a trailing space → `\\x20`. */
export function visibleControls(text: string): string {
  const spaces = trailingSpaces(text);
  const shown = text.slice(0, text.length - spaces).replace(INVISIBLE, (character) => {
    const named = NAMED[character];
    if (named !== undefined) return named;
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return shown + '\\x20'.repeat(spaces);
}

/** How many spaces `text` ends with (a loop: /( +)$/ is quadratic on a long run of inner spaces). */
function trailingSpaces(text: string): number {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x20) end -= 1;
  return text.length - end;
}

/** A user string for the terminal: one line, no escape sequences, nothing invisible. */
export function escapeConsole(text: string): string {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text) || trailingSpaces(text) > 0 ? visibleControls(text) : text;
}

/**
 * What `text` looks like on screen: Unicode NFC, invisible and control characters dropped, trailing
 * spaces trimmed. Two ids with the same look-alike key print alike raw but are different ids.
 */
export function lookAlikeKey(text: string): string {
  return text.normalize('NFC').replace(INVISIBLE, '').trimEnd();
}

/** `U+0071 U+0031 U+0020` for "q1 ": how two look-alike ids differ. */
export function codePoints(text: string): string {
  return [...text]
    .map((character) => `U+${(character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`)
    .join(' ');
}

/**
 * A user string for Markdown inline text: one line; `\`, `` ` ``, `*`, `_`, `[`, `]`, `|`, `~`, `$` escaped;
 * `<` and entity-like `&` as entities; `@name` broken with a zero-width space so it mentions no one,
 * and `https://…` and `www.…` likewise so that GitHub does not turn them into links.
 * (`>` and `#` only matter at a line start, where this text never is.)
 */
export function escapeMarkdown(text: string): string {
  if (MARKDOWN_PLAIN.test(text) && !text.endsWith(' ')) return text;
  return visibleControls(text)
    .replace(/&(?=#?\w+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/[\\`*_[\]|~$]/g, '\\$&')
    .replace(/(^|[^\w`])@(?=[A-Za-z0-9])/g, '$1@\u200b')
    .replace(/:\/\//g, ':\u200b//')
    .replace(/\b(www)\./gi, '$1\u200b.');
}

/** Text that escapeMarkdown leaves as it is (a trailing space aside): most question ids and many suite names. */
const MARKDOWN_PLAIN = /^[A-Za-z0-9 ,/>-]*$/;

/** An inline code span for Markdown that survives backticks and line breaks in the text. */
export function markdownCode(text: string): string {
  const flat = visibleControls(text);
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
