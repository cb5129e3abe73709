// The failure messages docs/matchers.md shows, each marked right before its ```text fence:
//   <!-- failure: <title> -->  a test of the fixtures' `one failure per matcher` suite
//   <!-- example: <title> -->  a test of the fixtures' `fails on purpose` suite
// The integration tests check every one against the real runners' output, so the docs cannot drift.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../support/build.js';

export const MATCHERS_DOC = resolve(REPO_ROOT, 'docs/matchers.md');

/** Fixture test name (`suite > title`) → message shown in the docs. */
export function documentedMessages(file = MATCHERS_DOC): Map<string, string> {
  const text = readFileSync(file, 'utf8');
  const suites = { failure: 'one failure per matcher', example: 'fails on purpose' } as const;
  const samples = new Map<string, string>();
  for (const match of text.matchAll(/<!-- (failure|example): (.+?) -->\n```text\n([\s\S]*?)\n```/g)) {
    samples.set(`${suites[match[1] as keyof typeof suites]} > ${match[2]!}`, match[3]!);
  }
  return samples;
}
