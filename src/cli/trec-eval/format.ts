// trec_eval's output format, reproduced exactly: `printf("%-22s\t%s\t%6.4f\n", measure, qid, value)`
// for measures and `%ld` for counts. C's printf rounds the exact binary value of a double to the
// nearest decimal and breaks exact ties to even (glibc, round-to-nearest mode); JavaScript's
// toFixed breaks ties away from zero. The two differ only on exact ties such as 0.03125 → "0.0312".

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);

/** `%.<digits>f` as glibc's printf writes it (round half to even on exact ties). */
export function formatFixed(value: number, digits: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
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

/** One line of trec_eval output for a float measure: `%-22s\t%s\t%6.<digits>f\n`. */
export function trecValueLine(name: string, queryId: string, value: number, digits = 4): string {
  return `${measureColumn(name)}\t${queryId}\t${formatFixed(value, digits).padStart(6)}\n`;
}

/** One line of trec_eval output for a count: `%-22s\t%s\t%ld\n`. */
export function trecCountLine(name: string, queryId: string, count: number): string {
  return `${measureColumn(name)}\t${queryId}\t${Math.trunc(count)}\n`;
}
