// The one reader of the baseline file: every command and both reporters read it here, so a damaged file
// gets the same diagnosis everywhere (empty, not JSON at line:column, conflict markers with the command
// that resolves them, a byte-order mark and CRLF line ends read as any editor writes them, truncated,
// too old, too new, not a baseline at all). The format is in ./types.ts; ./upgrade.ts brings each version
// read to the current one.

import fs from 'node:fs';

import {
  describeJsonError,
  findRepeatedKey,
  lineAndColumn,
  MAX_JSON_NESTING,
  scanJsonText,
} from '../../files/json-text.js';
import { describeConflictMarkers } from '../conflict-markers.js';
import { ACCEPT_HINT, BaselineError, assertBaselinePath } from './errors.js';
import {
  BASELINE_GENERATED_BY,
  BASELINE_SCHEMA_VERSION,
  OLDEST_READ_SCHEMA_VERSION,
  type BaselineFile,
} from './types.js';
import { upgradeRows } from './upgrade.js';

const TOP_LEVEL_KEYS = ['generatedBy', 'schemaVersion'];
/** How deep a baseline nests: file, rows, row, its describe path or its audit. */
const BASELINE_NESTING = 4;

interface ParseBaselineOptions {
  /** `path` is git's `<commit>:<file>`: a version in history, whose conflict markers nothing can resolve now. */
  committed?: boolean;
}

/**
 * Reads baseline text. `path` is used in messages only. Throws BaselineError for an empty file, text that
 * is not JSON (with line and column; conflict markers with the command that resolves them), JSON that is
 * not a rag-matchers baseline (the only case of kind 'not-a-baseline'), a baseline of an older or newer
 * schema, and malformed entries (naming the entry).
 */
export function parseBaseline(text: string, path: string, options: ParseBaselineOptions = {}): BaselineFile {
  if (typeof text !== 'string') {
    throw new TypeError(
      `parseBaseline: text must be a string (the file's contents), got ${text === null ? 'null' : typeof text}.`,
    );
  }
  if (typeof path !== 'string' || path.length === 0) {
    throw new TypeError('parseBaseline: path must be a non-empty string; it names the file in error messages.');
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim().length === 0) {
    throw new BaselineError(
      path,
      'empty',
      `the file is empty${body.length > 0 ? ' (only whitespace)' : ''}, so it holds no baseline; ${ACCEPT_HINT}.`,
    );
  }
  const conflict = describeConflictMarkers(body, path, options.committed === true);
  if (conflict !== undefined) throw new BaselineError(path, 'invalid-json', conflict);
  // One pass finds both a nesting too deep (checked before parsing) and whether a key repeats (after).
  const scan = scanJsonText(body, MAX_JSON_NESTING);
  const tooDeep = scan.tooDeep;
  if (tooDeep !== undefined) {
    const { line, column } = lineAndColumn(body, tooDeep);
    throw new BaselineError(
      path,
      'malformed',
      `nests objects and arrays more than ${MAX_JSON_NESTING} levels deep (line ${line}, column ${column}); a baseline nests ${BASELINE_NESTING}; ${ACCEPT_HINT}.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    throw new BaselineError(
      path,
      'invalid-json',
      `not valid JSON: ${describeJsonError(error, body)}; ${ACCEPT_HINT}.`,
      { cause: error },
    );
  }
  // JSON.parse keeps the last of repeated keys; a baseline with two values for one key is ambiguous.
  const repeated = scan.repeatsKey ? findRepeatedKey(body) : undefined;
  if (repeated !== undefined) {
    const { line } = lineAndColumn(body, repeated.offset);
    throw new BaselineError(
      path,
      'malformed',
      `line ${line}: the key ${JSON.stringify(repeated.key)} appears twice in ${repeated.path === '' ? 'the top-level object' : repeated.path}, so its value is ambiguous; keep one of the two; ${ACCEPT_HINT}.`,
    );
  }
  return validateBaseline(data, path);
}

/** Checks an already-parsed value; see parseBaseline. */
export function validateBaseline(data: unknown, path: string): BaselineFile {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new BaselineError(
      path,
      'not-a-baseline',
      `not a rag-matchers baseline: expected a JSON object with "generatedBy": "rag-matchers", found ${Array.isArray(data) ? 'an array' : data === null ? 'null' : typeof data}. Check the \`baseline\` option points at the right file.`,
    );
  }
  const top = data as Record<string, unknown>;
  if (top.generatedBy !== BASELINE_GENERATED_BY || !('schemaVersion' in top)) {
    const found = Object.keys(top)
      .slice(0, 5)
      .map((key) => JSON.stringify(key))
      .join(', ');
    throw new BaselineError(
      path,
      'not-a-baseline',
      `not a rag-matchers baseline: expected "generatedBy": "rag-matchers" and a "schemaVersion", found ${found.length > 0 ? `keys ${found}` : 'an empty object'}. Check the \`baseline\` option points at the right file.`,
    );
  }
  const version = top.schemaVersion;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    throw new BaselineError(
      path,
      'malformed',
      `"schemaVersion" must be a whole number ≥ 1, found ${JSON.stringify(version)}; ${ACCEPT_HINT}.`,
    );
  }
  if (version < OLDEST_READ_SCHEMA_VERSION) {
    throw new BaselineError(
      path,
      'older-schema',
      `written in baseline schema version ${version}, which rag-matchers no longer reads (it reads versions ${OLDEST_READ_SCHEMA_VERSION} to ${BASELINE_SCHEMA_VERSION}); delete it and record a new one with RAG_BASELINE=update (e.g. RAG_BASELINE=update npx vitest run). The file was left as it is.`,
    );
  }
  if (version > BASELINE_SCHEMA_VERSION) {
    throw new BaselineError(
      path,
      'newer-schema',
      `written by a newer rag-matchers (baseline schema version ${version}; this version reads up to ${BASELINE_SCHEMA_VERSION}); upgrade rag-matchers. The file was left as it is.`,
    );
  }
  for (const key of Object.keys(top)) {
    if (!TOP_LEVEL_KEYS.includes(key) && key !== 'rows') {
      throw new BaselineError(
        path,
        'malformed',
        `unknown top-level key ${JSON.stringify(key)}; a baseline holds only "generatedBy", "schemaVersion" and "rows" (an update would drop it, so it is refused rather than lost).`,
      );
    }
  }
  return upgradeRows(top.rows, path, version);
}

