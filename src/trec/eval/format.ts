// trec_eval's output format, reproduced exactly: `printf("%-22s\t%s\t%6.4f\n", measure, qid, value)`
// for measures and `%ld` for counts. C's printf rounds the exact binary value of a double to the
// nearest decimal and breaks exact ties to even (glibc, round-to-nearest mode); JavaScript's
// toFixed breaks ties away from zero. The two differ only on exact ties such as 0.03125 → "0.0312".

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);

/** `%.<digits>f` as glibc's printf writes it (round half to even on exact ties). */
export function formatFixed(value: number, digits: number): string {
  // A NaN here is always trec_eval's 0/0 (11pt_avg, iprec_at_recall with nothing ranked): on x86-64 that
  // makes the default NaN, whose sign bit is set, and glibc prints it as "-nan".
  if (!Number.isFinite(value)) return Number.isNaN(value) ? '-nan' : value > 0 ? 'inf' : '-inf';
  // Fast path for a measure value: scale, round, and insert the point. value · 10^digits is off by at
  // most an ulp, so away from a half-way point (more than 1e-6 from it) the rounding is the exact one.
  if (value >= 0 && value < 1e6 && digits >= 1 && digits <= 8) {
    const scaled = value * (POWERS_OF_TEN[digits] as number);
    const rounded = Math.round(scaled);
    if (Math.abs(scaled - rounded) < 0.5 - 1e-6) {
      const text = String(rounded).padStart(digits + 1, '0');
      return `${text.slice(0, text.length - digits)}.${text.slice(text.length - digits)}`;
    }
  }
  const rounded = value.toFixed(digits);
  if (!isExactTie(value, digits)) return rounded;
  // An exact tie: value · 10^digits = n + ½. toFixed chose the n + 1 away from zero; C picks the even one.
  const scaled = BigInt(Math.abs(value) * 2 ** (digits + 1)) * 5n ** BigInt(digits); // = 2n + 1
  const lower = (scaled - 1n) / 2n;
  const chosen = lower % 2n === 0n ? lower : lower + 1n;
  return withDecimalPoint(chosen, digits, value < 0 || Object.is(value, -0));
}

/**
 * True when value · 10^digits lies exactly halfway between two integers. A double is a dyadic
 * rational, so that happens exactly when value · 2^(digits+1) is an odd integer.
 */
const POWERS_OF_TWO = Array.from({ length: 64 }, (_, exponent) => 2 ** exponent);

function isExactTie(value: number, digits: number): boolean {
  const scaled = Math.abs(value) * (POWERS_OF_TWO[digits + 1] ?? 2 ** (digits + 1)); // exact: a power of two
  return scaled % 2 === 1 && scaled < Number.MAX_SAFE_INTEGER;
}

function withDecimalPoint(integer: bigint, digits: number, negative: boolean): string {
  let text = integer.toString();
  if (digits > 0) {
    text = text.padStart(digits + 1, '0');
    text = `${text.slice(0, text.length - digits)}.${text.slice(text.length - digits)}`;
  }
  return negative ? `-${text}` : text;
}

/** `%-22s`: the measure name padded on the right to 22 characters (longer names are not cut). */
export function measureColumn(name: string): string {
  return name.length >= 22 ? name : name.padEnd(22);
}

const BYTE_SPACE = 0x20;
const BYTE_DOT = 0x2e;
const BYTE_ZERO = 0x30;
const BYTE_TAB = 0x09;
const BYTE_NEWLINE = 0x0a;

/**
 * Lines of output as UTF-8 bytes in one growing buffer: what `-q` prints (600,000 lines for 20,000
 * queries) is written here directly, without a string per line, and a worker thread hands its
 * buffer over to the main thread without a copy.
 */
export class ByteLines {
  bytes: Buffer;
  length = 0;

  constructor(capacity = 1 << 16) {
    // Never from Node's shared pool: the buffer may be transferred to another thread.
    this.bytes = Buffer.allocUnsafeSlow(capacity);
  }

