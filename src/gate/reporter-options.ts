// Typed helpers for the reporter entry in vitest.config.ts / jest.config.js: the options are checked
// (and typed) where they are written, and a wrong option names itself when the config is loaded.
//
//   reporters: ['default', ragVitestReporter({ baseline: 'rag-baseline.json', measures: ['hit@3', 'recall@5', 'ndcg@10'] })]
import { writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeFileAtomicSync } from '../files/atomic-write.js';
import { createShardReport, formatShardReport, shardReportName } from './shard-report.js';
import { validateReporterOptions, type RagReporterOptions } from './user-options.js';
import { withoutStack } from './mistake.js';
import { publishDeclaration, resolveDeclaration } from '../recording/declaration.js';
import { blobReporterInArguments, publishGate } from '../recording/gate-presence.js';
import { publishRunStamp } from '../recording/run-stamp.js';
import { runStampOf } from './run-identity.js';

export type { RagReporterOptions } from './user-options.js';
export type { MeasureDeclaration, SuiteDeclaration } from '../recording/declaration.js';

/**
 * The options as the reporter entry carries them: the same fields, as a mapped type, which (unlike an
 * interface) TypeScript lets stand where the runners' config types ask for `Record<string, unknown>`.
 */
export type ReporterEntryOptions = { [Name in keyof RagReporterOptions]: RagReporterOptions[Name] };

/** Checks reporter options and returns them as given, typed (for options shared by both runners). */
export function defineRagOptions<const T extends RagReporterOptions>(options: T): T {
  checkOptions(options, 'defineRagOptions');
  return options;
}

/**
 * `['rag-matchers/vitest-reporter', options]`, checked: an entry of Vitest's `test.reporters`. It also
 * publishes the declared measures and the run's stamp as the config loads, before any worker starts:
 * a command line that replaces the config's reporters (`vitest run --shard=1/2 --reporter=blob`) then
 * still records every declared measure into the blob report, for `--merge-reports` to judge.
 */
export function ragVitestReporter(
  options: RagReporterOptions = {},
): ['rag-matchers/vitest-reporter', ReporterEntryOptions] {
  checkOptions(options, 'ragVitestReporter');
  const root = process.cwd();
  let declaration;
  try {
    declaration = resolveDeclaration(options, root, 'ragVitestReporter');
  } catch (error) {
    throw error instanceof Error ? withoutStack(error) : error;
  }
  publishDeclaration(declaration);
  publishRunStamp(runStampOf(root, declaration));
  // Blob reports carry the samples to a later --merge-reports, which judges them: not an ungated run.
  if (blobReporterInArguments(process.argv)) publishGate('deferred');
  return ['rag-matchers/vitest-reporter', options];
}

/**
 * `['rag-matchers/jest-reporter', options]`, checked: an entry of Jest's `reporters`. Under
 * `jest --shard=i/n` it also makes sure the shard leaves its report: a shard with no test file stops
 * Jest ("No tests found") before any reporter exists, so the report of an empty shard is written when
 * the process exits (in the current directory, where jest.config.js is) unless the reporter ran.
 */
export function ragJestReporter(
  options: RagReporterOptions = {},
): ['rag-matchers/jest-reporter', ReporterEntryOptions] {
  checkOptions(options, 'ragJestReporter');
  const shard = shardOfArguments(process.argv);
  if (shard !== undefined) writeEmptyShardOnExit(shard, options, process.cwd());
  return ['rag-matchers/jest-reporter', options];
}

/** Checks the options where the config is written; a mistake is thrown as its message alone, no frames of ours. */
function checkOptions(options: RagReporterOptions, source: string): void {
  try {
    validateReporterOptions(options, source);
  } catch (error) {
    throw error instanceof Error ? withoutStack(error) : error;
  }
}

/** Set by the Jest reporter's constructor: this process has a reporter, which writes the shard report itself. */
export const JEST_REPORTER_STARTED = Symbol.for('rag-matchers.jest-reporter-started');

/** `--shard=2/3` or `--shard 2/3` on a Jest command line that runs tests; undefined otherwise. */
export function shardOfArguments(argv: readonly string[]): { index: number; count: number } | undefined {
  if (argv.some((argument) => /^--(listTests|showConfig|collectTests|watch|watchAll)(=|$)/.test(argument)))
    return undefined;
  for (const [position, argument] of argv.entries()) {
    const text = argument.startsWith('--shard=')
      ? argument.slice('--shard='.length)
      : argument === '--shard'
        ? argv[position + 1]
        : undefined;
    const match = text === undefined ? null : /^(\d+)\/(\d+)$/.exec(text);
    if (match !== null) {
      const index = Number(match[1]);
      const count = Number(match[2]);
      if (index >= 1 && index <= count) return { index, count };
    }
  }
  return undefined;
}

let watchingEmptyShard = false;

function writeEmptyShardOnExit(
  shard: { index: number; count: number },
  options: RagReporterOptions,
  rootDir: string,
): void {
  if (watchingEmptyShard) return;
  watchingEmptyShard = true;
  process.once('exit', () => {
    if ((globalThis as Record<symbol, unknown>)[JEST_REPORTER_STARTED] === true) return;
    const path = resolve(rootDir, shardReportName(shard.index, shard.count));
    try {
      writeFileAtomicSync(
        path,
        formatShardReport(createShardReport({ runner: 'jest', samples: [], files: [] }, shard, options)),
      );
      // Synchronously: the process is exiting, and a pending write to a pipe would be lost.
      writeSync(
        2,
        `rag-matchers: shard ${shard.index}/${shard.count} ran no test file; wrote the empty ${shardReportName(shard.index, shard.count)} for rag-matchers merge.\n`,
      );
    } catch {
      // The process is ending: merge will say the shard is missing.
    }
  });
}
