// The judgment files of trec_eval's preference measures: `-R prefs` (`qid jg jsg docno level`: a
// judgment group, a sub-group within it, and a level that only ranks the documents of one sub-group)
// and `-R qrels_prefs` (a TREC qrels, `qid jg docno level`, each judgment group one sub-group).
import { compareUtf8 } from '../../core/ranking.js';
import { TrecFormatError } from '../errors.js';
import { firstLineStart } from '../grammar.js';

/** The judgment formats trec-eval reads preferences from (trec_eval's -R values). */
export type PreferenceFormat = 'prefs' | 'qrels_prefs';

/** One line of a preference file. */
export interface PreferenceJudgment {
  /** Judgment group: one user's (consistent) preferences. */
  group: string;
  /** Sub-group: the documents whose levels are compared with each other. */
  subGroup: string;
  docId: string;
  /** Higher is preferred; 0 means judged not relevant. */
  level: number;
}

/** query id → its judgments, queries in byte order of id (trec_eval's print order). */
export type PreferenceJudgments = ReadonlyMap<string, readonly PreferenceJudgment[]>;

const COLUMNS: Record<PreferenceFormat, string> = {
  prefs: 'qid jg jsg docno level',
  qrels_prefs: 'qid jg docno level',
};

/** The one sub-group of each judgment group in a qrels read as preferences (trec_eval's "0"). */
const QRELS_SUB_GROUP = '0';

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Reads a preference file. As trec_eval: lines starting with '#' are comments, columns are separated
 * by any white space. Unlike trec_eval (whose atof reads a typo as 0), a level that is not a number
 * is an error, as is a blank line (trec_eval: "Malformed line").
 */
export function parsePreferences(text: string, file: string, format: PreferenceFormat): PreferenceJudgments {
  const byQuery = new Map<string, PreferenceJudgment[]>();
  const expected = format === 'prefs' ? 5 : 4;
  const lines = text.slice(firstLineStart(text)).split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((lineText, index) => {
    if (lineText.startsWith('#')) return;
    const fields = lineText.split(/[ \t\r\v\f]+/).filter((field) => field !== '');
    const fail = (problem: string): TrecFormatError =>
      new TrecFormatError({ file, lineNumber: index + 1, lineText: lineText.replace(/\r$/, ''), problem });
    if (fields.length !== expected)
      throw fail(`expected ${expected} columns (${COLUMNS[format]}), found ${fields.length}`);
    const [queryId, group, ...rest] = fields as [string, string, ...string[]];
    const [subGroup, docId, level] = (format === 'prefs' ? rest : [QRELS_SUB_GROUP, ...rest]) as [
      string,
      string,
      string,
    ];
    if (!DECIMAL.test(level)) throw fail(`level '${level}' is not a number`);
    let judgments = byQuery.get(queryId);
    if (judgments === undefined) byQuery.set(queryId, (judgments = []));
    judgments.push({ group, subGroup, docId, level: Number(level) });
  });
  return new Map([...byQuery].sort(([a], [b]) => compareUtf8(a, b)));
}
