// The one number parser of the TREC readers: integers and decimals read from spans of a text,
// without allocating a substring on the usual path.

const CHAR_PLUS = 43;
const CHAR_MINUS = 45;
const CHAR_DOT = 46;
const CHAR_ZERO = 48;
const CHAR_NINE = 57;
const CHAR_UPPER_E = 69;
const CHAR_LOWER_E = 101;

/** Integer value of text[start, end) (optional sign, decimal digits), or NaN. */
export function parseIntegerSpan(text: string, start: number, end: number): number {
  let position = start;
  const first = text.charCodeAt(position);
  if (first === CHAR_MINUS || first === CHAR_PLUS) position++;
  if (position >= end) return Number.NaN;
  let value = 0;
  for (; position < end; position++) {
    const digit = text.charCodeAt(position) - CHAR_ZERO;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  if (value > Number.MAX_SAFE_INTEGER) return Number.NaN;
  return first === CHAR_MINUS ? -value : value;
}

function isDecimalNumberChar(charCode: number): boolean {
  return (
    (charCode >= CHAR_ZERO && charCode <= CHAR_NINE) ||
    charCode === CHAR_DOT ||
    charCode === CHAR_MINUS ||
    charCode === CHAR_PLUS ||
    charCode === CHAR_LOWER_E ||
    charCode === CHAR_UPPER_E
  );
}

/** Exact powers of ten as doubles: 10^0 … 10^22 are all representable without rounding. */
const EXACT_POWERS_OF_TEN = Array.from({ length: 23 }, (_, exponent) => Number(`1e${exponent}`));
const MAX_EXACT_POWER = 22;

/**
 * Decimal number in text[start, end) (as C's strtod reads `1.5`, `-2`, `1.5e-3`), or NaN.
 * Only decimal notation is accepted: `Number` alone would also take `0x1F`, `0b1` and `Infinity`.
 *
 * Fast path without allocating a substring: when the digits form an integer m ≤ 2^53 and the decimal
 * exponent p satisfies |p| ≤ 22, m and 10^|p| are exact doubles, so one multiplication or division
 * gives the correctly rounded result (Clinger's fast path) — the same double as strtod or Number.
 * Anything else (more than 15–16 significant digits, huge exponents) goes through Number.
 */
export function parseDecimalSpan(text: string, start: number, end: number): number {
  let position = start;
  let charCode = text.charCodeAt(position);
  const negative = charCode === CHAR_MINUS;
  if (negative || charCode === CHAR_PLUS) position++;
  let mantissa = 0;
  let digitCount = 0;
  let fractionDigitCount = 0;
  for (; position < end; position++) {
    charCode = text.charCodeAt(position);
    const digit = charCode - CHAR_ZERO;
    if (digit < 0 || digit > 9) break;
    mantissa = mantissa * 10 + digit;
    digitCount++;
  }
  if (position < end && charCode === CHAR_DOT) {
    for (position++; position < end; position++) {
      charCode = text.charCodeAt(position);
      const digit = charCode - CHAR_ZERO;
      if (digit < 0 || digit > 9) break;
      mantissa = mantissa * 10 + digit;
      digitCount++;
      fractionDigitCount++;
    }
  }
  let exponent = 0;
  if (digitCount > 0 && position < end && (charCode === CHAR_LOWER_E || charCode === CHAR_UPPER_E)) {
    const exponentValue = parseIntegerSpan(text, position + 1, end);
    if (Number.isNaN(exponentValue)) return parseDecimalSlow(text, start, end);
    exponent = exponentValue;
    position = end;
  }
  if (digitCount === 0 || position !== end || mantissa > Number.MAX_SAFE_INTEGER) {
    return parseDecimalSlow(text, start, end);
  }
  const power = exponent - fractionDigitCount;
  let magnitude: number;
  if (power === 0) magnitude = mantissa;
  else if (power > 0 && power <= MAX_EXACT_POWER) magnitude = mantissa * (EXACT_POWERS_OF_TEN[power] as number);
  else if (power < 0 && power >= -MAX_EXACT_POWER) magnitude = mantissa / (EXACT_POWERS_OF_TEN[-power] as number);
  else return parseDecimalSlow(text, start, end);
  return negative ? -magnitude : magnitude;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function parseDecimalSlow(text: string, start: number, end: number): number {
  for (let position = start; position < end; position++) {
    if (!isDecimalNumberChar(text.charCodeAt(position))) return Number.NaN;
  }
  const slice = text.slice(start, end);
  return DECIMAL.test(slice) ? Number(slice) : Number.NaN;
}

/**
 * parseDecimalSpan's fast path over ASCII bytes (bytes[i] the character code at i): the same value
 * for a plain decimal number (`1.5`, `-2`, `1.5e-3`) whose digits form an integer ≤ 2^53 and whose
 * decimal exponent is within ±22, NaN for anything else, which the caller then reads with
 * parseDecimalSpan from the text (so every other case, and every error, has one definition).
 */
export function parseDecimalBytes(bytes: Uint8Array, start: number, end: number): number {
  let position = start;
  const negative = bytes[position] === CHAR_MINUS;
  if (negative || bytes[position] === CHAR_PLUS) position++;
  let mantissa = 0;
  const digitsStart = position;
  for (; position < end; position++) {
    const digit = (bytes[position] as number) - CHAR_ZERO;
    if (digit < 0 || digit > 9) break;
    mantissa = mantissa * 10 + digit;
  }
  let digitCount = position - digitsStart;
  let fractionDigitCount = 0;
  if (position < end && bytes[position] === CHAR_DOT) {
    const fractionStart = ++position;
    for (; position < end; position++) {
      const digit = (bytes[position] as number) - CHAR_ZERO;
      if (digit < 0 || digit > 9) break;
      mantissa = mantissa * 10 + digit;
    }
    fractionDigitCount = position - fractionStart;
    digitCount += fractionDigitCount;
  }
  let exponent = 0;
  if (digitCount > 0 && position < end && (bytes[position] === CHAR_LOWER_E || bytes[position] === CHAR_UPPER_E)) {
    exponent = parseIntegerBytes(bytes, position + 1, end);
    position = end;
  }
  if (digitCount === 0 || position !== end || mantissa > Number.MAX_SAFE_INTEGER) return Number.NaN;
  const power = exponent - fractionDigitCount;
  let magnitude: number;
  if (power === 0) magnitude = mantissa;
  else if (power > 0 && power <= MAX_EXACT_POWER) magnitude = mantissa * (EXACT_POWERS_OF_TEN[power] as number);
  else if (power < 0 && power >= -MAX_EXACT_POWER) magnitude = mantissa / (EXACT_POWERS_OF_TEN[-power] as number);
  else return Number.NaN; // also a NaN exponent: the comparisons above are false
  return negative ? -magnitude : magnitude;
}

/** parseIntegerSpan over ASCII bytes: the same value, or NaN. */
export function parseIntegerBytes(bytes: Uint8Array, start: number, end: number): number {
  let position = start;
  const first = bytes[position];
  if (first === CHAR_MINUS || first === CHAR_PLUS) position++;
  if (position >= end) return Number.NaN;
  let value = 0;
  for (; position < end; position++) {
    const digit = (bytes[position] as number) - CHAR_ZERO;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  if (value > Number.MAX_SAFE_INTEGER) return Number.NaN;
  return first === CHAR_MINUS ? -value : value;
}
