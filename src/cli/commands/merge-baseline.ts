// `rag-matchers merge-baseline %O %A %B`: git's merge driver for the baseline file. Merges the two
// branches' versions row by row against their common ancestor and writes the result over %A (atomically),
// as git asks of a merge driver. Rows both sides changed differently stay between conflict markers, with
// the command that re-records just their suite.
import fs from 'node:fs';

import { writeFileAtomic } from '../../files/atomic-write.js';
import { BaselineError } from '../../baseline/file/errors.js';
import { parseBaseline } from '../../baseline/file/read.js';
import { emptyBaseline, type BaselineFile } from '../../baseline/file/types.js';
import {
  describeConflict,
  formatMergedBaseline,
  mergeBaselineVersions,
  type BaselineConflict,
} from '../../baseline/three-way.js';
import { suiteKeyOf, type CollectedRun, type SuiteIdentity } from '../../recording/collected.js';
import { andMore, plural, wordFor } from '../../core/present.js';
import { suiteUpdateCommand } from '../../report/wording.js';
import { flag, parseCommandArgs, stringOption } from '../args.js';
import { CommandError, EXIT_OK, processIO, reportFailure, usageError, type CommandIO } from '../io.js';

/** Exit status when rows conflict: git then marks the file as conflicted. */
export const EXIT_CONFLICT = 1;
const LISTED_CONFLICTS = 20;

const USAGE = `Usage: rag-matchers merge-baseline [--runner vitest|jest] BASE OURS THEIRS

Git's merge driver for the baseline file: merges two branches' versions of
rag-baseline.json row by row (suite × question × measure) against their common
ancestor and writes the result over OURS. Exits 0 when every row merged; 1 when
some row was changed differently on both sides (those rows are left between
conflict markers, with the command that re-records their suite); 2 when a
version cannot be read.

Set it up once per clone:
  echo 'rag-baseline.json merge=rag-baseline' >> .gitattributes
  git config merge.rag-baseline.driver "npx rag-matchers merge-baseline %O %A %B"

Options:
      --runner <name>  vitest or jest: the runner of the re-record commands
                       (default: the one package.json names; both when unclear)
  -h, --help           show this help
`;

type Runner = CollectedRun['runner'];

export async function run(args: readonly string[], io: CommandIO = processIO()): Promise<number> {
  try {
    const parsed = parseCommandArgs(args, { runner: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
    if (flag(parsed, 'help')) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (parsed.positionals.length !== 3) {
      throw usageError(`expected three files, BASE OURS THEIRS (git's %O %A %B), got ${parsed.positionals.length}`);
    }
    const [basePath, oursPath, theirsPath] = parsed.positionals as [string, string, string];
    const runners = runnersFor(stringOption(parsed, 'runner'));
    const merge = mergeBaselineVersions(
      readVersion(basePath, 'the common ancestor (BASE)', { emptyIsNone: true }),
      readVersion(oursPath, 'ours (OURS)'),
      readVersion(theirsPath, 'theirs (THEIRS)'),
    );
    const rerecord = (identity: SuiteIdentity): string =>
      runners.map((runner) => suiteUpdateCommand(identity, runner)).join(' or ');
    await writeFileAtomic(oursPath, formatMergedBaseline(merge, rerecord));
    if (merge.conflicts.length === 0) return EXIT_OK;
    io.stderr.write(describeConflicts(merge.conflicts, rerecord));
    return EXIT_CONFLICT;
  } catch (error) {
    return reportFailure('merge-baseline', io, error);
  }
}

function readVersion(path: string, side: string, options: { emptyIsNone?: boolean } = {}): BaselineFile {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    throw new CommandError(`cannot read ${side} '${path}': ${(error as Error).message}`);
  }
  // git passes an empty file as the ancestor when both branches added the file.
  if (options.emptyIsNone === true && text.trim() === '') return emptyBaseline();
  try {
    return parseBaseline(text, path);
  } catch (error) {
    if (error instanceof BaselineError)
      throw new CommandError(`cannot merge: ${side} is not a baseline it can read: ${error.message}`);
    throw error;
  }
}

/** The runners to name in re-record commands: the one asked for, else the one ./package.json depends on, else both. */
function runnersFor(option: string | undefined): Runner[] {
  if (option !== undefined) {
    if (option !== 'vitest' && option !== 'jest') throw usageError(`--runner must be vitest or jest, got '${option}'`);
    return [option];
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  } catch {
    return ['vitest', 'jest'];
  }
  const found = runnersInManifest(manifest);
  return found.length === 1 ? found : ['vitest', 'jest'];
}

/** The test runners a package.json lists among its dependencies. */
export function runnersInManifest(manifest: unknown): Runner[] {
  const fields = ['dependencies', 'devDependencies', 'optionalDependencies'];
  const names = new Set(
    fields.flatMap((field) => {
      const value = (manifest as Record<string, unknown> | null)?.[field];
      return typeof value === 'object' && value !== null ? Object.keys(value) : [];
    }),
  );
  return (['vitest', 'jest'] as const).filter((runner) => names.has(runner));
}

function describeConflicts(
  conflicts: readonly BaselineConflict[],
  rerecord: (identity: SuiteIdentity) => string,
): string {
  const listed = conflicts.slice(0, LISTED_CONFLICTS).map((conflict) => `  ${describeConflict(conflict)}`);
  if (conflicts.length > LISTED_CONFLICTS) listed.push(`  ${andMore(conflicts.length - LISTED_CONFLICTS)}`);
  const suites = new Map(conflicts.map((conflict) => [suiteKeyOf(conflict.identity), conflict.identity]));
  const commands = [...suites.values()].map((identity) => `  ${rerecord(identity)}`);
  return [
    `rag-matchers merge-baseline: ${plural(conflicts.length, 'row was', 'rows were')} changed differently on both branches; the file keeps ${wordFor(conflicts.length, 'it', 'them')} between conflict markers:`,
    ...listed,
    `In each conflict keep one side's rows and delete the marker lines, then re-record just ${wordFor(suites.size, 'that suite', 'those suites')} and commit the file:`,
    ...commands,
    '',
  ].join('\n');
}
