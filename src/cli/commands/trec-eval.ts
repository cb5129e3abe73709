// `rag-matchers trec-eval`: a drop-in for NIST trec_eval 10 on the measures it supports, with the
// same flags, output format and order, query rules and fatal duplicates.
import { stat } from 'node:fs/promises';

import { compareUtf8 } from '../../core/ranking.js';
import { flag, numberOption, parseCommandArgs, stringList, stringOption } from '../args.js';
import { CommandError, EXIT_USAGE, Output, fileError, processIO, reportFailure, usageError, type CommandIO } from '../io.js';
import { createProgress } from '../progress.js';
import { TrecEvaluator, type TrecEvalSettings } from '../trec-eval-engine.js';
import {
  DuplicateDocnoError,
  RunGrouper,
  RunNotGroupedError,
  QueryTooLargeError,
  countPositiveJudgments,
  forEachLineChunk,
  gradesOf,
  groupRunByQuery,
  parseQrelsColumns,
  RunColumnsBuilder,
  queryRunOf,
  readText,
  streamQrelsQueries,
  type QrelsColumns,
  type QueryQrels,
  EMPTY_SPAN_QUERY,
  type SpanQuery,
} from '../trec-fast.js';
import { MeasureSpecError, SUPPORTED_TREC_MEASURES, planTrecMeasures, type TrecMeasurePlan } from '../trec-measures.js';

/** trec_eval's exit status for a duplicate docno ("Can't calculate measure"). */
export const EXIT_DUPLICATE = 4;
/** trec_eval's exit status when no query has both results and judgments. */
export const EXIT_NO_QUERIES = 7;

export const HELP = `Usage: rag-matchers trec-eval [-q] [-c] [-n] [-l N] [-M N] [-m MEASURE[.CUTOFFS]]... QRELS RUN

A drop-in for NIST trec_eval 10 on the measures below: same flags, same output
(\`%-22s\\t%s\\t%6.4f\`), same order, same query rules. RUN may be '-' (standard input).

Options (trec_eval's long names work too):
  -q, --query_eval_wanted          print every query's values before the summary
  -c, --complete_rel_info_wanted   average over every qrels query; a query missing
                                   from the run scores 0 (default: only queries in both)
  -n, --nosummary                  no summary ('all') lines
  -l, --level_for_rel N            grade at or above which a document is relevant
                                   (default 1; ndcg uses the grades themselves)
  -M, --Max_retrieved_per_topic N  keep the top N documents of each query
  -m, --measure NAME[.K1,K2,...]   measure to print (repeatable); default: all below
      --precision N                decimals of measure values (default 4)
      --streaming                  read both files one query at a time (memory stays
                                   flat however many queries); both must be grouped by
                                   query in byte order of query id: LC_ALL=C sort -s -k1,1
      --timings                    print read/sort/measure/write times to stderr (JSON)
  -h, --help                       this help

Measures: ${SUPPORTED_TREC_MEASURES.join(', ')}
  P, recall, ndcg_cut, map_cut take cutoffs (default 5,10,15,20,30,100,200,500,1000);
  success takes cutoffs (default 1,5,10). Example: -m P.5,10 -m ndcg_cut.10 -m map

Ranking: score descending, ties by docno descending (byte order), as trec_eval.
Exit status: 0 ok; 2 bad usage or input; 4 duplicate docno in a query (as trec_eval);
7 no query with both results and judgments (as trec_eval).
`;

const OPTIONS = {
  query_eval_wanted: { type: 'boolean', short: 'q' },
  complete_rel_info_wanted: { type: 'boolean', short: 'c' },
  nosummary: { type: 'boolean', short: 'n' },
  level_for_rel: { type: 'string', short: 'l' },
  Max_retrieved_per_topic: { type: 'string', short: 'M' },
  measure: { type: 'string', short: 'm', multiple: true },
  precision: { type: 'string' },
  streaming: { type: 'boolean' },
  timings: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // trec_eval options we recognise, to say they are not supported rather than "unknown".
  version: { type: 'boolean', short: 'v' },
  Judged_docs_only: { type: 'boolean', short: 'J' },
  Number_docs_in_coll: { type: 'string', short: 'N' },
  Debug_level: { type: 'string', short: 'D' },
  Rel_info_format: { type: 'string', short: 'R' },
  Results_format: { type: 'string', short: 'T' },
  Zscore: { type: 'string', short: 'Z' },
  Output_old_results_format: { type: 'boolean', short: 'o' },
} as const;

