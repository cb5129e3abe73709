// `rag-matchers trec-eval`: a drop-in for NIST trec_eval 10 on the measures it supports, with the
// same flags, output format and order, query rules and fatal duplicates. This file reads the flags
// and words the errors; the engine in src/trec/eval/ evaluates.
import { createReadStream } from 'node:fs';

import { readsOnlyOnce } from '../../files/file-kind.js';
import { flag, numberOption, parseCommandArgs, stringList, stringOption, type ParsedArgs } from '../args.js';
import { CommandError, EXIT_USAGE, fileError, processIO, reportFailure, usageError, type CommandIO } from '../io.js';
import { createProgress } from '../progress.js';
import { withSwappedFilesHint } from '../swapped-files.js';
import {
  MeasureSpecError,
  PREFERENCE_MEASURES,
  SUPPORTED_TREC_MEASURES,
  evaluateJudgmentGroups,
  evaluatePreferences,
  evaluateTrec,
  planJudgmentGroupMeasures,
  planPreferenceMeasures,
  planTrecMeasures,
  type JudgmentGroupInvocation,
  type PreferenceFormat,
  type PreferenceInvocation,
  type TrecEvalInvocation,
  type TrecMeasurePlan,
} from '../../trec/eval/index.js';
import {
  DuplicateDocnoError,
  EXIT_DUPLICATE,
  EXIT_NO_QUERIES,
  TrecEvalStop,
  TrecReadError,
} from '../../trec/errors.js';

