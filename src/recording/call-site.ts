// Where in its test file a test's first recording matcher was called, so that an annotation can point at
// the asserting line with the runners' default configuration (no includeTaskLocation, no
// testLocationInResults). Worked out once per test attempt: reading an Error's stack formats it (and
// source-maps it under Vitest), which is too slow for every matcher call; and of that stack only the
// frame in the test file is formatted when it can be found first, and a raw frame only once.

/**
 * Set by a reporter whose run shows no annotation and leaves no samples for a later merge to annotate
 * (not under GitHub Actions, or `annotations: false`): the line is then looked up for nothing. It holds
 * the reporter's process id, so that the variable, inherited by a test run that a test starts, speaks
 * only for the run that set it: its workers are that process (threads, Jest in band) or its children.
 */
const NO_LINES_ENV = 'RAG_MATCHERS_NO_CALL_SITES';

/** Tells the test workers whether an asserting line will be used; call before they start. */
export function publishCallSiteLines(wanted: boolean, env: Record<string, string | undefined> = process.env): void {
  if (wanted) delete env[NO_LINES_ENV];
  else env[NO_LINES_ENV] = String(process.pid);
  if (env === process.env) wantedInThisProcess = undefined;
}

/** This process's answer, worked out once: its environment is fixed once its tests run (see publishedDeclaration). */
let wantedInThisProcess: boolean | undefined;

/** Whether a reporter of this run may use the asserting line (none said otherwise). */
export function callSiteLinesWanted(env: Record<string, string | undefined> = process.env): boolean {
  if (env !== process.env) return linesWantedBy(env[NO_LINES_ENV]);
  wantedInThisProcess ??= linesWantedBy(env[NO_LINES_ENV]);
  return wantedInThisProcess;
}

/** `reporterProcess`: the variable's value; it speaks for this process and the children of that one. */
function linesWantedBy(reporterProcess: string | undefined): boolean {
  return (
    reporterProcess === undefined ||
    (reporterProcess !== String(process.pid) && reporterProcess !== String(process.ppid))
  );
}

/** Frames kept while capturing: the test's own frame sits below the runner's and the matcher's. */
const CAPTURE_DEPTH = 50;
/**
 * Frames captured first (V8 builds an object for each): a hand-written matcher call's test frame is the
 * 11th under Vitest 5 and the 10th under Jest 30 (the library's own frames, then the runner's expect);
 * the whole CAPTURE_DEPTH only when it is not within these.
 */
const FIRST_CAPTURE_DEPTH = 14;

/**
 * The line of the innermost frame of the current stack in `filePath`; undefined when none is. `fileRun`
 * stands for this run of the test file (Vitest's file task: a new object each time the file runs, in watch
 * mode too), so that an edited file run again in the same worker has its lines looked up anew.
 */
export function callSiteLine(filePath: string, fileRun?: object): number | undefined {
  const site = siteIn(filePath, FIRST_CAPTURE_DEPTH) ?? siteIn(filePath, CAPTURE_DEPTH);
  return site === undefined ? lineOfFormattedStack(filePath) : formattedLine(site, filePath, fileRun);
}

/** The most raw frames whose formatted line is remembered (a worker runs a few test files). */
const FORMATTED_LINES_KEPT = 10_000;

/**
 * Raw frame → its formatted line, for one formatter and one run of the test file. Tests written in a loop
 * (test.each, a list of questions, describeRetrieval) call from one raw position: formatting (source-mapping)
 * it once is enough. Without a file run (Jest), the module itself lives for one test file: Jest loads it
 * anew into each test file's module registry.
 */
let formattedLines = new Map<string, number | undefined>();
let linesFormatter: unknown;
let linesFileRun: object | undefined;

function formattedLine(site: NodeJS.CallSite, filePath: string, fileRun: object | undefined): number | undefined {
  const format = Error.prepareStackTrace;
  if (linesFormatter !== format || linesFileRun !== fileRun || formattedLines.size >= FORMATTED_LINES_KEPT) {
    formattedLines = new Map();
    linesFormatter = format;
    linesFileRun = fileRun;
  }
  const key = `${site.getLineNumber()}:${site.getColumnNumber()}:${filePath}`;
  if (formattedLines.has(key)) return formattedLines.get(key);
  // The runners format a stack by source-mapping every frame: only this frame when the formatter is at
  // hand (Vitest); under Jest it is outside the test's realm (the test's Error has none), and the
  // runtime formats the whole stack with it.
  let line: number | undefined;
  if (format !== undefined) {
    const frame: unknown = format(new Error(), [site]);
    line = typeof frame === 'string' ? lineInStack(frame, filePath) : undefined;
  }
  line ??= lineOfFormattedStack(filePath);
  formattedLines.set(key, line);
  return line;
}

/** The innermost raw frame in `filePath` among the current stack's first `depth` frames. */
function siteIn(filePath: string, depth: number): NodeJS.CallSite | undefined {
  return rawCallSites(depth)?.find((candidate) => candidate.getFileName()?.includes(filePath) === true);
}

/** The current stack's frames as V8 gives them to a formatter, unformatted; undefined when that cannot be had. */
function rawCallSites(depth: number): NodeJS.CallSite[] | undefined {
  const format = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  const holder: { stack?: unknown } = {};
  let sites: unknown;
  try {
    Error.stackTraceLimit = depth;
    Error.prepareStackTrace = (_error, callSites) => callSites;
    Error.captureStackTrace(holder, rawCallSites);
    sites = holder.stack; // formatted when first read, by the formatter in place then
  } finally {
    Error.prepareStackTrace = format;
    Error.stackTraceLimit = limit;
  }
  return Array.isArray(sites) ? (sites as NodeJS.CallSite[]) : undefined;
}

/** callSiteLine the long way: the whole stack formatted (and source-mapped) as the runtime does it. */
function lineOfFormattedStack(filePath: string): number | undefined {
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