/** Reads and checks the baseline at `path`; undefined when there is no file there. */
export async function readBaseline(path: string): Promise<BaselineFile | undefined> {
  assertBaselinePath(path, 'readBaseline');
  return (await readBaselineAndText(path))?.file;
}

/** readBaseline, with the text it read (an update compares it with what it would write). */
async function readBaselineAndText(path: string): Promise<{ file: BaselineFile; text: string } | undefined> {
  const text = await readBaselineText(path);
  return text === undefined ? undefined : { file: parseBaseline(text, path), text };
}

/** The baseline file's text, unparsed; undefined when there is no file there (other read errors throw BaselineError). */
export async function readBaselineText(path: string): Promise<string | undefined> {
  try {
    return await fs.promises.readFile(path, 'utf8');
  } catch (error) {
    return handleReadError(error, path);
  }
}

/** The version of a file a read saw: what tells a later look whether the file changed since. */
type FileVersion = string;

function versionOf(path: string): FileVersion {
  try {
    const stat = fs.statSync(path, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch (error) {
    return `missing:${(error as { code?: unknown } | null)?.code ?? ''}`;
  }
}

/** A baseline read ahead of need (while the tests run); `current()` gives what readBaseline would give now. */
export interface BaselineReadAhead {
  current(): Promise<BaselineFile | undefined>;
}

/**
 * Starts reading the baseline at `path` now. `current()` returns that read when the file is still the
 * version it saw (same inode, size, modification and change times), else reads it again: a baseline
 * edited, replaced or removed in the meantime is read as it is at the end.
 */
export function readBaselineAhead(path: string): BaselineReadAhead {
  assertBaselinePath(path, 'readBaselineAhead');
  const version = versionOf(path);
  const early = readBaseline(path).then(
    (file) => ({ file }),
    (error: unknown) => ({ error }),
  );
  return {
    async current() {
      const outcome = await early;
      if (versionOf(path) !== version) return readBaseline(path);
      if ('error' in outcome) throw outcome.error;
      return outcome.file;
    },
  };
}

/** Synchronous twin of readBaseline. */
export function readBaselineSync(path: string): BaselineFile | undefined {
  assertBaselinePath(path, 'readBaselineSync');
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    return handleReadError(error, path);
  }
  return parseBaseline(text, path);
}

function handleReadError(error: unknown, path: string): undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return undefined;
  if (code === 'EISDIR')
    throw new BaselineError(
      path,
      'unreadable',
      'is a directory, not a baseline file; point the `baseline` option at a file such as rag-baseline.json.',
      { cause: error },
    );
  throw new BaselineError(
    path,
    'unreadable',
    `cannot be read (${error instanceof Error ? error.message : String(error)}).`,
    { cause: error },
  );
}
