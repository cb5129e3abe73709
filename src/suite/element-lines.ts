// Where each question of a JSON array file starts, so that an annotation can point at it: one pass over
// the text after JSON.parse accepted it, counting lines and tracking strings and nesting.

/** The 1-based line on which each element of the top-level JSON array `text` starts, in order. */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let awaitingElement = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (character === '\n') {
      line++;
      continue;
    }
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === ' ' || character === '\t' || character === '\r' || character === '\ufeff') continue;
    if (depth === 1 && awaitingElement && character !== ']') {
      lines.push(line);
      awaitingElement = false;
    }
    if (character === '"') inString = true;
    else if (character === '[' || character === '{') {
      depth++;
      if (depth === 1) awaitingElement = true;
    } else if (character === ']' || character === '}') depth--;
    else if (character === ',' && depth === 1) awaitingElement = true;
  }
  return lines;
}
