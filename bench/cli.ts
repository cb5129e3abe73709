// Benchmark of `rag-matchers trec-eval` (npm run bench:cli; needs `npm run build` first).
//
// 1. In memory: 20,000 queries × 100 hits (2,000,000 run lines) with graded qrels, the full measure
//    list, -q -c, output to a file (as `> results.txt`; once more through a pipe, for comparison: a
//    pipe on this VM moves only ~60 MB/s). Wall time and peak RSS (from /usr/bin/time, as for
//    trec_eval) of the CLI process run as users run it, without --timings; then one more run with
//    --timings for the split read / sort / measure / write (its clock reads, five per query, cost
//    over a microsecond each on this VM). Targets on the project's 2-core machine: < 1.0 s wall,
//    < 250 MB.
// 2. Streaming: the same generator at 100,000 and 1,000,000 queries × 100 hits, piped into
//    `trec-eval --streaming` through standard input (the run never touches the disk); the qrels are a
//    file. Peak RSS must not grow with the number of queries.
//
// 3. With TREC_EVAL_BIN=/path/to/trec_eval (NIST trec_eval 10, built locally with -O2; never
//    downloaded by the benchmark), case 1 also runs trec_eval on the same files with the same flags,
//    alternating with trec-eval run by run (in turn first), checks that both print the same bytes and
//    reports the same-run ratios (the median of the runs' own ratios, with its interval, met / NOT met /
//    undetermined): wall (target ≤ 0.15× trec_eval, issue 36) and peak RSS (target ≤ 0.65×), and the CPU
//    time of every thread. Peak RSS and CPU come from /usr/bin/time for both. By default both print
//    trec_eval's official measures (no -m, as the issue measures); --measures list uses -q -c and the
//    list above. --busy-core keeps `yes > /dev/null` running through it (one core busy).
//
// With BENCH_COMPARE_DIST=<another build's dist> (say, main's), that build's trec-eval runs in the same
// alternation too, and the benchmark prints this build ÷ that one (wall, CPU, peak RSS) and that one ÷
// trec_eval: the before/after of a change, measured in the same run.
//
// Everything is generated deterministically (the shuffle from a fixed seed), so every run of the
// benchmark sees the same data.
// Options: --queries N (default 20000), --hits N (100), --repeat N (7), --streaming-queries N,N
// (100000,1000000), --skip-streaming, --skip-in-memory, --cli PATH (another build of dist/cli.js),
// --case grouped|shuffled (only that 2 M-line case), --quick (or BENCH_CLI_QUICK=1: only the 2 M-line
// comparisons, without the streaming parts and the extra run through a pipe; about 1 minute instead of 5).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, createWriteStream, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { describeRatios, median, medianInterval } from './same-run.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let CLI = path.join(ROOT, 'dist', 'cli.js');
const REFERENCE = process.env.TREC_EVAL_BIN;
/** BENCH_COMPARE_DIST=<another build's dist>: its trec-eval runs in the same alternation, for before/after ratios. */
const COMPARE_DIST = process.env.BENCH_COMPARE_DIST || undefined;
/** With --busy-core: a `yes > /dev/null` kept running through the comparison (one core of the machine busy). */
let busyCore: ChildProcess | undefined;
const TIME_BIN = '/usr/bin/time';
const SEED = 0x2024_5eed;
const MEASURES = [
  '-m',
  'P.1,3,5,10',
  '-m',
  'recall.1,3,5,10,100',
  '-m',
  'map',
  '-m',
  'map_cut.5,10',
  '-m',
  'ndcg',
  '-m',
  'ndcg_cut.5,10',
  '-m',
  'recip_rank',
  '-m',
  'Rprec',
  '-m',
  'success.1,5,10',
  '-m',
  'num_rel_ret',
  '-m',
  'num_ret',
  '-m',
  'num_rel',
];

/** mulberry32: small, fast, deterministic. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Query ids zero-padded so that generation order is byte order (what --streaming needs). */
function queryIdOf(query: number, width: number): string {
  return `q${String(query).padStart(width, '0')}`;
}

interface QueryData {
  runLines: string;
  qrelsLines: string;
}

const DOCUMENT_SPACE = 5_000_000;

/** Distinct documents per query: 104,729 is prime and does not divide 5,000,000, so slots never collide. */
function documentOf(query: number, slot: number): number {
  return (query * 7919 + slot * 104_729) % DOCUMENT_SPACE;
}

/**
 * Score texts of ranks 1…hits, in 100 variants (by query): decreasing, every 10th equal to the one
 * before (a tie, broken by docno), every 17th in exponent notation. Cached: formatting 100 million
 * scores would dominate the generator.
 */
