// Which baseline suite a suite of this run is: the same structured identity (file, describe path,
// project); else, for a suite new to the baseline, a baseline suite that this run no longer produced and
// that holds exactly the same questions (a renamed describe block or file). Version-1 baselines, whose
// suites are joined names, are matched here against the run's structured suites.

import {
  suiteNameOf,
  suiteKeyOf,
  parseSuiteKey,
  type CollectedRun,
  type SuiteIdentity,
} from '../recording/collected.js';
import { accountFor, outcomesOf, type BaselineAccounting } from './accounting.js';
import { createRecord, own, type BaselineFile, type BaselineSuite } from './schema.js';

/** What rename detection and version-1 matching need to know of the run. */
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

export interface LegacyResolution {
  /** The baseline with every version-1 suite under a structured identity (or dropped when ambiguous). */
  file: BaselineFile;
  /** Version-1 suites matched to a suite of this run by name. */
  matched: number;
  /** Version-1 suites of no suite of this run, given the identity their name suggests. */
  guessed: number;
  /** Version-1 names that two or more suites of this run share: not compared, replaced by this run's suites on update. */
  ambiguous: { name: string; suites: string[] }[];
}

/**
 * Moves a version-1 baseline's suites (joined names) under structured identities: a name that exactly one
 * suite of this run has goes to that suite; a name that several share (`describe('a > b')` and
 * `describe('a') › describe('b')`) is ambiguous and left out; any other name is split at its ` > `: the
 * file is the longest leading part that is a test file that ran or exists, else the first part.
 */
export function resolveLegacySuites(
  baseline: BaselineFile,
  current: Iterable<SuiteIdentity>,
  coverage: Pick<FileCoverage, 'ranFiles' | 'fileExists'>,
): LegacyResolution {
  const legacy = baseline.legacy;
  const file: BaselineFile = {
    schemaVersion: baseline.schemaVersion,
    generatedBy: baseline.generatedBy,
    suites: Object.assign(createRecord<BaselineSuite>(), baseline.suites),
  };
  const result: LegacyResolution = { file, matched: 0, guessed: 0, ambiguous: [] };
  if (legacy === undefined) return result;
  const byName = new Map<string, SuiteIdentity[]>();
  for (const identity of current) {
    const name = [identity.file, ...identity.describe].join(' > ');
    const list = byName.get(name);
    if (list === undefined) byName.set(name, [identity]);
    else if (!list.some((other) => suiteKeyOf(other) === suiteKeyOf(identity))) list.push(identity);
  }
  for (const name of Object.keys(legacy)) {
    const matches = byName.get(name) ?? [];
    if (matches.length > 1) {
      result.ambiguous.push({ name, suites: matches.map(suiteNameOf) });
      continue;
    }
    const identity = matches[0] ?? guessIdentity(name, coverage);
    if (matches.length === 1) result.matched++;
    else result.guessed++;
    const key = suiteKeyOf(identity);
    if (own(file.suites, key) === undefined) file.suites[key] = legacy[name]!;
  }
  return result;
}

function guessIdentity(name: string, coverage: Pick<FileCoverage, 'ranFiles' | 'fileExists'>): SuiteIdentity {
  const parts = name.split(' > ');
  for (let cut = parts.length; cut >= 1; cut--) {
    const candidate = parts.slice(0, cut).join(' > ');
    if (coverage.ranFiles.has(candidate) || (coverage.fileExists?.(candidate) ?? false))
      return { file: candidate, describe: parts.slice(cut) };
  }
  return { file: parts[0]!, describe: parts.slice(1) };
}
