// trec_eval 10's judgment-group measures (`-R qrels_jg`): a qrels whose second column names a judgment
// group (one user's judgments), each query measured against every group on its own and the values
// averaged over the groups — `map_avgjg`, `P_avgjg` at cutoffs and `Rprec_mult_avgjg` at multiples of
// each group's R. Ranking as trec_eval's qrels measures: score descending, ties by docno descending.
import { compareUtf8 } from '../../core/ranking.js';
import { TrecEvalStop, TrecFormatError, EXIT_BAD_INPUT } from '../errors.js';
import { firstLineStart } from '../grammar.js';
import type { RunEntry } from '../read.js';
import { formatFixed } from './format.js';
import { evaluateJudgedRun, rankDocIds, type JudgedRunFlags, type JudgedRunRow } from './judged-run.js';
import { DEFAULT_CUTOFFS, DEFAULT_R_MULTIPLES, MeasureSpecError, parseCutoffs, parseMultiples } from './measures.js';
import type { OutputStream } from './output.js';

/** query id → judgment group → docno → grade; queries and groups in byte order. */
type GroupJudgments = ReadonlyMap<string, ReadonlyMap<string, number>>;

const INTEGER = /^[+-]?\d+$/;

/**
 * Reads a qrels with judgment groups (`qid jg docno grade`). As trec_eval: '#' lines are comments, a
 * docno judged twice in one group of one query is an error (exit 2). Unlike trec_eval (atol), a grade
 * that is not a whole number is an error.
 */
export function parseJudgmentGroups(text: string, file: string): ReadonlyMap<string, GroupJudgments> {
  const byQuery = new Map<string, Map<string, Map<string, number>>>();
  const lines = text.slice(firstLineStart(text)).split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((lineText, index) => {
    if (lineText.startsWith('#')) return;
    const fields = lineText.split(/[ \t\r\v\f]+/).filter((field) => field !== '');
    const fail = (problem: string): TrecFormatError =>
      new TrecFormatError({ file, lineNumber: index + 1, lineText: lineText.replace(/\r$/, ''), problem });
    if (fields.length !== 4) throw fail(`expected 4 columns (qid jg docno grade), found ${fields.length}`);
    const [queryId, group, docId, grade] = fields as [string, string, string, string];
    if (!INTEGER.test(grade)) throw fail(`grade '${grade}' is not a whole number`);
    let groups = byQuery.get(queryId);
    if (groups === undefined) byQuery.set(queryId, (groups = new Map()));
    let grades = groups.get(group);
    if (grades === undefined) groups.set(group, (grades = new Map()));
    if (grades.has(docId))
      throw new TrecEvalStop(
        `${file}:${index + 1}: docno '${docId}' is judged twice in judgment group '${group}' of query '${queryId}' (trec_eval: "duplicate docs")`,
        EXIT_BAD_INPUT,
      );
    grades.set(docId, Number(grade));
  });
  const byteOrder = <T>(map: Map<string, T>): Map<string, T> => new Map([...map].sort(([a], [b]) => compareUtf8(a, b)));
  return new Map([...byteOrder(byQuery)].map(([queryId, groups]) => [queryId, byteOrder(groups)]));
}

/** One group's view of a ranking: whether each kept document is relevant, and the group's R. */
interface GroupRanking {
  relevant: boolean[];
  relevantCount: number;
}

/**
 * The ranking as one group judges it. Relevant: a grade at or above -l. Under -J only the documents the
 * group judged (grade ≥ 0) stay, in rank order. R counts the group's judgments at or above -l.
 */
function groupRanking(
  ranked: readonly string[],
  grades: ReadonlyMap<string, number>,
  settings: GroupSettings,
): GroupRanking {
  const kept = settings.judgedOnly ? ranked.filter((docId) => (grades.get(docId) ?? -1) >= 0) : ranked;
  let relevantCount = 0;
  for (const grade of grades.values()) if (grade >= settings.relevanceLevel) relevantCount++;
  return {
    relevant: kept.map((docId) => (grades.get(docId) ?? -1) >= settings.relevanceLevel),
    relevantCount,
  };
}

/** AP of one group's ranking (0 when it ranks no relevant document). */
function averagePrecision({ relevant, relevantCount }: GroupRanking): number {
  let found = 0;
  let sum = 0;
  relevant.forEach((isRelevant, index) => {
    if (isRelevant) sum += ++found / (index + 1);
  });
  return found === 0 ? 0 : sum / relevantCount;
}

/** Relevant documents in the top `cutoff` ÷ cutoff (missing ranks count as not relevant); 0 at cutoff 0. */
function precisionAt({ relevant }: GroupRanking, cutoff: number): number {
  if (cutoff === 0) return 0;
  let found = 0;
  for (let index = 0; index < Math.min(cutoff, relevant.length); index++) if (relevant[index]) found++;
  return found / cutoff;
}

/** trec_eval's rank for a multiple m of R: ⌊m·R + 0.9⌋. */
function rankAtMultiple(multiple: number, relevantCount: number): number {
  return Math.trunc(multiple * relevantCount + 0.9);
}

/** -l and -J as the judgment-group measures read them. */
interface GroupSettings {
  relevanceLevel: number;
  judgedOnly: boolean;
}

type GroupMeasure =
  | { name: 'map_avgjg' }
  | { name: 'P_avgjg'; cutoffs: readonly number[] }
  | { name: 'Rprec_mult_avgjg'; multiples: readonly number[] };