const scoreTextCache = new Map<string, string[]>();
function scoreTexts(variant: number, hits: number): string[] {
  const key = `${variant}:${hits}`;
  let texts = scoreTextCache.get(key);
  if (texts === undefined) {
    texts = [];
    let score = 30 + variant / 10;
    for (let rank = 1; rank <= hits; rank++) {
      if (rank % 10 !== 0) score -= 0.05 + ((rank * 7 + variant) % 13) / 100;
      texts.push(rank % 17 === 0 ? score.toExponential(6) : score.toFixed(4));
    }
    scoreTextCache.set(key, texts);
  }
  return texts;
}

/**
 * One query, deterministic: `hits` distinct documents with decreasing scores (ties, exponent
 * notation) and 30 graded judgments (0–3), 20 of them on retrieved documents.
 */
function generateQuery(query: number, queryId: string, hits: number): QueryData {
  const scores = scoreTexts(query % 100, hits);
  let runLines = '';
  for (let rank = 1; rank <= hits; rank++) {
    runLines += `${queryId} Q0 doc${documentOf(query, rank - 1)} ${rank} ${scores[rank - 1]} bench\n`;
  }
  let qrelsLines = '';
  for (let judgment = 0; judgment < 30; judgment++) {
    const slot = judgment < 20 ? (judgment * 37 + query) % hits : hits + judgment;
    qrelsLines += `${queryId} 0 doc${documentOf(query, slot)} ${(query * 31 + judgment * 17) % 4}\n`;
  }
  return { runLines, qrelsLines };
}

/** Deterministic Fisher–Yates shuffle of the run's lines: trec_eval's worst case (no grouping at all). */
function shuffleLines(text: string): string {
  const lines = text.split('\n').filter((line) => line !== '');
  const random = createRandom(SEED);
  for (let index = lines.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    const swap = lines[index] as string;
    lines[index] = lines[other] as string;
    lines[other] = swap;
  }
  return `${lines.join('\n')}\n`;
}

/** How fast this machine is right now: a fixed loop of 3·10^8 additions (about 0.3 s on an idle modern core). */
function calibrate(): number {
  const started = performance.now();
  let total = 0;
  for (let index = 0; index < 3e8; index++) total += index;
  if (total < 0) console.log(total);
  return performance.now() - started;
}

async function writeInMemoryData(
  directory: string,
  queries: number,
  hits: number,
): Promise<{ qrels: string; run: string; shuffled: string }> {
  const width = String(queries).length;
  const runParts: string[] = [];
  const qrelsParts: string[] = [];
  // Queries in numeric order (q1 … q20000 unpadded would be unsorted in byte order; trec-eval does not care).
  for (let query = 1; query <= queries; query++) {
    const data = generateQuery(query, queryIdOf(query, width), hits);
    runParts.push(data.runLines);
    qrelsParts.push(data.qrelsLines);
  }
  const qrels = path.join(directory, 'bench.qrels');
  const run = path.join(directory, 'bench.run');
  const shuffled = path.join(directory, 'bench-shuffled.run');
  const runText = runParts.join('');
  await writeFile(qrels, qrelsParts.join(''));
  await writeFile(run, runText);
  await writeFile(shuffled, shuffleLines(runText));
  return { qrels, run, shuffled };
}

interface CliRun {
  wallMs: number;
  timings: {
    read: number;
    sort: number;
    measure: number;
    write: number;
    total: number;
    maxRssMB: number;
    threads: number;
  };
  outputBytes: number;
}

/**
 * Runs the CLI, reading its --timings line from stderr. Its output goes to a file, as
 * `trec-eval … > results.txt` sends it (`outputFile`), or through a pipe into this process.
 */
function runCli(
  args: readonly string[],
  feed?: (stdin: NodeJS.WritableStream) => Promise<void>,
  outputFile?: string,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const output = outputFile === undefined ? 'pipe' : openSync(outputFile, 'w');
    const child = spawn(process.execPath, [CLI, 'trec-eval', '--timings', ...args], {
      stdio: [feed ? 'pipe' : 'ignore', output, 'pipe'],
    });
    if (typeof output === 'number') closeSync(output);
    let outputBytes = 0;
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (outputBytes += chunk.length));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    if (feed && child.stdin) feed(child.stdin).catch(reject);
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`trec-eval exited with ${code}: ${stderr}`));
        return;
      }
      if (outputFile !== undefined) outputBytes = statSync(outputFile).size;
      const timingLine = stderr.trim().split('\n').pop() ?? '{}';
      resolve({ wallMs, timings: JSON.parse(timingLine) as CliRun['timings'], outputBytes });
    });
  });
}

