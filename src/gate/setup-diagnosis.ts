// Tests that failed because the matchers were never registered (no setup file, or a root Vitest
// config's setupFiles that do not reach its projects): told from the failures' messages, which name a
// matcher of ours, and said once, with the line to add and where.

/** A test that failed, as the reporter saw it. */
export interface FailedTestMessage {
  /** The test file, relative to the root. */
  file: string;
  /** The Vitest project that ran it ('' or absent: the only one). */
  project?: string;
  message: string;
}

/** A test expected to fail (`test.fails`, Jest's `test.failing`) that did, having recorded nothing. */
export interface KnownMissTest {
  file: string;
  project?: string;
  /** Its describe titles and name, joined by ' > '. */
  name: string;
}

/** Where a project's tests get their setup files. */
export interface SetupPlace {
  /** The project's name ('' for a single unnamed project or Jest's). */
  project: string;
  /** Its config file, relative to the root (undefined when the runner does not say). */
  configFile: string | undefined;
  /** Whether its setup files hold rag-matchers' setup entry. */
  hasSetup: boolean;
  /** A Vitest project defined inline in the root config (`extends: true` would give it the root's setupFiles). */
  inline?: boolean;
}

export interface SetupDiagnosisInput {
  runner: 'vitest' | 'jest';
  /** The names of the matchers (`toHaveRecallAtK`, …). */
  matcherNames: ReadonlySet<string>;
  failed: readonly FailedTestMessage[];
  knownMisses: readonly KnownMissTest[];
  /** The root config (Vitest: whether its own setupFiles hold the entry). */
  root: { configFile: string | undefined; hasSetup: boolean };
  /** The projects that ran (one entry without projects). */
  places: readonly SetupPlace[];
}

const MISSING_MATCHER = [/Invalid Chai property: (\w+)/, /\.(\w+) is not a function/];

/** The matcher a failure says does not exist, when it is one of ours. */
export function missingMatcherIn(message: string, matcherNames: ReadonlySet<string>): string | undefined {
  for (const pattern of MISSING_MATCHER) {
    const name = pattern.exec(message)?.[1];
    if (name !== undefined && matcherNames.has(name)) return name;
  }
  return undefined;
}

/** The setup line each runner needs. */
const SETUP_LINE = {
  vitest: "setupFiles: ['rag-matchers/vitest']",
  jest: "setupFilesAfterEnv: ['rag-matchers/jest']",
} as const;

function where(file: string, project: string | undefined): string {
  return project === undefined || project === '' ? file : `[${project}] ${file}`;
}

function configName(place: Pick<SetupPlace, 'configFile'>, runner: 'vitest' | 'jest'): string {
  return place.configFile ?? (runner === 'vitest' ? 'vitest.config.ts' : 'jest.config.js');
}

/** What to add, and where, for the projects whose tests failed so. */
function remedy(input: SetupDiagnosisInput, projects: ReadonlySet<string>): string {
  const { runner } = input;
  const line = SETUP_LINE[runner];
  const lacking = input.places.filter((place) => projects.has(place.project) && !place.hasSetup);
  const named = lacking.filter((place) => place.project !== '');
  if (runner === 'jest') {
    if (named.length === 0) return `Add ${line} to ${configName(input.root, runner)}.`;
    return `Add ${line} to each of these projects in ${configName(input.root, runner)} (a project does not inherit the top-level one): ${named.map((place) => place.project).join(', ')}.`;
  }
  if (named.length === 0) return `Add ${line} to the test options of ${configName(input.root, runner)}.`;
  const head = input.root.hasSetup
    ? `The root config's setupFiles do not reach its projects. Add ${line} to the test options of`
    : `Add ${line} to the test options of`;
  const targets = named.map((place) =>
    place.inline === true
      ? `project ${place.project} (inline in ${configName(place, runner)}; or give it extends: true)`
      : `project ${place.project} (${configName(place, runner)})`,
  );
  return `${head} ${targets.join(', ')}.`;
}

/**
 * The note for a run whose tests failed because the matchers were not registered; undefined when none
 * did. Names the files, the line to add and where, and the known misses that passed only because the
 * matcher did not exist.
 */
export function missingSetupNote(input: SetupDiagnosisInput): string | undefined {
  const failures = input.failed
    .map((test) => ({ test, matcher: missingMatcherIn(test.message, input.matcherNames) }))
    .filter((entry) => entry.matcher !== undefined);
  if (failures.length === 0) return undefined;
  const first = failures[0]!;
  const files = [...new Set(failures.map(({ test }) => where(test.file, test.project)))];
  const projects = new Set(failures.map(({ test }) => test.project ?? ''));
  const symptom = /Invalid Chai property/.test(first.test.message)
    ? `Invalid Chai property: ${first.matcher}`
    : `expect(...).${first.matcher} is not a function`;
  const count = failures.length === 1 ? '1 test failed' : `${failures.length} tests failed`;
  const lines = [
    `${count} because the rag-matchers matchers are not registered (${symptom}), in ${files.join(', ')}. ${remedy(input, projects)}`,
  ];
  const misses = input.knownMisses.filter((miss) => projects.has(miss.project ?? ''));
  if (misses.length > 0) {
    const kind = input.runner === 'vitest' ? 'test.fails' : 'test.failing';
    lines.push(
      `These known misses (${kind}) passed only because the matcher did not exist: ${misses.map((miss) => `${where(miss.file, miss.project)} > ${miss.name}`).join(', ')}.`,
    );
  }
  return lines.join('\n');
}
