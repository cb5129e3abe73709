// `rag-matchers report <report.json>`: draws the HTML report of a JSON report written by the reporters'
// `json` option (for instance a CI artifact), without running the tests again.
import fs from 'node:fs';
import path from 'node:path';
import { plural } from '../../core/present.js';

import {
  parseJsonReport,
  ReportFormatError,
  renderHtml,
  writeHtmlReport,
  type HtmlRenderOptions,
} from '../../report/html/run-report.js';
import { flag, parseCommandArgs, stringOption } from '../args.js';
import { CommandError, EXIT_OK, fileError, processIO, reportFailure, usageError, type CommandIO } from '../io.js';

const USAGE = `Usage: rag-matchers report <report.json> [options]

Draws the HTML report (summary table, means against the baseline, questions that
changed, distributions) of a JSON report written by the reporters' \`json\` option.
The page is one self-contained file: no script, no network.

Arguments:
  <report.json>        the JSON report; '-' reads it from standard input

Options:
  -o, --out <file>     where to write the HTML (default: the report's path with
                       .html instead of .json; '-' writes to standard output)
      --title <text>   the page's heading (default "RAG retrieval quality")
  -h, --help           show this help

Example:
  rag-matchers report rag-report.json --out rag-report.html
`;

export async function run(args: readonly string[], io: CommandIO = processIO()): Promise<number> {
  try {
    const parsed = parseCommandArgs(args, {
      out: { type: 'string', short: 'o' },
      title: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (flag(parsed, 'help')) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (parsed.positionals.length === 0)
      throw usageError('missing the JSON report to draw (e.g. rag-matchers report rag-report.json)');
    if (parsed.positionals.length > 1)
      throw usageError(
        `expected one JSON report, got ${parsed.positionals.length}: ${parsed.positionals.map((item) => `'${item}'`).join(', ')}`,
      );
    const input = parsed.positionals[0]!;
    const out = stringOption(parsed, 'out') ?? defaultOutput(input);
    const title = stringOption(parsed, 'title');
    const options: HtmlRenderOptions = title === undefined ? {} : { title };

    const text = input === '-' ? await readAll(io.stdin) : await readFile(input);
    let report;
    try {
      report = parseJsonReport(text, input === '-' ? 'standard input' : input);
    } catch (error) {
      if (error instanceof ReportFormatError) throw new CommandError(error.message);
      throw error;
    }
    if (out === '-') {
      io.stdout.write(renderHtml(report, options));
      return EXIT_OK;
    }
    try {
      await writeHtmlReport(out, report, options);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code === 'string') throw new CommandError(`cannot write '${out}': ${(error as Error).message}`);
      throw error;
    }
    io.stdout.write(`Wrote ${out} (${plural(report.rows.length, 'row')}, ${plural(report.counts.suites, 'suite')})\n`);
    return EXIT_OK;
  } catch (error) {
    return reportFailure('report', io, error);
  }
}

function defaultOutput(input: string): string {
  if (input === '-') throw usageError('reading standard input needs --out <file> (or --out - for standard output)');
  const extension = path.extname(input);
  return extension.toLowerCase() === '.json' ? `${input.slice(0, -extension.length)}.html` : `${input}.html`;
}

async function readFile(file: string): Promise<string> {
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    throw fileError('JSON report', file, error);
  }
}

async function readAll(stream: AsyncIterable<string | Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
