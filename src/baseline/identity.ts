// Which baseline suite a suite of this run is: the same structured identity (file, describe path,
// project); else, for a suite new to the baseline, a baseline suite that this run no longer produced and
// that holds exactly the same questions (a renamed describe block or file).

import { parseSuiteKey, type CollectedRun, type SuiteIdentity } from '../recording/collected.js';
import { accountFor, outcomesOf, type BaselineAccounting } from './accounting.js';
import { own, type BaselineFile, type BaselineSuite } from './file/types.js';

/** What rename detection needs to know of the run. */
export interface FileCoverage {
  /** Test files the run started. */
  ranFiles: ReadonlySet<string>;
  /** Whether a test file still exists; absent: assume it does. */
  fileExists?: (file: string) => boolean;
  /** Which baseline questions the run found missing, and which it did not judge. */
  accounting: BaselineAccounting;
}

/** The coverage of `run` (see accountFor). */
export function coverageOf(run: CollectedRun, fileExists?: (file: string) => boolean): FileCoverage {
  return {
    ranFiles: new Set(outcomesOf(run).files.map((outcome) => outcome.file)),
    ...(fileExists !== undefined ? { fileExists } : {}),
    accounting: accountFor(run, fileExists),
  };
}

/** True when the whole suite can be missing from this run (its file ran in full, or is gone): see accounting.ts. */
export function isCovered(identity: SuiteIdentity, coverage: FileCoverage): boolean {
  return coverage.accounting.suiteCanBeMissing(identity);
}

/** Every question id of a suite, over all its measures. */
function questionsOf(suite: BaselineSuite | ReadonlyMap<string, { ids: readonly string[] }>): Set<string> {
  const ids = new Set<string>();
  if (suite instanceof Map) {
    for (const row of suite.values()) for (const id of row.ids) ids.add(id);
  } else {
    for (const measure of Object.keys(suite))
      for (const id of Object.keys((suite as BaselineSuite)[measure]!)) ids.add(id);
  }
  return ids;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size || a.size === 0) return false;
  for (const id of a) if (!b.has(id)) return false;
  return true;
}

/**
 * Renamed suites: new key → old key. A suite of this run that the baseline does not have is matched with
 * a baseline suite this run did not produce (and whose file ran in full or was deleted) when both hold
 * exactly the same question ids and neither has another such partner.
 */
export function findRenamedSuites(
  baseline: BaselineFile,
  current: ReadonlyMap<string, ReadonlyMap<string, { ids: readonly string[] }>>,
  coverage: FileCoverage,
): Map<string, string> {
  const added = [...current.keys()].filter((key) => own(baseline.suites, key) === undefined);
  if (added.length === 0) return new Map();
  const gone = Object.keys(baseline.suites).filter(
    (key) => !current.has(key) && isCovered(parseSuiteKey(key), coverage),
  );
  if (gone.length === 0) return new Map();
  const goneQuestions = new Map(gone.map((key) => [key, questionsOf(baseline.suites[key]!)]));
  const candidates = new Map<string, string[]>();
  const partners = new Map<string, number>();
  for (const key of added) {
    const questions = questionsOf(current.get(key)!);
    const matches = gone.filter((old) => sameSet(questions, goneQuestions.get(old)!));
    candidates.set(key, matches);
    for (const old of matches) partners.set(old, (partners.get(old) ?? 0) + 1);
  }
  const renames = new Map<string, string>();
  for (const [key, matches] of candidates) {
    if (matches.length === 1 && partners.get(matches[0]!) === 1) renames.set(key, matches[0]!);
  }
  return renames;
}
