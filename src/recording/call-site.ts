// Where in its test file a test's first recording matcher was called, so that an annotation can point at
// the asserting line with the runners' default configuration (no includeTaskLocation, no
// testLocationInResults). Worked out once per test attempt: reading an Error's stack formats it (and
// source-maps it under Vitest), which is too slow for every matcher call.

/** Frames kept while capturing: the test's own frame sits below the runner's and the matcher's. */
const CAPTURE_DEPTH = 50;

/** The line of the innermost frame of the current stack in `filePath`; undefined when none is. */
export function callSiteLine(filePath: string): number | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = CAPTURE_DEPTH;
  let stack: string | undefined;
  try {
    stack = new Error().stack;
  } finally {
    Error.stackTraceLimit = limit;
  }
  return stack === undefined ? undefined : lineInStack(stack, filePath);
}

/** The line of the first frame of `stack` (V8's format) in `filePath`: `at … (/path/file.ts:12:7)`. */
export function lineInStack(stack: string, filePath: string): number | undefined {
  for (const frame of stack.split('\n')) {
    const at = frame.lastIndexOf(filePath);
    if (at < 0) continue;
    const position = /^:(\d+):\d+\)?\s*$/.exec(frame.slice(at + filePath.length));
    if (position !== null) return Number(position[1]);
  }
  return undefined;
}
