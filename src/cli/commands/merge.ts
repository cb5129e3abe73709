// `rag-matchers merge rag-shard-*.json`: combines the partial reports of a sharded Jest run
// (`jest --shard=i/n` with the rag-matchers reporter) and judges the whole run once: the same summary,
// baseline comparison, reports, baseline update (RAG_BASELINE=update, never under CI) and gate as an
// unsharded run. Vitest needs no such step: `vitest --merge-reports` runs the reporter on the merge.
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { plural } from '../../core/present.js';
import { realPathOfSync } from '../../files/real-path.js';
import { finishRun } from '../../gate/finish.js';
import { isForeignFile } from '../../gate/option-files.js';
import { mergeShardReports, readShardReport, ShardReportError, type ShardReport } from '../../gate/shard-report.js';
import { shouldUseColor } from '../../report/console.js';
import type { ReportFileOption } from '../../report/formats/catalogue.js';
import { REPORT_FORMATS } from '../../report/formats/index.js';
import type { RagReporterOptions } from '../../gate/user-options.js';
import { resolveReporterOptions } from '../../gate/options.js';
import { currentCommit } from '../../gate/run-identity.js';

// The report formats written to a file the user names (JSON, Markdown, HTML, …): a flag each.
const FILE_FORMATS = REPORT_FORMATS.filter((format) => format.path);
const REPORT_FLAGS = FILE_FORMATS.map(
  (format) =>
    `  ${`--${format.name} <file>`.padEnd(21)}write ${format.title} (default: the reporter's \`${format.name}\` option)\n`,
).join('');

const USAGE = `Usage: rag-matchers merge <shard report>... [options]

Combines the rag-shard-<i>-of-<n>.json files that \`jest --shard=i/n\` runs with the rag-matchers
reporter write, then compares the whole run with the baseline and applies the gate, with the
reporter options the shards were run with.

Options:
  --baseline <file>    baseline file (default: the reporter's \`baseline\` option, else rag-baseline.json)
${REPORT_FLAGS}  --root <dir>         project root that test files and the baseline are relative to (default: .)
  -h, --help           show this help

The Markdown report is also appended to $GITHUB_STEP_SUMMARY when that is set, unless the reporter
option \`githubStepSummary\` is false.

Paths taken from the shard reports must lie inside the project root, outside hidden folders, and name
a new file of their kind (.json, .md, .html) or one rag-matchers wrote; the flags above may point anywhere.

Environment: RAG_BASELINE=update (or prune) records the merged run into the baseline, except under CI.
Exit codes: 0 passed, 1 retrieval regression or unusable baseline, 2 usage error or bad shard reports.
`;

export async function run(args: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        baseline: { type: 'string' },
        ...Object.fromEntries(PATH_OPTIONS.map((name) => [name, { type: 'string' } as const])),
        root: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    process.stderr.write(`rag-matchers merge: ${(error as Error).message.split('\n')[0]}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help === true) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    process.stderr.write(`rag-matchers merge: no shard reports given.\n\n${USAGE}`);
    return 2;
  }
  const rootDir = resolve(parsed.values.root ?? '.');

  let merged;
  try {
    const reports: { path: string; report: ShardReport }[] = [];
    for (const path of parsed.positionals) reports.push({ path, report: await readShardReport(resolve(path)) });
    // A shard recorded at another commit than the one being merged is stale (an artifact of an earlier run).
    merged = mergeShardReports(
      reports.map(({ path, report }) => ({ path, report })),
      { commit: currentCommit(resolve(parsed.values.root ?? '.')) },
    );
  } catch (error) {
    if (!(error instanceof ShardReportError)) throw error;
    process.stderr.write(`rag-matchers merge: ${error.message}\n`);
    return 2;
  }

  const options: RagReporterOptions = { ...merged.options };
  // A shard report is a file anyone could have written (a CI artifact): the paths in it are not trusted
  // to point outside the project. Paths given on the command line are.
  const escaping = pathsOutsideRoot(options, rootDir);
  const flags = parsed.values as Record<string, string | boolean | undefined>;
  const overridden = new Set(PATH_OPTIONS.filter((name) => flags[name] !== undefined));
  const refused = escaping.filter(({ name }) => !overridden.has(name));
  if (refused.length > 0) {
    const [first] = refused;
    process.stderr.write(
      `rag-matchers merge: the shard reports' reporter option \`${first!.name}\` is ${JSON.stringify(first!.value)}, outside the project root ${rootDir}; ` +
        `paths from shard reports must lie inside it. Pass --${first!.name} <file> (or --root <dir>) to choose where to write.\n`,
    );
    return 2;
  }
  const foreign = pathsNotOurs(options, rootDir).find(({ name }) => !overridden.has(name));
  if (foreign !== undefined) {
    process.stderr.write(
      `rag-matchers merge: the shard reports' reporter option \`${foreign.name}\` is ${JSON.stringify(foreign.value)}, ${foreign.problem}; ` +
        `a path from a shard report may name only a new ${foreign.extension} file, or one rag-matchers wrote, outside hidden folders. ` +
        `Pass --${foreign.name} <file> to choose where to write.\n`,
    );
    return 2;
  }
  for (const name of PATH_OPTIONS) {
    const value = flags[name];
    if (typeof value === 'string') (options as Record<string, unknown>)[name] = value;
  }
  let resolved;
  try {
    // The accept command names the runner the shards came from.
    resolved = resolveReporterOptions(options, {
      rootDir,
      runner: 'jest',
      env: process.env,
      source: 'the shard reports’ reporter options',
    });
  } catch (error) {
    process.stderr.write(`rag-matchers merge: ${(error as Error).message}\n`);
    return 2;
  }

  process.stdout.write(
    `Merged ${plural(merged.count, 'shard')}: ${merged.run.samples.length} samples from ${merged.run.files?.length ?? 0} test files.\n\n`,
  );
  const result = await finishRun(merged.run, {
    rootDir,
    options: resolved,
    print: (text) => process.stdout.write(`${text}\n`),
    printError: (text) => process.stderr.write(`${text}\n`),
    color: shouldUseColor(process.stdout),
  });
  return result.failed ? 1 : 0;
}

