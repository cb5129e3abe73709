// The HTML document shared by the run report and the history page: UTF-8, a Content-Security-Policy that
// allows no script and no remote content, the inlined stylesheet.

import { escapeHtml } from './escape.js';
import { CONTENT_SECURITY_POLICY, STYLE } from './style.js';

/** The HTML document around a body. */
export function page(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONTENT_SECURITY_POLICY)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="rag-matchers">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
