/** Formats a value for an error message: strings quoted, the rest as JSON where possible, cut when long. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value instanceof Map) return `a Map of ${value.size}`;
  if (value instanceof Set) return `a Set of ${value.size}`;
  try {
    const json = JSON.stringify(value);
    return json.length > 80 ? `${json.slice(0, 77)}...` : json;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** How many levels of a value jsonPreview spells out; deeper objects and arrays show as {…} and […]. */
const PREVIEW_DEPTH = 3;

/**
 * JSON of `value` for an error message, cut to `maxLength` characters ("..." at the end). Its cost is
 * bounded however deep or wide the value is: levels below PREVIEW_DEPTH show as {…} and […], and
 * members stop once the text is long enough (JSON.stringify of a value nested 5,000 deep throws
 * RangeError: Maximum call stack size exceeded).
 */
export function jsonPreview(value: unknown, maxLength = 60): string {
  const json = previewOf(value, 0, maxLength + 1);
  return json.length > maxLength ? `${json.slice(0, maxLength - 3)}...` : json;
}

function previewOf(value: unknown, depth: number, budget: number): string {
  if (typeof value === 'string') return JSON.stringify(value.length > budget ? value.slice(0, budget) : value);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? String(value);
  const isArray = Array.isArray(value);
  if (depth === PREVIEW_DEPTH) return isArray ? '[…]' : '{…}';
  const record = value as Record<string, unknown>;
  const keys = isArray ? undefined : Object.keys(record);
  const count = keys === undefined ? (value as unknown[]).length : keys.length;
  const members: string[] = [];
  let length = 2;
  for (let index = 0; index < count && length <= budget; index += 1) {
    const member =
      keys === undefined
        ? previewOf((value as unknown[])[index], depth + 1, budget - length)
        : `${JSON.stringify(keys[index])}:${previewOf(record[keys[index]!], depth + 1, budget - length)}`;
    members.push(member);
    length += member.length + 1;
  }
  return isArray ? `[${members.join(',')}]` : `{${members.join(',')}}`;
}