/** The reporter options that name files merge reads or writes: the baseline and every report file. */
const PATH_OPTIONS = ['baseline', ...FILE_FORMATS.map((format) => format.name)];

/**
 * The path options (from a shard report) that resolve outside `rootDir`, symlinks followed: the atomic
 * write replaces the file a symlink points to, and a symlinked folder leads wherever it points.
 */
export function pathsOutsideRoot(options: RagReporterOptions, rootDir: string): { name: string; value: string }[] {
  const outside: { name: string; value: string }[] = [];
  const realRoot = realPathOf(resolve(rootDir)) ?? resolve(rootDir);
  for (const name of PATH_OPTIONS) {
    const value = (options as Record<string, unknown>)[name];
    if (typeof value !== 'string') continue;
    const target = resolve(rootDir, value);
    const realTarget = realPathOf(target);
    if (!isInside(resolve(rootDir), target) || realTarget === undefined || !isInside(realRoot, realTarget))
      outside.push({ name, value });
  }
  return outside;
}

/** The file extension each path option's file must have: the baseline and JSON report are JSON, and so on. */
const EXTENSIONS: Record<string, string> = {
  baseline: '.json',
  ...Object.fromEntries(FILE_FORMATS.map((format) => [format.name, extname(format.exampleFile)])),
};

/**
 * The path options (from a shard report, inside the root) that name a file merge must not write: one
 * of another kind (`package.json` as the Markdown report, `.github/workflows/release.yml`), one in a
 * hidden folder (`.git/config`), or an existing file that rag-matchers did not write (`package.json`
 * as the JSON report). A shard report is a CI artifact anyone with a pull request can shape.
 */
export function pathsNotOurs(
  options: RagReporterOptions,
  rootDir: string,
): { name: string; value: string; extension: string; problem: string }[] {
  const refused: { name: string; value: string; extension: string; problem: string }[] = [];
  for (const name of PATH_OPTIONS) {
    const value = (options as Record<string, unknown>)[name];
    if (typeof value !== 'string') continue;
    const extension = EXTENSIONS[name]!;
    const target = resolve(rootDir, value);
    const problem =
      extname(target).toLowerCase() !== extension
        ? `not a ${extension} file`
        : relative(rootDir, target)
              .split(sep)
              .some((segment) => segment.startsWith('.') && segment !== '.')
          ? 'in a hidden folder'
          : isForeignFile(name as 'baseline' | ReportFileOption, target)
            ? 'an existing file that rag-matchers did not write'
            : undefined;
    if (problem !== undefined) refused.push({ name, value, extension, problem });
  }
  return refused;
}

function isInside(root: string, path: string): boolean {
  const fromRoot = relative(root, path);
  return !(fromRoot === '..' || fromRoot.startsWith(`..${sep}`) || isAbsolute(fromRoot));
}

/** Where `path` really is, symlinks followed (src/files/real-path.ts); undefined when links loop or it cannot be told. */
function realPathOf(path: string): string | undefined {
  try {
    return realPathOfSync(path);
  } catch {
    return undefined;
  }
}
