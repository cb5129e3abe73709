// Rollup's glue between the built chunks, written as esbuild's minifyWhitespace writes the rest (step 7 of
// scripts/after-build.mjs; docs/decisions.md, "Minification of the built JavaScript").

/** `file`'s text with Rollup's glue written without layout (idempotent; anything else is left as it is). */
export function compactGlue(file, text) {
  if (file.endsWith('.cjs'))
    return text
      .replace(
        /Object\.defineProperty\(exports, "(\w+)", \{\n\tenumerable: true,\n\tget: function \(\) \{ return (\w+)\.(\w+); \}\n\}\);/g,
        'Object.defineProperty(exports,"$1",{enumerable:!0,get:()=>$2.$3});',
      )
      .replace(/\bchunk([A-Z0-9]{8})_cjs\b/g, 'chunk$1');
  const lines = text.split('\n');
  // The statements before the first line of code (after a #! line), and the last line's export list.
  let index = lines[0]?.startsWith('#!') ? 1 : 0;
  for (; index < lines.length; index++) {
    const compact = compactModuleStatement(lines[index]);
    if (compact === undefined) break;
    lines[index] = compact;
  }
  let last = lines.length - 1;
  while (last > index && lines[last] === '') last--;
  if (last > index && /^export \{ [^}]*\};$/.test(lines[last])) lines[last] = compactModuleStatement(lines[last]);
  return lines.join('\n');
}

function compactModuleStatement(line) {
  const names = (list) => `{${list.split(', ').join(',')}}`;
  let match;
  if ((match = /^(import|export) \{ ([^}]*) \} from '([^'\\]+)';$/.exec(line)))
    return `${match[1]}${names(match[2])}from"${match[3]}";`;
  if ((match = /^import (\w+|\* as \w+) from '([^'\\]+)';$/.exec(line))) return `import ${match[1]} from"${match[2]}";`;
  if ((match = /^import (\w+), \{ ([^}]*) \} from '([^'\\]+)';$/.exec(line)))
    return `import ${match[1]},${names(match[2])}from"${match[3]}";`;
  if ((match = /^import '([^'\\]+)';$/.exec(line))) return `import"${match[1]}";`;
  if ((match = /^export \* from '([^'\\]+)';$/.exec(line))) return `export*from"${match[1]}";`;
  if ((match = /^export \{ ([^}]*) \};$/.exec(line))) return `export${names(match[1])};`;
  if (line === '' || /^(import|export)[{*"]|^import \w+(,\{| from")/.test(line)) return line;
  return undefined;
}
