// One page states what each reporter option does: the Options section of docs/baselines-and-ci.md. Other
// pages link there instead of restating it, so that two pages cannot state different behaviour for the
// same option. The check reads every page of docs/ and README.md:
//   - the reference's option list names every option the reporters accept, and no other;
//   - no other page describes an option (a `name: value, // what it does` entry in a code block);
//   - a paragraph of another page that names a reporter option links to the reference.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { REPORTER_OPTION_NAMES } from '../../../src/gate/user-options.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const REFERENCE = 'docs/baselines-and-ci.md';
const REFERENCE_LINK = /baselines-and-ci\.md#options\b/;

/**
 * Names that other APIs use too (toNotRegressFrom, `compare`, evaluateRun, tsconfig, file names): a bare
 * `tolerance` in a page about `compare` is not the reporter option, so these count as a mention only
 * when the paragraph says "reporter option". Every other option name is the reporters' alone.
 */
const SHARED_NAMES = new Set([
  'baseline',
  'tolerance',
  'significance',
  'test',
  'strict',
  'partial',
  'json',
  'markdown',
  'html',
  'seed',
  'resamples',
  'measures',
  'suites',
]);

interface Page {
  name: string;
  text: string;
}

function pages(): Page[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`);
  return ['README.md', ...docs].map((name) => ({ name, text: readFileSync(join(ROOT, name), 'utf8') }));
}

/** The page split into fenced code blocks and prose paragraphs. */
function parts(text: string): { blocks: string[]; paragraphs: string[] } {
  const blocks: string[] = [];
  const paragraphs: string[] = [];
  let fence: string[] | undefined;
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) paragraphs.push(paragraph.join('\n'));
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) {
      if (fence === undefined) {
        endParagraph();
        fence = [];
      } else {
        blocks.push(fence.join('\n'));
        fence = undefined;
      }
    } else if (fence !== undefined) {
      fence.push(line);
    } else if (line.trim() === '' || /^#{1,6} /.test(line)) {
      endParagraph();
    } else {
      paragraph.push(line);
    }
  }
  endParagraph();
  return { blocks, paragraphs };
}

/** Options a page describes: entries `name: value, // what it does` in its code blocks. */
export function describedOptions(text: string, names: readonly string[]): Set<string> {
  const described = new Set<string>();
  for (const block of parts(text).blocks) {
    for (const match of block.matchAll(/^[ \t]*([A-Za-z]+):[ \t][^\n]*,[ \t]*\/\/[^\n]*$/gm)) {
      if (names.includes(match[1]!)) described.add(match[1]!);
    }
  }
  return described;
}

/** Paragraphs of a page that name a reporter option without linking to the reference: `name: paragraph`. */
export function unlinkedMentions(text: string, names: readonly string[]): string[] {
  const problems: string[] = [];
  for (const paragraph of parts(text).paragraphs) {
    if (REFERENCE_LINK.test(paragraph)) continue;
    for (const name of names) {
      const span = `\`${name}\``;
      const mentioned = SHARED_NAMES.has(name)
        ? new RegExp(`reporter options? ${span}|${span} reporter option`).test(paragraph)
        : paragraph.includes(span);
      if (mentioned) problems.push(`${name}: ${paragraph.split('\n')[0]!.slice(0, 100)}…`);
    }
  }
  return problems;
}

/** The option names of the reference's Options section (its code block). */
function referenceOptions(text: string): string[] {
  const section = text.split(/^## /m).find((part) => part.startsWith('Options\n'));
  if (section === undefined) throw new Error(`${REFERENCE} has no "## Options" section`);
  const block = parts(section).blocks[0] ?? '';
  return [...block.matchAll(/^[ \t]{2}([A-Za-z]+):/gm)].map((match) => match[1]!);
}

const NAMES = [...REPORTER_OPTION_NAMES] as string[];

describe('the reporter options in the docs', () => {
  it('the reference lists every option the reporters accept, once, and no other', () => {
    const listed = referenceOptions(pages().find((page) => page.name === REFERENCE)!.text);
    expect([...listed].sort()).toEqual([...NAMES].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('each option is described on exactly one page, the reference', () => {
    const describedOn = new Map<string, string[]>(NAMES.map((name) => [name, []]));
    for (const page of pages())
      for (const name of describedOptions(page.text, NAMES)) describedOn.get(name)!.push(page.name);
    expect(Object.fromEntries(describedOn)).toEqual(Object.fromEntries(NAMES.map((name) => [name, [REFERENCE]])));
  });

  it('other pages that name a reporter option link to the reference', () => {
    const problems = pages()
      .filter((page) => page.name !== REFERENCE)
      .flatMap((page) => unlinkedMentions(page.text, NAMES).map((problem) => `${page.name}: ${problem}`));
    expect(problems).toEqual([]);
  });
});

describe('the check itself', () => {
  const page = [
    '# Guide',
    '',
    'Set `failOnNew` to fail on new questions.',
    '',
    'The reporter option `tolerance` is 0.01 by default; see [Options](baselines-and-ci.md#options).',
    '',
    '`compare` takes `tolerance` too.',
    '',
    '```ts',
    '{',
    '  failOnNew: true,   // fail on new questions',
    "  baseline: 'b.json',",
    '}',
    '```',
  ].join('\n');

  it('finds a description outside the reference, and a mention without the link', () => {
    expect([...describedOptions(page, NAMES)]).toEqual(['failOnNew']);
    expect(unlinkedMentions(page, NAMES)).toEqual(['failOnNew: Set `failOnNew` to fail on new questions.…']);
  });

  it('a shared name counts only when the paragraph calls it a reporter option', () => {
    expect(unlinkedMentions('The reporter option `seed` is 42.', NAMES)).toEqual([
      'seed: The reporter option `seed` is 42.…',
    ]);
    expect(unlinkedMentions('`toNotRegressFrom` takes `seed`.', NAMES)).toEqual([]);
  });
});
