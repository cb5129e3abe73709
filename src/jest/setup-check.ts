// What the reporter reads of a finished Jest run to tell tests that failed because the matchers were
// not registered (src/gate/setup-diagnosis.ts says what to add and where).
import { relative } from 'node:path';
import { matchers } from '../../matchers/index.js';
import { toPosixPath } from '../recording/collected.js';
import type { CollectedSample } from '../recording/collected.js';
import type { FailedTestMessage, KnownMissTest, SetupDiagnosisInput, SetupPlace } from '../gate/setup-diagnosis.js';
import type { JestFileOutcome } from './collect.js';

const MATCHER_NAMES: ReadonlySet<string> = new Set(Object.keys(matchers));

/** The parts of a Jest test context (one per project) read here. */
export interface JestTestContextLike {
  config: {
    displayName?: string | { name?: string } | undefined;
    setupFilesAfterEnv?: readonly string[];
  };
}

/** A file's result with the project that ran it, as Jest reports it. */
export interface JestFileWithProject extends JestFileOutcome {
  displayName?: string | { name?: string } | undefined;
  /** `failing`: written as `test.failing` (a known miss); set by Jest 28.1 and later. */
  testResults: readonly (JestFileOutcome['testResults'][number] & { failing?: boolean })[];
}

/** The key of a test (file, describe titles, name) as a recorded sample and a Jest result both tell it. */
const testKey = (file: string, titles: readonly string[], name: string): string =>
  JSON.stringify([file, ...titles, name]);

function projectName(displayName: JestTestContextLike['config']['displayName']): string {
  if (typeof displayName === 'string') return displayName;
  return displayName?.name ?? '';
}

/** `samples`: what the run recorded, to tell a known miss that passed having measured nothing. */
export function jestSetupDiagnosisInput(
  rootDir: string,
  contexts: Iterable<JestTestContextLike> | undefined,
  files: readonly JestFileWithProject[],
  samples: readonly CollectedSample[] = [],
): SetupDiagnosisInput {
  const recorded = new Set(samples.map((sample) => testKey(sample.file, sample.describePath, sample.test)));
  const failed: FailedTestMessage[] = [];
  const knownMisses: KnownMissTest[] = [];
  for (const file of files) {
    const path = toPosixPath(relative(rootDir, file.testFilePath));
    const project = projectName(file.displayName);
    for (const test of file.testResults) {
      if (test.status === 'failed')
        for (const message of test.failureMessages ?? []) failed.push({ file: path, project, message });
      else if (
        test.status === 'passed' &&
        test.failing === true &&
        !recorded.has(testKey(path, test.ancestorTitles, test.title))
      )
        knownMisses.push({ file: path, project, name: [...test.ancestorTitles, test.title].join(' > ') });
    }
  }
  const places: SetupPlace[] = [...(contexts ?? [])].map((context) => ({
    project: projectName(context.config.displayName),
    configFile: undefined,
    hasSetup: (context.config.setupFilesAfterEnv ?? []).some((file) => /[\\/]rag-matchers[\\/]/.test(file)),
  }));
  return {
    runner: 'jest',
    matcherNames: MATCHER_NAMES,
    failed,
    knownMisses,
    root: { configFile: undefined, hasSetup: false },
    places,
  };
}
