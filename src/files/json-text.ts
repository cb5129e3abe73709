// Reading JSON text a person may have edited: where it nests too deep, which key it repeats (JSON.parse
// keeps the last silently), and where it stops being JSON, as a line and column the way editors count.
// No file access: the readers of each format (the baseline's in src/baseline/file/read.ts) call these.

/**
 * How deep the readers of JSON files let a file nest (scanJsonText): far deeper than any file
 * rag-matchers writes, far below what would strain the checks that walk the parsed value.
 */
export const MAX_JSON_NESTING = 64;

/** What one pass over JSON text found: where it nests too deep, and whether findRepeatedKey would find a key. */
export interface JsonTextScan {
  /** Offset of the first `{` or `[` that opens level `limit + 1` (strings skipped); undefined when none does. */
  tooDeep: number | undefined;
  repeatsKey: boolean;
}

/**
 * Where `text` first nests beyond `limit`, and whether an object of valid JSON `text` repeats a key, in
 * one pass that keeps one set of keys per depth (reused) rather than a record per array and object: a
 * reader that finds a repeat calls findRepeatedKey for the key and where it is. The scan stops at the
 * first level beyond `limit`.
 */
export function scanJsonText(text: string, limit: number): JsonTextScan {
  // keysAt[depth]: the keys of the object open at that depth, or undefined for an array.
  const keysAt: (Set<string> | undefined)[] = [];
  const setsAt: Set<string>[] = [];
  let depth = 0;
  let expectKey = false;
  let repeatsKey = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      const end = closingQuote(text, i + 1);
      if (expectKey && !repeatsKey) {
        const keys = keysAt[depth]!;
        const escaped = holdsBackslash(text, i + 1, end);
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (keys.has(key)) repeatsKey = true;
        else keys.add(key);
      }
      expectKey = false;
      i = end;
    } else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > limit) return { tooDeep: i, repeatsKey };
      if (code === 0x7b) {
        const keys = (setsAt[depth] ??= new Set());
        keys.clear();
        keysAt[depth] = keys;
        expectKey = true;
      } else {
        keysAt[depth] = undefined;
        expectKey = false;
      }
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
      expectKey = false;
    } else if (code === 0x2c) {
      expectKey = keysAt[depth] !== undefined;
    }
  }
  return { tooDeep: undefined, repeatsKey };
}

/** Whether text[from, end) holds a backslash (a key is short: a look at each of its characters). */
function holdsBackslash(text: string, from: number, end: number): boolean {
  for (let index = from; index < end; index++) if (text.charCodeAt(index) === 0x5c) return true;
  return false;
}

/**
 * Where the string whose contents start at `from` ends: its closing quote, the first one not escaped
 * (after an even run of backslashes); text.length when it is not closed. The search runs in the engine's
 * string search rather than a character at a time: most of a baseline's characters are in strings.
 */
function closingQuote(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}

/**
 * The first key that occurs twice in one object of valid JSON `text`, with the path of that object
 * (`rows[2]`) and the offset of the repeat; undefined when there is none.
 */
export function findRepeatedKey(text: string): { key: string; path: string; offset: number } | undefined {
  // A level's place in its parent (the key it sits under) is kept raw and formatted only for a repeat.
  interface Level {
    keys: Set<string> | undefined;
    expectKey: boolean;
    key: string;
    index: number;
  }
  const stack: Level[] = [];
  const pathOf = (): string =>
    stack
      .map((level, depth) => {
        const parent = stack[depth - 1];
        if (parent === undefined) return '';
        if (parent.keys === undefined) return `[${parent.index}]`;
        return /^[A-Za-z_$][\w$]*$/.test(level.key) ? `.${level.key}` : `[${JSON.stringify(level.key)}]`;
      })
      .join('')
      .replace(/^\./, '');
  let lastKey = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      let end = i + 1;
      let escaped = false;
      while (end < text.length && text.charCodeAt(end) !== 0x22) {
        if (text.charCodeAt(end) === 0x5c) {
          escaped = true;
          end++;
        }
        end++;
      }
      const top = stack[stack.length - 1];
      if (top?.keys !== undefined && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (top.keys.has(key)) return { key, path: pathOf(), offset: i };
        top.keys.add(key);
        top.expectKey = false;
        lastKey = key;
      }
      i = end;
      continue;
    }
    if (code === 0x7b || code === 0x5b) {
      const parent = stack[stack.length - 1];
      const key = parent?.keys === undefined ? '' : lastKey;
      stack.push({ keys: code === 0x7b ? new Set() : undefined, expectKey: code === 0x7b, key, index: 0 });
    } else if (code === 0x7d || code === 0x5d) {
      stack.pop();
    } else if (code === 0x2c) {
      const top = stack[stack.length - 1]!;
      if (top.keys === undefined) top.index++;
      else top.expectKey = true;
    }
  }
  return undefined;
}

export function lineAndColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: index - lineStart + 1 };
}

/** Says what was wrong and where (line, column), the way editors count. */
export function describeJsonError(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  // V8 gives "… in JSON at position N" for some errors only; the scanner finds the offset for all.
  const position = /^(.*?)\s*in JSON at position (\d+)/s.exec(message);
  const index = position ? Number(position[2]) : findJsonErrorOffset(text);
  const reason = position
    ? position[1]!
    : index >= text.length
      ? 'unexpected end of the file'
      : `unexpected ${JSON.stringify(String.fromCodePoint(text.codePointAt(index)!))}`;
  const { line, column } = lineAndColumn(text, index);
  return `${reason} at line ${line}, column ${column}`;
}

/**
 * Offset of the first character that makes `text` invalid JSON (text.length when it ends too early).
 * Only called after JSON.parse failed, to point at the problem.
 */
export function findJsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string): void => {
    for (const character of word) {
      if (text[i] !== character) fail();
      i++;
    }
  };
  const string = (): void => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i++;
        return;
      }
      if (code < 0x20) fail();
      if (code === 0x5c) {
        i++;
        const escape = text[i];
        if (escape === 'u') {
          for (let digit = 1; digit <= 4; digit++) {
            if (!/[0-9a-fA-F]/.test(text[i + digit] ?? '')) {
              i += digit;
              fail();
            }
          }
          i += 5;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) fail();
      }
      i++;
    }
    fail();
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) fail();
    i += match![0].length;
  };
  const key = (): void => {
    space();
    string();
    space();
    if (text[i] !== ':') fail();
    i++;
  };
  // Iterative, with a stack of the closing brackets still due: a file nested 100,000 levels deep costs
  // an array of that length, not as many stack frames.
  const closers: string[] = [];
  try {
    for (;;) {
      space();
      const character = text[i];
      if (character === '{' || character === '[') {
        const closer = character === '{' ? '}' : ']';
        i++;
        space();
        if (text[i] !== closer) {
          closers.push(closer);
          if (closer === '}') key();
          continue;
        }
        i++;
      } else if (character === '"') string();
      else if (character === 't') literal('true');
      else if (character === 'f') literal('false');
      else if (character === 'n') literal('null');
      else number();
      // After a value: close what ends here, then a comma starts the next value.
      for (;;) {
        space();
        if (closers.length === 0) {
          if (i < text.length) fail();
          return text.length;
        }
        if (text[i] === ',') {
          i++;
          if (closers[closers.length - 1] === '}') key();
          break;
        }
        if (text[i] !== closers[closers.length - 1]) fail();
        i++;
        closers.pop();
      }
    }
  } catch (offset) {
    if (typeof offset === 'number') return Math.min(offset, text.length);
    throw offset;
  }
}
