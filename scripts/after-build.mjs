// Fixes the bundled declarations where the declaration bundler and the CommonJS output disagree.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { compactGlue } from './compact-glue.mjs';

// 1. The declaration bundler drops triple-slash references; rag-matchers/jest augments the 'expect'
// module (behind @jest/globals), which must be part of the user's program for the augmentation to apply.
const reference = '/// <reference types="expect" />\n';
for (const file of ['dist/jest.d.ts', 'dist/jest.d.cts']) {
  const text = readFileSync(file, 'utf8');
  if (!text.startsWith(reference)) writeFileSync(file, reference + text);
}

// 2. An entry whose only value is its default export is emitted as `module.exports = Reporter` (what
// Jest's and Vitest's reporter loaders want from require), but its .d.cts says `export default`: under
// node16 CommonJS, TypeScript would then ask for a `.default` that is not there. Say `export =`, with the
// entry's type exports kept in a namespace of the same name.
export function toExportEquals(declarations) {
  const exportLine = /^export \{ ([^}]*) \};\s*$/m;
  const match = exportLine.exec(declarations);
  if (match === null) return undefined;
  const names = match[1].split(',').map((name) => name.trim());
  const defaults = names.filter((name) => name.endsWith(' as default'));
  if (defaults.length !== 1) return undefined;
  const main = defaults[0].replace(/ as default$/, '');
  const typeNames = names.filter((name) => !name.endsWith(' as default'));
  let text = declarations;
  const aliases = [];
  for (const name of typeNames) {
    // Imported under a private name, re-exported from the namespace under the public one.
    const imported = new RegExp(`\\b(\\w+) as ${name}\\b`);
    if (!imported.test(text)) return undefined;
    text = text
      .replace(imported, `$1 as ${name}_`)
      .replace(new RegExp(`(?<![.\\w])${name}(?![\\w_])`, 'g'), `${name}_`);
    aliases.push(`    export type ${name} = ${name}_;`);
  }
  const body = aliases.length === 0 ? '' : `declare namespace ${main} {\n${aliases.join('\n')}\n}\n`;
  return text.replace(exportLine, `${body}export = ${main};\n`);
}

for (const entry of ['vitest-reporter', 'jest-reporter']) {
  const javascript = readFileSync(`dist/${entry}.cjs`, 'utf8');
  if (!/^module\.exports = \w+;\s*$/m.test(javascript)) continue;
  const file = `dist/${entry}.d.cts`;
  if (/^export = \w+;$/m.test(readFileSync(file, 'utf8'))) continue; // already rewritten
  const rewritten = toExportEquals(readFileSync(file, 'utf8'));
  if (rewritten === undefined)
    throw new Error(`after-build: ${file} has no "export { …, X as default }" line to turn into "export =".`);
  writeFileSync(file, rewritten);
}

// 3. rag-matchers/vitest only augments the 'vitest' module. Written in a .d.cts, `declare module 'vitest'`
// would resolve 'vitest' as require does (vitest's index.d.cts, a re-export) and add nothing to the
// declarations that every test file sees; the CommonJS declarations therefore pull in the ESM ones,
// whose 'vitest' is the one that counts, under either module mode.
writeFileSync(
  'dist/vitest.d.cts',
  "// Pulls in the ESM declarations: their `declare module 'vitest'` is the one that augments what tests import.\n" +
    '/// <reference path="./vitest.d.ts" />\nexport {};\n',
);

