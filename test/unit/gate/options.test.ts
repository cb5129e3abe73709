import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { resolveBaselineMode } from '../../../src/gate/mode.js';
import { resolveReporterOptions, summaryOptionsFrom } from '../../../src/gate/options.js';
import { validateReporterOptions } from '../../../src/gate/user-options.js';

describe('resolveBaselineMode', () => {
  it.each([
    [{}, {}, 'compare'],
    [{ RAG_BASELINE: 'update' }, {}, 'update'],
    [{ RAG_BASELINE: ' Update ' }, {}, 'update'],
    [{ RAG_BASELINE: 'prune' }, {}, 'prune'],
    [{}, { updateSnapshots: true }, 'update'],
    [{ RAG_BASELINE: 'prune' }, { updateSnapshots: true }, 'prune'],
    [{ RAG_BASELINE: '' }, {}, 'compare'],
    [{ CI: 'false', RAG_BASELINE: 'update' }, {}, 'update'],
    [{ CI: '0', RAG_BASELINE: 'update' }, {}, 'update'],
  ])('env %j, flags %j → %s', (env, flags, mode) => {
    expect(resolveBaselineMode(env, flags)).toEqual({ mode, ci: false });
  });

  it('under CI nothing is ever written, and the report says why', () => {
    expect(resolveBaselineMode({ CI: 'true', RAG_BASELINE: 'update' })).toEqual({
      mode: 'compare',
      ci: true,
      notice:
        'The baseline was not written: CI is set, and CI never writes it (RAG_BASELINE=update ignored). Update it locally and commit it.',
    });
    expect(resolveBaselineMode({ CI: '1' }, { updateSnapshots: true })).toMatchObject({
      mode: 'compare',
      ci: true,
      notice: expect.stringContaining('(-u ignored)'),
    });
    expect(resolveBaselineMode({ CI: 'true', RAG_BASELINE: 'prune' }).mode).toBe('compare');
    expect(resolveBaselineMode({ CI: 'true' })).toEqual({ mode: 'compare', ci: true });
  });

  it('a misspelt RAG_BASELINE is an error, not a silent compare', () => {
    expect(() => resolveBaselineMode({ RAG_BASELINE: 'updte' })).toThrow(
      'RAG_BASELINE must be "update" (record this run into the baseline) or "prune" (also remove obsolete entries), got "updte" (did you mean RAG_BASELINE=update?).',
    );
  });
});

describe('validateReporterOptions', () => {
  it('accepts every documented option', () => {
    const options = {
      baseline: 'eval/rag-baseline.json',
      tolerance: { default: 0.02, 'recall@5': 0, 'judge:grounded': 0.05 },
      significance: 0.05,
      test: 'randomization',
      failOnRegression: false,
      failOnNew: true,
      json: 'rag-report.json',
      markdown: false,
      html: 'rag-report.html',
      githubStepSummary: false,
      maxWorse: 5,
      seed: 7,
      resamples: 2000,
      intervalResamples: 1000,
    };
    expect(validateReporterOptions(options)).toBe(options);
    expect(validateReporterOptions(undefined)).toEqual({});
  });

  it.each([
    [
      { tolerence: 0.01 },
      'rag-matchers reporter options: unknown option "tolerence" (did you mean "tolerance"?); the options are baseline, tolerance,',
    ],
    [{ baseline: '' }, 'baseline must be a file path such as "rag-baseline.json", got "".'],
    [{ tolerance: { 'recal@5': 0 } }, 'tolerance["recal@5"]: measure "recal@5" is not valid'],
    [{ tolerance: 'high' }, 'tolerance must be a number (e.g. 0.01) or an object'],
    [{ significance: 0 }, 'significance must be a number strictly between 0 and 1'],
    [{ test: 'wilcoxon' }, `test must be 'sign', 'randomization' or 't', got "wilcoxon".`],
    [{ failOnNew: 'yes' }, 'failOnNew must be true or false, got "yes".'],
    [{ failOnTagRegression: 1 }, 'failOnTagRegression must be true or false, got 1.'],
    [{ failOnInsensitive: 1 }, 'failOnInsensitive must be true or false, got 1.'],
    [{ json: true }, 'json must be a file path such as "rag-report.json", or false, got true.'],
    [{ maxWorse: 2.5 }, 'maxWorse must be a whole number ≥ 0, got 2.5.'],
    [{ rankingDepth: 11 }, 'rankingDepth must be a whole number from 0 to 10 (0 keeps no ranking), got 11.'],
    [{ questionTexts: 'no' }, 'questionTexts must be true or false, got "no".'],
    [{ seed: -1 }, 'seed must be a whole number from 0 to 4294967295, got -1.'],
    [{ resamples: 0 }, 'resamples must be a whole number from 1 to 10000000, got 0.'],
  ])('%j → an error naming the option', (options, message) => {
    expect(() => validateReporterOptions(options)).toThrow(message);
  });

  it('names its source in messages', () => {
    expect(() => validateReporterOptions([], 'rag-matchers/jest-reporter options')).toThrow(
      "rag-matchers/jest-reporter options must be an object such as { baseline: 'rag-baseline.json' }, got an array.",
    );
  });
});

