// No module of src/ or matchers/ reaches itself through its imports, type imports included: a cycle is
// how layers start to loop back (docs/architecture.md). ESLint (eslint.config.js) keeps the folders'
// directions; this test catches the cycles inside a folder, which no folder rule can see.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

// A cycle known when this test was written, owned by another piece of work. Remove an entry when its cycle
// is gone (the test says so).
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
    const files = [...sourceFiles('src'), ...sourceFiles('matchers')];
    const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(join(root, file), 'utf8'))]));
    const cycles = cyclesOf(graph).map((cycle) => cycle.join(' <-> '));
    expect(cycles, 'import cycles').toEqual([]);
  });
});
