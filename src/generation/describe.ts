import { describeValue as describeCoreValue } from '../core/describe.js';

/**
 * Formats a value for a usage-error message: the core's formatter (strings quoted and cut when long,
 * the rest by type), plus RegExps shown as written, since custom citation extractors are RegExps and
 * JSON would show them as {}.
 */
export function describeValue(value: unknown): string {
  return value instanceof RegExp ? String(value) : describeCoreValue(value);
}

/** Cuts a model reply or HTTP body for an error message, saying how much was left out. */
export function truncateForMessage(text: string, maxLength = 300): string {
  if (text.length <= maxLength) return text;
  return `${text.slice(0, maxLength)}… (${text.length - maxLength} more characters)`;
}