export const HELP = `Usage: rag-matchers trec-eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-R FORMAT] [-m MEASURE[.PARAMS]]... QRELS RUN

A drop-in for NIST trec_eval 10 on every measure of its all_trec set: same flags,
same output (\`%-22s\\t%s\\t%6.4f\`), same order, same query rules. RUN may be '-'
(standard input).

Options (trec_eval's long names work too):
  -q, --query_eval_wanted          print every query's values before the summary
  -c, --complete_rel_info_wanted   average over every qrels query; a query missing
                                   from the run scores 0 (default: only queries in both,
                                   as trec_eval 9; trec_eval 10 exits 4 on such a query)
  -n, --nosummary                  no summary ('all') lines
  -J, --Judged_docs_only           rank only judged documents (others thrown out first)
  -l, --level_for_rel N            grade at or above which a document is relevant
                                   (default 1; the gain measures use the grades themselves)
  -M, --Max_retrieved_per_topic N  keep the top N documents of each query
  -N, --Number_docs_in_coll N      documents in the collection (utility's d; default 0)
  -m, --measure NAME[.PARAMS]      measure to print (repeatable), or a set: official
                                   (the default, as trec_eval), all_trec or set
  -R, --Rel_info_format FORMAT     the judgment file's format: trec_qrels (default),
                                   prefs or qrels_prefs (trec_eval's preference
                                   measures; -m required: all_prefs, prefs, prefs_*),
                                   qrels_jg (judgment groups; -m required: qrels_jg,
                                   map_avgjg, P_avgjg, Rprec_mult_avgjg)
      --precision N                decimals of measure values (default 4)
      --streaming                  read both files one query at a time (memory stays
                                   flat however many queries); both must be grouped by
                                   query in byte order of query id: LC_ALL=C sort -s -k1,1
      --threads N                  threads that measure a run file, each a part of it
                                   (default: one per core, up to 4, for a run of 16 MB
                                   or more; 1: never more than one); same output
      --timings                    print read/sort/measure/write times to stderr (JSON; the
                                   clock reads slow a large run a little)
  -h, --help                       this help

Measures: ${SUPPORTED_TREC_MEASURES.join(', ')}
  Cutoffs: P, recall, ndcg_cut, map_cut, relative_P (default 5,10,15,20,30,100,200,500,1000),
  success (1,5,10), unj (5,10,20). Recall levels: iprec_at_recall, 11pt_avg (0,.1,...,1).
  Rprec_mult: multiples of R (.2,.4,...,2). utility: a,b,c,d (1,-1,0,0). set_F: beta (1).
  relstring: length (10). Gains level=gain: G, dcg, ideal_dcg, ndcg, ndcg_rel, Rndcg, rbp;
  rbp and rbp_resid also p=persistence (0.9). runid, num_q, gm_map and gm_bpref print in the
  summary only, relstring per query only.
  Example: -m P.5,10 -m ndcg_cut.10 -m map -m rbp.p=0.8 -m utility.2,-1,0,0
Preference measures (-R prefs, -R qrels_prefs): ${PREFERENCE_MEASURES.join(', ')}

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
  threads: { type: 'string' },
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
  Debug_level: '-D/--Debug_level',
  Results_format: '-T/--Results_format',
  Zscore: '-Z/--Zscore',
  Output_old_results_format: '-o/--Output_old_results_format',
};

/** The -R formats: trec_eval's qrels (the default) or its preference judgments. */
const RELEVANCE_FORMATS = ['trec_qrels', 'prefs', 'qrels_prefs', 'qrels_jg'] as const;

function relevanceFormatOf(text: string | undefined): PreferenceFormat | 'qrels_jg' | undefined {
  if (text === undefined || text === 'trec_qrels') return undefined;
  if (text === 'prefs' || text === 'qrels_prefs' || text === 'qrels_jg') return text;
  throw usageError(`-R '${text}' is not a judgment format; use one of ${RELEVANCE_FORMATS.join(', ')}`);
}

/** Flags of the qrels path only; refused with preference judgments. */
const QRELS_ONLY_FLAGS = ['streaming', 'threads', 'timings'] as const;

/** What -R prefs, -R qrels_prefs and -R qrels_jg evaluate. */
type OtherJudgmentsInvocation =
  ({ format: PreferenceFormat } & PreferenceInvocation) | ({ format: 'qrels_jg' } & JudgmentGroupInvocation);

function otherJudgmentsInvocation(
  parsed: ParsedArgs,
  format: PreferenceFormat | 'qrels_jg',
  judgmentsPath: string,
  runPath: string,
  common: { maxDocuments: number; digits: number; relevanceLevel: number },
): OtherJudgmentsInvocation {
  for (const name of QRELS_ONLY_FLAGS) {
    if (parsed.values[name] !== undefined) throw usageError(`--${name} is not available with -R ${format}`);
  }
  const flags = {
    judgmentsPath,
    runPath,
    perQuery: flag(parsed, 'query_eval_wanted'),
    complete: flag(parsed, 'complete_rel_info_wanted'),
    summary: !flag(parsed, 'nosummary'),
    maxDocuments: common.maxDocuments,
    digits: common.digits,
  };
  try {
    if (format === 'qrels_jg') {
      const plan = planJudgmentGroupMeasures(stringList(parsed, 'measure'));
      return {
        format,
        ...flags,
        plan,
        relevanceLevel: common.relevanceLevel,
        judgedOnly: flag(parsed, 'Judged_docs_only'),
      };
    }
    return { format, ...flags, plan: planPreferenceMeasures(stringList(parsed, 'measure'), format) };
  } catch (error) {
    if (error instanceof MeasureSpecError) throw usageError(error.message);
    throw error;
  }
}

function readInvocation(args: readonly string[]): TrecEvalInvocation | OtherJudgmentsInvocation | 'help' {
  const parsed = parseCommandArgs(args, OPTIONS);
  if (flag(parsed, 'help')) return 'help';
  for (const [name, shown] of Object.entries(UNSUPPORTED_FLAGS)) {
    if (parsed.values[name] !== undefined) {
      throw usageError(
        `trec_eval's ${shown} is not supported by rag-matchers trec-eval (supported: -q -c -n -J -l -M -N -m -R)`,
      );
    }
  }
  if (parsed.positionals.length !== 2) {
    throw usageError(
      `expected two files, QRELS and RUN, got ${parsed.positionals.length === 0 ? 'none' : parsed.positionals.map((file) => `'${file}'`).join(' ')}`,
    );
  }
  const [qrelsPath, runPath] = parsed.positionals as [string, string];
  if (qrelsPath === '-')
    throw usageError("QRELS cannot be '-' (only the run can come from standard input, as in trec_eval)");

  const maxDocuments =
    numberOption('-M', stringOption(parsed, 'Max_retrieved_per_topic'), { integer: true, min: 0, example: '1000' }) ??
    Infinity;
  const digits =
    numberOption('--precision', stringOption(parsed, 'precision'), { integer: true, min: 0, max: 20, example: '6' }) ??
    4;
  const relevanceLevel =
    numberOption('-l', stringOption(parsed, 'level_for_rel'), { integer: true, min: 1, example: '2' }) ?? 1;
  const format = relevanceFormatOf(stringOption(parsed, 'Rel_info_format'));
  if (format !== undefined)
    return otherJudgmentsInvocation(parsed, format, qrelsPath, runPath, { maxDocuments, digits, relevanceLevel });

  let plan: TrecMeasurePlan;
  const measureRequests = stringList(parsed, 'measure');
  try {
    plan = planTrecMeasures(measureRequests);
  } catch (error) {
    if (error instanceof MeasureSpecError) throw usageError(error.message);
    throw error;
  }
  return {
    qrelsPath,
    runPath,
    plan,
    threads: numberOption('--threads', stringOption(parsed, 'threads'), {
      integer: true,
      min: 1,
      max: 64,
      example: '2',
    }),
    streaming: flag(parsed, 'streaming'),
    timings: flag(parsed, 'timings'),
    settings: {
      relevanceLevel,
      maxDocuments,
      perQuery: flag(parsed, 'query_eval_wanted'),
      complete: flag(parsed, 'complete_rel_info_wanted'),
      judgedOnly: flag(parsed, 'Judged_docs_only'),
      documentsInCollection:
        numberOption('-N', stringOption(parsed, 'Number_docs_in_coll'), { integer: true, min: 0, example: '500000' }) ??
        0,
      summary: !flag(parsed, 'nosummary'),
      digits,
      runFile: runPath === '-' ? '<stdin>' : runPath,
      timeStages: flag(parsed, 'timings'),
    },
  };
}

