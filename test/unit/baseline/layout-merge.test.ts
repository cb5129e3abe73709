// What git's own line merge (the default, no driver) does with the file formatBaseline writes: `git
// merge-file` is the three-way merge `git merge` runs on each file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { parseBaseline } from '../../../src/baseline/file/read.js';
import { type BaselineFile } from '../../../src/baseline/file/types.js';
import { formatBaseline } from '../../../src/baseline/file/write.js';
import { baselineFile, key } from './keyed.js';

const dir = mkdtempSync(join(tmpdir(), 'rag-layout-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** git merge-file on the three files' texts: the merged text and the number of conflicts. */
function gitMerge(base: BaselineFile, ours: BaselineFile, theirs: BaselineFile): { text: string; conflicts: number } {
  const paths = { base: join(dir, 'base'), ours: join(dir, 'ours'), theirs: join(dir, 'theirs') };
  writeFileSync(paths.base, formatBaseline(base));
  writeFileSync(paths.ours, formatBaseline(ours));
  writeFileSync(paths.theirs, formatBaseline(theirs));
  const result = spawnSync('git', ['merge-file', paths.ours, paths.base, paths.theirs], { encoding: 'utf8' });
  if (result.status === null || result.status < 0) throw new Error(`git merge-file failed: ${result.stderr}`);
  return { text: readFileSync(paths.ours, 'utf8'), conflicts: result.status };
}

const SUITE = 'test/orders.test.ts > refunds';
const QUESTIONS = ['q20', 'q40', 'q60'];
/** A baseline of the three questions plus `extra`, on two measures. */
function withQuestions(...extra: string[]): BaselineFile {
  const ids = [...QUESTIONS, ...extra];
  const samples = Object.fromEntries(ids.map((id) => [id, 1]));
  return baselineFile({ [SUITE]: { 'ndcg@5': { ...samples }, 'recall@5': { ...samples } } });
}

describe("git's line merge of the baseline file", () => {
  // Where each question sorts: before the first row, between rows, after the last one.
  const gaps = ['q10', 'q30', 'q50', 'q70'];
  const pairs = gaps.flatMap((first, index) => gaps.slice(index + 1).map((second) => [first, second] as const));

  it.each(pairs)('merges a branch that added %s with one that added %s (different gaps)', (first, second) => {
    const merged = gitMerge(withQuestions(), withQuestions(first), withQuestions(second));
    expect(merged.conflicts).toBe(0);
    expect(parseBaseline(merged.text, 'merged')).toEqual(withQuestions(first, second));
  });

  it('merges a new suite on one branch with a new last question and a changed value on the other', () => {
    const theirs = withQuestions('q70');
    theirs.suites[Object.keys(theirs.suites)[0]!]!['recall@5']!['q20'] = 0.5;
    const ours = withQuestions();
    const other = baselineFile({ 'test/account.test.ts': { mrr: { a1: 1, a2: 0 } } });
    Object.assign(ours.suites, other.suites);
    const merged = gitMerge(withQuestions(), ours, theirs);
    expect(merged.conflicts).toBe(0);
    expect(parseBaseline(merged.text, 'merged')).toEqual({ ...theirs, suites: { ...theirs.suites, ...other.suites } });
  });

  it('conflicts when both rows land in the same gap, which the merge driver resolves', () => {
    expect(gitMerge(withQuestions(), withQuestions('q51'), withQuestions('q52')).conflicts).toBe(1);
  });
});

describe("git's line merge of schema 7's ranking rows", () => {
  /** withQuestions(...extra) with a ranking row for each question: its text, and `top` (by id) or one hit. */
  function ranked(extra: string[], top: Record<string, string[]> = {}): BaselineFile {
    const file = withQuestions(...extra);
    const ids = [...QUESTIONS, ...extra];
    file.rankings = {
      [key(SUITE)]: Object.fromEntries(
        ids.map((id) => [id, { text: `question ${id}`, top: (top[id] ?? [`${id}-doc`]).map((hit) => ({ key: hit })) }]),
      ),
    };
    return file;
  }

  it('merges ranked questions added in different gaps, each ranking in its question', () => {
    const merged = gitMerge(ranked([]), ranked(['q10']), ranked(['q50']));
    expect(merged.conflicts).toBe(0);
    expect(merged.text).toContain(
      '\n    ,["q10",["question q10","q10-doc"]]\n    ,["test/orders.test.ts", ["refunds"], "q10", ',
    );
    expect(parseBaseline(merged.text, 'merged')).toEqual(ranked(['q10', 'q50']));
  });

  it("merges a ranking changed on one branch with another question's value changed on the other", () => {
    const theirs = ranked([]);
    theirs.suites[key(SUITE)]!['recall@5']!['q60'] = 0.5;
    const merged = gitMerge(ranked([]), ranked([], { q20: ['b', 'a'] }), theirs);
    expect(merged.conflicts).toBe(0);
    const expected = ranked([], { q20: ['b', 'a'] });
    expected.suites[key(SUITE)]!['recall@5']!['q60'] = 0.5;
    expect(parseBaseline(merged.text, 'merged')).toEqual(expected);
  });
});
