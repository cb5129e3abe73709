// The asserting line of a test: the first frame of a stack in the test's file, in V8's two frame forms.
import { describe, expect, it } from 'vitest';

import { callSiteLine, lineInStack } from '../../../src/recording/call-site.js';

const STACK = [
  'Error',
  '    at QuestionRecorder.record (/repo/node_modules/rag-matchers/dist/index.js:812:20)',
  '    at Object.toHaveRecallAtK (/repo/node_modules/rag-matchers/dist/index.js:1404:9)',
  '    at /repo/test/faq.test.ts:14:18',
  '    at Object.<anonymous> (/repo/test/faq.test.ts:30:5)',
].join('\n');

describe('lineInStack', () => {
  it('reads the innermost frame in the file, bare or in parentheses', () => {
    expect(lineInStack(STACK, '/repo/test/faq.test.ts')).toBe(14);
    expect(lineInStack(STACK.replace('    at /repo/test/faq.test.ts:14:18\n', ''), '/repo/test/faq.test.ts')).toBe(30);
  });

  it('is undefined when no frame is in the file, or the file is only a prefix of one', () => {
    expect(lineInStack(STACK, '/repo/test/other.test.ts')).toBeUndefined();
    expect(lineInStack(STACK, '/repo/test/faq.test')).toBeUndefined();
  });
});

describe('callSiteLine', () => {
  it('finds the calling line in this very file', () => {
    const line = callSiteLine(new URL(import.meta.url).pathname);
    expect(line).toBe(28);
  });
});

describe('callSiteLine under a runner that formats stacks', () => {
  it('gives the runner only the frame in the test file to format (source-mapped as the runner does it)', () => {
    const runnerFormat = Error.prepareStackTrace;
    expect(runnerFormat).toBeTypeOf('function'); // Vitest source-maps stacks through it
    const framesFormatted: number[] = [];
    Error.prepareStackTrace = (error, sites) => {
      framesFormatted.push(sites.length);
      return runnerFormat!(error, sites);
    };
    try {
      expect(callSiteLine(new URL(import.meta.url).pathname)).toBe(43);
    } finally {
      Error.prepareStackTrace = runnerFormat;
    }
    expect(framesFormatted).toEqual([1]);
  });
});

describe('callSiteLine called again from one place', () => {
  it('formats a raw frame once: a loop of tests asks its runner to source-map the line once', () => {
    const runnerFormat = Error.prepareStackTrace;
    const framesFormatted: number[] = [];
    Error.prepareStackTrace = (error, sites) => {
      framesFormatted.push(sites.length);
      return runnerFormat!(error, sites);
    };
    const file = new URL(import.meta.url).pathname;
    try {
      const lines: (number | undefined)[] = [];
      for (let test = 0; test < 3; test++) lines.push(callSiteLine(file));
      lines.push(callSiteLine(file));
      expect(lines).toEqual([62, 62, 62, 63]);
    } finally {
      Error.prepareStackTrace = runnerFormat;
    }
    // The loop's frame once, the line after it once.
    expect(framesFormatted).toEqual([1, 1]);
  });
});

describe('callSiteLine with the test frame deep in the stack', () => {
  it('looks further down when the first frames it captures hold none in the file', () => {
    // 25 frames of code that is in no file between callSiteLine and this test's frame.
    const callThrough = new Function(
      'callSiteLine',
      'file',
      'const through = (n) => (n === 0 ? callSiteLine(file) : through(n - 1)); return through(25);',
    ) as (find: typeof callSiteLine, file: string) => number | undefined;
    expect(callThrough(callSiteLine, new URL(import.meta.url).pathname)).toBe(81);
  });
});

describe('callSiteLine in a new run of the test file', () => {
  it('formats its raw frames anew (watch mode: an edited file runs again in the same worker)', () => {
    const runnerFormat = Error.prepareStackTrace;
    const framesFormatted: number[] = [];
    Error.prepareStackTrace = (error, sites) => {
      framesFormatted.push(sites.length);
      return runnerFormat!(error, sites);
    };
    const file = new URL(import.meta.url).pathname;
    const firstRun = {};
    const secondRun = {};
    try {
      const lines: (number | undefined)[] = [];
      for (const run of [firstRun, firstRun, secondRun]) lines.push(callSiteLine(file, run));
      expect(lines).toEqual([98, 98, 98]);
    } finally {
      Error.prepareStackTrace = runnerFormat;
    }
    // Once for the first run, once again for the second.
    expect(framesFormatted).toEqual([1, 1]);
  });
});