const UNSUPPORTED_FLAGS: Record<string, string> = {
  version: '-v/--version',
  Judged_docs_only: '-J/--Judged_docs_only',
  Number_docs_in_coll: '-N/--Number_docs_in_coll',
  Debug_level: '-D/--Debug_level',
  Rel_info_format: '-R/--Rel_info_format',
  Results_format: '-T/--Results_format',
  Zscore: '-Z/--Zscore',
  Output_old_results_format: '-o/--Output_old_results_format',
};

interface TrecEvalInvocation {
  qrelsPath: string;
  runPath: string;
  /** The -m values as given (workers plan the measures again from them). */
  measureRequests: string[];
  plan: TrecMeasurePlan;
  settings: TrecEvalSettings;
  streaming: boolean;
  timings: boolean;
}

function readInvocation(args: readonly string[]): TrecEvalInvocation | 'help' {
  const parsed = parseCommandArgs(args, OPTIONS);
  if (flag(parsed, 'help')) return 'help';
  for (const [name, shown] of Object.entries(UNSUPPORTED_FLAGS)) {
    if (parsed.values[name] !== undefined) {
      throw usageError(`trec_eval's ${shown} is not supported by rag-matchers trec-eval (supported: -q -c -n -l -M -m)`);
    }
  }
  if (parsed.positionals.length !== 2) {
    throw usageError(`expected two files, QRELS and RUN, got ${parsed.positionals.length === 0 ? 'none' : parsed.positionals.map((file) => `'${file}'`).join(' ')}`);
  }
  const [qrelsPath, runPath] = parsed.positionals as [string, string];
  if (qrelsPath === '-') throw usageError("QRELS cannot be '-' (only the run can come from standard input, as in trec_eval)");

  let plan: TrecMeasurePlan;
  const measureRequests = stringList(parsed, 'measure');
  try {
    plan = planTrecMeasures(measureRequests);
  } catch (error) {
    if (error instanceof MeasureSpecError) throw usageError(error.message);
    throw error;
  }
  const relevanceLevel = numberOption('-l', stringOption(parsed, 'level_for_rel'), { integer: true, min: 1, example: '2' }) ?? 1;
  const maxDocuments = numberOption('-M', stringOption(parsed, 'Max_retrieved_per_topic'), { integer: true, min: 0, example: '1000' }) ?? Infinity;
  const digits = numberOption('--precision', stringOption(parsed, 'precision'), { integer: true, min: 0, max: 20, example: '6' }) ?? 4;
  return {
    qrelsPath,
    runPath,
    measureRequests,
    plan,
    streaming: flag(parsed, 'streaming'),
    timings: flag(parsed, 'timings'),
    settings: {
      relevanceLevel,
      maxDocuments,
      perQuery: flag(parsed, 'query_eval_wanted'),
      complete: flag(parsed, 'complete_rel_info_wanted'),
      summary: !flag(parsed, 'nosummary'),
      digits,
      runFile: runPath === '-' ? '<stdin>' : runPath,
    },
  };
}

export async function run(args: readonly string[], io: CommandIO = processIO()): Promise<number> {
  try {
    const invocation = readInvocation(args);
    if (invocation === 'help') {
      io.stdout.write(HELP);
      return 0;
    }
    for (const warning of invocation.plan.warnings) io.stderr.write(`rag-matchers trec-eval: ${warning}\n`);
    return invocation.streaming ? await evaluateStreaming(invocation, io) : await evaluateWholeRun(invocation, io);
  } catch (error) {
    if (error instanceof DuplicateDocnoError) {
      io.stderr.write(`rag-matchers trec-eval: ${error.message}\n`);
      return EXIT_DUPLICATE;
    }
    return reportFailure('trec-eval', io, error);
  }
}

async function readSource(role: string, path: string, io: CommandIO): Promise<string> {
  try {
    return await readText(path, io.stdin);
  } catch (error) {
    throw fileError(role, path === '-' ? '<stdin>' : path, error);
  }
}

function noQueries(): CommandError {
  return new CommandError('no queries with both results and relevance info (use -c to score qrels queries missing from the run as 0)', EXIT_NO_QUERIES);
}

