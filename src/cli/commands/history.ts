// `rag-matchers history`: how each suite's measures moved over the git history of the baseline file.
import { DEFAULT_BASELINE_PATH } from '../../gate/user-options.js';
import { formatMeasure, parseMeasure } from '../../core/measures.js';
import { writeHistoryHtml } from '../../report/html/run-report.js';
import { formatHistory, historyBySuite, HistoryError, readBaselineHistory } from '../../report/history.js';
import { flag, numberOption, parseCommandArgs, stringList, stringOption } from '../args.js';
import { CommandError, EXIT_OK, processIO, reportFailure, usageError, type CommandIO } from '../io.js';

const USAGE = `Usage: rag-matchers history [options]

Reads every committed version of the baseline file from git and prints, per suite,
each measure's mean at the commits where it moved (Δ from the previous line, and
the number of questions when it changed). Uncommitted changes show as
"working tree". Renames of the file are followed.

Options:
      --baseline <file>  the baseline file (default ${DEFAULT_BASELINE_PATH})
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
    const parsed = parseCommandArgs(args, {
      baseline: { type: 'string' },
      html: { type: 'string' },
      suite: { type: 'string', multiple: true },
      measure: { type: 'string', multiple: true },
      limit: { type: 'string' },
      'first-parent': { type: 'boolean' },
      'no-working-tree': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (flag(parsed, 'help')) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (parsed.positionals.length > 0) {
      throw usageError(`unexpected argument '${parsed.positionals[0]}'; name the baseline with --baseline <file>`);
    }
    const baseline = stringOption(parsed, 'baseline') ?? DEFAULT_BASELINE_PATH;
    if (baseline.trim() === '') throw usageError('--baseline needs a file path');
    const htmlPath = stringOption(parsed, 'html');
    if (htmlPath !== undefined && htmlPath.trim() === '') throw usageError('--html needs a file path');
    const limit = numberOption('--limit', stringOption(parsed, 'limit'), { integer: true, min: 1, example: '20' });
    const measures = stringList(parsed, 'measure').map(canonicalMeasure);
    const suites = stringList(parsed, 'suite');

    let history;
    try {
      history = await readBaselineHistory(baseline, {
        workingTree: !flag(parsed, 'no-working-tree'),
        firstParent: flag(parsed, 'first-parent'),
        ...(limit !== undefined ? { limit } : {}),
      });
    } catch (error) {
      if (error instanceof HistoryError) throw new CommandError(error.message);
      throw error;
    }
    const bySuite = historyBySuite(history, { suites, measures });
    io.stdout.write(formatHistory(history, bySuite));
    if (htmlPath !== undefined) {
      try {
        await writeHistoryHtml(htmlPath, history, bySuite);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (typeof code === 'string') throw new CommandError(`cannot write '${htmlPath}': ${(error as Error).message}`);
        throw error;
      }
      io.stderr.write(`Wrote ${htmlPath}\n`);
    }
    return EXIT_OK;
  } catch (error) {
    return reportFailure('history', io, error);
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
