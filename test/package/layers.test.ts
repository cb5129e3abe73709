// The folders of src/ and matchers/ form a ladder (docs/architecture.md): each imports only folders
// above it, type imports included, with no exception; the entries import anything and nothing imports
// them. This test checks the code against the ladder, checks that ESLint's layer table
// (eslint.config.js, LAYER_IMPORTS, which flags a wrong import as it is written) allows nothing else,
// and checks that no module reaches itself through its imports, which no folder rule can see.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// @ts-expect-error -- eslint.config.js is JavaScript without declarations.
import { LAYER_IMPORTS } from '../../eslint.config.js';

const root = resolve(import.meta.dirname, '../..');

/** The ladder, top first: a folder imports only folders before it. */
const LADDER = [
  'core',
  'files',
  'recording',
  'generation',
  'trec',
  'dataset',
  'matchers',
  'suite',
  'baseline',
  'report',
  'gate',
  'vitest',
  'jest',
  'cli',
  'entries',
] as const;

/** The ladder folder of a source file: src/<folder>/…, matchers/…, or the entries (src/index.ts, src/entries/). */
export function folderOf(file: string): string {
  if (file.startsWith('matchers/')) return 'matchers';
  if (file === 'src/index.ts') return 'entries';
  return file.split('/')[1] ?? file;
}

/** The imports that go across folders against the ladder (or to a folder off it), as 'from -> to'. */
export function upwardImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const rung = (folder: string) => (LADDER as readonly string[]).indexOf(folder);
  const wrong: string[] = [];
  for (const [file, imports] of graph) {
    const from = folderOf(file);
    for (const target of imports) {
      if (!graph.has(target)) continue;
      const to = folderOf(target);
      if (to !== from && (rung(from) === -1 || rung(to) === -1 || rung(to) >= rung(from)))
        wrong.push(`${file} -> ${target}`);
    }
  }
  return wrong.sort();
}

function sourceFiles(directory: string): string[] {
  return readdirSync(join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path.split('\\').join('/')] : [];
  });
}

// import … from '…', import type …, export … from '…', import '…', import('…').
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.[^'"]+)['"]/g;

/** The project files a source file imports (relative specifiers only; `.js` names the `.ts` source). */
export function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((match) =>
    relative(root, resolve(root, dirname(file), match[1]!.replace(/\.js$/, '.ts')))
      .split('\\')
      .join('/'),
  );
}

/** The strongly connected components with more than one file (or a file importing itself), each sorted. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

function sourceGraph(): Map<string, string[]> {
  const files = [...sourceFiles('src'), ...sourceFiles('matchers')];
  return new Map(files.map((file) => [file, importsOf(file, readFileSync(join(root, file), 'utf8'))]));
}

describe('the ladder of src/ and matchers/', () => {
  it('finds an import against the ladder when there is one (the check can fail)', () => {
    const graph = new Map([
      ['src/trec/read.ts', ['src/dataset/errors.ts', 'src/core/ranking.ts', 'src/trec/grammar.ts']],
      ['src/dataset/errors.ts', ['src/trec/errors.ts']],
      ['src/core/ranking.ts', ['src/index.ts']],
      ['src/index.ts', ['src/cli/main.ts']],
      ['src/trec/grammar.ts', []],
      ['src/trec/errors.ts', []],
      ['src/cli/main.ts', []],
    ]);
    expect(upwardImports(graph)).toEqual([
      'src/core/ranking.ts -> src/index.ts',
      'src/trec/read.ts -> src/dataset/errors.ts',
    ]);
    expect(folderOf('matchers/support/hint.ts')).toBe('matchers');
    expect(folderOf('src/entries/trec.ts')).toBe('entries');
  });

  it('every folder of src/ has its rung', () => {
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !(LADDER as readonly string[]).includes(folder))).toEqual([]);
  });

  it('no import goes against the ladder, type imports included, with no exception', () => {
    expect(upwardImports(sourceGraph()), 'imports against the ladder').toEqual([]);
  });

  it("ESLint's layer table allows only folders above each layer, and names every layer but the entries", () => {
    const table = LAYER_IMPORTS as Record<string, string[]>;
    expect(Object.keys(table).sort()).toEqual(LADDER.filter((folder) => folder !== 'entries').sort());
    const rung = (folder: string) => (LADDER as readonly string[]).indexOf(folder);
    const against = Object.entries(table).flatMap(([layer, allowed]) =>
      allowed
        .filter((folder) => rung(folder) === -1 || rung(folder) >= rung(layer))
        .map((folder) => `${layer} -> ${folder}`),
    );
    expect(against).toEqual([]);
  });
});

describe('import graph of src/ and matchers/', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'x.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts', 'd.ts']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
    expect(
      importsOf(
        'src/report/json.ts',
        "import type { X } from '../recording/collected.js';\nexport { y } from './markdown.js';",
      ),
    ).toEqual(['src/recording/collected.ts', 'src/report/markdown.ts']);
  });

  it('has no cycle, type imports included', () => {
    const cycles = cyclesOf(sourceGraph()).map((cycle) => cycle.join(' <-> '));
    expect(cycles, 'import cycles').toEqual([]);
  });
});