export async function run(args: readonly string[], io: CommandIO = processIO()): Promise<number> {
  let invocation: TrecEvalInvocation | OtherJudgmentsInvocation | 'help' | undefined;
  try {
    invocation = readInvocation(args);
    if (invocation === 'help') {
      io.stdout.write(HELP);
      return 0;
    }
    if ('judgmentsPath' in invocation) {
      for (const warning of invocation.plan.warnings) io.stderr.write(`rag-matchers trec-eval: ${warning}\n`);
      const streams = { stdout: io.stdout, stdin: io.stdin };
      if (invocation.format === 'qrels_jg') await evaluateJudgmentGroups(invocation, streams);
      else await evaluatePreferences(invocation, streams);
      return 0;
    }
    for (const warning of invocation.plan.warnings) io.stderr.write(`rag-matchers trec-eval: ${warning}\n`);
    // A run from a pipe (`<(cat run)`, a named FIFO) is read once, from the start, as trec_eval reads
    // it: the way standard input is read (a file is read twice, its tag from the end).
    const piped = invocation.runPath !== '-' && readsOnlyOnce(invocation.runPath);
    const timings = await evaluateTrec(piped ? { ...invocation, runPath: '-' } : invocation, {
      stdout: io.stdout,
      stdin: piped ? createReadStream(invocation.runPath) : io.stdin,
      progress: (total) => createProgress(io.stderr, 'trec-eval', { unit: 'bytes', total }),
    });
    if (timings !== undefined) io.stderr.write(`${JSON.stringify(timings)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof DuplicateDocnoError) {
      io.stderr.write(`rag-matchers trec-eval: ${error.message}\n`);
      return error.exitStatus;
    }
    const swapped =
      invocation === undefined || invocation === 'help'
        ? error
        : withSwappedFilesHint(error, judgmentsOf(invocation), invocation.runPath, swappedCommand(args, invocation));
    return reportFailure('trec-eval', io, commandErrorOf(swapped));
  }
}

function judgmentsOf(invocation: TrecEvalInvocation | OtherJudgmentsInvocation): string {
  return 'judgmentsPath' in invocation ? invocation.judgmentsPath : invocation.qrelsPath;
}

/** The command line with the two files in the other order. */
function swappedCommand(args: readonly string[], invocation: TrecEvalInvocation | OtherJudgmentsInvocation): string {
  const qrelsPath = judgmentsOf(invocation);
  const { runPath } = invocation;
  const swapped = args.map((argument) =>
    argument === qrelsPath ? runPath : argument === runPath ? qrelsPath : argument,
  );
  return ['rag-matchers trec-eval', ...swapped].join(' ');
}

/** The engine's stops as the CLI's errors (a file it cannot read worded as every command words it). */
function commandErrorOf(error: unknown): unknown {
  if (error instanceof TrecReadError) return fileError(error.role, error.path, error.cause);
  if (error instanceof TrecEvalStop) return new CommandError(error.message, error.exitStatus);
  return error;
}

export { EXIT_DUPLICATE, EXIT_NO_QUERIES, EXIT_USAGE };
