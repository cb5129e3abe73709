// trec-eval over preference judgments (`-R prefs`, `-R qrels_prefs`): reads both files whole, measures
// each judged query in byte order of id and prints trec_eval 10's lines. The qrels path (evaluate.ts)
// is a separate one and untouched by this.
import { compareUtf8 } from '../../core/ranking.js';
import { DuplicateDocnoError, EXIT_BAD_INPUT, EXIT_NO_QUERIES, TrecEvalStop, TrecReadError } from '../errors.js';
import { parseRun, type RunEntry } from '../read.js';
import { readText } from '../text.js';
import { lastRunTag } from './engine.js';
import { formatFixed, measureColumn } from './format.js';
import { MeasureSpecError } from './measures.js';
import { TrecOutput, type OutputStream } from './output.js';
import { countPreferences } from './prefs-counts.js';
import { PREFERENCE_COUNTS, PREFERENCE_MEASURES, preferenceValue, type PreferenceMeasure } from './prefs-measures.js';
import { parsePreferences, type PreferenceFormat } from './prefs-read.js';

/** trec_eval's preference sets: `all_prefs` (every measure) and `prefs` (its short list). */
const PREFERENCE_SETS: ReadonlyMap<string, readonly string[]> = new Map([
  ['all_prefs', ['runid', 'num_q', ...PREFERENCE_MEASURES]],
  [
    'prefs',
    [
      'runid',
      'num_q',
      'prefs_num_prefs_poss',
      'prefs_num_prefs_ful',
      'prefs_num_prefs_ful_ret',
      'prefs_simp',
      'prefs_pair',
      'prefs_avgjg',
    ],
  ],
]);

/** What the preference measures' -m flags ask for, in trec_eval's print order. */
export interface PreferencePlan {
  runid: boolean;
  numQ: boolean;
  measures: PreferenceMeasure[];
  warnings: string[];
}

/** The -m flags under -R prefs: preference measures and sets, runid and num_q. */
export function planPreferenceMeasures(requests: readonly string[], format: PreferenceFormat): PreferencePlan {
  if (requests.length === 0)
    throw new MeasureSpecError(
      `-R ${format} needs the measures named (trec_eval's default set reads qrels): -m all_prefs, -m prefs or -m prefs_simp …`,
    );
  const warnings: string[] = [];
  const chosen = new Set<string>();
  for (const request of requests) {
    const dot = request.indexOf('.');
    const name = dot === -1 ? request : request.slice(0, dot);
    const members = PREFERENCE_SETS.get(name);
    if (members !== undefined) {
      for (const member of members) chosen.add(member);
      continue;
    }
    if (name !== 'runid' && name !== 'num_q' && !(PREFERENCE_MEASURES as readonly string[]).includes(name)) {
      throw new MeasureSpecError(
        `measure '${name}' does not read preference judgments (-R ${format}); with it use ${[...PREFERENCE_SETS.keys(), 'runid', 'num_q', ...PREFERENCE_MEASURES].join(', ')}`,
      );
    }
    if (dot !== -1) warnings.push(`'${name}' takes no parameters: '${request.slice(dot)}' ignored, as trec_eval does.`);
    chosen.add(name);
  }
  return {
    runid: chosen.has('runid'),
    numQ: chosen.has('num_q'),
    measures: PREFERENCE_MEASURES.filter((measure) => chosen.has(measure)),
    warnings,
  };
}

/** What to evaluate: the files, the measures and the flags that apply to preferences. */
export interface PreferenceInvocation {
  judgmentsPath: string;
  runPath: string;
  format: PreferenceFormat;
  plan: PreferencePlan;
  /** -q, -c, -n, -M, --precision (trec_eval's -l, -J and -N do not change preference measures). */
  perQuery: boolean;
  complete: boolean;
  summary: boolean;
  maxDocuments: number;
  digits: number;
}

/** The ranking trec_eval measures a judged query missing from the run as under -c: one unjudged document. */
const MISSING_QUERY_RANKING: readonly RunEntry[] = [{ docId: 'ceci_nest_pas_un_docno', score: 1, rank: 1 }];

/** A query's docnos best first: score descending, ties by docno ascending (form_prefs_counts' order), cut at -M. */
function rankedDocIds(entries: readonly RunEntry[], maxDocuments: number, queryId: string, runFile: string): string[] {
  const ranked = [...entries]
    .sort((a, b) => b.score - a.score || compareUtf8(a.docId, b.docId))
    .slice(0, maxDocuments)
    .map((entry) => entry.docId);
  const seen = new Set<string>();
  for (const docId of ranked) {
    if (seen.has(docId)) throw new DuplicateDocnoError(runFile, queryId, docId, Number.NaN, Number.NaN);
    seen.add(docId);
  }
  return ranked;
}

function valueText(measure: PreferenceMeasure, value: number, digits: number): string {
  return PREFERENCE_COUNTS.has(measure) ? String(Math.trunc(value)) : formatFixed(value, digits).padStart(6);
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

/** Evaluates a run against preference judgments and writes trec_eval's lines to `stdout`. */
export async function evaluatePreferences(
  invocation: PreferenceInvocation,
  streams: { stdout: OutputStream; stdin: AsyncIterable<string | Uint8Array> },
): Promise<void> {
  const { plan, digits } = invocation;
  const judgments = parsePreferences(
    await readFile('qrels file', invocation.judgmentsPath, streams.stdin),
    invocation.judgmentsPath,
    invocation.format,
  );
  if (judgments.size === 0)
    throw new TrecEvalStop(
      `cannot read qrels file '${invocation.judgmentsPath}': it holds no judgment line (trec_eval stops on it too: "Cannot read prefs file")`,
      EXIT_BAD_INPUT,
    );
  const runFile = invocation.runPath === '-' ? '<stdin>' : invocation.runPath;
  const runText = await readFile('run file', invocation.runPath, streams.stdin);
  const run = parseRun(runText, { file: runFile, grammar: 'trec_eval' });
  if (run.size === 0)
    throw new TrecEvalStop(
      `cannot read run file '${runFile}': it holds no result line (trec_eval stops on it too: "Cannot read results file")`,
      EXIT_BAD_INPUT,
    );

  const output = new TrecOutput(streams.stdout);
  const sums = new Float64Array(plan.measures.length);
  let evaluated = 0;
  try {
    for (const [queryId, queryJudgments] of judgments) {
      const entries = run.get(queryId) ?? (invocation.complete ? MISSING_QUERY_RANKING : undefined);
      if (entries === undefined) continue;
      const counts = countPreferences(
        queryId,
        queryJudgments,
        rankedDocIds(entries, invocation.maxDocuments, queryId, runFile),
      );
      plan.measures.forEach((measure, index) => {
        const value = preferenceValue(measure, counts);
        sums[index]! += value;
        if (invocation.perQuery)
          output.push(`${measureColumn(measure)}\t${queryId}\t${valueText(measure, value, digits)}\n`);
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
  if (!invocation.summary) return;
  // trec_eval averages over the evaluated queries, or under -c over every judged query.
  const queries = invocation.complete ? judgments.size : evaluated;
  if (plan.runid) output.push(`${measureColumn('runid')}\tall\t${lastRunTag(runText) ?? ''}\n`);
  if (plan.numQ) output.push(`${measureColumn('num_q')}\tall\t${evaluated}\n`);
  plan.measures.forEach((measure, index) => {
    const sum = sums[index] as number;
    const value = PREFERENCE_COUNTS.has(measure) ? sum : sum / queries;
    output.push(`${measureColumn(measure)}\tall\t${valueText(measure, value, digits)}\n`);
  });
  await output.end();
}
