// `rag-matchers eval`: a run against qrels or an eval set, as a table, JSON or Markdown.
import { isBinaryMeasure, parseMeasure } from '../../core/measures.js';
import { meanInterval, type MeanInterval } from '../../core/stats.js';
import { evaluateRun, measureValues, type RunEvaluation } from '../../dataset/evaluate-run.js';
import { flag, numberOption, parseCommandArgs, stringOption } from '../args.js';
import {
  EVALUATION_HELP,
  EVALUATION_OPTIONS,
  loadQuerySet,
  loadRun,
  readEvaluationSettings,
  type OutputFormat,
} from '../inputs.js';
import { CommandError, processIO, reportFailure, usageError, type CommandIO } from '../io.js';
import { alignmentWarning, assertSomethingToEvaluate, measureAlignment } from '../alignment.js';
import { createProgress } from '../progress.js';
import { escapeConsole, escapeMarkdown } from '../../core/escape.js';
import { confidencePercent, fixed, wordFor } from '../../core/present.js';
import { listSome as listSomeIds, markdownTable, textTable, type Column } from '../render.js';

export const HELP = `Usage: rag-matchers eval --qrels FILE --run FILE [-m MEASURE]... [options]

Evaluates a run against judgments and prints each measure's mean (and, with
--per-query, every query's values).

  --qrels FILE   judgments: TREC qrels (qid iter docno rel) or a JSONL eval set
                 ({"id", "query", "relevant": [...] or {"doc": grade}}), by extension or content
  --run FILE     run: TREC (qid Q0 docno rank score tag; ranked by score, as trec_eval)
                 or JSONL ({"id", "hits": [...]}, hits in rank order)
${EVALUATION_HELP}
      --per-query                 also print every query's values (table and markdown)
      --confidence C              add a C interval to each mean (e.g. 0.95): Wilson for hit@k,
                                  seeded percentile bootstrap otherwise
  -h, --help                      this help

Query rules (trec_eval's): a set query with no judgments is not evaluated (listed as
unjudged); a judged query with no relevant document scores 0; a judged query missing
from the run scores 0 (see --missing); run-only queries are ignored and listed.

--format json prints { "measures", "mean", "perQuery", "queries": { "evaluated",
"unjudged", "missing", "runOnly" } } with canonical measure names (recall@10, ndcg@10, mrr).
A warning goes to stderr when most queries share no id with the judgments (with the
--granularity document hint when the run ranks chunks of judged documents).
Exit status: 0 ok; 2 bad usage or input (an empty set or run, or no query id of
the run in the set).
`;