// 4. The command (bin: dist/cli.js) and the worker its trec-eval starts run as ESM, and tsup.config.ts
// builds the CommonJS for the library's entries alone, so every .cjs file should be one a `require`
// export reaches. Kept as a guard: a CommonJS file no `require` export reaches is removed (the tarball's
// size budget is 1.5 MB unpacked).
const packageJson = JSON.parse(readFileSync('package.json', 'utf8'));
const requireTargets = Object.values(packageJson.exports)
  .map((target) => (typeof target === 'object' && target.require ? target.require.default : undefined))
  .filter((target) => typeof target === 'string' && target.endsWith('.cjs'))
  .map((target) => target.replace(/^\.\/dist\//, ''));
const reached = new Set();
const pending = [...requireTargets];
while (pending.length > 0) {
  const file = pending.pop();
  if (reached.has(file)) continue;
  reached.add(file);
  for (const match of readFileSync(`dist/${file}`, 'utf8').matchAll(
    /(?:require|import)\(\s*['"]\.\/([^'"]+\.cjs)['"]\)/g,
  ))
    pending.push(match[1]);
}
for (const file of readdirSync('dist')) {
  if (file.endsWith('.cjs') && !reached.has(file)) rmSync(`dist/${file}`);
}

// 5. The declaration chunks (types-…, jsonl-…: everything but the entries) are written once per format,
// the same text under different hashes. Keep the CommonJS copy and point the ESM declarations at it:
// ESM may import CommonJS declarations under every resolution mode (the reverse is refused by older
// TypeScript with TS1479), and no chunk declares a module, so the augmentations stay in the entries.
// A chunk whose two copies differ is left alone.
const entryNames = new Set(Object.keys(packageJson.exports).map((path) => (path === '.' ? 'index' : path.slice(2))));
entryNames.add('cli').add('trec-eval-worker');
const chunkName = (file) => file.replace(/\.d\.c?ts$/, '');
const chunkPrefix = (file) => chunkName(file).replace(/-[\w-]{8}$/, '');
const declarationChunks = (extension) =>
  readdirSync('dist').filter((file) => file.endsWith(extension) && !entryNames.has(chunkName(file)));
function sharedChunkRenames(esmChunks, cjsChunks) {
  const renames = new Map();
  for (const esm of esmChunks) {
    const prefix = chunkPrefix(esm);
    const candidates = cjsChunks.filter((cjs) => chunkPrefix(cjs) === prefix);
    const esmOfSamePrefix = esmChunks.filter((other) => chunkPrefix(other) === prefix);
    if (candidates.length === 1 && esmOfSamePrefix.length === 1) renames.set(chunkName(esm), chunkName(candidates[0]));
  }
  return renames;
}
const pointAtCommonJs = (text, renames) =>
  text.replace(/from '\.\/([\w-]+)\.js'|import '\.\/([\w-]+)\.js'/g, (whole, fromName, sideName) => {
    const target = renames.get(fromName ?? sideName);
    return target === undefined ? whole : whole.replace(`./${fromName ?? sideName}.js`, `./${target}.cjs`);
  });
// Shared only if identical once every shared chunk is renamed: repeated until no pair drops out, so that
// no ESM chunk is kept beside the CommonJS copy of a chunk it imports (two declarations of one type).
let sharedRenames = sharedChunkRenames(declarationChunks('.d.ts'), declarationChunks('.d.cts'));
for (let dropped = true; dropped;) {
  const kept = [...sharedRenames].filter(
    ([esm, cjs]) =>
      pointAtCommonJs(readFileSync(`dist/${esm}.d.ts`, 'utf8'), sharedRenames) ===
      readFileSync(`dist/${cjs}.d.cts`, 'utf8'),
  );
  dropped = kept.length < sharedRenames.size;
  sharedRenames = new Map(kept);
}
for (const file of readdirSync('dist').filter((name) => name.endsWith('.d.ts'))) {
  if (sharedRenames.has(chunkName(file))) rmSync(`dist/${file}`);
  else writeFileSync(`dist/${file}`, pointAtCommonJs(readFileSync(`dist/${file}`, 'utf8'), sharedRenames));
}

// 6. An entry whose ESM and CommonJS declarations are now the same text (index, report, …) ships it once:
// its .d.ts re-exports the .d.cts. Not for an entry with a default export (`export *` leaves it out) or
// a module augmentation, which must stay in an ESM file.
for (const file of readdirSync('dist').filter((name) => name.endsWith('.d.cts'))) {
  const esmFile = `dist/${chunkName(file)}.d.ts`;
  if (!entryNames.has(chunkName(file)) || !existsSync(esmFile)) continue;
  const declarations = readFileSync(`dist/${file}`, 'utf8');
  if (declarations !== readFileSync(esmFile, 'utf8')) continue;
  if (/\bas default\b|^export default|^export =|^declare module/m.test(declarations)) continue;
  writeFileSync(esmFile, `export * from './${chunkName(file)}.cjs';\n`);
}

// 7. The glue that tsup's tree-shaking pass (Rollup) writes between the chunks comes out laid out, while
// esbuild minified the whitespace of everything else (docs/decisions.md, "Minification of the built
// JavaScript"): the ESM import and export statements, the CommonJS re-export getters, and the name of
// each CommonJS chunk's module object (`chunkXXXXXXXX_cjs`, used at every cross-chunk reference). Written
// here as esbuild writes its own; names and line breaks between statements stay. About 10 KB.
for (const file of readdirSync('dist').filter((name) => name.endsWith('.js') || name.endsWith('.cjs'))) {
  const text = readFileSync(`dist/${file}`, 'utf8');
  const compacted = compactGlue(file, text);
  if (compacted !== text) writeFileSync(`dist/${file}`, compacted);
}
