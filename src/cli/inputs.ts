// Inputs of the eval and compare commands: judgments (TREC qrels or a JSONL eval set), runs (TREC or
// JSONL), and the core options every evaluation takes, read from flags.
import { readFile } from 'node:fs/promises';

import type { Measure } from '../core/measures.js';
import type { EvaluateOptions } from '../core/types.js';
import {
  readMeasures,
  rankTrecRun,
  type EvaluateRunOptions,
  type QuerySet,
  type Run,
} from '../dataset/evaluate-run.js';
import { parseEvalSetJsonl, parseRunJsonl } from '../dataset/jsonl.js';
import { TrecFormatError } from '../trec/errors.js';
import { COMMENT_LINE_PROBLEM, type TrecGrammar } from '../trec/grammar.js';
import { parseQrels, parseRun } from '../trec/read.js';
import { decodeText } from '../trec/text.js';
import { choiceOption, numberOption, stringList, stringOption, type OptionSpec, type ParsedArgs } from './args.js';
import { fileError, usageError, type CommandIO } from './io.js';

/** Measures evaluated when no -m is given. */
const DEFAULT_MEASURES = ['hit@10', 'recall@10', 'mrr@10', 'ndcg@10'] as const;

/** Flags shared by eval and compare: measures and the core's options. */
export const EVALUATION_OPTIONS: Record<string, OptionSpec> = {
  measure: { type: 'string', short: 'm', multiple: true },
  'min-grade': { type: 'string' },
  missing: { type: 'string' },
  granularity: { type: 'string' },
  'precision-denominator': { type: 'string' },
  gain: { type: 'string' },
  duplicates: { type: 'string' },
  format: { type: 'string' },
  grammar: { type: 'string' },
};

export const EVALUATION_HELP = `  -m, --measure NAME             measure to compute (repeatable; any spelling: recall@10,
                                 P@5, nDCG@10, P_5, ndcg_cut.10, mrr, map@100);
                                 default: ${DEFAULT_MEASURES.join(', ')}
      --min-grade N              grade at or above which an id is relevant (default 1)
      --missing zero|skip|error  a judged query missing from the run: scores 0 (default),
                                 is left out of the means, or is an error
      --granularity chunk|document   document: doc-1#chunk-3 counts as doc-1
      --precision-denominator k|retrieved   P@k divides by k (default) or by the hits returned
      --gain linear|exponential  nDCG gain: the grade (default) or 2^grade - 1
      --duplicates count|error   a repeated hit takes its slot and gains nothing (default), or is an error
      --format table|json|markdown   output format (default table)
      --grammar strict|trec_eval   TREC files: strict (default) or trec_eval's (skips # comment
                                 lines, takes columns after a run's sixth; whole-number grades)`;

export type OutputFormat = 'table' | 'json' | 'markdown';

export interface EvaluationSettings {
  measures: Measure[];
  options: Omit<EvaluateRunOptions, 'measures'>;
  format: OutputFormat;
  /** How TREC files are read (--grammar): strict, or trec_eval's as `trec-eval` reads them. */
  grammar: TrecGrammar;
}

export function readEvaluationSettings(parsed: ParsedArgs): EvaluationSettings {
  const names = stringList(parsed, 'measure');
  let measures: Measure[];
  try {
    measures = readMeasures(names.length === 0 ? [...DEFAULT_MEASURES] : names, '-m');
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const options: Omit<EvaluateRunOptions, 'measures'> = {};
  const minGrade = numberOption('--min-grade', stringOption(parsed, 'min-grade'), {
    min: 0,
    minExclusive: true,
    example: '2',
  });
  if (minGrade !== undefined) options.minGrade = minGrade;
  const missing = choiceOption('--missing', stringOption(parsed, 'missing'), ['zero', 'skip', 'error'] as const);
  if (missing !== undefined) options.missing = missing;
  const granularity = choiceOption('--granularity', stringOption(parsed, 'granularity'), [
    'chunk',
    'document',
  ] as const);
  if (granularity !== undefined) options.granularity = granularity;
  const denominator = choiceOption('--precision-denominator', stringOption(parsed, 'precision-denominator'), [
    'k',
    'retrieved',
  ] as const);
  if (denominator !== undefined) options.precisionDenominator = denominator;
  const gain = choiceOption('--gain', stringOption(parsed, 'gain'), ['linear', 'exponential'] as const);
  if (gain !== undefined) options.gain = gain;
  const duplicates = choiceOption('--duplicates', stringOption(parsed, 'duplicates'), [
    'count',
    'error',
  ] as const) as EvaluateOptions['duplicates'];
  if (duplicates !== undefined) options.duplicates = duplicates;
  const format =
    choiceOption('--format', stringOption(parsed, 'format'), ['table', 'json', 'markdown'] as const) ?? 'table';
  const grammar =
    choiceOption('--grammar', stringOption(parsed, 'grammar'), ['strict', 'trec_eval'] as const) ?? 'strict';
  return { measures, options, format, grammar };
}

async function readInput(role: string, path: string): Promise<string> {
  try {
    return decodeText(await readFile(path), path);
  } catch (error) {
    throw fileError(role, path, error);
  }
}

/** JSON Lines when the name says so (.jsonl, .ndjson, .json) or the first non-blank character is `{`. */
function looksLikeJsonl(path: string, text: string): boolean {
  if (/\.(jsonl|ndjson|json)$/i.test(path)) return true;
  const first = /\S/.exec(text);
  return first?.[0] === '{';
}

/** Judgments: TREC qrels (`qid iter docno rel`) or a JSONL eval set (`{ id, query, relevant }`). */
export async function loadQuerySet(path: string, _io: CommandIO, grammar: TrecGrammar = 'strict'): Promise<QuerySet> {
  const text = await readInput('qrels file', path);
  if (looksLikeJsonl(path, text)) return parseEvalSetJsonl(text, { file: path });
  return withGrammarHint(() => parseQrels(text, { file: path, grammar }));
}

/**
 * A run: TREC (`qid Q0 docno rank score tag`, ranked as trec_eval ranks: score descending, ties
 * by doc id descending) or JSONL (`{ id, hits }`, hits in rank order).
 */
export async function loadRun(path: string, _io: CommandIO, grammar: TrecGrammar = 'strict'): Promise<Run> {
  const text = await readInput('run file', path);
  if (looksLikeJsonl(path, text)) return parseRunJsonl(text, { file: path });
  return withGrammarHint(() => rankTrecRun(parseRun(text, { file: path, grammar })));
}

/** A '#' comment line the strict grammar refused: the error says which flag reads such a file. */
function withGrammarHint<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof TrecFormatError) || error.problem !== COMMENT_LINE_PROBLEM) throw error;
    throw new TrecFormatError({
      file: error.file,
      lineNumber: error.lineNumber,
      lineText: error.lineText,
      problem: `${COMMENT_LINE_PROBLEM}; add --grammar trec_eval to read this file`,
    });
  }
}
