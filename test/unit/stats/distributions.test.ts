// The two distribution functions written in src/core/distributions.ts, held to closed forms and
// published table values (not to the code's own output).
import { describe, expect, it } from 'vitest';

import { standardNormalQuantile, studentTCdf } from '../../../src/core/distributions.js';

describe('studentTCdf', () => {
  it('equals the Cauchy CDF ½ + atan(t)/π at one degree of freedom', () => {
    expect(studentTCdf(-1, 1)).toBeCloseTo(0.25, 15);
    // ½ − atan(3)/π = 0.5 − 1.2490457723982544/3.141592653589793
    expect(studentTCdf(-3, 1)).toBeCloseTo(0.10241638234956674, 15);
    expect(studentTCdf(3, 1)).toBeCloseTo(0.89758361765043326, 15);
  });

  it('equals ½ + t/(2√(2 + t²)) at two degrees of freedom', () => {
    // ½ − 2/(2√6) = 0.5 − 0.40824829046386302
    expect(studentTCdf(-2, 2)).toBeCloseTo(0.09175170953613698, 15);
  });

  it('keeps the digits of a small lower tail: t = −40 at 2 degrees of freedom', () => {
    // ½ − 40/(2√1602) = 1/(2√1602·(√1602 + 40)) = 3.1220733609237…e−4
    expect(studentTCdf(-40, 2) / 3.122073360923703e-4).toBeCloseTo(1, 12);
  });

  it('gives the tail areas of the published critical values', () => {
    expect(studentTCdf(-2.228139, 10)).toBeCloseTo(0.025, 7); // t(0.975, 10) = 2.228139
    expect(studentTCdf(2.75, 30)).toBeCloseTo(0.995, 5); // t(0.995, 30) = 2.750
    expect(studentTCdf(-1.959964, 1_000_000)).toBeCloseTo(0.025, 6); // tends to the normal
  });

  it('is ½ at 0 and 0 or 1 at the infinities', () => {
    expect(studentTCdf(0, 7)).toBe(0.5);
    expect(studentTCdf(-Infinity, 7)).toBe(0);
    expect(studentTCdf(Infinity, 7)).toBe(1);
  });
});

describe('standardNormalQuantile', () => {
  it('gives the published quantiles', () => {
    expect(standardNormalQuantile(0.5)).toBe(0);
    expect(standardNormalQuantile(0.975)).toBeCloseTo(1.959963984540054, 14);
    expect(standardNormalQuantile(0.995)).toBeCloseTo(2.5758293035489004, 14);
    expect(standardNormalQuantile(0.025)).toBeCloseTo(-1.959963984540054, 14);
    expect(standardNormalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 13);
  });

  it('is −∞ at 0 and +∞ at 1', () => {
    expect(standardNormalQuantile(0)).toBe(-Infinity);
    expect(standardNormalQuantile(1)).toBe(Infinity);
  });
});
