// The matchers as Vitest users use them: a project with `setupFiles: ['rag-matchers/vitest']`,
// the built package linked into its node_modules, run by a real `vitest run`.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFixtureProject,
  describeRun,
  ensureBuilt,
  findTest,
  runTsc,
  runVitest,
  snapshotPackage,
  type FixtureProject,
  type PackageSnapshot,
  type RunnerResult,
  type TscResult,
} from '../support/index.js';
import { documentedMessages } from './docs-samples.js';
import {
  CHUNK_DIAGNOSIS,
  EVERY_MATCHER,
  minUsageError,
  RECALL_FAILURE,
  RECALL_NOT_FAILURE,
  TOP_5,
} from './expected.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');

let snapshot: PackageSnapshot | undefined;
let project: FixtureProject | undefined;
let vitest: RunnerResult;
let tsc: TscResult;

beforeAll(async () => {
  await ensureBuilt();
  snapshot = await snapshotPackage();
  project = createFixtureProject({
    fixture: resolve(FIXTURES, 'vitest-project'),
    files: { 'test/data.ts': resolve(FIXTURES, 'shared/data.ts') },
    links: { 'rag-matchers': snapshot.dir },
    packages: ['vitest', 'typescript'],
  });
  [vitest, tsc] = await Promise.all([runVitest(project), runTsc(project)]);
}, 300_000);

afterAll(() => {
  project?.remove();
  snapshot?.remove();
});

const message = (name: string) => findTest(vitest.summary, name).messages.join('\n\n');

// Every test of the fixture judges against the same relevant ids (test/data.ts): one fingerprint of 8 hex
// digits. Its top 5 (doc-3, doc-9, doc-1, doc-4, doc-8) holds three hits with no judgment, in rank order;
// the ids are positive-only labels (no explicit 0), so the samples say so.
const fingerprint = expect.stringMatching(/^[0-9a-f]{8}$/);
// The question's ranking (the first sample of each call): its top 5, the relevant ids graded 1.
const topFiveHits = [
  { key: 'doc-3', grade: 1 },
  { key: 'doc-9' },
  { key: 'doc-1', grade: 1 },
  { key: 'doc-4' },
  { key: 'doc-8' },
];
const topFiveAudit = {
  labels: fingerprint,
  unjudgedIds: ['doc-9', 'doc-4', 'doc-8'],
  unjudgedCount: 3,
  positiveOnly: true,
  topHits: topFiveHits,
};

