/** Formats a value for a usage-error message: strings quoted and cut when long, the rest by type. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value instanceof RegExp) return String(value);
  if (value instanceof Set) return `a Set of ${value.size}`;
  try {
    const json = JSON.stringify(value);
    return json.length > 80 ? `${json.slice(0, 77)}...` : json;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Cuts a model reply or HTTP body for an error message, saying how much was left out. */
export function truncateForMessage(text: string, maxLength = 300): string {
  if (text.length <= maxLength) return text;
  return `${text.slice(0, maxLength)}… (${text.length - maxLength} more characters)`;
}
