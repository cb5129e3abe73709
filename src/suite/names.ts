// The test names of a suite's questions: the question's text, which `-t` selects and reports show; where
// two questions have the same text, each takes its id after it, so that every test has its own name
// (a runner keys results by name, and the strict-CI accounting by test).

/** One name per question, in order: its text; `text (id)` where the text repeats; its id when the text is blank. */
export function questionTestNames(questions: readonly { id: string; query: string }[]): string[] {
  const counts = new Map<string, number>();
  for (const { query } of questions) counts.set(query.trim(), (counts.get(query.trim()) ?? 0) + 1);
  return questions.map(({ id, query }) => {
    const text = query.trim();
    if (text === '') return id;
    return counts.get(text)! > 1 ? `${text} (${id})` : text;
  });
}
