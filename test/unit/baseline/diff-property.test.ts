// Property: over generated runs × baselines × modes (update, prune), what the summary says an update
// would change is what the update writes, row for row, and the update's counts are the rows that
// changed in the file, by kind.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateBaseline } from '../../../src/baseline/store.js';
import { emptyBaseline, type BaselineFile } from '../../../src/baseline/file/types.js';
import { baselineRows, formatBaseline, formatBaselineRow } from '../../../src/baseline/file/write.js';
import { movementOfMeans } from '../../../src/core/regression-rule.js';
import {
  suiteKeyOf,
  type CollectedRun,
  type CollectedSample,
  type SuiteIdentity,
} from '../../../src/recording/collected.js';
import type { FileOutcome, IncompleteTest } from '../../../src/recording/outcomes.js';
import { summarize } from '../../../src/report/summary.js';

const SUITES: SuiteIdentity[] = [
  { file: 'a.test.ts', describe: [] },
  { file: 'a.test.ts', describe: ['d'] },
  { file: 'b.test.ts', describe: [] },
];
/** A suite only runs have: its questions (n…) never match a baseline suite's, so nothing is renamed. */
const NEW_SUITE: SuiteIdentity = { file: 'c.test.ts', describe: [] };
const MEASURES = ['hit@1', 'recall@3'] as const;
const QUESTIONS = ['q1', 'q2', 'q3', 'q4'];
const VALUES = [0, 0.5, 1];
const LABELS = ['l1', 'l2'];

const cell = fc.option(fc.record({ value: fc.constantFrom(...VALUES), labels: fc.constantFrom(...LABELS) }), {
  nil: undefined,
  freq: 3,
});

/** suite index → measure → question → value and fingerprint (undefined: no row). */
const baselineArb = fc.array(
  fc.array(fc.array(cell, { minLength: QUESTIONS.length, maxLength: QUESTIONS.length }), {
    minLength: MEASURES.length,
    maxLength: MEASURES.length,
  }),
  { minLength: SUITES.length, maxLength: SUITES.length },
);

/** How a question's test went: measured both, stopped after its first measure, failed before, skipped, or no longer measures recall@3. */
const testArb = fc.record({
  outcome: fc.constantFrom(
    'complete',
    'complete',
    'complete',
    'stops-after-first',
    'fails-before',
    'skipped',
    'hit-only',
  ),
  hit: fc.constantFrom(...VALUES),
  recall: fc.constantFrom(...VALUES),
  labels: fc.constantFrom(...LABELS),
});

const runArb = fc.record({
  files: fc.record({
    'a.test.ts': fc.constantFrom('ran', 'ran', 'not-run', 'load-failed', 'deleted'),
    'b.test.ts': fc.constantFrom('ran', 'ran', 'not-run', 'load-failed', 'deleted'),
  }),
  tests: fc.array(fc.array(fc.option(testArb, { nil: undefined, freq: 4 }), { minLength: 4, maxLength: 4 }), {
    minLength: SUITES.length,
    maxLength: SUITES.length,
  }),
  newSuite: fc.boolean(),
});

function baselineOf(generated: ({ value: number; labels: string } | undefined)[][][]): BaselineFile {
  const file = emptyBaseline();
  SUITES.forEach((identity, s) => {
    const key = suiteKeyOf(identity);
    MEASURES.forEach((measure, m) => {
      QUESTIONS.forEach((question, q) => {
        const entry = generated[s]![m]![q];
        if (entry === undefined) return;
        ((file.suites[key] ??= {})[measure] ??= {})[question] = entry.value;
        (((file.audits ??= {})[key] ??= {})[measure] ??= {})[question] = { labels: entry.labels };
      });
    });
  });
  return file;
}

function runOf(generated: {
  files: Record<string, string>;
  tests: ({ outcome: string; hit: number; recall: number; labels: string } | undefined)[][];
  newSuite: boolean;
}): { run: CollectedRun; deleted: Set<string> } {
  const samples: CollectedSample[] = [];
  const outcomes = new Map<string, FileOutcome>();
  const deleted = new Set<string>();
  const sample = (
    identity: SuiteIdentity,
    test: string,
    measure: string,
    value: number,
    labels: string,
  ): CollectedSample => ({
    file: identity.file,
    describePath: [...identity.describe],
    test,
    measure,
    value,
    labels,
    pass: true,
  });
  SUITES.forEach((identity, s) => {
    const state = generated.files[identity.file]!;
    if (state === 'deleted') deleted.add(identity.file);
    if (state === 'deleted' || state === 'not-run') return;
    let outcome = outcomes.get(identity.file);
    if (outcome === undefined) {
      outcome = { file: identity.file, incomplete: [] };
      if (state === 'load-failed') outcome.notJudged = { reason: 'load-failed', detail: 'SyntaxError' };
      outcomes.set(identity.file, outcome);
    }
    if (state === 'load-failed') return;
    QUESTIONS.forEach((question, q) => {
      const test = generated.tests[s]![q];
      if (test === undefined) return;
      const incomplete = (reason: IncompleteTest['reason']) =>
        outcome.incomplete.push({ describePath: [...identity.describe], test: question, reason });
      if (test.outcome === 'skipped') return incomplete('skipped');
      if (test.outcome === 'fails-before') return incomplete('failed');
      samples.push(sample(identity, question, 'hit@1', test.hit, test.labels));
      if (test.outcome === 'stops-after-first') return incomplete('failed');
      if (test.outcome === 'complete') samples.push(sample(identity, question, 'recall@3', test.recall, test.labels));
    });
  });
  if (generated.newSuite) {
    outcomes.set(NEW_SUITE.file, { file: NEW_SUITE.file, incomplete: [] });
    for (const question of ['n1', 'n2']) samples.push(sample(NEW_SUITE, question, 'hit@1', 1, 'l1'));
  }
  return { run: { runner: 'vitest', samples, outcomes: { files: [...outcomes.values()] } }, deleted };
}