/** The rows a measure prints (`P_avgjg_5`, `Rprec_mult_avgjg_0.20`). */
function rowsOf(measure: GroupMeasure): JudgedRunRow[] {
  if (measure.name === 'map_avgjg') return [{ label: measure.name, count: false }];
  if (measure.name === 'P_avgjg')
    return measure.cutoffs.map((cutoff) => ({ label: `P_avgjg_${cutoff}`, count: false }));
  return measure.multiples.map((multiple) => ({ label: `Rprec_mult_avgjg_${formatFixed(multiple, 2)}`, count: false }));
}

/** One group's values of a measure's rows. */
function groupValues(measure: GroupMeasure, ranking: GroupRanking): number[] {
  if (measure.name === 'map_avgjg') return [averagePrecision(ranking)];
  if (measure.name === 'P_avgjg') return measure.cutoffs.map((cutoff) => precisionAt(ranking, cutoff));
  return measure.multiples.map((multiple) => precisionAt(ranking, rankAtMultiple(multiple, ranking.relevantCount)));
}

/** trec_eval's `qrels_jg` set and the order it prints the measures in. */
const GROUP_MEASURES = ['map_avgjg', 'P_avgjg', 'Rprec_mult_avgjg'] as const;

export interface JudgmentGroupPlan {
  runid: boolean;
  numQ: boolean;
  measures: GroupMeasure[];
  warnings: string[];
}

/** The -m flags under -R qrels_jg: the three measures (with cutoffs or multiples), the set, runid, num_q. */
export function planJudgmentGroupMeasures(requests: readonly string[]): JudgmentGroupPlan {
  if (requests.length === 0)
    throw new MeasureSpecError(
      "-R qrels_jg needs the measures named (trec_eval's default set reads qrels): -m qrels_jg, -m map_avgjg …",
    );
  const warnings: string[] = [];
  const chosen = new Map<string, string | undefined>();
  for (const request of requests) {
    const dot = request.indexOf('.');
    const name = dot === -1 ? request : request.slice(0, dot);
    const parameters = dot === -1 ? undefined : request.slice(dot + 1);
    const members = name === 'qrels_jg' ? ['runid', 'num_q', ...GROUP_MEASURES] : [name];
    if (
      !members.every(
        (member) => member === 'runid' || member === 'num_q' || (GROUP_MEASURES as readonly string[]).includes(member),
      )
    )
      throw new MeasureSpecError(
        `measure '${name}' does not read judgment groups (-R qrels_jg); with it use qrels_jg, runid, num_q, ${GROUP_MEASURES.join(', ')}`,
      );
    for (const member of members) {
      const earlier = chosen.get(member);
      if (!chosen.has(member) || (earlier === undefined && member === name))
        chosen.set(member, member === name ? parameters : undefined);
      else if (member === name && parameters !== undefined && parameters !== earlier)
        warnings.push(
          `'-m ${request}' ignored: '${name}' was already requested as '${name}.${earlier}' (trec_eval uses the first parameters given).`,
        );
    }
  }
  const measures: GroupMeasure[] = [];
  for (const name of GROUP_MEASURES) {
    if (!chosen.has(name)) continue;
    const parameters = chosen.get(name);
    if (name === 'map_avgjg') {
      if (parameters !== undefined)
        warnings.push(`'map_avgjg' takes no parameters: '.${parameters}' ignored, as trec_eval does.`);
      measures.push({ name });
    } else if (name === 'P_avgjg') {
      measures.push({ name, cutoffs: parameters === undefined ? DEFAULT_CUTOFFS : parseCutoffs(name, parameters) });
    } else {
      measures.push({
        name,
        multiples: parameters === undefined ? DEFAULT_R_MULTIPLES : parseMultiples(name, parameters),
      });
    }
  }
  return { runid: chosen.has('runid'), numQ: chosen.has('num_q'), measures, warnings };
}

export interface JudgmentGroupInvocation extends JudgedRunFlags {
  plan: JudgmentGroupPlan;
  /** -l: the grade at or above which a document is relevant. */
  relevanceLevel: number;
  /** -J: each group ranks only the documents it judged. */
  judgedOnly: boolean;
}

/** A query's values: each group's, summed and, with more than one group, divided by their number. */
function queryValues(
  measures: readonly GroupMeasure[],
  groups: GroupJudgments,
  ranked: readonly string[],
  settings: GroupSettings,
): number[] {
  const sums = measures.flatMap((measure) => rowsOf(measure).map(() => 0));
  for (const grades of groups.values()) {
    const ranking = groupRanking(ranked, grades, settings);
    measures.flatMap((measure) => groupValues(measure, ranking)).forEach((value, index) => (sums[index]! += value));
  }
  return groups.size > 1 ? sums.map((sum) => sum / groups.size) : sums;
}

/** Evaluates a run against a qrels with judgment groups and writes trec_eval's lines to `stdout`. */
export async function evaluateJudgmentGroups(
  invocation: JudgmentGroupInvocation,
  streams: { stdout: OutputStream; stdin: AsyncIterable<string | Uint8Array> },
): Promise<void> {
  const { plan, maxDocuments } = invocation;
  await evaluateJudgedRun(
    invocation,
    {
      parse: parseJudgmentGroups,
      runid: plan.runid,
      numQ: plan.numQ,
      rows: plan.measures.flatMap(rowsOf),
      measure(queryId, groups, entries: readonly RunEntry[], runFile) {
        const ranked = rankDocIds(entries, maxDocuments, 'descending', queryId, runFile);
        return queryValues(plan.measures, groups, ranked, invocation);
      },
    },
    streams,
  );
}