const OPTIONS = {
  ...EVALUATION_OPTIONS,
  qrels: { type: 'string' },
  run: { type: 'string' },
  'per-query': { type: 'boolean' },
  confidence: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The JSON document of `--format json`. */
export function evaluationJson(result: RunEvaluation, intervals?: Record<string, MeanInterval>): string {
  // Query ids are user strings: a null-prototype table keeps one named `__proto__`.
  const perQuery = Object.create(null) as Record<string, Record<string, number>>;
  for (const queryId of result.queryIds) perQuery[queryId] = result.perQuery[queryId] as Record<string, number>;
  const document = {
    measures: result.measures,
    mean: result.mean,
    perQuery,
    queries: result.queries,
    ...(intervals === undefined ? {} : { intervals }),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

function coverageLine(result: RunEvaluation, escape: (text: string) => string): string {
  const { evaluated, unjudged, missing, runOnly } = result.queries;
  const listSome = (ids: readonly string[]) => listSomeIds(ids, 10, escape);
  const parts = [`${evaluated} evaluated`];
  if (unjudged.length > 0) parts.push(`${unjudged.length} unjudged, not evaluated (${listSome(unjudged)})`);
  const scored = missing.filter((id) => Object.prototype.hasOwnProperty.call(result.perQuery, id));
  const skipped = missing.filter((id) => !Object.prototype.hasOwnProperty.call(result.perQuery, id));
  if (scored.length > 0) parts.push(`${scored.length} missing from the run, scored 0 (${listSome(scored)})`);
  if (skipped.length > 0) parts.push(`${skipped.length} missing from the run, left out (${listSome(skipped)})`);
  if (runOnly.length > 0) parts.push(`${runOnly.length} only in the run, ignored (${listSome(runOnly)})`);
  return `Queries: ${parts.join('; ')}.\n`;
}

function intervalCell(interval: MeanInterval | undefined): string {
  return interval === undefined ? '–' : `[${fixed(interval.lower)}, ${fixed(interval.upper)}]`;
}

function renderTables(
  result: RunEvaluation,
  format: Exclude<OutputFormat, 'json'>,
  perQuery: boolean,
  intervals: Record<string, MeanInterval> | undefined,
  confidence: number | undefined,
): string {
  const table = format === 'markdown' ? markdownTable : textTable;
  const columns: Column[] = [{ header: 'measure' }, { header: 'mean', numeric: true }];
  if (intervals !== undefined)
    columns.push({ header: `${confidencePercent(confidence ?? 0)} interval`, numeric: true });
  const rows = result.measures.map((name) => {
    const row = [name, fixed(result.mean[name])];
    if (intervals !== undefined) row.push(intervalCell(intervals[name]));
    return row;
  });
  let output = table(columns, rows);
  if (perQuery && result.queryIds.length > 0) {
    const queryColumns: Column[] = [
      { header: 'query' },
      ...result.measures.map((name) => ({ header: name, numeric: true })),
    ];
    const queryRows = result.queryIds.map((queryId) => [
      queryId,
      ...result.measures.map((name) => fixed((result.perQuery[queryId] as Record<string, number>)[name])),
    ]);
    output += `\n${table(queryColumns, queryRows)}`;
  }
  const coverage = coverageLine(result, format === 'markdown' ? escapeMarkdown : escapeConsole);
  return `${output}\n${format === 'markdown' ? coverage.replace(/^Queries:/, '**Queries:**') : coverage}`;
}

export function computeIntervals(result: RunEvaluation, confidence: number): Record<string, MeanInterval> {
  const intervals = Object.create(null) as Record<string, MeanInterval>;
  if (result.queryIds.length === 0) return intervals;
  for (const name of result.measures) {
    const binary = isBinaryMeasure(parseMeasure(name)) ? true : undefined;
    intervals[name] = meanInterval(measureValues(result, name), { confidence, binary });
  }
  return intervals;
}

export async function run(args: readonly string[], io: CommandIO = processIO()): Promise<number> {
  try {
    const parsed = parseCommandArgs(args, OPTIONS);
    if (flag(parsed, 'help')) {
      io.stdout.write(HELP);
      return 0;
    }
    if (parsed.positionals.length > 0) {
      throw usageError(
        `unexpected ${wordFor(parsed.positionals.length, 'argument')} ${parsed.positionals.map((arg) => `'${arg}'`).join(' ')} (give files with --qrels and --run)`,
      );
    }
    const qrelsPath = stringOption(parsed, 'qrels');
    const runPath = stringOption(parsed, 'run');
    if (qrelsPath === undefined || runPath === undefined) {
      throw usageError(`${qrelsPath === undefined ? '--qrels' : '--run'} FILE is required`);
    }
    const settings = readEvaluationSettings(parsed);
    const confidence = numberOption('--confidence', stringOption(parsed, 'confidence'), {
      min: 0,
      minExclusive: true,
      max: 1,
      maxExclusive: true,
      example: '0.95',
    });
    const set = await loadQuerySet(qrelsPath, io, settings.grammar);
    const runData = await loadRun(runPath, io, settings.grammar);
    assertSomethingToEvaluate(set, runData, qrelsPath, runPath);
    io.stderr.write(alignmentWarning(measureAlignment(set, runData, settings.options), runPath));
    const progress = createProgress(io.stderr, 'eval', { unit: 'queries' });
    let result: RunEvaluation;
    try {
      result = evaluateRun(set, runData, {
        ...settings.options,
        measures: settings.measures,
        onProgress: (done) => progress.update(done),
      });
    } catch (error) {
      throw new CommandError((error as Error).message.replace(/^evaluateRun: /, ''));
    } finally {
      progress.finish();
    }
    const intervals = confidence === undefined ? undefined : computeIntervals(result, confidence);
    if (settings.format === 'json') io.stdout.write(evaluationJson(result, intervals));
    else io.stdout.write(renderTables(result, settings.format, flag(parsed, 'per-query'), intervals, confidence));
    return 0;
  } catch (error) {
    return reportFailure('eval', io, error);
  }
}
