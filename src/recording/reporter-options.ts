// Typed helpers for the reporter entry in vitest.config.ts / jest.config.js: the options are checked
// (and typed) where they are written, and a wrong option names itself when the config is loaded.
//
//   reporters: ['default', ragVitestReporter({ baseline: 'rag-baseline.json', measures: ['hit@3', 'recall@5', 'ndcg@10'] })]
import { validateReporterOptions, type RagReporterOptions } from '../report/options.js';

export type { RagReporterOptions } from '../report/options.js';
export type { MeasureDeclaration, SuiteDeclaration } from './declaration.js';

/** Checks reporter options and returns them as given, typed (for options shared by both runners). */
export function defineRagOptions<const T extends RagReporterOptions>(options: T): T {
  validateReporterOptions(options, 'defineRagOptions');
  return options;
}

/** `['rag-matchers/vitest-reporter', options]`, checked: an entry of Vitest's `test.reporters`. */
export function ragVitestReporter(options: RagReporterOptions = {}): ['rag-matchers/vitest-reporter', RagReporterOptions] {
  validateReporterOptions(options, 'ragVitestReporter');
  return ['rag-matchers/vitest-reporter', options];
}

/** `['rag-matchers/jest-reporter', options]`, checked: an entry of Jest's `reporters`. */
export function ragJestReporter(options: RagReporterOptions = {}): ['rag-matchers/jest-reporter', RagReporterOptions] {
  validateReporterOptions(options, 'ragJestReporter');
  return ['rag-matchers/jest-reporter', options];
}
