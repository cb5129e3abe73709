// `rag-matchers history`: how each suite's measures moved over the git history of the baseline file.
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { formatMeasure, parseMeasure } from '../../core/measures.js';
import { writeHistoryHtml } from '../../report/html.js';
import { formatHistory, historyBySuite, HistoryError, readBaselineHistory } from '../../report/history.js';

export const DEFAULT_BASELINE = 'rag-baseline.json';

const USAGE = `Usage: rag-matchers history [options]

Reads every committed version of the baseline file from git and prints, per suite,
each measure's mean at the commits where it moved (Δ from the previous line, and
the number of questions when it changed). Uncommitted changes show as
"working tree". Renames of the file are followed.

Options:
      --baseline <file>  the baseline file (default ${DEFAULT_BASELINE})
      --html <file>      also draw the history as a self-contained HTML page
      --suite <text>     only suites whose id contains <text> (repeatable)
      --measure <name>   only this measure, e.g. recall@5 (repeatable)
      --limit <n>        only the last <n> commits
      --first-parent     follow only the first parent of merges (the main line)
      --no-working-tree  leave out uncommitted changes to the baseline
  -h, --help             show this help

Example:
  rag-matchers history --baseline rag-baseline.json --html baseline-history.html
`;

export async function run(args: readonly string[], io: CommandIO = processIO()): Promise<number> {
  try {
    const parsed = parseFlags(args, {
      baseline: { type: 'string' },
      html: { type: 'string' },
      suite: { type: 'string', multiple: true },
      measure: { type: 'string', multiple: true },
      limit: { type: 'string' },
      'first-parent': { type: 'boolean' },
      'no-working-tree': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (parsed.values.help === true) {
      io.stdout.write(USAGE);
      return 0;
    }
    if (parsed.positionals.length > 0) {
      throw usageError(`unexpected argument '${parsed.positionals[0]}'; name the baseline with --baseline <file>`);
    }
    const baseline = lastString(parsed.values.baseline) ?? DEFAULT_BASELINE;
    if (baseline.trim() === '') throw usageError('--baseline needs a file path');
    const htmlPath = lastString(parsed.values.html);
    if (htmlPath !== undefined && htmlPath.trim() === '') throw usageError('--html needs a file path');
    const limitText = lastString(parsed.values.limit);
    const limit = limitText === undefined ? undefined : /^\s*\d+\s*$/.test(limitText) && Number(limitText) >= 1 ? Number(limitText) : undefined;
    if (limitText !== undefined && limit === undefined) throw usageError(`--limit must be a whole number ≥ 1, got '${limitText}' (e.g. --limit 20)`);
    const measures = (parsed.values.measure ?? []).map(canonicalMeasure);
    const suites = parsed.values.suite ?? [];

    let history;
    try {
      history = await readBaselineHistory(baseline, {
        workingTree: parsed.values['no-working-tree'] !== true,
        firstParent: parsed.values['first-parent'] === true,
        ...(limit !== undefined ? { limit } : {}),
      });
    } catch (error) {
      if (error instanceof HistoryError) throw new CommandFailure(error.message);
      throw error;
    }
    const bySuite = historyBySuite(history, { suites, measures });
    io.stdout.write(formatHistory(history, bySuite));
    if (htmlPath !== undefined) {
      try {
        await writeHistoryHtml(htmlPath, history, bySuite);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (typeof code === 'string') throw new CommandFailure(`cannot write '${htmlPath}': ${(error as Error).message}`);
        throw error;
      }
      io.stderr.write(`Wrote ${htmlPath}\n`);
    }
    return 0;
  } catch (error) {
    return fail('history', io, error);
  }
}

/** `R@5` → `recall@5`; faithfulness and judge:<name> as they are; anything else is a usage error. */
function canonicalMeasure(name: string): string {
  if (name === 'faithfulness' || /^judge:.+/.test(name)) return name;
  try {
    return formatMeasure(parseMeasure(name));
  } catch (error) {
    throw usageError(`--measure: ${(error as Error).message} (also faithfulness, judge:<name>)`);
  }
}

// ---- Flag parsing and output (kept in this module so it depends only on committed code) --------

/** Where the command writes; tests pass their own. Same shape as the other commands' CommandIO. */
export interface CommandIO {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  stdin: AsyncIterable<string | Uint8Array>;
}

function processIO(): CommandIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
}

/** A failure reported as one line on stderr, exit 2; `hint` adds a pointer to --help. */
class CommandFailure extends Error {
  constructor(
    message: string,
    readonly hint = false,
  ) {
    super(message);
  }
}

const usageError = (message: string): CommandFailure => new CommandFailure(message, true);

function parseFlags<T extends ParseArgsConfig['options']>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    const option = /'([^']+)'/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) throw usageError(`unknown option '${option}'`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined && message.includes('argument missing')) throw usageError(`option '${option}' needs a value`);
    throw usageError(message.split('\n')[0] ?? message);
  }
}

function lastString(value: string | boolean | (string | boolean)[] | undefined): string | undefined {
  if (Array.isArray(value)) return value.length === 0 ? undefined : String(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}

function fail(command: string, io: CommandIO, error: unknown): number {
  if (!(error instanceof CommandFailure)) throw error;
  io.stderr.write(`rag-matchers ${command}: ${error.message}${error.hint ? `\nRun 'rag-matchers ${command} --help' for usage.` : ''}\n`);
  return 2;
}
