// Benchmark of the TREC run reader: parseRun vs a straightforward split-based parser, and
// streamRunByQuery over a file. Run with `npx tsx bench/trec-io.ts`.
//
// The run is generated deterministically (seeded PRNG): 20,000 queries × 100 hits = 2,000,000 lines.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

import type { RunEntry, TrecRun } from '../src/trec/index.js';
import { builtTrec } from './built.js';

const { parseRun, parseRunColumns, readRunFile, runFromColumns, streamRunByQuery } = builtTrec;

const QUERY_COUNT = 20_000;
const HITS_PER_QUERY = 100;
const REPETITIONS = 3;
const PRNG_SEED = 0x5eed_2024;

/** mulberry32: small, fast, deterministic. */
function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** A run with descending scores per query, random doc ids, some negative and exponent-notation scores. */
export function generateRunText(queryCount = QUERY_COUNT, hitsPerQuery = HITS_PER_QUERY, seed = PRNG_SEED): string {
  const random = createPrng(seed);
  const queryBlocks: string[] = [];
  for (let query = 1; query <= queryCount; query++) {
    const lines: string[] = [];
    let score = 20 + random() * 10;
    for (let rank = 1; rank <= hitsPerQuery; rank++) {
      const docId = `doc${Math.floor(random() * 10_000_000)}`;
      const scoreText = rank % 10 === 0 ? score.toExponential(4) : score.toFixed(4);
      lines.push(`q${query} Q0 ${docId} ${rank} ${scoreText} bench`);
      score -= random() * 0.5;
    }
    queryBlocks.push(lines.join('\n'));
  }
  queryBlocks.push(''); // ends the text with a newline; join keeps the string flat, as readFile returns it
  return queryBlocks.join('\n');
}

/** The obvious implementation, for comparison: split lines, trim, split on whitespace. */
export function referenceParseRun(text: string): TrecRun {
  const run: TrecRun = new Map();
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line.length === 0) continue;
    const columns = line.split(/\s+/);
    if (columns.length !== 6) throw new Error(`bad line: ${line}`);
    const [queryId = '', , docId = '', rankText, scoreText] = columns;
    const rank = Number(rankText);
    const score = Number(scoreText);
    if (!Number.isInteger(rank) || Number.isNaN(score)) throw new Error(`bad line: ${line}`);
    let entries = run.get(queryId);
    if (entries === undefined) {
      entries = [];
      run.set(queryId, entries);
    }
    entries.push({ docId, score, rank });
  }
  return run;
}

/** A full GC between timings, so one measurement does not pay for the previous one's garbage. */
const collectGarbage: () => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  })();

interface Timing<T> {
  /** Best wall-clock time over the repetitions. */
  milliseconds: number;
  /** Process CPU time (all threads, GC helpers included) of that best repetition. */
  cpuMilliseconds: number;
  result: T;
}

async function bestOf<T>(repetitions: number, action: () => T | Promise<T>): Promise<Timing<T>> {
  let best: Timing<T> | undefined;
  for (let repetition = 0; repetition < repetitions; repetition++) {
    collectGarbage();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const result = await action();
    const milliseconds = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    if (best === undefined || milliseconds < best.milliseconds) {
      best = { milliseconds, cpuMilliseconds: (cpu.user + cpu.system) / 1000, result };
    }
  }
  if (best === undefined) throw new RangeError(`bestOf: repetitions must be at least 1, got ${repetitions}`);
  return best;
}

function countEntries(run: TrecRun): number {
  let count = 0;
  for (const entries of run.values()) count += entries.length;
  return count;
}

function sameEntries(left: RunEntry[] | undefined, right: RunEntry[] | undefined): boolean {
  if (left === undefined || right === undefined || left.length !== right.length) return false;
  return left.every((entry, index) => {
    const other = right[index];
    return (
      other !== undefined && entry.docId === other.docId && entry.score === other.score && entry.rank === other.rank
    );
  });
}

function formatRate(lineCount: number, milliseconds: number): string {
  const linesPerSecond = lineCount / (milliseconds / 1000);
  return `${(linesPerSecond / 1e6).toFixed(2)} M lines/s`;
}

function report(label: string, lineCount: number, timing: Timing<unknown>): void {
  const wall = `${timing.milliseconds.toFixed(0).padStart(6)} ms`;
  const cpu = `(cpu ${timing.cpuMilliseconds.toFixed(0).padStart(5)} ms)`;
  console.log(`${label.padEnd(44)} ${wall} ${cpu}   ${formatRate(lineCount, timing.milliseconds)}`);
}

/** What allocating the parsed structure alone costs: 2M fresh doc-id strings and entry objects. */
function allocationFloor(queryCount: number, hitsPerQuery: number): TrecRun {
  const run: TrecRun = new Map();
  for (let query = 1; query <= queryCount; query++) {
    const entries: RunEntry[] = [];
    for (let rank = 1; rank <= hitsPerQuery; rank++) {
      entries.push({ docId: `doc${query * hitsPerQuery + rank}`, score: query + rank / 7, rank });
    }
    run.set(`q${query}`, entries);
  }
  return run;
}

