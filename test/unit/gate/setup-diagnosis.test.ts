// Tests that failed because the matchers were not registered: the note says what to add and where.
import { describe, expect, it } from 'vitest';
import { missingMatcherIn, missingSetupNote, type SetupDiagnosisInput } from '../../../src/gate/setup-diagnosis.js';
import { jestSetupDiagnosisInput } from '../../../src/jest/setup-check.js';
import type { CollectedSample } from '../../../src/recording/collected.js';

const NAMES = new Set(['toHaveRecallAtK', 'toHaveHitAtK']);

function input(overrides: Partial<SetupDiagnosisInput>): SetupDiagnosisInput {
  return {
    runner: 'vitest',
    matcherNames: NAMES,
    failed: [],
    knownMisses: [],
    root: { configFile: 'vitest.config.ts', hasSetup: false },
    places: [{ project: '', configFile: 'vitest.config.ts', hasSetup: false }],
    ...overrides,
  };
}

describe('missingMatcherIn', () => {
  it('reads Vitest’s and Jest’s messages for a matcher of ours only', () => {
    expect(missingMatcherIn('Error: Invalid Chai property: toHaveRecallAtK', NAMES)).toBe('toHaveRecallAtK');
    expect(missingMatcherIn('TypeError: expect(...).toHaveHitAtK is not a function', NAMES)).toBe('toHaveHitAtK');
    expect(missingMatcherIn('TypeError: expect(...).not.toHaveHitAtK is not a function', NAMES)).toBe('toHaveHitAtK');
    expect(missingMatcherIn('Invalid Chai property: toBeBanana', NAMES)).toBeUndefined();
    expect(missingMatcherIn('expected 0.4 to be 0.5', NAMES)).toBeUndefined();
  });
});

describe('missingSetupNote', () => {
  it('nothing when no failure names a matcher of ours', () => {
    expect(missingSetupNote(input({ failed: [{ file: 'test/a.test.ts', message: 'expected 1 to be 2' }] }))).toBe(
      undefined,
    );
  });

  it('a plain Vitest project: the setup line and the config file', () => {
    const note = missingSetupNote(
      input({
        failed: [
          { file: 'test/a.test.ts', message: 'Invalid Chai property: toHaveRecallAtK' },
          { file: 'test/a.test.ts', message: 'Invalid Chai property: toHaveHitAtK' },
        ],
        knownMisses: [{ file: 'test/a.test.ts', name: 'orders > q002' }],
      }),
    );
    expect(note).toBe(
      "2 tests failed because the rag-matchers matchers are not registered (Invalid Chai property: toHaveRecallAtK), in test/a.test.ts. Add setupFiles: ['rag-matchers/vitest'] to the test options of vitest.config.ts.\n" +
        'These known misses (test.fails) passed only because the matcher did not exist: test/a.test.ts > orders > q002.',
    );
  });

  it('Vitest projects: the root’s setupFiles do not reach them; each project lacking it, by its config', () => {
    const note = missingSetupNote(
      input({
        failed: [
          { file: 'packages/api/test/a.test.ts', project: 'api', message: 'Invalid Chai property: toHaveRecallAtK' },
          { file: 'packages/web/test/b.test.ts', project: 'web', message: 'Invalid Chai property: toHaveRecallAtK' },
        ],
        root: { configFile: 'vitest.config.ts', hasSetup: true },
        places: [
          { project: 'api', configFile: 'packages/api/vitest.config.ts', hasSetup: false },
          { project: 'web', configFile: 'vitest.config.ts', hasSetup: false, inline: true },
          { project: 'docs', configFile: 'packages/docs/vitest.config.ts', hasSetup: true },
        ],
      }),
    );
    expect(note).toBe(
      "2 tests failed because the rag-matchers matchers are not registered (Invalid Chai property: toHaveRecallAtK), in [api] packages/api/test/a.test.ts, [web] packages/web/test/b.test.ts. The root config's setupFiles do not reach its projects. Add setupFiles: ['rag-matchers/vitest'] to the test options of project api (packages/api/vitest.config.ts), project web (inline in vitest.config.ts; or give it extends: true).",
    );
  });

  it('Jest: setupFilesAfterEnv, in the config or in each project', () => {
    const failed = [{ file: 'test/a.test.js', message: 'TypeError: expect(...).toHaveHitAtK is not a function' }];
    expect(missingSetupNote(input({ runner: 'jest', failed, root: { configFile: undefined, hasSetup: false } }))).toBe(
      "1 test failed because the rag-matchers matchers are not registered (expect(...).toHaveHitAtK is not a function), in test/a.test.js. Add setupFilesAfterEnv: ['rag-matchers/jest'] to jest.config.js.",
    );
    expect(
      missingSetupNote(
        input({
          runner: 'jest',
          failed: [{ ...failed[0]!, project: 'api' }],
          root: { configFile: undefined, hasSetup: false },
          places: [{ project: 'api', configFile: undefined, hasSetup: false }],
        }),
      ),
    ).toBe(
      "1 test failed because the rag-matchers matchers are not registered (expect(...).toHaveHitAtK is not a function), in [api] test/a.test.js. Add setupFilesAfterEnv: ['rag-matchers/jest'] to each of these projects in jest.config.js (a project does not inherit the top-level one): api.",
    );
  });
});

describe('jestSetupDiagnosisInput', () => {
  const file = (tests: { title: string; status: string; failing?: boolean }[]) => ({
    testFilePath: '/repo/test/faq.test.js',
    testResults: tests.map((test) => ({ ancestorTitles: ['faq'], fullName: `faq ${test.title}`, ...test })),
  });
  const sample = (test: string): CollectedSample => ({
    file: 'test/faq.test.js',
    describePath: ['faq'],
    test,
    measure: 'recall@3',
    value: 0,
    queryId: test,
  });

  it('names a passed test.failing that recorded nothing as a known miss, not one that recorded or was not test.failing', () => {
    const result = jestSetupDiagnosisInput(
      '/repo',
      [],
      [
        file([
          { title: 'q1', status: 'passed', failing: true },
          { title: 'q2', status: 'passed', failing: true },
          { title: 'q3', status: 'passed' },
          { title: 'q4', status: 'failed', failing: true },
        ]),
      ],
      [sample('q2')],
    );
    expect(result.knownMisses).toEqual([{ file: 'test/faq.test.js', project: '', name: 'faq > q1' }]);
  });
});