describe('vitest run on a project with setupFiles: rag-matchers/vitest', () => {
  it('exits 1 because tests fail on purpose, with no file-level error', () => {
    expect(vitest.run.timedOut, describeRun(vitest.run)).toBe(false);
    expect(vitest.run.exitCode, describeRun(vitest.run)).toBe(1);
    expect(vitest.summary.success).toBe(false);
    expect(
      vitest.summary.files.map(({ file, error }) => ({ file, error })).sort((a, b) => a.file.localeCompare(b.file)),
    ).toEqual([
      { file: 'test/every-matcher.test.ts', error: '' },
      { file: 'test/retrieval.test.ts', error: '' },
    ]);
    expect(vitest.summary.skipped).toEqual([]);
  });

  it('passes exactly the tests meant to pass', () => {
    expect(vitest.summary.passed).toEqual(
      [
        'passes > recall@5 meets 0.4',
        'passes > every metric matcher on the AI4J example',
        'passes > graded nDCG@3 on the Orders API example',
        'passes > id matchers',
        'passes > targets met',
        'passes > .not passes when recall@5 is below the minimum',
        'passes > asymmetric matcher inside toEqual',
        'passes > document granularity folds chunks into their document',
        'passes > concurrent test A records on its own test',
        'passes > concurrent test B records on its own test',
      ].sort(),
    );
  });

  it('fails exactly the tests meant to fail', () => {
    expect(vitest.summary.failed).toEqual(
      [
        'fails on purpose > recall@5 below 0.8',
        'fails on purpose > .not fails when recall@5 meets the minimum',
        'fails on purpose > asymmetric matcher inside toEqual',
        'fails on purpose > chunk hits against document annotations',
        'fails on purpose > min given as a percentage',
        'fails on purpose > usage error under .not',
        'fails on purpose > targets missed',
        ...EVERY_MATCHER.map((name) => `one failure per matcher > ${name}`),
      ].sort(),
    );
  });

  it('explains a failed threshold: value, requirement, counts, top k with ✓, what is missing', () => {
    expect(message('fails on purpose > recall@5 below 0.8')).toBe(RECALL_FAILURE);
  });

  it('says what .not expected instead', () => {
    expect(message('fails on purpose > .not fails when recall@5 meets the minimum')).toBe(RECALL_NOT_FAILURE);
  });

  it('fails an asymmetric matcher inside toEqual through the equality', () => {
    expect(message('fails on purpose > asymmetric matcher inside toEqual')).toMatch(
      /^expected \{ question: 'q1', …\(1\) \} to deeply equal \{ question: 'q1', …\(1\) \}$/,
    );
  });

  it('diagnoses document annotations against chunk hits', () => {
    const text = message('fails on purpose > chunk hits against document annotations');
    expect(text).toContain('recall@2 = 0.00, needs ≥ 1.00');
    expect(text).toContain('Relevant not in the top 2: doc-1');
    expect(text).toContain(CHUNK_DIAGNOSIS);
  });

  it('fails a usage error (min = 80) with and without .not, as a Matcher error', () => {
    for (const [name, hint] of [
      ['fails on purpose > min given as a percentage', 'expect(hits).toHaveRecallAtK(relevant, k, min)'],
      ['fails on purpose > usage error under .not', 'expect(hits).not.toHaveRecallAtK(relevant, k, min)'],
    ] as const) {
      expect(message(name)).toBe(minUsageError(hint));
    }
  });

  it('lists every target, met and missed', () => {
    const text = message('fails on purpose > targets missed');
    expect(text).toContain('1 of 2 targets met:\n  ✗ recall@5  0.40  needs ≥ 0.80\n  ✓ hit@1     1.00  needs ≥ 1.00');
    expect(text).toContain(TOP_5);
  });

  it('prints every failure message docs/matchers.md shows, one per matcher and the examples', () => {
    const documented = documentedMessages();
    expect([...documented.keys()].filter((name) => name.startsWith('one failure per matcher > ')).sort()).toEqual(
      EVERY_MATCHER.map((name) => `one failure per matcher > ${name}`).sort(),
    );
    expect(documented.size).toBeGreaterThan(EVERY_MATCHER.length);
    for (const [name, text] of documented) expect(message(name), name).toBe(text);
  });

  it("records one sample per metric assertion on the test's task.meta, .not and queryId included, at the assertion's line of test/retrieval.test.ts", () => {
    const samples = (name: string) => findTest(vitest.summary, name).meta?.['ragMatchers'];
    expect(samples('passes > recall@5 meets 0.4')).toEqual([
      { measure: 'recall@5', value: 0.4, threshold: 0.4, pass: true, queryId: 'q1', line: 6, ...topFiveAudit },
    ]);
    expect(samples('fails on purpose > recall@5 below 0.8')).toEqual([
      { measure: 'recall@5', value: 0.4, threshold: 0.8, pass: false, queryId: 'q7', line: 58, ...topFiveAudit },
    ]);
    expect(samples('passes > .not passes when recall@5 is below the minimum')).toEqual([
      { measure: 'recall@5', value: 0.4, threshold: 0.8, pass: true, negated: true, line: 36, ...topFiveAudit },
    ]);
    expect(samples('passes > every metric matcher on the AI4J example')).toHaveLength(8);
    // A usage error records nothing: there is no value.
    expect(samples('fails on purpose > min given as a percentage')).toBeUndefined();
  });

  it("records concurrent tests' samples on their own tests when they use the test context's expect", () => {
    const samples = (name: string) => findTest(vitest.summary, name).meta?.['ragMatchers'];
    const labelsOf = (name: string) => (samples(name) as { labels?: string }[] | undefined)?.[0]?.labels;
    // The same judgments give the same fingerprint, whatever the test and the measure.
    expect(labelsOf('passes > concurrent test A records on its own test')).toBe(
      labelsOf('passes > recall@5 meets 0.4'),
    );
    expect(samples('passes > concurrent test A records on its own test')).toEqual([
      // Its top 1 (doc-3) is judged: no unjudged hits to keep.
      {
        measure: 'hit@1',
        value: 1,
        pass: true,
        queryId: 'concurrent-a',
        labels: fingerprint,
        line: 48,
        topHits: topFiveHits.slice(0, 1),
      },
    ]);
    expect(samples('passes > concurrent test B records on its own test')).toEqual([
      {
        measure: 'precision@3',
        value: 2 / 3,
        threshold: 0.6,
        pass: true,
        queryId: 'concurrent-b',
        labels: fingerprint,
        unjudgedIds: ['doc-9'],
        unjudgedCount: 1,
        positiveOnly: true,
        line: 52,
        topHits: topFiveHits.slice(0, 3),
      },
    ]);
  });

  it('type-checks the fixture (types from "types": ["rag-matchers/vitest"])', () => {
    expect(tsc.diagnostics).toEqual([]);
    expect(tsc.run.exitCode, describeRun(tsc.run)).toBe(0);
  });
});