function finishTimings(invocation: TrecEvalInvocation, evaluator: TrecEvaluator, io: CommandIO, startedAt: number): void {
  if (!invocation.timings) return;
  const { read, sort, measure, write } = evaluator.times;
  const round = (value: number) => Math.round(value * 10) / 10;
  const total = performance.now() - startedAt;
  const report = { read: round(read), sort: round(sort), measure: round(measure), write: round(write), total: round(total), maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) };
  io.stderr.write(`${JSON.stringify(report)}\n`);
}

async function fileSize(path: string): Promise<number | undefined> {
  if (path === '-') return undefined;
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

async function checkReadable(role: string, path: string): Promise<void> {
  if (path === '-') return;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (error) {
    throw fileError(role, path, error);
  }
}

/** Per qrels query (by index): its row values, or the duplicate that makes it fatal. */
interface Measured {
  values: (ArrayLike<number> | undefined)[];
  failures: (DuplicateDocnoError | undefined)[];
}

/**
 * Evaluates every run query that has judgments. The run is read in 64 kB chunks and each query is evaluated as soon as its lines are
 * complete, so a run grouped by query (the usual case) never sits in memory whole. A run whose query
 * ids come back (lines not grouped) is then read again as a whole, into columns.
 */
async function measureSerially(invocation: TrecEvalInvocation, io: CommandIO, qrels: QrelsColumns, evaluator: TrecEvaluator): Promise<Measured> {
  const { settings } = invocation;
  const queryCount = qrels.queryIds.length;
  const values: (Float64Array | undefined)[] = new Array(queryCount);
  const failures: (DuplicateDocnoError | undefined)[] = new Array(queryCount);
  const measureQuery = (query: number, run: Omit<SpanQuery, 'queryId'>) => {
    const queryId = qrels.queryIds[query] as string;
    try {
      values[query] = evaluator.measureQuery(queryId, gradesOf(qrels, query), run);
    } catch (error) {
      if (!(error instanceof DuplicateDocnoError)) throw error;
      failures[query] = error;
    }
  };

  const progress = createProgress(io.stderr, 'trec-eval', { unit: 'bytes', total: await fileSize(invocation.runPath) });
  let bytesRead = 0;
  const retained: string[] | undefined = invocation.runPath === '-' ? [] : undefined;
  let grouped = true;
  // A query longer than 16 M characters is not carried from chunk to chunk: the run is then read whole.
  const grouper = new RunGrouper(settings.runFile, 'grouped', (query) => {
    const index = qrels.queryIndex.get(query.queryId);
    if (index !== undefined) measureQuery(index, query);
  }, 1 << 24);
  class StopReading extends Error {}
  try {
    await forEachLineChunk(
      invocation.runPath,
      io.stdin,
      (text) => {
        retained?.push(text);
        if (!grouped) return;
        try {
          grouper.accept(text);
        } catch (error) {
          if (!(error instanceof RunNotGroupedError) && !(error instanceof QueryTooLargeError)) throw error;
          grouped = false;
          if (retained === undefined) throw new StopReading();
        }
      },
      (bytes) => progress.update((bytesRead += bytes)),
    );
    if (grouped) grouper.finish();
  } catch (error) {
    if (!(error instanceof StopReading)) throw error instanceof Error && 'code' in error ? fileError('run file', invocation.runPath, error) : error;
  }
  progress.finish();

  if (!grouped) {
    values.fill(undefined);
    failures.fill(undefined);
    // Read again (or, from standard input, take the chunks kept) into columns: text and typed arrays.
    const builder = new RunColumnsBuilder(settings.runFile, retained === undefined ? await fileSize(invocation.runPath) : retained.reduce((total, text) => total + text.length, 0));
    if (retained === undefined) {
      try {
        await forEachLineChunk(invocation.runPath, io.stdin, (text) => builder.accept(text));
      } catch (error) {
        throw error instanceof Error && 'code' in error ? fileError('run file', invocation.runPath, error) : error;
      }
    } else {
      for (const text of retained) builder.accept(text);
      retained.length = 0;
    }
    const run = builder.finish();
    const groups = groupRunByQuery(run);
    run.queryIds.forEach((queryId, runIndex) => {
      const index = qrels.queryIndex.get(queryId);
      if (index !== undefined) measureQuery(index, queryRunOf(run, groups, runIndex));
    });
  }
  return { values, failures };
}

/**
 * The whole run, any line order (trec_eval's mode). Queries are printed and averaged in byte order
 * of id, as trec_eval does; a duplicate docno surfaces when that order reaches its query, after any
 * format error.
 */
async function evaluateWholeRun(invocation: TrecEvalInvocation, io: CommandIO): Promise<number> {
  const startedAt = performance.now();
  const { settings } = invocation;
  await checkReadable('run file', invocation.runPath);
  const qrels = parseQrelsColumns(await readSource('qrels file', invocation.qrelsPath, io), invocation.qrelsPath);
  const output = new Output(io.stdout);
  const evaluator = new TrecEvaluator(invocation.plan, settings, output);
  const measured = await measureSerially(invocation, io, qrels, evaluator);

  const queryCount = qrels.queryIds.length;
  const order = Array.from({ length: queryCount }, (_, index) => index).sort((a, b) => compareUtf8(qrels.queryIds[a] as string, qrels.queryIds[b] as string));
  for (const query of order) {
    const failure = measured.failures[query];
    if (failure !== undefined) {
      await output.end();
      throw failure;
    }
    let queryValues = measured.values[query];
    if (queryValues === undefined) {
      if (!settings.complete) continue;
      try {
        queryValues = evaluator.measureQuery(qrels.queryIds[query] as string, gradesOf(qrels, query), EMPTY_SPAN_QUERY);
      } catch (error) {
        await output.end();
        throw error;
      }
    }
    evaluator.recordQuery(qrels.queryIds[query] as string, queryValues);
  }
  if (evaluator.evaluatedCount === 0) throw noQueries();
  evaluator.noteRelevantInAllQrels(countPositiveJudgments(qrels));
  evaluator.pushSummary();
  const writeStarted = performance.now();
  await output.end();
  evaluator.times.write += performance.now() - writeStarted;
  evaluator.times.read = performance.now() - startedAt - evaluator.times.sort - evaluator.times.measure - evaluator.times.write;
  finishTimings(invocation, evaluator, io, startedAt);
  return 0;
}

/**
 * --streaming: both files one query at a time, merged on query id. Both must be grouped by query
 * in byte order of id; memory holds one query of each plus the output buffer, however many queries.
 * Lines are printed as queries complete, in the same order and bytes as the whole-run mode.
 */
async function evaluateStreaming(invocation: TrecEvalInvocation, io: CommandIO): Promise<number> {
  const startedAt = performance.now();
  const { settings } = invocation;
  await checkReadable('qrels file', invocation.qrelsPath);
  await checkReadable('run file', invocation.runPath);
  const output = new Output(io.stdout);
  const evaluator = new TrecEvaluator(invocation.plan, settings, output);
  const progress = createProgress(io.stderr, 'trec-eval', { unit: 'bytes', total: await fileSize(invocation.runPath) });
  let bytesRead = 0;

  const qrelsQueries = streamQrelsQueries(invocation.qrelsPath, invocation.qrelsPath);
  let pending = qrelsQueries.next().value as QueryQrels | undefined;
  const nextQrels = () => {
    pending = qrelsQueries.next().value as QueryQrels | undefined;
  };
  /** qrels queries before `queryId` (none of them in the run): evaluated as empty under -c. */
  const passQrelsBefore = (queryId: string | undefined) => {
    while (pending !== undefined && (queryId === undefined || compareUtf8(pending.queryId, queryId) < 0)) {
      evaluator.noteQrelsQuery(pending.grades);
      if (settings.complete) evaluator.addQuery(pending.queryId, pending.grades, EMPTY_SPAN_QUERY);
      nextQrels();
    }
  };
  const grouper = new RunGrouper(settings.runFile, 'sorted', (query) => {
    passQrelsBefore(query.queryId);
    if (pending !== undefined && pending.queryId === query.queryId) {
      evaluator.noteQrelsQuery(pending.grades);
      evaluator.addQuery(query.queryId, pending.grades, query);
      nextQrels();
    }
  });
  try {
    await forEachLineChunk(invocation.runPath, io.stdin, (text) => grouper.accept(text), (bytes) => progress.update((bytesRead += bytes)));
    grouper.finish();
    passQrelsBefore(undefined);
  } catch (error) {
    progress.finish();
    await output.end();
    throw error;
  }
  progress.finish();
  if (evaluator.evaluatedCount === 0) throw noQueries();
  evaluator.pushSummary();
  await output.end();
  evaluator.times.read = performance.now() - startedAt - evaluator.times.sort - evaluator.times.measure - evaluator.times.write;
  finishTimings(invocation, evaluator, io, startedAt);
  return 0;
}

export { EXIT_USAGE };
