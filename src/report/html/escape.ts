// Escaping for text that goes into the HTML report: element content and quoted attribute values alike.
// Every string that comes from a run (suite names, measures, question ids, test names, paths, commit
// subjects) passes through escapeHtml; numbers are formatted, never interpolated raw.

import { visibleControls } from '../../core/escape.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text safe inside an element or a quoted attribute. C0 control characters other than tab, line feed and
 * carriage return (not allowed in HTML) and lone surrogates become U+FFFD, so the file stays valid UTF-8.
 */
export function escapeHtml(text: string): string {
  return String(text)
    .replace(/[&<>"']/g, (character) => ENTITIES[character]!)
    .replace(
      // eslint-disable-next-line no-control-regex -- these control characters are what is being replaced
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '\ufffd',
    );
}

/** At most `max` code points, with an ellipsis when cut (the full text belongs in a <title>). */
export function truncate(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, Math.max(1, max - 1)).join('')}…`;
}

/**
 * A name from the run (suite, measure, question id, test) for the HTML report: control, bidirectional
 * and invisible characters and trailing spaces shown as escapes (`\\u200b`, `\\x20`), as in the console
 * and Markdown, so that look-alike names do not look alike here either; then escaped as text.
 */
export function escapeHtmlName(text: string): string {
  return escapeHtml(visibleControls(String(text)));
}
