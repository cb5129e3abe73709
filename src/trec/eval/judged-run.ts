// The loop trec-eval runs for judgment formats other than qrels (-R prefs, -R qrels_prefs,
// -R qrels_jg): read both files whole, measure each judged query in byte order of id (under -c a query
// missing from the run as trec_eval does, a ranking of one unjudged document), print trec_eval's -q
// lines and summary. Which rows and how a query is measured are the caller's.
import { compareUtf8 } from '../../core/ranking.js';
import { DuplicateDocnoError, EXIT_BAD_INPUT, EXIT_NO_QUERIES, TrecEvalStop, TrecReadError } from '../errors.js';
import { parseRun, type RunEntry } from '../read.js';
import { readText } from '../text.js';
import { lastRunTag } from './engine.js';
import { formatFixed, measureColumn } from './format.js';
import { TrecOutput, type OutputStream } from './output.js';

/** One printed row: a count (`%ld`, summed) or a value (`%6.4f`, averaged). */
export interface JudgedRunRow {
  label: string;
  count: boolean;
}

/** The flags every judgment format takes: -q, -c, -n, -M, --precision. */
export interface JudgedRunFlags {
  judgmentsPath: string;
  runPath: string;
  perQuery: boolean;
  complete: boolean;
  summary: boolean;
  maxDocuments: number;
  digits: number;
}

export interface JudgedRunMeasures<Judgments> {
  /** The judgment file's text read into queries, in byte order of query id. */
  parse(text: string, file: string): ReadonlyMap<string, Judgments>;
  runid: boolean;
  numQ: boolean;
  rows: readonly JudgedRunRow[];
  /** The rows' values for one query. */
  measure(queryId: string, judgments: Judgments, entries: readonly RunEntry[], runFile: string): number[];
}

/** The ranking trec_eval measures a judged query missing from the run as under -c: one unjudged document. */
const MISSING_QUERY_RANKING: readonly RunEntry[] = [{ docId: 'ceci_nest_pas_un_docno', score: 1, rank: 1 }];

/**
 * A query's docnos best first, score descending, cut at -M; ties by docno in `tieOrder` (trec_eval's
 * preference code breaks them ascending, its judgment-group code descending). A docno ranked twice
 * is trec_eval's fatal error (exit 4).
 */
export function rankDocIds(
  entries: readonly RunEntry[],
  maxDocuments: number,
  tieOrder: 'ascending' | 'descending',
  queryId: string,
  runFile: string,
): string[] {
  const direction = tieOrder === 'ascending' ? 1 : -1;
  const ranked = [...entries]
    .sort((a, b) => b.score - a.score || direction * compareUtf8(a.docId, b.docId))
    .slice(0, maxDocuments)
    .map((entry) => entry.docId);
  const seen = new Set<string>();
  for (const docId of ranked) {
    if (seen.has(docId)) throw new DuplicateDocnoError(runFile, queryId, docId, Number.NaN, Number.NaN);
    seen.add(docId);
  }
  return ranked;
}

function valueText(row: JudgedRunRow, value: number, digits: number): string {
  return row.count ? String(Math.trunc(value)) : formatFixed(value, digits).padStart(6);
}

async function readFile(
  role: TrecReadError['role'],
  path: string,
  stdin: AsyncIterable<string | Uint8Array>,
): Promise<string> {
  try {
    return await readText(path, stdin, path === '-' ? '<stdin>' : path);
  } catch (error) {
    throw new TrecReadError(role, path === '-' ? '<stdin>' : path, error);
  }
}

/** Evaluates a run against judgments of another format and writes trec_eval's lines to `stdout`. */
export async function evaluateJudgedRun<Judgments>(
  flags: JudgedRunFlags,
  measures: JudgedRunMeasures<Judgments>,
  streams: { stdout: OutputStream; stdin: AsyncIterable<string | Uint8Array> },
): Promise<void> {
  const { rows, digits } = { ...measures, ...flags };
  const judgments = measures.parse(
    await readFile('qrels file', flags.judgmentsPath, streams.stdin),
    flags.judgmentsPath,
  );
  if (judgments.size === 0)
    throw new TrecEvalStop(
      `cannot read qrels file '${flags.judgmentsPath}': it holds no judgment line (trec_eval stops on it too)`,
      EXIT_BAD_INPUT,
    );
  const runFile = flags.runPath === '-' ? '<stdin>' : flags.runPath;
  const runText = await readFile('run file', flags.runPath, streams.stdin);
  const run = parseRun(runText, { file: runFile, grammar: 'trec_eval' });
  if (run.size === 0)
    throw new TrecEvalStop(
      `cannot read run file '${runFile}': it holds no result line (trec_eval stops on it too: "Cannot read results file")`,
      EXIT_BAD_INPUT,
    );

  const output = new TrecOutput(streams.stdout);
  const sums = new Float64Array(rows.length);
  let evaluated = 0;
  try {
    for (const [queryId, queryJudgments] of judgments) {
      const entries = run.get(queryId) ?? (flags.complete ? MISSING_QUERY_RANKING : undefined);
      if (entries === undefined) continue;
      const values = measures.measure(queryId, queryJudgments, entries, runFile);
      rows.forEach((row, index) => {
        const value = values[index] as number;
        sums[index]! += value;
        if (flags.perQuery) output.push(`${measureColumn(row.label)}\t${queryId}\t${valueText(row, value, digits)}\n`);
      });
      evaluated++;
    }
  } finally {
    await output.end();
  }
  if (evaluated === 0)
    throw new TrecEvalStop(
      'no queries with both results and relevance info (use -c to score judged queries missing from the run as 0)',
      EXIT_NO_QUERIES,
    );
  if (!flags.summary) return;
  // trec_eval averages over the evaluated queries, or under -c over every judged query.
  const queries = flags.complete ? judgments.size : evaluated;
  if (measures.runid) output.push(`${measureColumn('runid')}\tall\t${lastRunTag(runText) ?? ''}\n`);
  if (measures.numQ) output.push(`${measureColumn('num_q')}\tall\t${evaluated}\n`);
  rows.forEach((row, index) => {
    const sum = sums[index] as number;
    output.push(`${measureColumn(row.label)}\tall\t${valueText(row, row.count ? sum : sum / queries, digits)}\n`);
  });
  await output.end();
}
