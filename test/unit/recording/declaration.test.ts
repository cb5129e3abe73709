import { describe, expect, it } from 'vitest';
import { validateReporterOptions } from '../../../src/gate/user-options.js';
import {
  DeclarationError,
  measuresFor,
  resolveDeclaration,
  unmatchedSuiteOverrides,
  type WorkerDeclaration,
} from '../../../src/recording/declaration.js';
import {
  defineRagOptions,
  ragJestReporter,
  ragVitestReporter,
  shardOfArguments,
} from '../../../src/gate/reporter-options.js';
import type { MeasureSpelling } from '../../../src/core/measures.js';

/** A name the types reject, passed as a name built at run time is (docs/decisions.md): the run-time check still stops it. */
const untyped = (name: string) => name as MeasureSpelling;

describe('resolveDeclaration', () => {
  it('canonicalises the measures (any accepted spelling), drops repeats, keeps the order', () => {
    const declaration = resolveDeclaration(
      { measures: ['Success@3', 'R@5', 'ndcg_cut_10', 'recall@5', 'recip_rank'] },
      '/repo',
    );
    expect(declaration.measures).toEqual(['hit@3', 'recall@5', 'ndcg@10', 'mrr']);
    expect(declaration.suites).toEqual([]);
  });

  it('splits suite keys into file and describe titles', () => {
    const declaration = resolveDeclaration(
      { suites: { './test/faq.test.ts > refunds > partial': { measures: ['P_5'] } } },
      '/repo',
    );
    expect(declaration.suites).toEqual([
      {
        key: './test/faq.test.ts > refunds > partial',
        path: ['test/faq.test.ts', 'refunds', 'partial'],
        measures: ['precision@5'],
      },
    ]);
  });

  it('a declared measure that does not parse: one error naming it and where it stands', () => {
    expect(() => resolveDeclaration({ measures: ['recall@5', untyped('recal@5')] }, '/repo', 'opts')).toThrow(
      DeclarationError,
    );
    expect(() => resolveDeclaration({ measures: ['recall@5', untyped('recal@5')] }, '/repo', 'opts')).toThrow(
      /^opts: measures\[1\] \("recal@5"\) does not name a measure: .*unknown measure "recal"/,
    );
    expect(() => resolveDeclaration({ measures: [untyped('recall')] }, '/repo', 'opts')).toThrow(
      /measures\[0\] \("recall"\).*recall needs a cutoff/,
    );
    expect(() =>
      resolveDeclaration({ suites: { 'test/a.test.ts': { measures: ['ndcg@0'] } } }, '/repo', 'opts'),
    ).toThrow(/opts: suites\["test\/a\.test\.ts"\]\.measures\[0\] \("ndcg@0"\) does not name a measure/);
  });

  it('prototype member names are not measures', () => {
    expect(() => resolveDeclaration({ measures: [untyped('constructor')] }, '/repo')).toThrow(
      /measures\[0\] \("constructor"\) does not name a measure/,
    );
    expect(() => resolveDeclaration({ measures: [untyped('__proto__')] }, '/repo')).toThrow(
      /measures\[0\] \("__proto__"\) does not name a measure/,
    );
  });

  it('rejects a malformed declaration, naming the option', () => {
    expect(() => resolveDeclaration({ measures: 'recall@5' as never }, '/repo', 'opts')).toThrow(
      /^opts: measures must be an array of measure names/,
    );
    expect(() => resolveDeclaration({ suites: [] as never }, '/repo', 'opts')).toThrow(
      /^opts: suites must be an object/,
    );
    expect(() => resolveDeclaration({ suites: { 'test/a.test.ts': ['recall@5'] as never } }, '/repo', 'opts')).toThrow(
      /suites\["test\/a\.test\.ts"\] must be \{ measures: \[\.\.\.\] \}/,
    );
    expect(() =>
      resolveDeclaration({ suites: { 'test/a.test.ts': { measure: ['recall@5'] } as never } }, '/repo', 'opts'),
    ).toThrow(/must be \{ measures/);
    expect(() =>
      resolveDeclaration({ suites: { 'test/a.test.ts >  > x': { measures: [] } } }, '/repo', 'opts'),
    ).toThrow(/suites key .* must name a suite/);
  });

  it('is checked with the other reporter options, and by the typed helpers', () => {
    expect(() =>
      validateReporterOptions({ measures: ['ndcg@10', 'hits@3'] }, 'rag-matchers/vitest-reporter options'),
    ).toThrow(/^rag-matchers\/vitest-reporter options: measures\[1\] \("hits@3"\) does not name a measure/);
    expect(() => ragVitestReporter({ measures: [untyped('nope')] })).toThrow(/^ragVitestReporter: measures\[0\]/);
    expect(() => ragJestReporter({ baseline: 3 as never })).toThrow(/^ragJestReporter: baseline must be/);
    expect(ragVitestReporter({ measures: ['recall@5'] })).toEqual([
      'rag-matchers/vitest-reporter',
      { measures: ['recall@5'] },
    ]);
    expect(ragJestReporter()).toEqual(['rag-matchers/jest-reporter', {}]);
    expect(() => defineRagOptions({ suites: { x: 1 as never } })).toThrow(/^defineRagOptions: suites\["x"\]/);
  });
});

describe('measuresFor: the most specific override that contains the test', () => {
  const declaration = resolveDeclaration(
    {
      measures: ['hit@3', 'recall@5'],
      suites: {
        'test/faq.test.ts': { measures: ['mrr'] },
        'test/faq.test.ts > long answers': { measures: ['recall@20'] },
        'test/set.test.ts': { measures: [] },
      },
    },
    '/repo',
  );

  it('picks the project list, a file override, or the deeper describe override', () => {
    expect(measuresFor(declaration, 'test/orders.test.ts', ['refunds'])).toEqual(['hit@3', 'recall@5']);
    expect(measuresFor(declaration, 'test/faq.test.ts', [])).toEqual(['mrr']);
    expect(measuresFor(declaration, 'test/faq.test.ts', ['short answers'])).toEqual(['mrr']);
    expect(measuresFor(declaration, 'test/faq.test.ts', ['long answers', 'tables'])).toEqual(['recall@20']);
    // A describe title that only starts like the key is another suite.
    expect(measuresFor(declaration, 'test/faq.test.ts', ['long answers 2'])).toEqual(['mrr']);
    expect(measuresFor(declaration, 'test/set.test.ts', ['x'])).toEqual([]);
  });
});

describe('unmatchedSuiteOverrides', () => {
  const declaration: Pick<WorkerDeclaration, 'suites'> = resolveDeclaration(
    {
      suites: {
        'test/faq.test.ts > long answers': { measures: ['recall@20'] },
        'test/faq.test.ts > lnog answers': { measures: ['recall@20'] },
        'test/gone.test.ts': { measures: ['mrr'] },
        'test/filtered.test.ts': { measures: ['mrr'] },
      },
    },
    '/repo',
  );
  const sample = (file: string, describePath: string[]) => ({
    measure: 'recall@20',
    value: 1,
    file,
    describePath,
    test: 't',
  });
  const exists = (file: string) => file !== 'test/gone.test.ts';

  it('names a key whose file ran without such a suite, and a key whose file does not exist; not a file that did not run', () => {
    const problems = unmatchedSuiteOverrides(
      declaration,
      { samples: [sample('test/faq.test.ts', ['long answers', 'tables'])], files: ['test/faq.test.ts'] },
      exists,
    );
    expect(problems).toEqual([
      'suites["test/faq.test.ts > lnog answers"] names no suite that ran; suites of test/faq.test.ts: "test/faq.test.ts > long answers > tables".',
      'suites["test/gone.test.ts"]: no test file test/gone.test.ts (the key is \'test file > describe > …\', the file relative to the project root).',
    ]);
  });

  it('nothing to say when every override matched', () => {
    const matched = resolveDeclaration({ suites: { 'test/faq.test.ts': { measures: ['mrr'] } } }, '/repo');
    expect(unmatchedSuiteOverrides(matched, { samples: [sample('test/faq.test.ts', [])] }, () => true)).toEqual([]);
  });
});

describe('shardOfArguments: when ragJestReporter watches for an empty shard', () => {
  it('reads --shard=i/n and --shard i/n, and nothing else', () => {
    expect(shardOfArguments(['node', 'jest', '--shard=2/3'])).toEqual({ index: 2, count: 3 });
    expect(shardOfArguments(['node', 'jest', '--shard', '1/4', '--ci'])).toEqual({ index: 1, count: 4 });
    expect(shardOfArguments(['node', 'jest'])).toBeUndefined();
    expect(shardOfArguments(['node', 'jest', '--shard=4/3'])).toBeUndefined();
    expect(shardOfArguments(['node', 'jest', '--shard=1/3', '--listTests'])).toBeUndefined();
  });
});