interface ReferenceRun {
  wallMs: number;
  maxRssMB: number;
  /** User + system CPU seconds of the process (every thread), from /usr/bin/time. */
  cpuSeconds: number;
}

/**
 * Runs the CLI as a user does, without --timings (which reads the clock five times per query, over a
 * microsecond each on this VM), under /usr/bin/time for its peak RSS, like trec_eval below.
 */
function runCliPlain(args: readonly string[], outputFile: string): Promise<ReferenceRun> {
  return runReference(process.execPath, [CLI, 'trec-eval', ...args], outputFile);
}

/** Runs the reference trec_eval under /usr/bin/time (for its peak RSS), its output to `outputFile`. */
function runReference(binary: string, args: readonly string[], outputFile: string): Promise<ReferenceRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const output = openSync(outputFile, 'w');
    const child = spawn(TIME_BIN, ['-f', 'maxrss %M cpu %U %S', binary, ...args], {
      stdio: ['ignore', output, 'pipe'],
    });
    closeSync(output);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      const figures = /maxrss (\d+) cpu ([\d.]+) ([\d.]+)/.exec(stderr);
      if (code !== 0 || figures === null) {
        reject(new Error(`${binary} exited with ${code}: ${stderr}`));
        return;
      }
      resolve({
        wallMs,
        maxRssMB: Math.round(Number(figures[1]) / 1024),
        cpuSeconds: Number(figures[2]) + Number(figures[3]),
      });
    });
  });
}

type InMemoryCase = 'grouped' | 'shuffled';

async function benchInMemory(
  directory: string,
  queries: number,
  hits: number,
  repeat: number,
  cases: readonly InMemoryCase[],
  piped: boolean,
  official: boolean,
): Promise<void> {
  const generationStarted = performance.now();
  const files = await writeInMemoryData(directory, queries, hits);
  console.log(
    `generated ${queries.toLocaleString('en-US')} queries × ${hits} hits (${(queries * hits).toLocaleString('en-US')} run lines) in ${((performance.now() - generationStarted) / 1000).toFixed(1)} s`,
  );
  const labels: Record<InMemoryCase, [string, string]> = {
    grouped: ['run grouped by query (as retrieval systems write it)', files.run],
    shuffled: ['run lines shuffled (worst case: read whole, into columns)', files.shuffled],
  };
  for (const [label, runPath] of cases.map((name) => labels[name])) {
    const runs: ReferenceRun[] = [];
    const references: ReferenceRun[] = [];
    const outputFile = path.join(directory, 'results.txt');
    const referenceFile = path.join(directory, 'results.trec_eval.txt');
    const args = official ? [files.qrels, runPath] : ['-q', '-c', ...MEASURES, files.qrels, runPath];
    const loadBefore = loadavg()[0] as number;
    // In turn first, round by round: whatever the machine does between the two runs falls on each as often.
    const compared: ReferenceRun[] = [];
    const compareFile = path.join(directory, 'results.compare.txt');
    const compareCli = COMPARE_DIST === undefined ? undefined : path.resolve(COMPARE_DIST, 'cli.js');
    for (let attempt = 0; attempt < repeat; attempt++) {
      if (REFERENCE !== undefined && attempt % 2 === 1)
        references.push(await runReference(REFERENCE, args, referenceFile));
      if (compareCli !== undefined && attempt % 2 === 1)
        compared.push(await runReference(process.execPath, [compareCli, 'trec-eval', ...args], compareFile));
      runs.push(await runCliPlain(args, outputFile));
      if (compareCli !== undefined && attempt % 2 === 0)
        compared.push(await runReference(process.execPath, [compareCli, 'trec-eval', ...args], compareFile));
      if (REFERENCE !== undefined && attempt % 2 === 0)
        references.push(await runReference(REFERENCE, args, referenceFile));
    }
    const wall = runs.map((run) => run.wallMs);
    const rss = runs.map((run) => run.maxRssMB);
    // Once more with --timings, for the split by stage (its clock reads make it slower).
    const timed = await runCli(args, undefined, outputFile);
    console.log(
      `trec-eval ${official ? "(trec_eval's official measures)" : '-q -c (full measure list)'} > results.txt, ${label}, ${repeat} runs (load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]?.toFixed(2)} after; machine check: ${calibrate().toFixed(0)} ms):`,
    );
    console.log(
      `  wall      best ${Math.min(...wall).toFixed(0)} ms, median ${median(wall).toFixed(0)} ms (target < 1000 ms, node start-up included; ${timed.timings.threads} threads)`,
    );
    console.log(`  peak RSS  max ${Math.max(...rss)} MB (target < 250 MB; the process, workers included)`);
    const { read, sort, measure, write, total } = timed.timings;
    console.log(
      `  split (one more run, with --timings; main thread): read+parse ${read} ms · sort ${sort} ms · measure ${measure} ms · write ${write} ms · in-process total ${total} ms`,
    );
    console.log(`  output ${(timed.outputBytes / 1e6).toFixed(1)} MB`);
    if (REFERENCE !== undefined) reportReference(runs, references, outputFile, referenceFile);
    if (compareCli !== undefined) reportCompared(runs, compared, references, outputFile, compareFile);
    if (!piped) continue;
    const throughPipe = await runCli(args);
    console.log(
      `  the same output through a pipe into this process instead: ${throughPipe.wallMs.toFixed(0)} ms (write ${throughPipe.timings.write} ms)`,
    );
  }
}

