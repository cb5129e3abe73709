// The measures the gate tracks, declared once in the reporter options and recorded for every question:
//
//   measures: ['hit@3', 'recall@5', 'ndcg@10', 'mrr@10'],             // the whole project
//   suites: { 'test/faq.test.ts > long answers': { measures: ['recall@20'] } },   // one suite (and the suites inside it)
//
// The reporter checks the declaration and hands it to the test workers through an environment variable
// (set before Vitest or Jest starts its workers, which inherit it; with --runInBand the tests run in the
// reporter's own process). The matchers read it to know what to record for the question they measure.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatMeasure, parseMeasure, type Measure, type MeasureSpelling } from '../core/measures.js';
import { planMeasures, type MeasurePlan } from '../core/evaluate.js';
import { describeValue } from '../core/describe.js';
import type { CollectedRun } from './collected.js';

/** Where the reporter puts the checked declaration for the test workers (JSON of a WorkerDeclaration). */
const DECLARATION_ENV = 'RAG_MATCHERS_DECLARATION';

/** Separator of the parts of a suite name: `test/faq.test.ts > refunds > partial`. */
const SUITE_SEPARATOR = ' > ';

/** A suite's own measures, replacing the project's. */
export interface SuiteDeclaration {
  /**
   * The measures recorded for each question of this suite (and the suites inside it). `[]`: none is
   * declared there, so each matcher records its own measure, as without a declaration.
   */
  measures: readonly MeasureSpelling[];
}

/** The declaration fields of the reporter options. */
export interface MeasureDeclaration {
  /**
   * Measures recorded for every question, whichever assertion runs first and whether it passes:
   * `['hit@3', 'recall@5', 'ndcg@10', 'mrr@10']`. Unset: each matcher records its own measure.
   */
  measures?: readonly MeasureSpelling[];
  /**
   * Per-suite overrides. The key names a suite as the reports do: the test file relative to the
   * project root, then the describe titles, joined by ' > ' (`'test/faq.test.ts > refunds'`); a file
   * alone covers the whole file. The most specific key that contains a test applies to it.
   */
  suites?: Readonly<Record<string, SuiteDeclaration>>;
}

/** The checked declaration as it travels to the workers: canonical measure names, split suite keys. */
export interface WorkerDeclaration {
  /** Project root: test files are named relative to it. */
  root: string;
  /** Canonical names (`recall@5`), no repeats; empty when nothing is declared project-wide. */
  measures: string[];
  suites: { key: string; path: string[]; measures: string[] }[];
  /**
   * The reporter's rankingDepth when it keeps fewer top hits than MAX_TOP_HITS: the matchers record no
   * more than that (absent: as many as the call's cutoffs reach).
   */
  rankingDepth?: number;
}

/** A declaration that cannot be used; the message names the option and the entry. */
export class DeclarationError extends TypeError {
  override name = 'DeclarationError';
}

