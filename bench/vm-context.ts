// The CommonJS build in vm contexts, as Jest runs it: each "test file" is a fresh context that loads
// dist/index.cjs (its chunks compiled in the context, as Jest's module registry does) and measures 500
// questions (evaluate at 10, recallAtK at 5, hitAtK at 3: 20 hits, 3 relevant ids). Eight files a round,
// CPU of the measuring only (loading is printed apart). Prints the same work in this process's own
// context beside it, and with BENCH_COMPARE_DIST=<another build's dist/> that build's files in the same
// rounds, alternately, and this build's same-run ratio to it (docs/decisions.md, "Built-ins read once").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { describeRatios, median } from './same-run.js';

const ROOT = resolve(import.meta.dirname, '..');
const COMPARE_DIST = process.env.BENCH_COMPARE_DIST || undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const FILES = 8;
const hostRequire = createRequire(import.meta.url);

/** What one file measures, with the package as `lib`; its total is returned, so that nothing is skipped. */
const QUESTIONS = `
  let state = 12345;
  const next = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  let total = 0;
  for (let question = 0; question < 500; question++) {
    const hits = Array.from({ length: 20 }, () => 'd' + Math.floor(next() * 60));
    const relevant = [hits[Math.floor(next() * 3)], 'd' + Math.floor(next() * 60), 'd' + Math.floor(next() * 60)];
    total += lib.evaluate(hits, relevant, 10).ndcgAtK + lib.recallAtK(hits, relevant, 5) + lib.hitAtK(hits, relevant, 3);
  }`;

/**
 * A CommonJS loader in `context`, as Jest's module registry is: relative requires are compiled there too,
 * the rest come from this process (test/package/vm-context.test.ts loads the package with it too).
 */
export function requireIn(context: vm.Context): (file: string) => unknown {
  const loaded = new Map<string, { exports: unknown }>();
  const load = (file: string): unknown => {
    const cached = loaded.get(file);
    if (cached !== undefined) return cached.exports;
    const module = { exports: {} as unknown };
    loaded.set(file, module);
    const body = vm.compileFunction(
      readFileSync(file, 'utf8'),
      ['exports', 'require', 'module', '__filename', '__dirname'],
      { parsingContext: context, filename: file },
    );
    const localRequire = (specifier: string) =>
      specifier.startsWith('.') ? load(resolve(dirname(file), specifier)) : (hostRequire(specifier) as unknown);
    body(module.exports, localRequire, module, file, dirname(file));
    return module.exports;
  };
  return load;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** The host's globals that Jest's node environment gives a test file too (the package reads `process` when it loads). */
export function jestLikeGlobals(): Record<string, unknown> {
  const { process, Buffer, console, performance, URL, TextDecoder, TextEncoder, setTimeout, clearTimeout } = globalThis;
  return { process, Buffer, console, performance, URL, TextDecoder, TextEncoder, setTimeout, clearTimeout };
}

/** One round of a build: FILES fresh contexts; the CPU milliseconds of loading and of measuring. */
function vmFiles(dist: string, script: vm.Script): { load: number; measure: number } {
  let load = 0;
  let measure = 0;
  for (let file = 0; file < FILES; file++) {
    const context = vm.createContext(jestLikeGlobals());
    const loadStarted = process.cpuUsage();
    context.lib = requireIn(context)(join(dist, 'index.cjs'));
    load += cpuMs(loadStarted);
    const measureStarted = process.cpuUsage();
    script.runInContext(context);
    measure += cpuMs(measureStarted);
  }
  return { load, measure };
}

/** The same FILES × 500 questions compiled in this process's own context, the package loaded once (require). */
function hostFiles(dist: string): number {
  const lib = hostRequire(join(dist, 'index.cjs')) as unknown;
  const questions = new Function('lib', `${QUESTIONS}\nreturn total;`) as (lib: unknown) => number;
  const started = process.cpuUsage();
  for (let file = 0; file < FILES; file++) questions(lib);
  return cpuMs(started);
}

export async function benchVmContext(): Promise<void> {
  const script = new vm.Script(`${QUESTIONS}\ntotal;`);
  const mine = join(ROOT, 'dist');
  const builds = COMPARE_DIST === undefined ? [mine] : [mine, COMPARE_DIST];
  const measured = builds.map(() => [] as number[]);
  const loads = builds.map(() => [] as number[]);
  for (const dist of builds) vmFiles(dist, script); // warm the file cache and the host's own code
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? builds.map((_, index) => index) : builds.map((_, index) => index).reverse();
    for (const index of order) {
      const { load, measure } = vmFiles(builds[index]!, script);
      loads[index]!.push(load);
      measured[index]!.push(measure);
    }
  }
  const host = hostFiles(mine);
  console.log(
    `CommonJS build in ${FILES} fresh vm contexts × 500 questions (evaluate, recallAtK, hitAtK), ${ROUNDS} rounds, CPU medians:`,
  );
  console.log(
    `  this build: measuring ${median(measured[0]!).toFixed(0)} ms, loading ${median(loads[0]!).toFixed(0)} ms; the same questions in this process's context: ${host.toFixed(0)} ms`,
  );
  if (COMPARE_DIST === undefined) return;
  console.log(
    `  build ${COMPARE_DIST}: measuring ${median(measured[1]!).toFixed(0)} ms, loading ${median(loads[1]!).toFixed(0)} ms`,
  );
  const ratios = measured[0]!.map((ms, round) => ms / measured[1]![round]!);
  console.log(`  measuring, this build ÷ that build: ${describeRatios(ratios, 1, 'at most')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchVmContext();
