// The CLI's version of the matchers' alignment diagnosis: a run whose ids never meet the judgments'
// ids (chunk ids against document ids) scores 0 everywhere and looks like a bad retriever. eval and
// compare say so on stderr, and refuse outright when nothing can be evaluated at all.
import { documentKeyOf, hitKeys } from '../core/keys.js';
import { readJudgedGrades } from '../core/relevance.js';
import type { EvaluateOptions, Hit, Relevance } from '../core/types.js';
import { runEntries, type QuerySet, type Run } from '../dataset/evaluate-run.js';
import { CommandError } from './io.js';
import { listSome } from './render.js';

/** The query ids and judgments of a set, whatever its shape (qrels Map or eval set entries). */
function judgedQueries(set: QuerySet): Map<string, Relevance> {
  const queries = new Map<string, Relevance>();
  if (set instanceof Map) {
    for (const [id, judgments] of set) queries.set(id, judgments as Relevance);
  } else {
    for (const entry of set as readonly { id: string | number; relevant: Relevance }[])
      queries.set(String(entry.id), entry.relevant);
  }
  return queries;
}

export interface Alignment {
  /** Queries in both files with at least one hit and one judgment. */
  compared: number;
  /** Of those, queries whose hits meet no judged id. */
  disjoint: string[];
  /** Of the disjoint ones, queries whose hits would meet the judgments as documents. */
  documentsWouldMatch: number;
  exampleHitKey?: string;
  exampleJudgedId?: string;
}

/** How far the run's hit keys meet the judged ids, query by query. */
export function measureAlignment(
  set: QuerySet,
  run: Run,
  options: Pick<EvaluateOptions, 'granularity' | 'key' | 'documentKey' | 'normalize'> = {},
): Alignment {
  const queries = judgedQueries(set);
  const alignment: Alignment = { compared: 0, disjoint: [], documentsWouldMatch: 0 };
  for (const [queryId, hits] of runEntries(run)) {
    const relevant = queries.get(queryId);
    if (relevant === undefined || hits.length === 0) continue;
    const judged = readJudgedGrades(relevant, options);
    if (judged.size === 0) continue;
    let keys: string[];
    try {
      keys = hitKeys(hits as readonly Hit[], options);
    } catch {
      continue; // a hit without a key: evaluateRun reports it
    }
    if (options.granularity === 'document') keys = keys.map(options.documentKey ?? documentKeyOf);
    alignment.compared++;
    if (keys.some((key) => judged.has(key))) continue;
    alignment.disjoint.push(queryId);
    if (keys.some((key) => judged.has(documentKeyOf(key)))) alignment.documentsWouldMatch++;
    alignment.exampleHitKey ??= keys[0];
    alignment.exampleJudgedId ??= judged.keys().next().value;
  }
  return alignment;
}

/** The warning for a run that mostly misses the judgments' ids; '' when most queries meet them. */
export function alignmentWarning(alignment: Alignment, runName: string): string {
  const { compared, disjoint } = alignment;
  if (compared === 0 || disjoint.length * 2 <= compared) return '';
  const lines = [
    `warning: ${disjoint.length} of ${compared} queries in ${runName} share no id with the judgments (${listSome(disjoint)}), so they score 0 on every measure.`,
    `  run ids look like ${JSON.stringify(alignment.exampleHitKey)}, judged ids like ${JSON.stringify(alignment.exampleJudgedId)}.`,
  ];
  if (alignment.documentsWouldMatch * 2 > disjoint.length) {
    lines.push('  The judgments name documents and the run ranks chunks: pass --granularity document.');
  } else {
    lines.push('  Make the run and the judgments use the same ids (the same docno for the same document).');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Refuses inputs with nothing to evaluate: an empty set, or a run none of whose query ids is in the
 * set (a run for another set, or query ids spelled differently).
 */
export function assertSomethingToEvaluate(set: QuerySet, run: Run, qrelsName: string, runName: string): void {
  const queries = judgedQueries(set);
  if (queries.size === 0) {
    throw new CommandError(
      `${qrelsName} holds no query: there is nothing to evaluate. Give it at least one judged query.`,
    );
  }
  const runIds = [...runEntries(run).keys()];
  if (runIds.length === 0) throw new CommandError(`${runName} holds no query: there is nothing to evaluate.`);
  if (!runIds.some((id) => queries.has(id))) {
    throw new CommandError(
      `no query id of ${runName} is in ${qrelsName}: the run has ${listSome(runIds)}, the judgments ${listSome([...queries.keys()])}. ` +
        'The two files must describe the same queries, with the same query ids.',
    );
  }
}
