import type { MatcherCall } from './hint.js';
import { argumentError, usageError } from './usage-error.js';

/** The options argument: a plain object, or `{}` when left out. `example` is shown as `such as …`. */
export function checkOptions<T extends object>(call: MatcherCall, options: unknown, example?: string): T {
  if (options === undefined) return {} as T;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    const requirement = example === undefined ? 'must be an object' : `must be an object such as ${example}`;
    throw argumentError(call, 'options', requirement, options);
  }
  return options as T;
}

/** Option names outside `known` are a usage error that lists the known ones. */
export function checkKnownOptions(call: MatcherCall, options: object, known: readonly string[]): void {
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) {
      throw usageError(call, `unknown option ${JSON.stringify(name)}; known: ${known.join(', ')}`);
    }
  }
}

/** `options.query`, the question's text: a string that is not blank, or left out. */
export function checkQuery(call: MatcherCall, query: unknown): string | undefined {
  if (query !== undefined && (typeof query !== 'string' || query.trim() === '')) {
    throw argumentError(
      call,
      'options.query',
      "must be the question's text (a string that is not blank)",
      query,
      'query',
    );
  }
  return query;
}

/** `options.queryId`, which groups a recorded sample under its question: a string or left out. */
export function checkQueryId(call: MatcherCall, queryId: unknown): string | undefined {
  if (queryId !== undefined && typeof queryId !== 'string') {
    throw argumentError(call, 'options.queryId', 'must be a string', queryId, 'queryId');
  }
  return queryId;
}

/**
 * `options.tags`, the question's tags (`['billing']`): a list of non-empty strings, or left out. Returned
 * sorted, each once; undefined when left out or empty.
 */
export function checkTags(call: MatcherCall, tags: unknown): string[] | undefined {
  if (tags === undefined) return undefined;
  if (!Array.isArray(tags))
    throw argumentError(call, 'options.tags', "must be a list of strings such as ['billing']", tags, 'tags');
  const bad = tags.findIndex((tag) => typeof tag !== 'string' || tag.trim() === '');
  if (bad !== -1)
    throw argumentError(
      call,
      `options.tags[${bad}]`,
      'must be a non-empty string (a tag such as "billing")',
      tags[bad],
      `tags[${bad}]`,
    );
  return tags.length === 0 ? undefined : [...new Set(tags as string[])].sort();
}
