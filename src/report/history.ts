// Baseline history (`rag-matchers history`): every committed version of the baseline file, read from git,
// reduced to each suite × measure's mean and question count, and the table of how they moved commit by
// commit. The HTML drawing of it is src/report/html/history.ts.
//
// Git runs three processes whatever the length of the history: `git rev-parse` finds the repository,
// `git log --follow` lists the commits that touched the file (with its path at each, so renames are
// followed), and one `git cat-file --batch` streams all their versions. Each version is reduced to means
// as it arrives, so a long history of a large baseline never sits in memory at once.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { compareIds } from '../baseline/compare.js';
import { mean } from '../core/mean.js';
import { plural } from '../core/present.js';
import { parseBaseline } from '../baseline/file/read.js';
import { type BaselineSuite } from '../baseline/file/types.js';
import { parseSuiteKey, suiteNameOf } from '../recording/collected.js';
import { escapeConsole } from '../core/escape.js';
import { displayWidth, formatDelta, formatValue } from './wording.js';

interface HistoryCommit {
  sha: string;
  shortSha: string;
  /** Author date, ISO 8601 with the author's offset. */
  date: string;
  author: string;
  subject: string;
}

interface MeasurePoint {
  mean: number;
  count: number;
}

export interface BaselineVersion {
  /** The commit; null for uncommitted changes in the working tree. */
  commit: HistoryCommit | null;
  /** Short sha, or `working tree`. */
  label: string;
  /** The file's path in the repository at this version (it can differ after a rename). */
  path: string;
  /** ok: read; deleted: the commit removed the file (every suite ends); invalid: not a readable baseline (left out of the comparison). */
  state: 'ok' | 'deleted' | 'invalid';
  /** Why an invalid version could not be read. */
  problem?: string;
  /** suite → measure → mean and count (empty unless state is ok). */
  suites: Map<string, Map<string, MeasurePoint>>;
}

export interface BaselineHistory {
  /** The file as the caller named it. */
  file: string;
  /** The repository's top-level directory. */
  repoRoot: string;
  /** Oldest first. */
  versions: BaselineVersion[];
  /** True when the clone is shallow, so older commits are missing. */
  shallow: boolean;
}

/** A history that cannot be read: no git, not a repository, no commit touches the file. */
export class HistoryError extends Error {
  override name = 'HistoryError';
}

export interface ReadHistoryOptions {
  /** Directory relative paths start from. Default process.cwd(). */
  cwd?: string;
  /** Add the working tree's file as a last version when it differs from the last commit. Default true. */
  workingTree?: boolean;
  /** Only the last N commits. */
  limit?: number;
  /** Follow only the first parent of merges (the main line's view). Default false. */
  firstParent?: boolean;
  /** The git executable. Default `git`. */
  git?: string;
}

const FIELD = '\x1f';
const RECORD = '\x1e';