describe('resolveReporterOptions and summaryOptionsFrom', () => {
  const rootDir = path.resolve('/project');

  it('applies the defaults and resolves paths against the root', () => {
    const resolved = resolveReporterOptions({ json: 'out/rag.json' }, { rootDir, runner: 'vitest', env: {} });
    expect(resolved).toEqual({
      rootDir,
      baselinePath: path.join(rootDir, 'rag-baseline.json'),
      baselineDisplayPath: 'rag-baseline.json',
      mode: 'compare',
      ci: false,
      tolerance: { default: 0.01, byMeasure: {} },
      test: 'sign',
      failOnRegression: true,
      failOnNew: false,
      failOnTagRegression: false,
      failOnInsensitive: false,
      strict: false,
      partial: false,
      json: path.join(rootDir, 'out/rag.json'),
      githubStepSummary: true,
      annotations: true,
      quiet: false,
      maxWorse: 10,
      rankingDepth: 10,
      questionTexts: true,
      acceptCommand: 'RAG_BASELINE=update npx vitest run',
      pruneCommand: 'RAG_BASELINE=prune npx vitest run',
      declaration: { root: rootDir, measures: [], suites: [] },
    });
    // Under CI the baseline must be up to date unless strict: false says otherwise.
    expect(resolveReporterOptions({}, { rootDir, runner: 'vitest', env: { CI: 'true' } }).strict).toBe(true);
    expect(resolveReporterOptions({ strict: false }, { rootDir, runner: 'vitest', env: { CI: 'true' } }).strict).toBe(
      false,
    );
    expect(() => resolveReporterOptions({ strict: 'yes' }, { rootDir, runner: 'vitest', env: {} })).toThrow(
      'strict must be true or false, got "yes"',
    );
    expect(resolveReporterOptions({}, { rootDir, runner: 'jest', env: {} }).acceptCommand).toBe(
      'RAG_BASELINE=update npx jest',
    );
  });

  it('hands a rankingDepth below 10 to the workers with the declaration, so they record no deeper', () => {
    const resolve = (options: object) => resolveReporterOptions(options, { rootDir, runner: 'vitest', env: {} });
    expect(resolve({ measures: ['hit@3'], rankingDepth: 0 }).declaration).toEqual({
      root: rootDir,
      measures: ['hit@3'],
      suites: [],
      rankingDepth: 0,
    });
    expect(resolve({ rankingDepth: 3 }).declaration.rankingDepth).toBe(3);
    expect('rankingDepth' in resolve({ rankingDepth: 10 }).declaration).toBe(false);
  });

  it('compare mode keeps the gate; update mode records instead of failing', () => {
    const options = { tolerance: { 'R@5': 0 }, significance: 0.05, failOnNew: true, failOnTagRegression: true };
    const compare = summaryOptionsFrom(resolveReporterOptions(options, { rootDir, runner: 'vitest', env: {} }));
    expect(compare).toEqual({
      tolerance: { default: 0.01, byMeasure: { 'recall@5': 0 } },
      strict: false,
      test: 'sign',
      failOnRegression: true,
      failOnNew: true,
      failOnTagRegression: true,
      failOnInsensitive: false,
      updatingBaseline: false,
      pruning: false,
      partial: false,
      baselinePath: 'rag-baseline.json',
      significance: 0.05,
      fileExists: expect.any(Function),
    });
    // fileExists looks under the root: this test file exists, a made-up one does not.
    const here = summaryOptionsFrom(resolveReporterOptions({}, { rootDir: process.cwd(), runner: 'vitest', env: {} }));
    expect(here.fileExists!('test/unit/gate/options.test.ts')).toBe(true);
    expect(here.fileExists!('test/unit/report/no-such.test.ts')).toBe(false);
    const update = summaryOptionsFrom(
      resolveReporterOptions(options, { rootDir, runner: 'vitest', env: { RAG_BASELINE: 'update' } }),
    );
    expect(update).toMatchObject({
      failOnRegression: false,
      failOnNew: false,
      failOnTagRegression: false,
      updatingBaseline: true,
      pruning: false,
    });
    const prune = summaryOptionsFrom(
      resolveReporterOptions(options, { rootDir, runner: 'vitest', env: { RAG_BASELINE: 'prune' } }),
    );
    expect(prune).toMatchObject({ updatingBaseline: true, pruning: true });
  });

  it('a deliberate subset: RAG_PARTIAL=1 or the option partial; RAG_PARTIAL=0 overrides the option, and a typo is an error', () => {
    const partial = (options: object, env: Record<string, string>) =>
      resolveReporterOptions(options, { rootDir, runner: 'vitest', env }).partial;
    expect(partial({}, {})).toBe(false);
    expect(partial({}, { RAG_PARTIAL: '1' })).toBe(true);
    expect(partial({}, { RAG_PARTIAL: 'true' })).toBe(true);
    expect(partial({ partial: true }, {})).toBe(true);
    expect(partial({ partial: true }, { RAG_PARTIAL: '0' })).toBe(false);
    expect(() => partial({}, { RAG_PARTIAL: 'yes' })).toThrow(
      'RAG_PARTIAL must be 1 (this job runs a deliberate subset of the tests: baseline questions it does not judge do not fail it) or 0, got "yes" (did you mean RAG_PARTIAL=1?).',
    );
    expect(() => partial({ partial: 'yes' }, {})).toThrow('partial must be true or false, got "yes"');
    expect(
      summaryOptionsFrom(resolveReporterOptions({}, { rootDir, runner: 'vitest', env: { RAG_PARTIAL: '1' } })).partial,
    ).toBe(true);
  });
});
