// Turns every ```ts sample in README.md and docs/*.md into a test file under test/docs/generated/,
// so the docs cannot drift from the API. Samples fenced as ```ts no-run are skipped (fragments).
// A sample that declares its own tests (test/it/describe/describeRetrieval) runs as written; any other sample runs as
// the body of one test, with its import lines hoisted to the top of the file. Every import of the
// package in any fence (no-run and JavaScript ones too) also goes into imports.ts, which tsc checks
// against the entries (scripts/doc-imports.mjs). A data fence with a file name (```jsonl file=questions.jsonl)
// is written beside the samples under that name, for a sample that reads it.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { importsModule } from './doc-imports.mjs';

const outputDirectory = 'test/docs/generated';
const sources = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

rmSync(outputDirectory, { recursive: true, force: true });
mkdirSync(outputDirectory, { recursive: true });

const fence = /^```(ts|typescript)([^\n]*)\n([\s\S]*?)^```/gm;
let count = 0;
for (const source of sources) {
  const text = readFileSync(source, 'utf8');
  let index = 0;
  for (const match of text.matchAll(fence)) {
    index++;
    const info = match[2].trim();
    if (/\bno-run\b/.test(info)) continue;
    const code = match[3];
    const line = text.slice(0, match.index).split('\n').length;
    const name = `${basename(source, '.md')}-${String(index).padStart(2, '0')}.test.ts`;
    writeFileSync(join(outputDirectory, name), wrap(code, `${source}:${line}`));
    count++;
  }
}
// A data file a sample reads (```jsonl file=questions.jsonl) is written next to the samples, as shown.
const dataFence = /^```\w+[ \t]+file=([\w.-]+)[ \t]*\n([\s\S]*?)^```/gm;
for (const source of sources) {
  for (const match of readFileSync(source, 'utf8').matchAll(dataFence))
    writeFileSync(join(outputDirectory, match[1]), match[2]);
}
writeFileSync(
  join(outputDirectory, 'imports.ts'),
  importsModule(sources.map((source) => ({ source, markdown: readFileSync(source, 'utf8') }))),
);
console.log(`extracted ${count} doc samples and the imports of every page into ${outputDirectory}`);

function wrap(code, origin) {
  const header = `// Generated from ${origin} by scripts/extract-doc-samples.mjs. Edit the doc, not this file.\n`;
  if (/^\s*(test|it|describe|describeRetrieval)(\.\w+)*\(/m.test(code)) return header + code;
  const lines = code.split('\n');
  const imports = [];
  const body = [];
  let inImport = false;
  for (const line of lines) {
    if (inImport || /^import\s/.test(line)) {
      imports.push(line);
      inImport = !/;\s*$/.test(line) && !/from\s+['"][^'"]+['"]\s*$/.test(line);
    } else body.push(line);
  }
  return `${header}import { test as __docTest } from 'vitest';\n${imports.join('\n')}\n\n__docTest(${JSON.stringify(`sample at ${origin} runs`)}, async () => {\n${body.map((line) => (line ? `  ${line}` : line)).join('\n')}\n});\n`;
}