/** Reads every committed version of a baseline file, oldest first. */
export async function readBaselineHistory(file: string, options: ReadHistoryOptions = {}): Promise<BaselineHistory> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const git = options.git ?? 'git';
  const absolute = path.resolve(cwd, file);
  const directory = existingDirectory(path.dirname(absolute));
  if (directory === undefined) throw new HistoryError(`cannot read '${file}': its directory does not exist`);

  const inside = await runGit(git, ['rev-parse', '--show-toplevel', '--is-shallow-repository'], directory).catch(
    (error: unknown) => {
      if (error instanceof HistoryError) throw error;
      const reason = describeGitFailure(error);
      if (/not a git repository/i.test(reason))
        throw new HistoryError(
          `'${path.dirname(file) || '.'}' is not inside a git repository; history reads the baseline's commits from git`,
        );
      throw new HistoryError(`git cannot read the repository at '${directory}': ${reason}`);
    },
  );
  const [topLine, shallowLine] = inside.toString('utf8').split('\n');
  const repoRoot = topLine!.trim();
  const shallow = shallowLine?.trim() === 'true';
  const relative = path
    .relative(fs.realpathSync(repoRoot), path.join(fs.realpathSync(directory), path.basename(absolute)))
    .split(path.sep)
    .join('/');
  if (relative.startsWith('../') || relative === '..')
    throw new HistoryError(`'${file}' is outside the repository at '${repoRoot}'`);

  const logArgs = [
    'log',
    '--follow',
    '--name-status',
    '-z',
    `--format=${RECORD}%H${FIELD}%h${FIELD}%aI${FIELD}%an${FIELD}%s`,
  ];
  if (options.firstParent) logArgs.push('--first-parent');
  if (options.limit !== undefined) logArgs.push(`-n${options.limit}`);
  logArgs.push('--', relative);
  const log = await runGit(git, logArgs, repoRoot).catch((error: unknown) => {
    if (error instanceof HistoryError) throw error;
    const text = describeGitFailure(error);
    if (/does not have any commits|bad default revision/.test(text))
      throw new HistoryError(`no commit in this repository touches '${file}' (the repository has no commits yet)`);
    throw new HistoryError(`git log failed: ${text}`);
  });
  const entries = parseLog(log.toString('utf8'), relative);
  if (entries.length === 0) {
    throw new HistoryError(
      `no commit in this repository touches '${relative}'; commit the baseline first (or pass its path with --baseline)`,
    );
  }

  const newestFirst: BaselineVersion[] = entries.map((entry) => ({
    commit: entry.commit,
    label: entry.commit.shortSha,
    path: entry.path,
    state: entry.deleted ? 'deleted' : 'ok',
    suites: new Map(),
  }));
  const wanted = newestFirst.filter((version) => version.state === 'ok');
  let newestText: Buffer | undefined;
  await catFiles(
    git,
    repoRoot,
    wanted.map((version) => `${version.commit!.sha}:${version.path}`),
    (index, blob) => {
      const version = wanted[index]!;
      if (blob === undefined) {
        version.state = 'invalid';
        version.problem = 'the file is missing from this commit';
        return;
      }
      if (version === newestFirst[0]) newestText = blob;
      reduceVersion(version, blob.toString('utf8'));
    },
  );

  const versions = newestFirst.reverse();
  if ((options.workingTree ?? true) && fs.existsSync(absolute)) {
    const current = fs.readFileSync(absolute);
    const newest = versions[versions.length - 1]!;
    const differs = newest.state === 'deleted' || newestText === undefined || !current.equals(newestText);
    if (differs) {
      const version: BaselineVersion = {
        commit: null,
        label: 'working tree',
        path: relative,
        state: 'ok',
        suites: new Map(),
      };
      reduceVersion(version, current.toString('utf8'), file);
      versions.push(version);
    }
  }
  return { file, repoRoot, versions, shallow };
}

/** `file`: the path as the user gave it, for the working tree's version (a committed one is named `<sha>:<path>`). */
function reduceVersion(version: BaselineVersion, text: string, file?: string): void {
  try {
    const baseline =
      version.commit === null
        ? parseBaseline(text, file ?? version.path)
        : parseBaseline(text, `${version.label}:${version.path}`, { committed: true });
    const named = Object.entries(baseline.suites).map(([key, suite]): [string, BaselineSuite] => [
      suiteNameOf(parseSuiteKey(key)),
      suite,
    ]);
    for (const [suite, measures] of named) {
      const points = new Map<string, MeasurePoint>();
      for (const [measure, samples] of Object.entries(measures)) {
        const values = Object.values(samples);
        if (values.length === 0) continue;
        points.set(measure, { mean: mean(values), count: values.length });
      }
      if (points.size > 0) version.suites.set(suite, points);
    }
  } catch (error) {
    version.state = 'invalid';
    version.problem = error instanceof Error ? error.message : String(error);
    version.suites = new Map();
  }
}

interface LogEntry {
  commit: HistoryCommit;
  /** The path at this commit. */
  path: string;
  deleted: boolean;
}

/** Parses `git log -z --name-status --format=<RS>fields`; newest first. A commit with no status line (a merge) keeps the newer commit's path. */
export function parseLog(text: string, currentPath: string): LogEntry[] {
  const entries: LogEntry[] = [];
  let knownPath = currentPath;
  for (const record of text.split(RECORD)) {
    if (record.trim() === '') continue;
    const headerEnd = record.indexOf('\0');
    const header = headerEnd === -1 ? record.replace(/\n+$/, '') : record.slice(0, headerEnd);
    const [sha, shortSha, date, author, ...subject] = header.split(FIELD);
    if (sha === undefined || shortSha === undefined || date === undefined || author === undefined) continue;
    const fields =
      headerEnd === -1
        ? []
        : record
            .slice(headerEnd + 1)
            .replace(/^\n/, '')
            .split('\0')
            .filter((field) => field !== '');
    let deleted = false;
    let pathHere = knownPath;
    let olderPath = knownPath;
    if (fields.length >= 2) {
      const status = fields[0]!;
      deleted = status.startsWith('D');
      if (/^[RC]/.test(status) && fields.length >= 3) {
        pathHere = fields[2]!;
        olderPath = fields[1]!;
      } else {
        pathHere = fields[1]!;
        olderPath = pathHere;
      }
    }
    entries.push({ commit: { sha, shortSha, date, author, subject: subject.join(FIELD) }, path: pathHere, deleted });
    knownPath = olderPath;
  }
  return entries;
}

