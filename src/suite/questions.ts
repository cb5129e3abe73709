// The questions of a describeRetrieval suite: read synchronously (Jest cannot await inside describe) from a
// JSON Lines eval set, a JSON array file or an array, each checked as readEvalSetFile checks a line, and
// kept with the place it was read from, so that an annotation can point at the question's own line.
import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeValue } from '../core/describe.js';
import { JsonlFormatError, parseEvalSetLines, readEvalQuery, type EvalQuery } from '../dataset/jsonl.js';
import type { DatasetFormatError } from '../files/format-error.js';
import { describeJsonError } from '../files/json-text.js';
import { arrayElementLines } from './element-lines.js';

/** One question of a suite, checked. */
export interface SuiteQuestion<Question> {
  /** The question as given, or as read from its file (extra fields kept): what `retrieve` receives. */
  question: Question;
  /** Its id as a string (an integer id in a file becomes its digits). */
  id: string;
  query: string;
  relevant: EvalQuery['relevant'];
  /** `expect: 'miss'`: the retriever is known to miss it (the test must fail: test.fails / test.failing). */
  knownMiss: boolean;
  /** The file it was read from (absolute) and its line there; absent for a question given in an array. */
  source?: { file: string; line: number };
}

/**
 * Where the questions come from: a path (relative to the working directory) or URL of a file, or the
 * questions. A URL is typed by its `href` so that the declarations need neither DOM nor Node types.
 */
export type QuestionSource<Question> = string | { readonly href: string } | readonly Question[];

/** The value of `expect` that marks a known miss. */
const KNOWN_MISS = 'miss';

/** Reads and checks the questions; `where` starts every error message (`describeRetrieval('faq')`). */
export function readSuiteQuestions<Question extends EvalQuery>(
  source: QuestionSource<Question>,
  where: string,
): SuiteQuestion<Question>[] {
  if (Array.isArray(source)) return questionsOfArray(source as readonly Question[], where);
  const url = typeof (source as { href?: unknown } | null)?.href === 'string' ? (source as URL).href : undefined;
  if (typeof source === 'string' || url !== undefined) {
    const given = url ?? (source as string);
    if (given === '') throw new TypeError(`${where}: questions must name a file, got an empty string.`);
    const file = url === undefined ? resolve(given) : fileURLToPath(url);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new Error(
        `${where}: cannot read the questions file ${given}${file === given ? '' : ` (${file})`}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const questions =
      extname(file).toLowerCase() === '.json' ? questionsOfJsonArray(text, file) : questionsOfJsonl(text, file);
    if (questions.length === 0) throw new RangeError(`${where}: the questions file ${given} holds no question.`);
    return questions as SuiteQuestion<Question>[];
  }
  throw new TypeError(
    `${where}: questions must be the path of a JSON Lines eval set ('test/questions.jsonl'), of a JSON array file, or an array of { id, query, relevant }; got ${describeValue(source)}.`,
  );
}

function questionsOfJsonl(text: string, file: string): SuiteQuestion<EvalQuery>[] {
  const lineTexts = text.split('\n');
  return parseEvalSetLines(text, { file }).map(({ query, lineNumber }) =>
    suiteQuestion(query, query, { file, line: lineNumber }, lineTexts[lineNumber - 1] ?? ''),
  );
}

function questionsOfJsonArray(text: string, file: string): SuiteQuestion<EvalQuery>[] {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new SyntaxError(`${file}: not JSON: ${describeJsonError(error, text)}`, { cause: error });
  }
  if (!Array.isArray(value))
    throw new TypeError(
      `${file}: a .json questions file must hold an array of { id, query, relevant }, found ${describeValue(value)}.`,
    );
  const starts = arrayElementLines(text);
  const lineTexts = text.split('\n');
  const seen = new Map<string, number>();
  return value.map((element: unknown, index) => {
    const line = starts[index] ?? 1;
    const lineText = lineTexts[line - 1]?.trim() ?? '';
    const query = readEvalQuery(element, file, line, lineText);
    const first = seen.get(query.id);
    if (first !== undefined)
      throw new JsonlFormatError({
        file,
        lineNumber: line,
        lineText,
        problem: `duplicate query id '${query.id}' (first on line ${first})`,
      });
    seen.set(query.id, line);
    return suiteQuestion(query, query, { file, line }, lineText);
  });
}

function questionsOfArray<Question extends EvalQuery>(
  questions: readonly Question[],
  where: string,
): SuiteQuestion<Question>[] {
  if (questions.length === 0) throw new RangeError(`${where}: questions is an empty array.`);
  const seen = new Map<string, number>();
  return questions.map((question, index) => {
    const at = `${where}: questions[${index}]`;
    let checked: EvalQuery & Record<string, unknown>;
    try {
      checked = readEvalQuery(question, 'questions', index + 1, '');
      knownMissOf(checked, undefined, '');
    } catch (error) {
      if (error instanceof JsonlFormatError) throw new TypeError(`${at}: ${(error as DatasetFormatError).problem}.`);
      throw error;
    }
    const first = seen.get(checked.id);
    if (first !== undefined)
      throw new RangeError(`${at}: duplicate query id '${checked.id}' (first at questions[${first}]).`);
    seen.set(checked.id, index);
    return suiteQuestion(question, checked, undefined, '');
  });
}

function suiteQuestion<Question>(
  question: Question,
  checked: EvalQuery & Record<string, unknown>,
  source: { file: string; line: number } | undefined,
  lineText: string,
): SuiteQuestion<Question> {
  return {
    question,
    id: checked.id,
    query: checked.query,
    relevant: checked.relevant,
    knownMiss: knownMissOf(checked, source, lineText),
    ...(source === undefined ? {} : { source }),
  };
}

function knownMissOf(
  checked: Record<string, unknown>,
  source: { file: string; line: number } | undefined,
  lineText: string,
): boolean {
  const marker = checked['expect'];
  if (marker === undefined) return false;
  if (marker === KNOWN_MISS) return true;
  throw new JsonlFormatError({
    file: source?.file ?? 'questions',
    lineNumber: source?.line ?? 0,
    lineText,
    problem: `"expect" must be "${KNOWN_MISS}" (a question the retriever is known to miss) or absent, found ${describeValue(marker)}`,
  });
}
