// Rollup's glue between the built chunks, written as esbuild's minifyWhitespace writes the rest (step 7 of
// scripts/after-build.mjs; docs/decisions.md, "Minification of the built JavaScript").

/** `file`'s text with Rollup's glue written without layout (idempotent; anything else is left as it is). */
export function compactGlue(file, text) {
  if (file.endsWith('.cjs')) {
    const compacted = text
      .replace(
        /Object\.defineProperty\(exports, "(\w+)", \{\n\tenumerable: true,\n\tget: function \(\) \{ return (\w+)\.(\w+); \}\n\}\);/g,
        'Object.defineProperty(exports,"$1",{enumerable:!0,get:()=>$2.$3});',
      )
      .replace(/\bchunk([A-Z0-9]{8})_cjs\b/g, 'chunk$1');
    return file.startsWith('chunk-') ? withOneExportAssignment(compacted) : compacted;
  }
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

/**
 * A CommonJS chunk's closing `exports.a = a;` lines as one `Object.assign(exports,{a,…});`: the same values
 * set in the same order once the chunk's code has run (about 6 KB less). Only chunks, which only our own
 * chunks and entries require: an entry's `exports.a =` lines are what Node's CommonJS export detection
 * reads when an ES module imports it.
 */
function withOneExportAssignment(text) {
  const lines = text.split('\n');
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  let start = end;
  const properties = [];
  for (let match; start > 0 && (match = /^exports\.([\w$]+) = ([\w$.]+);$/.exec(lines[start - 1])); start--)
    properties.unshift(match[1] === match[2] ? match[1] : `${match[1]}:${match[2]}`);
  if (properties.length === 0) return text;
  // Broken after a comma past 160 characters, as esbuild's lineLimit breaks the rest.
  const assignment = [`Object.assign(exports,{${properties[0]}`];
  for (const property of properties.slice(1)) {
    if (assignment[assignment.length - 1].length >= 160) assignment.push(property);
    else assignment[assignment.length - 1] += `,${property}`;
  }
  assignment[assignment.length - 1] += '});';
  lines.splice(start, end - start, assignment.join(',\n'));
  return lines.join('\n');
}