/** `suite key · question · measure` of each row of a file's text, with the row's line. */
function rowsOf(file: BaselineFile): Map<string, string> {
  const rows = new Map<string, string>();
  for (const row of baselineRows(file))
    rows.set(JSON.stringify([suiteKeyOf(row.identity), row.question, row.measure]), formatBaselineRow(row));
  return rows;
}

const key = (suiteKey: string, question: string, measure: string) => JSON.stringify([suiteKey, question, measure]);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-diff-property-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one diff', () => {
  it('what the summary says an update would change is what the update writes, and its counts are the file’s changed rows', async () => {
    await fc.assert(
      fc.asyncProperty(baselineArb, runArb, fc.boolean(), async (generatedBaseline, generatedRun, prune) => {
        const baseline = baselineOf(generatedBaseline);
        const { run, deleted } = runOf(generatedRun);
        const fileExists = (file: string) => !deleted.has(file);
        const path = join(dir, 'rag-baseline.json');
        writeFileSync(path, formatBaseline(baseline));
        const before = rowsOf(baseline);

        const summary = summarize(run, baseline, { updatingBaseline: true, fileExists });
        const update = await updateBaseline(path, run, { prune, fileExists });
        if (update.refused !== undefined) {
          // Nothing recorded while files failed: nothing written.
          expect(readFileSync(path, 'utf8')).toBe(formatBaseline(baseline));
          return;
        }
        const after = rowsOf(update.file);
        expect(readFileSync(path, 'utf8')).toBe(formatBaseline(update.file));

        // The file's changed rows, by kind.
        const added = [...after.keys()].filter((row) => !before.has(row));
        const removed = [...before.keys()].filter((row) => !after.has(row));
        const changed = [...after.keys()].filter((row) => before.has(row) && before.get(row) !== after.get(row));
        expect(update.counts.addedSamples).toBe(added.length);
        expect(prune ? update.counts.obsoleteSamples : 0).toBe(removed.length);
        expect(update.counts.updatedSamples + update.counts.relabelledSamples).toBe(changed.length);

        // What the summary says, row for row: new questions are the added rows; gone ones the removed rows
        // (with prune); relabelled ones and values beyond the tolerance the changed rows.
        const expectAdded = new Set<string>();
        const expectRemoved = new Set<string>();
        const expectChanged = new Set<string>();
        for (const row of summary.rows) {
          for (const id of row.newSamples) expectAdded.add(key(row.suiteKey, id, row.measure));
          if (prune) for (const id of row.missingSamples) expectRemoved.add(key(row.suiteKey, id, row.measure));
          for (const change of row.relabelled ?? []) expectChanged.add(key(row.suiteKey, change.sampleId, row.measure));
          if (row.comparison !== undefined && movementOfMeans(row.comparison, row.tolerance) !== 'within')
            for (const change of [...row.worse, ...row.better])
              expectChanged.add(key(row.suiteKey, change.sampleId, row.measure));
        }
        if (prune)
          for (const missing of summary.missing)
            for (const id of missing.questions) expectRemoved.add(key(missing.suiteKey, id, missing.measure));
        expect(new Set(added)).toEqual(expectAdded);
        expect(new Set(removed)).toEqual(expectRemoved);
        expect(new Set(changed)).toEqual(expectChanged);

        // The rows kept not judged are the questions the summary did not judge.
        const notJudged = new Set<string>();
        for (const entry of update.notJudged)
          for (const id of entry.sampleIds ?? []) notJudged.add(JSON.stringify([entry.suiteKey, id]));
        expect(notJudged.size).toBe(summary.coverage.notJudged.reduce((sum, group) => sum + group.questions, 0));
      }),
      { numRuns: 200, seed: 32 },
    );
  }, 60_000);
});
