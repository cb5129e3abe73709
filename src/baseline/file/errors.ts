// What is wrong with a baseline file, said once: the error every reader throws, and the hint that ends
// each message about a damaged file.

import { jsonPreview } from '../../core/describe.js';

export type BaselineErrorKind =
  'unreadable' | 'empty' | 'invalid-json' | 'not-a-baseline' | 'older-schema' | 'newer-schema' | 'malformed' | 'locked';

/** A baseline file that cannot be used. The message names the path and what was wrong; the file is never overwritten. */
export class BaselineError extends Error {
  override name = 'BaselineError';
  readonly path: string;
  readonly kind: BaselineErrorKind;
  readonly problem: string;

  constructor(path: string, kind: BaselineErrorKind, problem: string, options?: { cause?: unknown }) {
    super(`${path}: ${problem}`, options);
    this.path = path;
    this.kind = kind;
    this.problem = problem;
  }
}

export const ACCEPT_HINT =
  'fix it by hand, restore it from version control (git checkout -- <file>), or delete it and record a new one with RAG_BASELINE=update';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function malformedEntry(
  path: string,
  suite: string,
  keys: string[],
  value: unknown,
  expected: string,
): BaselineError {
  const where = `${suite}${keys.map((key) => `[${JSON.stringify(key)}]`).join('')}`;
  return new BaselineError(
    path,
    'malformed',
    `${where} must be ${expected}, found ${describeJson(value)}; ${ACCEPT_HINT}.`,
  );
}

export function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return 'an array';
  return jsonPreview(value);
}

/** Throws a TypeError naming `caller` unless `path` is a non-empty string. */
export function assertBaselinePath(path: unknown, caller: string): asserts path is string {
  if (typeof path !== 'string' || path.length === 0) {
    throw new TypeError(
      `${caller}: path must be a non-empty string (the baseline file, e.g. rag-baseline.json), got ${JSON.stringify(path)}.`,
    );
  }
}