function canonicalMeasures(value: unknown, where: string, source: string): string[] {
  if (!Array.isArray(value)) {
    throw new DeclarationError(
      `${source}: ${where} must be an array of measure names such as ['hit@3', 'recall@5', 'ndcg@10'], got ${describeValue(value)}.`,
    );
  }
  const names: string[] = [];
  for (const [index, entry] of value.entries()) {
    let measure: Measure;
    try {
      if (typeof entry !== 'string')
        throw new RangeError(`a measure name must be a string, got ${describeValue(entry)}`);
      measure = parseMeasure(entry);
    } catch (error) {
      throw new DeclarationError(
        `${source}: ${where}[${index}] (${describeValue(entry)}) does not name a measure: ${(error as Error).message}`,
      );
    }
    const name = formatMeasure(measure);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** `'test/a.test.ts > refunds'` → ['test/a.test.ts', 'refunds'] (parts trimmed, file '/'-separated). */
function suiteKeyPath(key: string): string[] {
  const parts = key.split(SUITE_SEPARATOR).map((part) => part.trim());
  parts[0] = (parts[0] as string).split('\\').join('/').replace(/^\.\//, '');
  return parts;
}

/**
 * Checks the declaration fields of the reporter options and returns them in the workers' form.
 * Throws a DeclarationError naming the first entry that is wrong.
 */
export function resolveDeclaration(
  options: MeasureDeclaration,
  root: string,
  source = 'rag-matchers reporter options',
): WorkerDeclaration {
  const measures = options.measures === undefined ? [] : canonicalMeasures(options.measures, 'measures', source);
  const suites: WorkerDeclaration['suites'] = [];
  if (options.suites !== undefined) {
    const raw = options.suites as unknown;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new DeclarationError(
        `${source}: suites must be an object such as { 'test/faq.test.ts > refunds': { measures: ['recall@10'] } }, got ${describeValue(raw)}.`,
      );
    }
    for (const key of Object.keys(raw)) {
      const entry = (raw as Record<string, unknown>)[key];
      if (key.trim() === '' || suiteKeyPath(key).some((part) => part === '')) {
        throw new DeclarationError(
          `${source}: suites key ${JSON.stringify(key)} must name a suite: 'test file > describe > …' (a test file alone covers the file).`,
        );
      }
      if (
        entry === null ||
        typeof entry !== 'object' ||
        Array.isArray(entry) ||
        Object.keys(entry).some((name) => name !== 'measures')
      ) {
        throw new DeclarationError(
          `${source}: suites[${JSON.stringify(key)}] must be { measures: [...] }, got ${describeValue(entry)}.`,
        );
      }
      suites.push({
        key,
        path: suiteKeyPath(key),
        measures: canonicalMeasures(
          (entry as { measures?: unknown }).measures,
          `suites[${JSON.stringify(key)}].measures`,
          source,
        ),
      });
    }
  }
  return { root, measures, suites };
}

/** True when some measure is declared anywhere (else the matchers keep recording their own measure). */
export function declaresAnything(declaration: WorkerDeclaration): boolean {
  return declaration.measures.length > 0 || declaration.suites.some((suite) => suite.measures.length > 0);
}

/** What the reporter puts in the environment: the declaration, or nothing (a variable inherited from an outer run is removed). */
export function publishDeclaration(
  declaration: WorkerDeclaration | undefined,
  env: Record<string, string | undefined> = process.env,
): void {
  if (declaration === undefined || !declaresAnything(declaration)) delete env[DECLARATION_ENV];
  else env[DECLARATION_ENV] = JSON.stringify(declaration);
  if (env === process.env) processText = UNREAD;
}

function samePrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((part, index) => part === path[index]);
}

/** The suite override that applies to a test in `file` under `describePath`: the longest matching key. */
function overrideFor(
  declaration: WorkerDeclaration,
  file: string,
  describePath: readonly string[],
): WorkerDeclaration['suites'][number] | undefined {
  const path = [file, ...describePath];
  let best: WorkerDeclaration['suites'][number] | undefined;
  for (const suite of declaration.suites) {
    if (samePrefix(suite.path, path) && (best === undefined || suite.path.length > best.path.length)) best = suite;
  }
  return best;
}

/** The measures declared for a test: its suite's override, else the project's. */
export function measuresFor(declaration: WorkerDeclaration, file: string, describePath: readonly string[]): string[] {
  return overrideFor(declaration, file, describePath)?.measures ?? declaration.measures;
}

// Worker side: the declaration is read once per value of the variable, and a plan is made once per
// list of measures, so recording costs one evaluation per question. A worker's environment is fixed when
// it starts, so process.env is read once (each read copies the whole value out of the environment, which
// cost more than the recording itself); publishDeclaration, the one writer, makes the next call read it again.
const UNREAD = Symbol('unread');
let processText: string | undefined | typeof UNREAD = UNREAD;
let cachedText: string | undefined;
let cachedDeclaration: WorkerDeclaration | undefined;
const plans = new WeakMap<readonly string[], MeasurePlan>();

/** The declaration the reporter published, or undefined (no reporter, or nothing declared). */
export function publishedDeclaration(
  env: Record<string, string | undefined> = process.env,
): WorkerDeclaration | undefined {
  let text: string | undefined;
  if (env !== process.env) text = env[DECLARATION_ENV];
  else {
    if (processText === UNREAD) processText = env[DECLARATION_ENV];
    text = processText;
  }
  if (text === undefined || text === '') return undefined;
  if (text !== cachedText) {
    cachedText = text;
    try {
      cachedDeclaration = JSON.parse(text) as WorkerDeclaration;
    } catch {
      throw new Error(
        `rag-matchers: ${DECLARATION_ENV} does not hold a declaration written by the rag-matchers reporter; remove it from the environment.`,
      );
    }
  }
  return cachedDeclaration;
}

/** The plan that measures `names` (canonical) in one pass. */
export function planFor(names: readonly string[]): MeasurePlan {
  // The declared lists are the declaration's own arrays, the same object on every call: one plan each.
  let plan = plans.get(names);
  if (plan === undefined) {
    plan = planMeasures(names.map(parseMeasure));
    plans.set(names, plan);
  }
  return plan;
}

/**
 * The per-suite overrides that named no suite of this run although they should have: their test file
 * ran (or does not exist at all) and no test under the key recorded a sample. One message each, naming
 * the key; an override whose file did not run (a filtered run, another shard) is not judged.
 */
export function unmatchedSuiteOverrides(
  declaration: Pick<WorkerDeclaration, 'suites'>,
  run: Pick<CollectedRun, 'samples' | 'files'>,
  fileExists: (file: string) => boolean,
): string[] {
  if (declaration.suites.length === 0) return [];
  const ranFiles = new Set([...(run.files ?? []), ...run.samples.map((sample) => sample.file)]);
  const suitePaths = new Map<string, string[]>();
  for (const sample of run.samples) {
    const path = [sample.file, ...sample.describePath];
    suitePaths.set(JSON.stringify(path), path);
  }
  const problems: string[] = [];
  for (const suite of declaration.suites) {
    const file = suite.path[0] as string;
    if ([...suitePaths.values()].some((path) => samePrefix(suite.path, path))) continue;
    if (!fileExists(file)) {
      problems.push(
        `suites[${JSON.stringify(suite.key)}]: no test file ${file} (the key is 'test file > describe > …', the file relative to the project root).`,
      );
    } else if (ranFiles.has(file)) {
      const known = [
        ...new Set(
          [...suitePaths.values()].filter((path) => path[0] === file).map((path) => path.join(SUITE_SEPARATOR)),
        ),
      ];
      problems.push(
        `suites[${JSON.stringify(suite.key)}] names no suite that ran${known.length === 0 ? '' : `; suites of ${file}: ${known.map((name) => JSON.stringify(name)).join(', ')}`}.`,
      );
    }
  }
  return problems;
}

/** The message reporters print for unmatched overrides (and fail the run with). */
function formatUnmatchedOverrides(problems: readonly string[]): string {
  return `rag-matchers: a per-suite measures override names no suite (fix or remove it in the reporter options):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`;
}

/**
 * What both reporters call at the end of a run: the message naming the overrides that matched no
 * suite, or undefined when all is well. The reporters print it and fail the run.
 */
export function checkSuiteOverrides(
  declaration: WorkerDeclaration,
  run: Pick<CollectedRun, 'samples' | 'files'>,
): string | undefined {
  const problems = unmatchedSuiteOverrides(declaration, run, (file) => existsSync(join(declaration.root, file)));
  return problems.length === 0 ? undefined : formatUnmatchedOverrides(problems);
}