/** Streams `git cat-file --batch` for the specs; onBlob(index, contents or undefined when missing). */
async function catFiles(
  git: string,
  cwd: string,
  specs: string[],
  onBlob: (index: number, blob: Buffer | undefined) => void,
): Promise<void> {
  if (specs.length === 0) return;
  const child = spawn(git, ['cat-file', '--batch'], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: gitEnv() });
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', (error) => reject(gitStartFailure(error)));
    child.once('close', (code) => resolve(code ?? 1));
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => undefined);
  child.stdin.end(specs.map((spec) => `${spec}\n`).join(''));

  const chunks: Buffer[] = [];
  let buffered = 0;
  let index = 0;
  let pendingSize: number | undefined;
  const take = (count: number): Buffer => {
    const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, buffered);
    chunks.length = 0;
    const head = all.subarray(0, count);
    const rest = all.subarray(count);
    if (rest.length > 0) chunks.push(rest);
    buffered = rest.length;
    return head;
  };
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    buffered += chunk.length;
    for (;;) {
      if (pendingSize === undefined) {
        const joined = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, buffered);
        chunks.length = 0;
        chunks.push(joined);
        const newline = joined.indexOf(10);
        if (newline === -1) break;
        const header = take(newline + 1)
          .toString('utf8')
          .trimEnd();
        if (/ missing$| ambiguous$/.test(header)) {
          onBlob(index++, undefined);
          continue;
        }
        const size = Number(/ (\d+)$/.exec(header)?.[1]);
        if (!Number.isSafeInteger(size))
          throw new HistoryError(`unexpected output from git cat-file: ${header.slice(0, 80)}`);
        pendingSize = size;
      }
      if (buffered < pendingSize + 1) break;
      const blob = take(pendingSize);
      take(1);
      pendingSize = undefined;
      onBlob(index++, blob);
    }
  }
  const code = await exited;
  if (code !== 0 || index !== specs.length)
    throw new HistoryError(`git cat-file failed${stderr.trim() === '' ? '' : `: ${stderr.trim()}`}`);
}

function runGit(git: string, args: string[], cwd: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(git, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: gitEnv() });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (err += chunk));
    child.once('error', (error) => reject(gitStartFailure(error)));
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(Object.assign(new Error(err.trim() || `git ${args[0]} exited with code ${code}`), { gitStderr: err }));
    });
  });
}

function gitEnv(): NodeJS.ProcessEnv {
  // No pager, no prompt, messages in English so failures can be recognised.
  return { ...process.env, GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', LANGUAGE: 'C' };
}

function gitStartFailure(error: Error): Error {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT')
    return new HistoryError('git is not installed or not on PATH; history reads the baseline from git');
  return error;
}

function describeGitFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.replace(/^fatal: /, '');
}

function existingDirectory(directory: string): string | undefined {
  try {
    return fs.statSync(directory).isDirectory() ? directory : undefined;
  } catch {
    return undefined;
  }
}

// ---- The table of moves -------------------------------------------------------------------------

export interface HistoryFilter {
  /** Keep suites whose id contains one of these (case-insensitive). */
  suites?: string[];
  /** Keep only these measures. */
  measures?: string[];
}

export type HistoryCell =
  | { kind: 'absent' }
  | { kind: 'removed' }
  | {
      kind: 'value';
      mean: number;
      count: number;
      /** Change from the previous listed value; undefined at the first appearance. */ delta?: number;
      /** The count changed (or first appearance). */ countChanged: boolean;
      first: boolean;
    };

interface SuiteHistoryRow {
  /** Index into history.versions. */
  version: number;
  cells: HistoryCell[];
}

export interface SuiteHistory {
  suite: string;
  measures: string[];
  /** The versions at which this suite's numbers changed: its first appearance, every move, its removal. */
  rows: SuiteHistoryRow[];
  /** Per measure, its value at every version (null where absent or unreadable), for charts. */
  series: (MeasurePoint | null)[][];
}

