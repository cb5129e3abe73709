import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type QuestionKind = 'single' | 'multi-passage' | 'no-answer' | 'near-miss';

/** A labelled question. `relevant` maps section ids to grades: 2 = answers it, 1 = related or partial. */
export interface Question {
  id: string;
  query: string;
  relevant: Record<string, number>;
  kind: QuestionKind;
  /** Optional short reference answer. */
  answer?: string;
  /** `'miss'`: the baseline retriever is known to miss it (its test runs as test.fails), for the reason in `why`. */
  expect?: 'miss';
  why?: string;
}

export const defaultQuestionsPath = fileURLToPath(new URL('../data/questions.jsonl', import.meta.url));

export function loadQuestions(path: string = defaultQuestionsPath): Question[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Question);
}
