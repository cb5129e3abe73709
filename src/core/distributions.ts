// Student's t CDF and the standard normal quantile, the two distribution functions stats.ts needs.
// Written here rather than bundled from @stdlib (see docs/decisions.md, "Distribution functions written
// here"); test/unit/core/distributions.test.ts holds them to published values.

/** P(T ≤ t) for Student's t with `degreesOfFreedom` > 0 degrees of freedom. */
export function studentTCdf(t: number, degreesOfFreedom: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  // F(−|t|) = ½·I_x(ν/2, ½) with x = ν/(ν + t²); computed for the lower tail, so small p keeps its digits.
  const lowerTail =
    0.5 * regularizedIncompleteBeta(degreesOfFreedom / (degreesOfFreedom + t * t), degreesOfFreedom / 2, 0.5);
  return t <= 0 ? lowerTail : 1 - lowerTail;
}

/** I_x(a, b), the regularized incomplete beta function (Numerical Recipes §6.4: continued fraction). */
function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  // The continued fraction converges fast for x < (a + 1)/(a + b + 2); beyond, use I_x(a, b) = 1 − I_{1−x}(b, a).
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaContinuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * betaContinuedFraction(1 - x, b, a)) / b;
}

const TINY = 1e-300;

/** Modified Lentz evaluation of the incomplete beta continued fraction. */
function betaContinuedFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let result = d;
  for (let m = 1; m <= 100_000; m++) {
    const twoM = 2 * m;
    const even = (m * (b - m) * x) / ((a + twoM - 1) * (a + twoM));
    d = 1 + even * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + even / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    result *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + twoM) * (a + twoM + 1));
    d = 1 + odd * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + odd / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    result *= step;
    if (Math.abs(step - 1) < 1e-16) return result;
  }
  throw new Error(`the incomplete beta function did not converge for x = ${x}, a = ${a}, b = ${b}.`);
}

// Lanczos approximation, g = 7, n = 9 (relative error below 1e-15 for positive arguments).
const LANCZOS_G = 7;
const LANCZOS_COEFFICIENTS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406, 12.507343278686905,
  -0.13857109526572012, 0.000009984369578019572, 1.5056327351493116e-7,
];

function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const shifted = x - 1;
  let sum = LANCZOS_COEFFICIENTS[0]!;
  for (let i = 1; i < LANCZOS_COEFFICIENTS.length; i++) sum += LANCZOS_COEFFICIENTS[i]! / (shifted + i);
  const base = shifted + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(base) - base + Math.log(sum);
}

/** The standard normal quantile Φ⁻¹(p), 0 < p < 1 (Wichura's AS 241, PPND16: about 1e-16 relative). */
export function standardNormalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return Number.NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (q * polynomial(CENTRAL_NUMERATOR, r)) / polynomial(CENTRAL_DENOMINATOR, r);
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let value: number;
  if (r <= 5) {
    r -= 1.6;
    value = polynomial(NEAR_NUMERATOR, r) / polynomial(NEAR_DENOMINATOR, r);
  } else {
    r -= 5;
    value = polynomial(FAR_NUMERATOR, r) / polynomial(FAR_DENOMINATOR, r);
  }
  return q < 0 ? -value : value;
}

/** c[0] + c[1]·x + c[2]·x² + … (Horner). */
function polynomial(coefficients: readonly number[], x: number): number {
  let value = 0;
  for (let i = coefficients.length - 1; i >= 0; i--) value = value * x + coefficients[i]!;
  return value;
}

const CENTRAL_NUMERATOR = [
  3.3871328727963665, 133.14166789178438, 1971.5909503065513, 13731.69376550946, 45921.95393154987, 67265.7709270087,
  33430.57558358813, 2509.0809287301227,
];
const CENTRAL_DENOMINATOR = [
  1, 42.31333070160091, 687.1870074920579, 5394.196021424751, 21213.794301586597, 39307.89580009271, 28729.085735721943,
  5226.495278852546,
];
const NEAR_NUMERATOR = [
  1.4234371107496835, 4.630337846156546, 5.769497221460691, 3.6478483247632045, 1.2704582524523684, 0.2417807251774506,
  0.022723844989269184, 0.0007745450142783414,
];
const NEAR_DENOMINATOR = [
  1, 2.053191626637759, 1.6763848301838038, 0.6897673349851, 0.14810397642748008, 0.015198666563616457,
  0.0005475938084995345, 1.0507500716444169e-9,
];
const FAR_NUMERATOR = [
  6.657904643501103, 5.463784911164114, 1.7848265399172913, 0.29656057182850487, 0.026532189526576124,
  0.0012426609473880784, 0.000027115555687434876, 2.0103343992922881e-7,
];
const FAR_DENOMINATOR = [
  1, 0.599832206555888, 0.1369298809227358, 0.014875361290850615, 0.0007868691311456133, 0.000018463183175100548,
  1.421511758316446e-7, 2.0442631033899397e-15,
];