/** Per suite (natural order), the versions where any of its measures' mean or count changed. Invalid versions are skipped. */
export function historyBySuite(history: BaselineHistory, filter: HistoryFilter = {}): SuiteHistory[] {
  const suiteFilter = (filter.suites ?? []).map((text) => text.toLowerCase());
  const measureFilter =
    filter.measures === undefined || filter.measures.length === 0 ? undefined : new Set(filter.measures);
  const measuresBySuite = new Map<string, Set<string>>();
  for (const version of history.versions) {
    for (const [suite, measures] of version.suites) {
      if (suiteFilter.length > 0 && !suiteFilter.some((text) => suite.toLowerCase().includes(text))) continue;
      let set = measuresBySuite.get(suite);
      if (set === undefined) measuresBySuite.set(suite, (set = new Set()));
      for (const measure of measures.keys())
        if (measureFilter === undefined || measureFilter.has(measure)) set.add(measure);
    }
  }
  const result: SuiteHistory[] = [];
  for (const suite of [...measuresBySuite.keys()].sort(compareIds)) {
    const measures = [...measuresBySuite.get(suite)!].sort(compareIds);
    if (measures.length === 0) continue;
    const rows: SuiteHistoryRow[] = [];
    const series: (MeasurePoint | null)[][] = measures.map(() => []);
    let previous: (MeasurePoint | undefined)[] = measures.map(() => undefined);
    let lastShown: (MeasurePoint | undefined)[] = measures.map(() => undefined);
    history.versions.forEach((version, versionIndex) => {
      if (version.state === 'invalid') {
        measures.forEach((_, m) => series[m]!.push(null));
        return;
      }
      const points = version.suites.get(suite);
      const current = measures.map((measure) => points?.get(measure));
      current.forEach((point, m) => series[m]!.push(point ?? null));
      const changed = current.some((point, m) => !samePoint(point, previous[m]));
      if (changed) {
        const cells: HistoryCell[] = current.map((point, m) => {
          const before = lastShown[m];
          if (point === undefined) return before === undefined ? { kind: 'absent' } : { kind: 'removed' };
          if (before === undefined)
            return { kind: 'value', mean: point.mean, count: point.count, countChanged: true, first: true };
          return {
            kind: 'value',
            mean: point.mean,
            count: point.count,
            delta: point.mean - before.mean,
            countChanged: point.count !== before.count,
            first: false,
          };
        });
        rows.push({ version: versionIndex, cells });
        lastShown = current;
      }
      previous = current;
    });
    result.push({ suite, measures, rows, series });
  }
  return result;
}

function samePoint(a: MeasurePoint | undefined, b: MeasurePoint | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.mean === b.mean && a.count === b.count;
}

/** `0.850 +0.050 n=6` and the like; `—` before a measure exists, `removed` after it is gone. */
export function formatCell(cell: HistoryCell): string {
  if (cell.kind === 'absent') return '—';
  if (cell.kind === 'removed') return 'removed';
  const parts = [formatValue(cell.mean)];
  if (cell.delta !== undefined) {
    const delta = formatDelta(cell.delta);
    if (delta !== '0.000') parts.push(delta);
  }
  if (cell.countChanged) parts.push(`n=${cell.count}`);
  return parts.join(' ');
}

export function versionDate(version: BaselineVersion): string {
  return version.commit === null ? '' : version.commit.date.slice(0, 10);
}

/** The printed history: a header, then per suite a table with a line per version where it moved. */
export function formatHistory(history: BaselineHistory, suites: SuiteHistory[]): string {
  const commits = history.versions.filter((version) => version.commit !== null);
  const first = commits[0];
  const last = commits[commits.length - 1];
  const span = first === undefined || last === undefined ? '' : `, ${versionDate(first)} → ${versionDate(last)}`;
  const working = history.versions.some((version) => version.commit === null) ? ' and uncommitted changes' : '';
  const out = [`Baseline history of ${history.file}: ${plural(commits.length, 'commit')}${working}${span}`];
  if (history.shallow)
    out.push(
      'Note: this clone is shallow, so older commits are missing (git fetch --unshallow, or fetch-depth: 0 in actions/checkout).',
    );
  for (const version of history.versions) {
    if (version.state === 'invalid')
      out.push(`Note: ${version.label} left out: ${escapeConsole(version.problem ?? 'not a readable baseline')}`);
    if (version.state === 'deleted') out.push(`Note: ${version.label} deleted the file.`);
  }
  if (suites.length === 0) {
    out.push('', 'No suite matched.');
    return `${out.join('\n')}\n`;
  }
  for (const suite of suites) {
    out.push('', escapeConsole(suite.suite));
    const header = ['commit', 'date', ...suite.measures.map(escapeConsole), 'subject'];
    const lines = suite.rows.map((row) => {
      const version = history.versions[row.version]!;
      return [
        version.label,
        versionDate(version),
        ...row.cells.map(formatCell),
        escapeConsole(truncateText(version.commit?.subject ?? '(not committed)', 60)),
      ];
    });
    const widths = header.map((title, column) =>
      Math.max(displayWidth(title), ...lines.map((line) => displayWidth(line[column]!))),
    );
    const render = (cells: string[]): string =>
      `  ${cells
        .map((cell, column) =>
          column === cells.length - 1 ? cell : cell + ' '.repeat(widths[column]! - displayWidth(cell)),
        )
        .join('  ')}`.trimEnd();
    out.push(render(header));
    for (const line of lines) out.push(render(line));
  }
  return `${out.join('\n')}\n`;
}

function truncateText(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}
