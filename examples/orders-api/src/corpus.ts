import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One `## Heading <!-- id: some-id -->` section of the Orders API documentation. */
export interface Section {
  /** Stable kebab-case id written in the heading line; the unit the questions are judged against. */
  id: string;
  /** Path of the markdown file, relative to the corpus directory (e.g. `07-orders.md`). */
  file: string;
  title: string;
  /** The section body, without its heading. */
  text: string;
}

export const defaultCorpusDir = fileURLToPath(new URL('../corpus/', import.meta.url));

const HEADING = /^## (.+?)\s*<!--\s*id:\s*([^\s]+)\s*-->\s*$/;
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Reads every `*.md` file of the corpus, in file-name order, and splits it into `##` sections. */
export function loadCorpus(dir: string = defaultCorpusDir): Section[] {
  const sections: Section[] = [];
  const seen = new Set<string>();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  for (const file of files) {
    let current: { id: string; title: string; lines: string[] } | undefined;
    const flush = () => {
      if (current) sections.push({ id: current.id, file, title: current.title, text: current.lines.join('\n').trim() });
    };
    readFileSync(join(dir, file), 'utf8')
      .split(/\r?\n/)
      .forEach((line, i) => {
        if (!line.startsWith('## ')) {
          current?.lines.push(line);
          return;
        }
        const match = HEADING.exec(line);
        if (!match) throw new Error(`${file}:${i + 1}: section heading without an id comment: ${line}`);
        const [, title = '', id = ''] = match;
        if (!KEBAB.test(id)) throw new Error(`${file}:${i + 1}: section id "${id}" is not kebab-case`);
        if (seen.has(id)) throw new Error(`${file}:${i + 1}: duplicate section id "${id}"`);
        seen.add(id);
        flush();
        current = { id, title, lines: [] };
      });
    flush();
  }
  return sections;
}