/** trec_eval's figures from the same attempts, and trec-eval's as same-run ratios of them with their intervals. */
function reportReference(
  runs: ReferenceRun[],
  references: ReferenceRun[],
  outputFile: string,
  referenceFile: string,
): void {
  const same = readFileSync(outputFile).equals(readFileSync(referenceFile));
  const perRound = (key: keyof ReferenceRun) =>
    runs.map((run, round) => run[key] / (references[round] as ReferenceRun)[key]);
  const show = (list: ReferenceRun[], key: keyof ReferenceRun, scale: number, unit: string) =>
    `${(median(list.map((run) => run[key])) * scale).toFixed(0)} ${unit}`;
  console.log(
    `  trec_eval (${REFERENCE}), alternating run by run, medians: wall ${show(references, 'wallMs', 1, 'ms')}, CPU ${show(references, 'cpuSeconds', 1000, 'ms')}, peak RSS ${show(references, 'maxRssMB', 1, 'MB')}; ` +
      `trec-eval: wall ${show(runs, 'wallMs', 1, 'ms')}, CPU ${show(runs, 'cpuSeconds', 1000, 'ms')}, peak RSS ${show(runs, 'maxRssMB', 1, 'MB')}`,
  );
  const busy = busyCore === undefined ? '' : ' (one core kept busy)';
  console.log(`  trec-eval ÷ trec_eval${busy}, wall: ${describeRatios(perRound('wallMs'), 0.15, 'at most')}`);
  console.log(`  trec-eval ÷ trec_eval${busy}, peak RSS: ${describeRatios(perRound('maxRssMB'), 0.65, 'at most')}`);
  const cpu = perRound('cpuSeconds');
  const interval = medianInterval(cpu);
  console.log(
    `  trec-eval ÷ trec_eval${busy}, CPU time (every thread): ${median(cpu).toFixed(3)} [${interval.low.toFixed(3)}, ${interval.high.toFixed(3)}]; output ${same ? 'identical' : 'DIFFERENT'}`,
  );
}

/** This build against BENCH_COMPARE_DIST's, and that build against trec_eval, as same-run ratios with intervals. */
function reportCompared(
  runs: ReferenceRun[],
  compared: ReferenceRun[],
  references: ReferenceRun[],
  outputFile: string,
  compareFile: string,
): void {
  const same = readFileSync(outputFile).equals(readFileSync(compareFile));
  const describe = (ratios: number[]) => {
    const interval = medianInterval(ratios);
    return `${median(ratios).toFixed(3)} [${interval.low.toFixed(3)}, ${interval.high.toFixed(3)}]`;
  };
  const ratios = (over: ReferenceRun[], under: ReferenceRun[], key: keyof ReferenceRun) =>
    over.map((run, round) => run[key] / (under[round] as ReferenceRun)[key]);
  console.log(
    `  this build ÷ BENCH_COMPARE_DIST (${COMPARE_DIST}), same rounds: wall ${describe(ratios(runs, compared, 'wallMs'))}, ` +
      `CPU ${describe(ratios(runs, compared, 'cpuSeconds'))}, peak RSS ${describe(ratios(runs, compared, 'maxRssMB'))}; output ${same ? 'identical' : 'DIFFERENT'}`,
  );
  if (references.length === 0) return;
  console.log(
    `  BENCH_COMPARE_DIST ÷ trec_eval, same rounds: wall ${describe(ratios(compared, references, 'wallMs'))}, ` +
      `CPU ${describe(ratios(compared, references, 'cpuSeconds'))}, peak RSS ${describe(ratios(compared, references, 'maxRssMB'))}`,
  );
}