/** Streams the whole file; with `sampleEvery`, also records the heap retained (after a full GC) every that many queries. */
async function streamAll(
  filePath: string,
  sampleEvery = 0,
): Promise<{ queryCount: number; entryCount: number; retainedHeapSamples: number[] }> {
  let queryCount = 0;
  let entryCount = 0;
  const retainedHeapSamples: number[] = [];
  for await (const { entries } of streamRunByQuery(filePath)) {
    queryCount++;
    entryCount += entries.length;
    if (sampleEvery > 0 && queryCount % sampleEvery === 0) {
      collectGarbage();
      retainedHeapSamples.push(process.memoryUsage().heapUsed);
    }
  }
  return { queryCount, entryCount, retainedHeapSamples };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

async function benchInMemory(text: string, lineCount: number): Promise<void> {
  const fast = await bestOf(REPETITIONS, () => parseRun(text));
  const reference = await bestOf(REPETITIONS, () => referenceParseRun(text));
  if (countEntries(fast.result) !== lineCount || fast.result.size !== QUERY_COUNT) {
    throw new Error('parseRun returned the wrong number of entries or queries');
  }
  for (const queryId of ['q1', `q${QUERY_COUNT / 2}`, `q${QUERY_COUNT}`]) {
    if (!sameEntries(fast.result.get(queryId), reference.result.get(queryId))) {
      throw new Error(`parseRun and the reference parser disagree on query ${queryId}`);
    }
  }
  const columns = await bestOf(REPETITIONS, () => parseRunColumns(text));
  if (columns.result.count !== lineCount || columns.result.queryIds.length !== QUERY_COUNT) {
    throw new Error('parseRunColumns returned the wrong number of entries or queries');
  }
  const fromColumns = runFromColumns(columns.result);
  for (const queryId of ['q1', `q${QUERY_COUNT / 2}`, `q${QUERY_COUNT}`]) {
    if (!sameEntries(fromColumns.get(queryId), reference.result.get(queryId))) {
      throw new Error(`parseRunColumns and the reference parser disagree on query ${queryId}`);
    }
  }
  const floor = await bestOf(REPETITIONS, () => allocationFloor(QUERY_COUNT, HITS_PER_QUERY));
  report('parseRunColumns (string in memory)', lineCount, columns);
  console.log(
    `speed-up of parseRunColumns over the reference: ${(reference.milliseconds / columns.milliseconds).toFixed(2)}× wall (target: a 70 MB run well under a second)`,
  );
  report('parseRun (string in memory)', lineCount, fast);
  report('reference split/trim/split(/\\s+/)', lineCount, reference);
  const wallRatio = reference.milliseconds / fast.milliseconds;
  const cpuRatio = reference.cpuMilliseconds / fast.cpuMilliseconds;
  console.log(`speed-up of parseRun over the reference: ${wallRatio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× cpu`);
  report('allocation alone (no parsing; a floor)', lineCount, floor);
}

async function benchFile(text: string, lineCount: number): Promise<void> {
  const directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-bench-'));
  try {
    const filePath = path.join(directory, 'bench.run');
    await writeFile(filePath, text);
    const whole = await bestOf(REPETITIONS, async () => countEntries(await readRunFile(filePath)));
    report('readRunFile (read + parse)', lineCount, whole);
    const streamed = await bestOf(REPETITIONS, () => streamAll(filePath));
    if (streamed.result.queryCount !== QUERY_COUNT || streamed.result.entryCount !== lineCount) {
      throw new Error('streamRunByQuery returned the wrong number of entries or queries');
    }
    report('streamRunByQuery (file, 1 MiB chunks)', lineCount, streamed);
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const { retainedHeapSamples } = await streamAll(filePath, QUERY_COUNT / 10);
    const retainedAbove = retainedHeapSamples.map((bytes) => megabytes(bytes - heapBefore));
    console.log(
      `streaming: heap retained above the pre-stream heap, after every ${QUERY_COUNT / 10} queries: ${retainedAbove.join(', ')}`,
    );
    const parsed = await readRunFile(filePath);
    collectGarbage();
    console.log(
      `for comparison, a whole parsed run retains ${megabytes(process.memoryUsage().heapUsed - heapBefore)} (${parsed.size} queries)`,
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export async function benchTrecIo(): Promise<void> {
  const text = generateRunText();
  const lineCount = QUERY_COUNT * HITS_PER_QUERY;
  const megabytes = Buffer.byteLength(text) / 1e6;
  console.log(`run: ${lineCount.toLocaleString('en')} lines, ${megabytes.toFixed(1)} MB, best of ${REPETITIONS}`);
  await benchInMemory(text, lineCount);
  await benchFile(text, lineCount);
}

const executedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (executedDirectly) {
  benchTrecIo().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
