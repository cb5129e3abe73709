// User strings made visible for a terminal: the escaping every console renderer (src/report/escape.ts
// re-exports it) and the matchers' failure messages share. Here in the core so the matchers, which may
// not import the reporters, use the same one.

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