async function benchStreaming(directory: string, queries: number, hits: number): Promise<void> {
  const width = String(queries).length;
  const qrelsPath = path.join(directory, `stream-${queries}.qrels`);
  // Qrels first (to a file); the run is then generated again while it is piped.
  const qrelsStream = createWriteStream(qrelsPath);
  const generatorStarted = performance.now();
  for (let query = 1; query <= queries; query++) {
    const data = generateQuery(query, queryIdOf(query, width), hits);
    if (!qrelsStream.write(data.qrelsLines))
      await new Promise<void>((resolve) => qrelsStream.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    qrelsStream.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  console.log(
    `streaming ${queries.toLocaleString('en-US')} queries × ${hits}: qrels written in ${((performance.now() - generatorStarted) / 1000).toFixed(1)} s; piping ${(queries * hits).toLocaleString('en-US')} run lines`,
  );

  const feed = async (stdin: NodeJS.WritableStream) => {
    let buffered = '';
    for (let query = 1; query <= queries; query++) {
      buffered += generateQuery(query, queryIdOf(query, width), hits).runLines;
      if (buffered.length > 1 << 20) {
        if (!stdin.write(buffered)) await new Promise<void>((resolve) => stdin.once('drain', () => resolve()));
        buffered = '';
      }
    }
    stdin.end(buffered);
  };
  const result = await runCli(['--streaming', '-c', ...MEASURES, qrelsPath, '-'], feed);
  console.log(
    `  wall ${(result.wallMs / 1000).toFixed(1)} s (generator in the parent process included), peak RSS ${result.timings.maxRssMB} MB`,
  );
  console.log(
    `  in-process: read+parse ${(result.timings.read / 1000).toFixed(1)} s · sort ${(result.timings.sort / 1000).toFixed(1)} s · measure ${(result.timings.measure / 1000).toFixed(1)} s`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      queries: { type: 'string', default: '20000' },
      hits: { type: 'string', default: '100' },
      repeat: { type: 'string', default: '7' },
      'streaming-queries': { type: 'string', default: '100000,1000000' },
      'skip-streaming': { type: 'boolean', default: false },
      'skip-in-memory': { type: 'boolean', default: false },
      cli: { type: 'string' },
      case: { type: 'string' },
      quick: { type: 'boolean', default: process.env.BENCH_CLI_QUICK === '1' },
      measures: { type: 'string', default: 'official' },
      'busy-core': { type: 'boolean', default: false },
    },
  });
  if (values.measures !== 'official' && values.measures !== 'list') {
    console.error(`--measures: expected official or list, got '${values.measures}'`);
    process.exitCode = 2;
    return;
  }
  const cases: InMemoryCase[] = values.case === undefined ? ['grouped', 'shuffled'] : [values.case as InMemoryCase];
  if (!cases.every((name) => name === 'grouped' || name === 'shuffled')) {
    console.error(`--case: expected grouped or shuffled, got '${values.case}'`);
    process.exitCode = 2;
    return;
  }
  if (values.cli !== undefined) CLI = path.resolve(values.cli);
  if (!existsSync(CLI)) {
    console.error(`bench:cli needs the built CLI (${path.relative(ROOT, CLI)}); run \`npm run build\` first.`);
    process.exitCode = 2;
    return;
  }
  if (!existsSync(TIME_BIN)) {
    console.error(`bench:cli needs ${TIME_BIN} (for peak RSS; Debian package \`time\`).`);
    process.exitCode = 2;
    return;
  }
  if (REFERENCE !== undefined && !existsSync(REFERENCE)) {
    console.error(`TREC_EVAL_BIN=${REFERENCE}: no such trec_eval binary.`);
    process.exitCode = 2;
    return;
  }
  console.log(
    `node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `machine check: 3e8 additions in ${calibrate().toFixed(0)} ms (about 300 ms on an idle modern core; higher means a busy machine)`,
  );
  const directory = await mkdtemp(path.join(tmpdir(), 'rag-matchers-bench-cli-'));
  try {
    if (values['busy-core']) {
      const devNull = openSync('/dev/null', 'w');
      busyCore = spawn('yes', [], { stdio: ['ignore', devNull, 'ignore'] });
      closeSync(devNull);
    }
    if (!values['skip-in-memory'])
      await benchInMemory(
        directory,
        Number(values.queries),
        Number(values.hits),
        Number(values.repeat),
        cases,
        !values.quick,
        values.measures === 'official',
      );
    busyCore?.kill();
    busyCore = undefined;
    if (!values['skip-streaming'] && !values.quick) {
      for (const queries of String(values['streaming-queries']).split(',').map(Number)) {
        await benchStreaming(directory, queries, Number(values.hits));
      }
    }
  } finally {
    busyCore?.kill();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