  /** Room for `more` bytes. */
  reserve(more: number): void {
    const needed = this.length + more;
    if (needed <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafeSlow(capacity);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Appends a string as UTF-8. */
  text(text: string): void {
    this.reserve(text.length * 3);
    this.length += this.bytes.write(text, this.length, 'utf8');
  }

  /** Appends bytes (short pieces: a loop beats subarray + set). */
  append(source: Uint8Array, start = 0, end = source.length): void {
    this.reserve(end - start);
    const bytes = this.bytes;
    let length = this.length;
    for (let index = start; index < end; index++) bytes[length++] = source[index] as number;
    this.length = length;
  }

  /** `%6.<digits>f`, as formatFixed and padded to six characters. */
  fixed(value: number, digits: number): void {
    this.reserve(FAST_VALUE_BYTES);
    const end = writeFixed(this.bytes, this.length, value, digits);
    if (end !== -1) this.length = end;
    else this.text(paddedFixed(value, digits));
  }

  /** `%ld` of a count. */
  count(value: number): void {
    this.reserve(FAST_VALUE_BYTES);
    const end = writeCount(this.bytes, this.length, value);
    if (end !== -1) this.length = end;
    else this.text(String(value));
  }

  tab(): void {
    this.reserve(1);
    this.bytes[this.length++] = BYTE_TAB;
  }

  newline(): void {
    this.reserve(1);
    this.bytes[this.length++] = BYTE_NEWLINE;
  }
}

/** Room that writeFixed and writeCount need. */
export const FAST_VALUE_BYTES = 24;

function paddedFixed(value: number, digits: number): string {
  const text = formatFixed(value, digits);
  return text.length >= 6 ? text : text.padStart(6);
}

/**
 * Writes `%6.<digits>f` of the usual measure value (0 ≤ value < 10^6, 1–8 decimals, away from an
 * exact tie) at bytes[at…] and returns where it ends; -1 (nothing written) for any other value,
 * which formatFixed then writes. Same digits as formatFixed's own fast path.
 */
export function writeFixed(bytes: Uint8Array, at: number, value: number, digits: number): number {
  if (!(value >= 0 && value < 1e6 && digits >= 1 && digits <= 8)) return -1;
  const power = POWERS_OF_TEN[digits] as number;
  const scaled = value * power;
  const rounded = Math.round(scaled);
  if (!(Math.abs(scaled - rounded) < 0.5 - 1e-6)) return -1;
  let whole = Math.floor(rounded / power);
  let fraction = rounded - whole * power;
  let wholeDigits = 1;
  for (let rest = whole; rest >= 10; rest = Math.floor(rest / 10)) wholeDigits++;
  for (let pad = wholeDigits + 1 + digits; pad < 6; pad++) bytes[at++] = BYTE_SPACE;
  const dot = at + wholeDigits;
  for (let position = dot - 1; position >= at; position--) {
    const digit = whole % 10;
    bytes[position] = BYTE_ZERO + digit;
    whole = (whole - digit) / 10;
  }
  bytes[dot] = BYTE_DOT;
  const end = dot + digits + 1;
  for (let position = end - 1; position > dot; position--) {
    const digit = fraction % 10;
    bytes[position] = BYTE_ZERO + digit;
    fraction = (fraction - digit) / 10;
  }
  return end;
}

/** Writes `%ld` of a count (a whole number, 0 ≤ count < 10^15) at bytes[at…]; -1 for anything else. */
export function writeCount(bytes: Uint8Array, at: number, value: number): number {
  if (!(Number.isInteger(value) && value >= 0 && value < 1e15)) return -1;
  let digitCount = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digitCount++;
  const end = at + digitCount;
  let rest = value;
  for (let position = end - 1; position >= at; position--) {
    const digit = rest % 10;
    bytes[position] = BYTE_ZERO + digit;
    rest = (rest - digit) / 10;
  }
  return end;
}
